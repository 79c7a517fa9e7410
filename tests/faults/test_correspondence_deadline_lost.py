"""PostgreSQL: the connection that writes a correspondence turn's deadline is terminated
(`pg_terminate_backend`) as it writes it. The deadline is written again a moment later:
that turn still times out, once, for the person it waited for.

Before, the failure was only logged: that turn had no deadline at all (no timeout, no
« À vous de jouer ») until the process restarted."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from faulthelpers import StatementKiller, fault_settings, running
from webhelpers import PG_BASE, postgres_or_skip

from choux.play.correspondence_store import Rule
from choux.play.service import SeatSpec, TableService

HOUR = 0.5  # seconds an hour of move time lasts here


@contextlib.contextmanager
def deadline_killer(service: TableService) -> Iterator[StatementKiller]:
    killer = StatementKiller(PG_BASE, "UPDATE CORRESPONDENCE")
    engine = service.store.db.sync_engine
    event.listen(engine, "before_cursor_execute", killer.before_execute)
    try:
        yield killer
    finally:
        event.remove(engine, "before_cursor_execute", killer.before_execute)


@pytest.mark.postgres
async def test_a_deadline_whose_write_is_killed_is_written_again_and_fires() -> None:
    with postgres_or_skip() as url:
        settings = fault_settings(
            url, correspondence_scale=HOUR / 3600, correspondence_poll_seconds=0.05
        )
        async with running(settings) as service:
            people = [SeatSpec("human"), SeatSpec("human")]
            table, _ = await service.create("chouine", 2, {}, people, creator="Alice")
            await service.make_correspondence(table, Rule(3600, "bot"))
            await service.join(table, None, "Bob")
            while table.move_at is None:  # the first turn's deadline is written
                await asyncio.sleep(0.01)
            with deadline_killer(service) as killer:
                killer.times = 1
                seat = table.state.actors()[0]
                action = table.state.legal_actions(seat)[0].to_json()
                version = await service.act(table, seat, action, uuid.uuid4().hex)
                waited = table.state.actors()
                loop = asyncio.get_running_loop()
                end = loop.time() + 10 * HOUR
                while table.version == version and loop.time() < end:
                    await asyncio.sleep(0.02)
                assert killer.killed == 1
            assert table.version == version + 1, "the turn whose deadline was lost never timed out"
            row = await service.store.load_table(table.code)
            assert row is not None
            timed_out_seat, _, client_id = row.actions[version]
            assert client_id is None and (timed_out_seat,) == tuple(waited)
            assert any(
                f"Temps écoulé pour {table.names()[waited[0]]}" in str(t) for _, t in table.log
            )
