"""PostgreSQL: the grace period ends for an absent person while the database cannot write
the seat (its connection is terminated during the UPDATE). Nothing may change in memory
then, and the replacement is tried again.

Before: `replace_with_bot` made the seat a bot in memory first, then wrote it; the failed
write left a « bot » seat with no bot behind it (memory and store disagreeing). At that
seat's next turn the bots' task died on a KeyError and the table waited for ever. The
same half-change came from a grace task cancelled during that write (the person's page
reconnecting at that very moment), as seen in a probe with two processes."""

from __future__ import annotations

import asyncio
import sys
import uuid
from pathlib import Path

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from faulthelpers import StatementKiller, fault_settings, running
from webhelpers import PG_BASE, postgres_or_skip

from choux.play.service import SeatSpec


async def test_a_replacement_the_store_could_not_write_changes_nothing_and_is_retried() -> None:
    with postgres_or_skip() as url:
        settings = fault_settings(url, grace_seconds=0.5)
        async with running(settings) as service:
            table, _ = await service.create(
                "chouine", 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
            )
            engine = service.store.db.sync_engine
            killer = StatementKiller(PG_BASE, "UPDATE SEATS", times=1)
            await service.join(table, None, "Bob")
            service.subscribe(table, 0)  # Alice's page is open; Bob never comes
            event.listen(engine, "before_cursor_execute", killer.before_execute)
            try:
                loop = asyncio.get_running_loop()
                end = loop.time() + 10
                while killer.killed == 0:  # Bob's grace ended: the seat's UPDATE is killed
                    assert loop.time() < end, "the grace period never ended"
                    await asyncio.sleep(0.02)
                row = await service.store.load_table(table.code)
                assert row is not None
                if row.seats[1].kind == "human":  # not stored: memory must say the same
                    assert table.seats[1].kind == "human" or 1 in table.bots
                # Alice plays whenever it is her turn; Bob's seat must get a bot that plays
                played = 0
                while table.status == "live" and played < 4:
                    assert loop.time() < end + 10, f"the table is stuck at {table.version}"
                    if 0 in table.state.actors():
                        action = table.state.legal_actions(0)[0].to_json()
                        await service.act(table, 0, action, uuid.uuid4().hex)
                        played += 1
                    await asyncio.sleep(0.02)
                assert table.seats[1].kind == "bot" and 1 in table.bots
                row = await service.store.load_table(table.code)
                assert row is not None and row.seats[1].kind == "bot"
                assert any(seat == 1 for seat, _, _ in row.actions), "Bob's bot never played"
            finally:
                event.remove(engine, "before_cursor_execute", killer.before_execute)
