"""The SQLite file holds secrets (password hashes, the cookie signing key, the push key):
it is created readable by its owner only, whatever the umask, and an existing file that
other accounts of the machine may read is reported at start. SQLite gives its `-wal` and
`-shm` files the database file's permissions."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)

#: owner read and write only
PRIVATE = 0o600


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, or in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    name = parsed.database or ""
    return None if name in ("", ":memory:") or name.startswith("file:") else Path(name)


def make_private(url: str) -> str | None:
    """Create a SQLite database's file with mode 600 if it does not exist yet; for one that
    others may read, the warning to log (its mode is left alone: the operator decides)."""
    path = sqlite_path(url)
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            return (
                f"{path} est lisible par d'autres comptes de la machine (mode {mode:o}) ; "
                f"elle contient les mots de passe chiffrés et la clé des cookies : chmod 600 {path}"
            )
        return None
    except OSError:
        return None  # no such folder, read-only disk: the database's own error says it better
    os.close(fd)
    return None
