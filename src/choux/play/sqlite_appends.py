"""SQLite: batches of plain appends written by sqlite3 directly, on the event loop.

This is the hottest write of the server (one append for about every version played). The
generic path, SQLAlchemy Core in the writer thread, cost about 0.45 ms of CPU a version on
its own (a pooled connection checked out, begin and commit events, two statements through
the compiled cache, result objects), a third of the server's CPU at 1,000 tables, and the
hop to the thread and back about 0.2 ms more (`docs/perf.md`, issue 17). Here the same two
statements go to sqlite3, whose statement cache keeps them prepared, on the loop itself.

That is safe only because such a write never waits: in WAL mode with `synchronous=NORMAL`
a COMMIT appends to the WAL file without flushing it (a killed process loses nothing
committed, a power cut would); the flush is `sync`, in a thread, before the batch's moves
are acknowledged (group commit: one flush for the whole batch, and the loop never waits
for the disk); the connection's busy timeout is 0 (if another connection holds the write
lock, the batch fails at once, having written nothing, and the caller writes it in the
thread); and it never checkpoints (`wal_autocheckpoint=0`): the caller asks for a
checkpoint, run in a thread on a connection of its own, every `CHECKPOINT_EVERY` commits.

Game ends (their record and ratings), reads and the fallback one append at a time stay on
SQLAlchemy: they are rare, and the fallback looks for an append whose outcome a failure
left unknown.
"""

from __future__ import annotations

import contextlib
import os
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
#: every connection of the store (SQLAlchemy's too): each COMMIT is on the disk when it
#: returns (these connections write in threads, where waiting for the disk is fine)
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",
    "PRAGMA busy_timeout=10000",
    "PRAGMA foreign_keys=ON",
)
#: the loop's connection: never wait for a lock, the disk or a checkpoint (the busy timeout
#: first, so that even setting up the connection cannot wait); `sync` flushes its commits
LOOP_ONLY = ("PRAGMA busy_timeout=0", "PRAGMA wal_autocheckpoint=0", "PRAGMA synchronous=NORMAL")
LOOP_PRAGMAS = (
    *LOOP_ONLY,
    *(pragma for pragma in PRAGMAS if "busy_timeout" not in pragma and "synchronous" not in pragma),
)
#: `fdatasync` where the system has it (Linux), else `fsync` (macOS)
_datasync = getattr(os, "fdatasync", os.fsync)
#: about 1,000 WAL pages, SQLite's own default, at a few pages a commit
CHECKPOINT_EVERY = 250


def sqlite_time(moment: datetime) -> str:
    """A UTC moment as SQLAlchemy's SQLite `DateTime` stores it (no offset, always the
    microseconds), so that the rows written here read back exactly like the others.

    >>> sqlite_time(datetime(2026, 12, 2, 6, 5, 4))
    '2026-12-02 06:05:04.000000'
    """
    return moment.replace(tzinfo=None).isoformat(" ", "microseconds")


class SqliteAppends:
    """One connection in autocommit mode (each batch an explicit `BEGIN IMMEDIATE` ...
    `COMMIT`), used by one batch at a time from the loop. A connection on which a batch
    failed is closed, not reused: the next batch opens a fresh one. The checkpoints have
    a connection of their own, used from one thread at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._checkpointer: sqlite3.Connection | None = None
        #: commits since the last checkpoint was asked for
        self.commits = 0
        #: the WAL file whose directory entry is known to be on the disk (its inode)
        self._wal_inode: int | None = None

    def open(self) -> None:
        """Connect now, in a thread at startup: this first connection may wait for a lock
        (to switch the database to WAL, say); later ones, on the loop, may not."""
        if self._connection is None:
            self._connection = _connected(self.path, (*PRAGMAS, *LOOP_ONLY))

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
            self._drop()  # rolls back whatever is open; the next batch starts afresh
            raise
        self.commits += 1
        return stored  # only here, after the COMMIT, are these outcomes true

    def sync(self) -> None:
        """In a thread, after a batch's COMMIT on the loop: its WAL frames on the disk, so
        that a power cut cannot take an acknowledged move (`synchronous=FULL` would flush
        inside the COMMIT, on the loop). One flush covers every commit before it. A new WAL
        file gets its directory flushed once too, as SQLite does for its own files."""
        wal = self.path + "-wal"
        try:
            fd = os.open(wal, os.O_RDONLY)
        except FileNotFoundError:
            return  # SQLite checkpointed it into the database (flushed) and removed it
        try:
            _datasync(fd)
            inode = os.fstat(fd).st_ino
        finally:
            os.close(fd)
        if inode != self._wal_inode:
            directory = os.open(os.path.dirname(os.path.abspath(wal)), os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            self._wal_inode = inode

    def checkpoint_due(self) -> bool:
        """Whether enough was committed since the last checkpoint (and count it asked)."""
        if self.commits < CHECKPOINT_EVERY:
            return False
        self.commits = 0
        return True

    def checkpoint(self) -> tuple[int, int, int]:
        """In a thread: copy the WAL into the database without blocking the writers
        (PASSIVE); SQLite's answer (busy, pages in the WAL, pages copied)."""
        if self._checkpointer is None:
            self._checkpointer = _connected(self.path, PRAGMAS)
        busy, pages, copied = self._checkpointer.execute(
            "PRAGMA wal_checkpoint(PASSIVE)"
        ).fetchone()
        return int(busy), int(pages), int(copied)

    def _connect(self) -> sqlite3.Connection:
        self._connection = _connected(self.path, LOOP_PRAGMAS)
        return self._connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()

    def close(self) -> None:
        self._drop()
        checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            with contextlib.suppress(Exception):
                checkpointer.close()


def _connected(path: str, pragmas: Sequence[str]) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), set up by `pragmas`."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        for pragma in pragmas:
            connection.execute(pragma)
    except BaseException:
        connection.close()
        raise
    return connection
