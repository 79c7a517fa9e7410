"""PostgreSQL: batches of plain appends written by psycopg directly, on the event loop.

A batch of moves (no game end among them) is one statement that bumps each table's
version and inserts its action; in autocommit that statement is its own transaction, so
its answer comes only once it is committed. This is the hottest write of the server (one
statement for about every version played), and the generic path cost about 0.6 ms of CPU
a statement: SQLAlchemy's async adaptation (a greenlet switch per call) and psycopg
adapting five arrays item by item in Python. Here the batch goes as one JSON text and
the connection is psycopg's own: about 0.2 ms (`docs/perf.md`, issue 17). Everything
else (reads, game ends, the fallback one append at a time) stays on SQLAlchemy.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson
import psycopg
from sqlalchemy.engine import make_url

#: one statement for the whole batch: a table not at the version before its append is not
#: bumped and its action not inserted (the caller finds which by the ids returned)
APPEND_BATCH = """
with v as (
    select * from json_to_recordset(%(batch)s::json)
        as v(table_id integer, seq integer, seat integer, action text, client_id varchar)
), bumped as (
    update tables set version = v.seq, updated_at = %(now)s
    from v where tables.id = v.table_id and tables.version = v.seq - 1
    returning tables.id
)
insert into actions (table_id, seq, seat, action, client_id, created_at)
select v.table_id, v.seq, v.seat, v.action, v.client_id, %(now)s
from v join bumped on bumped.id = v.table_id
returning table_id
"""


def libpq_url(url: str) -> str:
    """The libpq form of a SQLAlchemy PostgreSQL URL (its query, e.g. `options`, kept)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def action_text(action: Any) -> str:
    """An action as the log stores it (both backends, every write path): compact JSON,
    non-ASCII escaped, so that the same action is always the same text."""
    return json.dumps(action, separators=(",", ":"))


def batch_json(batch: Sequence[tuple[Any, ...]]) -> str:
    """The appends `(table_id, seq, seat, action, client_id, ...)` as one JSON text."""
    return orjson.dumps(
        [
            {
                "table_id": args[0],
                "seq": args[1],
                "seat": args[2],
                "action": action_text(args[3]),
                "client_id": args[4],
            }
            for args in batch
        ]
    ).decode()


class PgAppends:
    """Up to `size` autocommit connections, one per batch in flight (the caller bounds how
    many run at once). A connection whose statement failed or was cancelled is closed, not
    reused: its state is unknown; the next batch opens a fresh one."""

    def __init__(self, url: str, size: int) -> None:
        self.url = libpq_url(url)
        self.size = size
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        #: called with the connection before each statement (fault tests kill it there)
        self.before_statement: list[Callable[[psycopg.AsyncConnection[Any]], None]] = []

    async def append(self, batch: Sequence[tuple[Any, ...]], now: datetime) -> set[int]:
        """Write the batch in one committed statement; the ids of the tables stored.
        Raises whatever psycopg raises: then nothing is known of this batch."""
        conn = self._idle.pop() if self._idle else await self._connect()
        try:
            for hook in self.before_statement:
                hook(conn)
            cursor = await conn.execute(APPEND_BATCH, {"batch": batch_json(batch), "now": now})
            stored = {int(row[0]) for row in await cursor.fetchall()}
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        if len(self._idle) < self.size:
            self._idle.append(conn)
        else:
            await conn.close()
        return stored

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True)

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.close()
