"""PostgreSQL: the server terminates the writer's connection at COMMIT
(`pg_terminate_backend`; for a batch of plain appends, whose one statement is its own
transaction, as that statement starts). The move is refused in French, memory stays at the stored
version, and the table plays on, people's moves and bots' alike."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from faulthelpers import Acks, check_stored, duel, fault_settings, play, running
from webhelpers import PG_BASE, postgres_or_skip

from choux.play.errors import TableError
from choux.play.service import SeatSpec, TableService


class Killer:
    """Terminates the writer's backend when it is about to COMMIT, `times` times."""

    def __init__(self) -> None:
        self.times = 0
        self.killed = 0

    def kill(self, backend_pid: int) -> None:
        if self.times <= 0:
            return
        self.times -= 1
        with psycopg.connect(PG_BASE, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (backend_pid,))
        self.killed += 1

    def on_commit(self, conn: Any, *_: Any) -> None:  # SQLAlchemy's "commit" event
        self.kill(conn.connection.dbapi_connection.info.backend_pid)

    def on_statement(self, conn: psycopg.AsyncConnection[Any]) -> None:  # a batch's statement
        self.kill(conn.info.backend_pid)


@contextlib.contextmanager
def killer_on(service: TableService) -> Iterator[Killer]:
    """On the writer thread's COMMIT, and on the statement of a batch of plain appends
    (on PostgreSQL that statement is its own transaction: it commits as it runs)."""
    killer = Killer()
    engine = service.store.writer_engine
    assert engine is not None
    event.listen(engine, "commit", killer.on_commit)
    appends = service.store.appends
    if appends is not None:
        appends.before_statement.append(killer.on_statement)
    try:
        yield killer
    finally:
        event.remove(engine, "commit", killer.on_commit)
        if appends is not None:
            appends.before_statement.remove(killer.on_statement)


async def test_a_connection_killed_at_commit_refuses_the_move_and_play_goes_on() -> None:
    with postgres_or_skip() as url:
        settings = fault_settings(url)
        acks = Acks()
        async with running(settings) as service:
            table = await duel(service)
            code = table.code
            await play(service, table, acks, 4)
            before = table.version
            with killer_on(service) as killer:
                killer.times = 2  # the batch, then the append again on its own
                seat = table.state.actors()[0]
                action = table.state.legal_actions(seat)[0].to_json()
                try:
                    await service.act(table, seat, action, "killed")
                    raise AssertionError("a move was acknowledged though its COMMIT failed")
                except TableError as error:
                    assert error.kind == "unavailable"
                    assert "réessayez" in error.message
                assert killer.killed == 2
            assert table.version == before
            assert (await service.store.versions([code]))[code][0] == before
            await service.act(table, seat, action, "killed")  # the same move, now stored
            acks.moves[before + 1] = (seat, action)
            await play(service, table, acks, 5)
            await check_stored(service, code, acks)
        async with running(settings) as service:
            table = await service.get(code)
            await check_stored(service, code, acks)
            await play(service, table, acks, 2)


async def test_a_bot_move_whose_commit_is_killed_is_played_again() -> None:
    with postgres_or_skip() as url:
        settings = fault_settings(url, bot_pace=0.3)
        async with running(settings) as service:
            table, _ = await service.create(
                "chouine", 2, {}, [SeatSpec("human"), SeatSpec("bot", "random")], creator="Alice"
            )
            acks = Acks()
            for _ in range(3):
                while table.state.actors() != (0,):  # Alice's turn
                    await asyncio.sleep(0.01)
                seat, action = 0, table.state.legal_actions(0)[0].to_json()
                version = await service.act(table, seat, action, uuid.uuid4().hex)
                acks.moves[version] = (seat, action)
                if table.state.actors() != (1,):
                    continue
                with killer_on(service) as killer:
                    killer.times = 2  # the bot's move (it waits 0.3 s): its COMMIT fails
                    deadline = asyncio.get_running_loop().time() + 10
                    while table.version == version:  # the scheduler plays it again
                        assert asyncio.get_running_loop().time() < deadline, "the bot stopped"
                        await asyncio.sleep(0.02)
                    assert killer.killed == 2
            assert len(acks.moves) == 3
            await check_stored(service, table.code, acks)
