"""SQLite: batches of plain appends written through a sqlite3 connection of their own.

This is the hottest write of the server (one append for about every version played). The
generic path, SQLAlchemy Core in the writer thread, cost about 0.45 ms of CPU a version on
its own (a pooled connection checked out, begin and commit events, two statements through
the compiled cache, result objects), a third of the server's CPU at 1,000 tables
(`docs/perf.md`, issue 17). Here the same two statements go to sqlite3 directly, whose
statement cache keeps them prepared. Game ends (their record and ratings), reads and the
fallback one append at a time stay on SQLAlchemy: they are rare, and the fallback looks
for an append whose outcome a failure left unknown.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from choux.play.pg_appends import action_text

#: a table is bumped only if it is still at the version before the append
BUMP = "UPDATE tables SET version = ?, updated_at = ? WHERE id = ? AND version = ?"
INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, seat, action, client_id, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA busy_timeout=10000",
    "PRAGMA foreign_keys=ON",
)


def sqlite_time(moment: datetime) -> str:
    """A moment as SQLAlchemy's SQLite `DateTime` stores it (UTC, no offset), so that the
    rows written here read back exactly like the others."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


class SqliteAppends:
    """One connection in autocommit mode (each batch an explicit `BEGIN IMMEDIATE` ...
    `COMMIT`), used by one batch at a time from the writer thread. A connection on which
    a batch failed is closed, not reused: the next batch opens a fresh one."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None

    def append(self, batch: Sequence[tuple[Any, ...]], now: datetime) -> list[bool]:
        """Write the appends `(table_id, seq, seat, action, client_id, ...)` in one
        transaction; for each, whether it was stored (False: its table was no longer at
        the version before it, and nothing of it was written). Raises whatever sqlite3
        raises: then nothing of the batch is stored."""
        connection = self._connection or self._connect()
        moment = sqlite_time(now)
        stored: list[bool] = []
        try:
            connection.execute("BEGIN IMMEDIATE")
            for table_id, seq, seat, action, client_id, *_ in batch:
                bumped = connection.execute(BUMP, (seq, moment, table_id, seq - 1)).rowcount
                if bumped == 1:
                    connection.execute(
                        INSERT_ACTION,
                        (table_id, seq, seat, action_text(action), client_id, moment),
                    )
                stored.append(bumped == 1)
            connection.execute("COMMIT")
        except BaseException:
            self.close()  # rolls back whatever is open; the next batch starts afresh
            raise
        return stored  # only here, after the COMMIT, are these outcomes true

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            for pragma in PRAGMAS:
                connection.execute(pragma)
        except BaseException:
            connection.close()
            raise
        self._connection = connection
        return connection

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
