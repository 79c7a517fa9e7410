"""Start-up check of the database, before the server says it is serving.

A corrupt file, a read-only file or an unreachable server must give one clear French
line and a non-zero exit code, not a traceback after « servi ».
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import NullPool

from choux.play.store import migrate, stamp_meta, sync_url

#: first key of the PostgreSQL advisory lock every serving process holds (the second is
#: the schema's: several sites may share a database in schemas of their own): exclusive for
#: a process without Redis (it must be alone), shared for those with it
SERVE_LOCK = 0x43484F55

log = logging.getLogger("choux.web")


def check_url(url: str) -> str | None:
    """None if `url` names a database Choux can use (SQLite or PostgreSQL), else why not,
    without showing it (a malformed URL cannot hide its password)."""
    try:
        backend = make_url(url).get_backend_name()
    except (ArgumentError, ValueError):
        return "L'adresse de la base de données (CHOUX_DATABASE_URL ou --db) est mal formée."
    if backend not in ("sqlite", "postgresql"):
        return (
            f"Base de données « {backend} » inconnue : Choux sert sur SQLite (sqlite:///…) "
            "ou PostgreSQL (postgresql://…)."
        )
    return None


def check_database(url: str) -> str | None:
    """None if the database can be migrated and written to, else why not (in French)."""
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        migrate(url)
        engine = create_engine(sync_url(url), poolclass=NullPool)
        try:
            with engine.begin() as conn:  # a real write: a read-only file fails here
                for statement in stamp_meta("started_at"):
                    conn.execute(statement)
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


#: the locks this process holds for as long as it runs (see `hold_database`)
_held: list[Any] = []


def hold_database(url: str, redis_url: str = "") -> str | None:
    """None once this process holds its database for as long as it runs, else why not (in
    French). A second server that does not hear the first one's moves would keep its own
    copy of every table in memory: its pages would show an old game for ever and the bots
    of a table would play in both.

    SQLite serves one process: the kernel's lock on `<file>-lock` (a server that is killed
    leaves none behind). PostgreSQL serves several only when they all have Redis to hear
    each other: a process without it takes an exclusive advisory lock, those with it a
    shared one (a session's lock: it goes with the process's connection)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        return _hold_postgresql(url, shared=bool(redis_url))
    database = parsed.database
    if backend != "sqlite" or not database or database == ":memory:":
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


class LockTaken(Exception):
    """Another server holds the serving lock (its French reason)."""


def _take_postgresql_lock(url: str, *, shared: bool) -> tuple[Connection, Engine]:
    """A connection holding the serving lock; LockTaken if another server has it, any
    database error if the database cannot be reached."""
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        conn = engine.connect()
        # the database server notices within a minute or two that a crashed process's
        # connection is dead, and lets its lock go (else: hours, and no restart meanwhile)
        for setting, value in (("idle", 30), ("interval", 10), ("count", 6)):
            conn.execute(text(f"SET tcp_keepalives_{setting} = {value}"))
        kind = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        query = text(f"SELECT {kind}(:key, hashtext(current_schema()))")
        taken = conn.execute(query, {"key": SERVE_LOCK}).scalar()
        conn.commit()
    except Exception:
        engine.dispose()
        raise
    if taken:
        return conn, engine
    conn.close()
    engine.dispose()
    shown = make_url(url).render_as_string(hide_password=True)
    if shared:
        raise LockTaken(
            f"La base de données {shown} est déjà servie par un serveur Choux sans Redis : "
            "arrêtez-le, ou donnez à chaque processus le même CHOUX_REDIS_URL."
        )
    raise LockTaken(
        f"La base de données {shown} est déjà servie par un autre serveur Choux : "
        "plusieurs processus sur une base PostgreSQL demandent tous le même "
        "CHOUX_REDIS_URL (voir docs/operations.md)."
    )


class PostgresHold:
    """The serving lock on PostgreSQL, held by one connection for as long as the process
    runs, and watched (`watch`): it goes with its connection, and a connection cut by a
    restart of the database, a network failure or an operator's `pg_terminate_backend`
    let it go without a word, so that a second server could start on the same base while
    this one still served from its memory."""

    def __init__(self, url: str, shared: bool, conn: Connection, engine: Engine) -> None:
        self.url, self.shared = url, shared
        self.conn, self.engine = conn, engine
        self.stopped = threading.Event()

    def close(self) -> None:
        self.stopped.set()
        with contextlib.suppress(Exception):
            self.conn.close()
        self.engine.dispose()

    def alive(self) -> bool:
        """Whether the lock's connection still answers (so the lock is still held)."""
        try:
            self.conn.execute(text("SELECT 1"))
            self.conn.commit()
        except Exception:
            return False
        return True

    def watch(self, seconds: float, on_lost: Callable[[str], None]) -> threading.Thread:
        """Check the connection every `seconds` in a thread of its own. Lost: take the lock
        again on a new connection (waiting for the database if it is away); if another
        server took it meanwhile, `on_lost` with the reason (this one must stop serving)."""
        thread = threading.Thread(
            target=self._watch, args=(seconds, on_lost), name="choux-db-lock", daemon=True
        )
        thread.start()
        return thread

    def _watch(self, seconds: float, on_lost: Callable[[str], None]) -> None:
        while not self.stopped.wait(seconds):
            if self.alive():
                continue
            log.warning("PostgreSQL: the serving lock's connection was lost; taking it again")
            with contextlib.suppress(Exception):
                self.conn.close()
            self.engine.dispose()
            while not self.stopped.is_set():
                try:
                    self.conn, self.engine = _take_postgresql_lock(self.url, shared=self.shared)
                except LockTaken as taken:
                    log.critical("PostgreSQL: another server took the serving lock: %s", taken)
                    on_lost(str(taken))
                    return
                except Exception as error:  # the database away: try again
                    log.warning("PostgreSQL: cannot take the serving lock again yet: %s", error)
                    self.stopped.wait(seconds)
                    continue
                log.warning("PostgreSQL: the serving lock is held again")
                break


def _hold_postgresql(url: str, *, shared: bool) -> str | None:
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        conn, engine = _take_postgresql_lock(url, shared=shared)
    except LockTaken as taken:
        return str(taken)
    except Exception as error:
        return f"La base de données {shown} est inutilisable : {explain(error)}"
    _held.append(PostgresHold(url, shared, conn, engine))
    return None


def watch_database(seconds: float, on_lost: Callable[[str], None]) -> None:
    """Watch the PostgreSQL serving lock this process holds, if any (`PostgresHold`)."""
    for hold in _held:
        if isinstance(hold, PostgresHold):
            hold.watch(seconds, on_lost)


def release_database() -> None:
    """Give up what `hold_database` took (tests; a process lets go when it exits)."""
    while _held:
        with contextlib.suppress(Exception):
            _held.pop().close()


def explain(error: Exception) -> str:
    """A short French reason for a database error."""
    text = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    lower = text.lower()
    # the system's own errors first: their text ends with a path, which may say anything
    if "no such file or directory" in lower:
        return "son dossier n'existe pas."
    if "permission denied" in lower:
        return "les droits du dossier ou du fichier ne le permettent pas."
    if "readonly" in lower or "read-only" in lower or "read only" in lower:
        return "elle est en lecture seule."
    if "not a database" in lower or "malformed" in lower or "corrupt" in lower:
        return "le fichier est corrompu ou n'est pas une base SQLite."
    if "unable to open" in lower:
        return "le fichier ne peut pas être ouvert (dossier absent ou droits insuffisants)."
    if "full" in lower:
        return "le disque est plein."
    if "does not exist" in lower and "database" in lower:
        return f"le serveur répond, mais cette base n'existe pas ({text})."
    if "connection" in lower or "connect" in lower:
        return f"le serveur ne répond pas ({text})."
    return text
