"""Two processes, PostgreSQL, a real Redis that hangs (SIGSTOP: its connections stay open,
nothing answers): a move made on one process reaches the other through the periodic
resync, within about two resync intervals, as when Redis is down.

Seen in a probe (2 `choux serve`, 30 tables, Redis stopped 12 s): while Redis was dead the
tables whose seats are on different processes stalled 3.7 s at most, but while it hung
they stalled for nearly the whole 12 s. The resync waited for Redis first (the presence
marks, then the presence read: 2 s of patience each) before it looked at the database, and
a table found behind is caught up at the next resync: each move crossed in 5 to 10 s."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from faulthelpers import fault_settings, running
from scaleout_helpers import free_port, redis_process
from webhelpers import postgres_or_skip

from choux.play.service import SeatSpec

RESYNC = 0.5


async def test_moves_cross_processes_within_two_resyncs_while_redis_hangs() -> None:
    port = free_port()
    with postgres_or_skip() as url, redis_process(port) as redis:
        settings = fault_settings(
            url, redis_url=f"redis://127.0.0.1:{port}/0", resync_seconds=RESYNC
        )
        async with running(settings) as a, running(settings) as b:
            table_a, _ = await a.create(
                "chouine", 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
            )
            table_b = await b.get(table_a.code)
            await b.join(table_b, None, "Bob")
            a.subscribe(table_a, 0)
            b.subscribe(table_b, 1)
            loop = asyncio.get_running_loop()
            end = loop.time() + 10
            while table_a.status != "live":
                assert loop.time() < end
                await asyncio.sleep(0.02)
            os.kill(redis.pid, signal.SIGSTOP)  # Redis hangs
            try:
                await asyncio.sleep(1.0)
                delays = []
                for _ in range(3):
                    mine = a if 0 in table_a.state.actors() else b
                    here = table_a if mine is a else table_b
                    there = table_b if mine is a else table_a
                    seat = here.state.actors()[0]
                    action = here.state.legal_actions(seat)[0].to_json()
                    version = await mine.act(here, seat, action, uuid.uuid4().hex)
                    began = loop.time()
                    while there.version < version:
                        assert loop.time() - began < 15, "the other process never heard it"
                        await asyncio.sleep(0.02)
                    delays.append(loop.time() - began)
                assert max(delays) < 4 * RESYNC + 0.5, delays
            finally:
                os.kill(redis.pid, signal.SIGCONT)
