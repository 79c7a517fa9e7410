"""Start-up check of the database, before the server says it is serving.

A corrupt file, a read-only file or an unreachable server must give one clear French
line and a non-zero exit code, not a traceback after « servi ».
"""

from __future__ import annotations

import contextlib
import fcntl
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from sqlalchemy import create_engine, delete, insert
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from choux.play.store import meta_t, migrate, sync_url


def check_database(url: str) -> str | None:
    """None if the database can be migrated and written to, else why not (in French)."""
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        migrate(url)
        engine = create_engine(sync_url(url), poolclass=NullPool)
        try:
            with engine.begin() as conn:  # a real write: a read-only file fails here
                conn.execute(delete(meta_t).where(meta_t.c.key == "started_at"))
                now = datetime.now(UTC).isoformat()
                conn.execute(insert(meta_t).values(key="started_at", value=now))
        finally:
            engine.dispose()
    except Exception as error:
        return f"La base de données {shown} est inutilisable : {explain(error)}"
    return None


def check_mail(smtp_url: str, public_url: str) -> str | None:
    """None unless e-mails would go out without the site's address: their link to the
    table would be a bare « /t/abcd » that no mail reader can open.

    >>> check_mail("", ""), check_mail("smtp://mail", "https://choux.example")
    (None, None)
    >>> check_mail("smtp://mail", "")[:30]
    'CHOUX_SMTP_URL est réglé sans '
    """
    if smtp_url and not public_url.startswith(("http://", "https://")):
        return (
            "CHOUX_SMTP_URL est réglé sans CHOUX_PUBLIC_URL (l'adresse du site, "
            "https://…) : les e-mails « À vous de jouer » n'auraient pas de lien utilisable."
        )
    return None


#: the lock files this process holds for as long as it runs (see `hold_database`)
_held: list[IO[bytes]] = []


def hold_database(url: str) -> str | None:
    """SQLite serves one process: None once this process holds its file's lock, else why
    not (in French). A second server on the same file would keep its own copy of every
    table in memory and never hear of the other's moves: its pages would show an old game
    for ever and the bots of a table would play in both. The lock is the kernel's (`flock`
    on `<file>-lock`): a server that is killed leaves none behind."""
    parsed = make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    shown = parsed.render_as_string(hide_password=True)
    try:
        handle = open(f"{Path(database).resolve()}-lock", "ab")  # noqa: SIM115 (held until exit)
    except OSError as error:
        return f"La base de données {shown} est inutilisable : {explain(error)}"
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        with contextlib.suppress(OSError):
            handle.close()
        return (
            f"La base de données {shown} est déjà utilisée par un autre serveur Choux : "
            "un seul processus par fichier SQLite (plusieurs processus : PostgreSQL et Redis, "
            "voir docs/operations.md)."
        )
    _held.append(handle)
    return None


def explain(error: Exception) -> str:
    """A short French reason for a database error."""
    text = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    lower = text.lower()
    if "readonly" in lower or "read-only" in lower or "read only" in lower:
        return "elle est en lecture seule."
    if "not a database" in lower or "malformed" in lower or "corrupt" in lower:
        return "le fichier est corrompu ou n'est pas une base SQLite."
    if "unable to open" in lower:
        return "le fichier ne peut pas être ouvert (dossier absent ou droits insuffisants)."
    if "full" in lower:
        return "le disque est plein."
    if "connection" in lower or "connect" in lower:
        return f"le serveur ne répond pas ({text})."
    return text
