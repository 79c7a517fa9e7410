"""Several processes on one database must share one Redis: a process on another Redis (a
mistyped CHOUX_REDIS_URL, another database number) is found and reported in the log, and
processes that share theirs, or that stopped, are not (real PostgreSQL and Redis)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from scaleout_helpers import redis_server
from webhelpers import postgres_or_skip

from choux.play.peers import Peers
from choux.play.pubsub import RedisPubSub
from choux.play.store import Store

BEAT = 0.3


async def nothing(code: str, change: dict[str, Any] | None) -> None:
    return None


def test_a_process_on_another_redis_is_reported(caplog: pytest.LogCaptureFixture) -> None:
    with postgres_or_skip() as url, redis_server() as redis_url:
        other_redis = redis_url.rsplit("/", 1)[0] + "/1"  # the same server, another database

        async def scenario() -> None:
            store = Store(url)
            await store.open()
            buses = [RedisPubSub(redis_url), RedisPubSub(redis_url), RedisPubSub(other_redis)]
            for bus in buses:
                await bus.start(nothing)
            a, b, c = (Peers(store, bus, beat=BEAT) for bus in buses)
            try:
                for peers in (a, b, c):
                    await peers.sign()
                # one miss may be a process that just started: nobody is reported yet
                assert await a.check() == set() and a.missing == {c.pubsub.origin}
                assert await b.check() == set()
                for peers in (a, b, c):
                    await peers.sign()
                assert await a.check() == {c.pubsub.origin}
                assert await b.check() == {c.pubsub.origin}
                assert await c.check() == set()  # its first miss of a and b
                assert await c.check() == {a.pubsub.origin, b.pubsub.origin}
                # a process that stopped cleanly is no longer looked for
                await c.leave()
                assert await a.check() == set()
                # nor one silent for three beats (crashed): b alone goes on signing
                await c.sign()
                await asyncio.sleep(BEAT * 3.5)
                await b.sign()
                await b.check()
                assert await b.check() == set()
            finally:
                for bus in buses:
                    await bus.stop()
                await store.close()

        with caplog.at_level(logging.ERROR, logger="choux.peers"):
            asyncio.run(scenario())
        said = [r.getMessage() for r in caplog.records if r.name == "choux.peers"]
        assert said and all("CHOUX_REDIS_URL diffère" in line for line in said)
        # once per process and hour, not at every beat: a told about c once, b too, c about a and b
        assert len(said) == 4


def test_processes_sharing_one_redis_say_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with postgres_or_skip() as url, redis_server() as redis_url:

        async def scenario() -> None:
            store = Store(url)
            await store.open()
            buses = [RedisPubSub(redis_url), RedisPubSub(redis_url)]
            for bus in buses:
                await bus.start(nothing)
            runs = [asyncio.create_task(Peers(store, bus, beat=0.1).run()) for bus in buses]
            await asyncio.sleep(0.8)
            for run in runs:
                run.cancel()
            await asyncio.gather(*runs, return_exceptions=True)
            for bus in buses:
                await bus.stop()
            await store.close()

        with caplog.at_level(logging.WARNING):
            asyncio.run(scenario())
        assert not [r for r in caplog.records if r.name in ("choux.peers", "choux.pubsub")]
