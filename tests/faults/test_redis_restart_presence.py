"""Two processes, PostgreSQL, a real Redis restarted: a person playing through the other
process is not replaced by a bot for it.

Seen in a probe (2 `choux serve`, 24 tables, grace 3 s, Redis killed and started again):
11 people who were connected and playing lost their seats to bots in the seconds after
Redis came back. The process where the game started keeps a grace timer for a seat whose
page is on the other process, and asks Redis each time whether a socket of it is open
elsewhere. A restarted Redis has lost every process's presence marks and answers « no »
for everyone until each process marks its sockets again (its next resync); a grace check
in that window gave the seat to a bot. With the default 180 s of grace and 2 s of resync,
about one such seat in a hundred per Redis restart."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from pathlib import Path

import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from faulthelpers import fault_settings, running
from scaleout_helpers import free_port, redis_on
from webhelpers import postgres_or_skip

from choux.play.pubsub import presence_key
from choux.play.service import SeatSpec


async def wait_until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition never became true"
        await asyncio.sleep(0.02)


async def test_a_person_playing_elsewhere_keeps_the_seat_when_redis_restarts() -> None:
    port = free_port()
    with postgres_or_skip() as url, contextlib.ExitStack() as stack:
        stack.enter_context(redis_on(port))
        settings = fault_settings(
            url,
            redis_url=f"redis://127.0.0.1:{port}/0",
            grace_seconds=0.2,  # B asks Redis every 0.2 s
            resync_seconds=3.0,  # A marks its sockets again every 3 s
        )
        async with running(settings) as a, running(settings) as b:
            table_a, _ = await a.create(
                "chouine", 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
            )
            table_b = await b.get(table_a.code)
            await b.join(table_b, None, "Bob")  # the game starts on B: its grace timers
            a.subscribe(table_a, 0)  # Alice's page is on A
            b.subscribe(table_b, 1)  # Bob's on B
            await wait_until(lambda: table_a.status == "live")
            await asyncio.sleep(1.0)
            assert table_b.seats[0].kind == "human"  # B sees Alice's page on A
            # restart Redis just after A marked Alice present: A marks again 3 s later
            key = presence_key(table_a.code)
            store = redis.Redis(port=port)
            first = store.zrange(key, 0, -1, withscores=True)
            await wait_until(lambda: store.zrange(key, 0, -1, withscores=True) != first)
            stack.close()  # Redis stops...
            stack.enter_context(redis_on(port))  # ...and starts again, empty
            await asyncio.sleep(3 * 3.0 + 2.0)  # B's second question comes after 3 resyncs
            assert table_b.seats[0].kind == "human", "Alice, playing on A, was given to a bot"
            row = await b.store.load_table(table_a.code)
            assert row is not None and row.seats[0].kind == "human"
