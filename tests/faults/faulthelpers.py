"""Helpers of the fault tests: a service on a real store, moves played and acknowledged."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from choux.play.errors import TableError
from choux.play.service import SeatSpec, TableService
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import LiveTable


def fault_settings(url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": url,
        "secret_key": "fault-secret",
        "bot_pace": 0.0,
        "grace_seconds": 0.0,
        "deadline_scale": 0.01,
        "store_retry_seconds": 0.05,
        "restore_quiet_seconds": 0.0,
        "limit_create": "",
        "limit_join": "",
        "limit_messages": "",
    }
    values.update(overrides)
    return Settings(**values)


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[TableService]:
    store = Store(settings.database_url)
    await store.open()
    service = TableService(settings, store)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()
        await store.close()


@dataclass
class Acks:
    """The moves a client was told were played: version -> (seat, action JSON)."""

    moves: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)


async def duel(service: TableService, game: str = "chouine") -> LiveTable:
    """A two-person table (nobody plays unless asked): Alice and Bob seated, live."""
    table, _ = await service.create(
        game, 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
    )
    await service.join(table, None, "Bob")
    assert table.status == "live"
    return table


async def next_move(table: LiveTable, timeout: float = 5.0) -> tuple[int, dict[str, Any]] | None:
    """A person's legal move at this table (waits while a window is open), None if over."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if table.status != "live":
            return None
        humans = [s for s in table.state.actors() if table.seats[s].kind == "human"]
        if humans:
            seat = humans[0]
            return seat, table.state.legal_actions(seat)[0].to_json()
        await asyncio.sleep(0.01)
    raise AssertionError("nobody could move")


async def play(
    service: TableService, table: LiveTable, acks: Acks, moves: int, retry: bool = False
) -> int:
    """Play `moves` moves (or to the end), each acknowledged one remembered. With `retry`,
    a move refused for want of a store is sent again, as a player would; returns how many
    refusals there were."""
    refused = 0
    while moves > 0:
        move = await next_move(table)
        if move is None:
            return refused
        seat, action = move
        try:
            version = await service.act(table, seat, action, uuid.uuid4().hex)
        except TableError as error:
            if not retry or error.kind != "unavailable":
                raise
            refused += 1
            await asyncio.sleep(0.02)
            continue
        acks.moves[version] = (seat, action)
        moves -= 1
    return refused


async def play_until_refused(
    service: TableService, table: LiveTable, acks: Acks, limit: int = 300
) -> TableError:
    """Play until a move is refused because it could not be stored."""
    for _ in range(limit):
        move = await next_move(table)
        assert move is not None, "the game ended before the store failed"
        seat, action = move
        try:
            version = await service.act(table, seat, action, uuid.uuid4().hex)
        except TableError as error:
            assert error.kind == "unavailable", error.message
            return error
        acks.moves[version] = (seat, action)
    raise AssertionError("the store never failed")


async def check_stored(service: TableService, code: str, acks: Acks) -> None:
    """Every acknowledged move is in the store, at its version."""
    row = await service.store.load_table(code)
    assert row is not None
    stored = {index: (seat, action) for index, (seat, action, _) in enumerate(row.actions, 1)}
    for version, move in acks.moves.items():
        assert stored.get(version) == move, f"acknowledged move {version} lost"


@contextlib.contextmanager
def small_disk(path: Path, size: str = "4m") -> Iterator[Path]:
    """A real small filesystem (tmpfs) mounted at `path`: it fills up for real."""
    path.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({result.stderr.strip()}): no real full disk")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(path: Path) -> Path:
    """Fill the filesystem of `path` to the last byte; returns the filler file."""
    filler = path / "filler.bin"
    chunk = b"\0" * 4096
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(chunk)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
    return filler


class StatementKiller:
    """Terminates, `times` times, the PostgreSQL backend of the connection about to run a
    statement that starts with `prefix` (hook `before_execute` on SQLAlchemy's
    « before_cursor_execute »): the connection is lost for real, mid-transaction."""

    def __init__(self, admin_url: str, prefix: str, times: int = 0) -> None:
        self.admin_url = admin_url
        self.prefix = prefix
        self.times = times
        self.killed = 0

    def before_execute(self, conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if self.times <= 0 or not statement.lstrip().upper().startswith(self.prefix):
            return
        self.times -= 1
        pid = conn.connection.dbapi_connection.info.backend_pid
        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (pid,))
        self.killed += 1
