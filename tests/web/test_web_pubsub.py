"""Redis pub/sub between processes: the changes published together go out in one pipeline,
in order, and each publisher hears whether Redis took its message."""

from __future__ import annotations

import asyncio
from typing import Any

from scaleout_helpers import free_port, redis_on

from choux.play.pubsub import RedisPubSub


async def test_changes_published_together_arrive_in_order_at_the_other_process() -> None:
    with redis_on(free_port()) as url:
        heard: list[tuple[str, Any]] = []
        got_all = asyncio.Event()

        async def handler(code: str, change: dict[str, Any] | None) -> None:
            heard.append((code, change))
            if len(heard) == 60:
                got_all.set()

        sender, listener = RedisPubSub(url), RedisPubSub(url)

        async def ignore(_code: str, _change: dict[str, Any] | None) -> None:
            raise AssertionError("a process hears its own messages")

        await sender.start(ignore)
        await listener.start(handler)
        try:
            # both processes subscribe, each in its own task: wait for the two (waiting for
            # one let the sender's own subscription pass for the listener's, and a message
            # published before the listener's was lost: the wait below then timed out)
            for _ in range(500):
                if await sender.client.pubsub_numsub("choux:tables") == [(b"choux:tables", 2)]:
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError("the two processes never both subscribed")
            await asyncio.gather(
                *(sender.publish(f"t{i % 3}", {"v": i}) for i in range(60))
            )  # one loop turn: one pipeline
            await asyncio.wait_for(got_all.wait(), 10)
            assert heard == [(f"t{i % 3}", {"v": i}) for i in range(60)]
            await sender.publish_presence("t0")  # the presence message goes the same way
        finally:
            await sender.stop()
            await listener.stop()


async def test_a_publisher_hears_when_redis_is_away(caplog: Any) -> None:
    pubsub = RedisPubSub(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens there

    async def ignore(_code: str, _change: dict[str, Any] | None) -> None:
        return None

    await pubsub.start(ignore)
    try:
        await asyncio.gather(*(pubsub.publish("t0", {"v": i}) for i in range(3)))
        assert caplog.text.count("could not publish a change of table t0") == 3
    finally:
        await pubsub.stop()


async def test_posted_changes_go_out_in_order_and_a_refused_one_is_logged(caplog: Any) -> None:
    """`post` (the write path's way: nobody waits) keeps the order of the messages it is
    given among those published; when Redis is away each is logged as `publish` does."""
    with redis_on(free_port()) as url:
        heard: list[tuple[str, Any]] = []
        got_all = asyncio.Event()

        async def handler(code: str, change: dict[str, Any] | None) -> None:
            heard.append((code, change))
            if len(heard) == 4:
                got_all.set()

        async def ignore(_code: str, _change: dict[str, Any] | None) -> None:
            return None

        sender, listener = RedisPubSub(url), RedisPubSub(url)
        await sender.start(ignore)
        await listener.start(handler)
        try:
            for _ in range(100):
                if listener.listening:
                    break
                await asyncio.sleep(0.02)
            sender.post("t0", {"v": 1})
            sender.post("t1")
            await sender.publish("t0", {"v": 2})
            sender.post("t0", {"v": 3})
            await asyncio.wait_for(got_all.wait(), 10)
            assert heard == [("t0", {"v": 1}), ("t1", None), ("t0", {"v": 2}), ("t0", {"v": 3})]
        finally:
            await sender.stop()
            await listener.stop()
    away = RedisPubSub(f"redis://127.0.0.1:{free_port()}/0")
    await away.start(ignore)
    try:
        away.post("t9", {"v": 1})
        away.post("t9", {"v": 2})
        for _ in range(200):
            if caplog.text.count("could not publish a change of table t9") == 2:
                break
            await asyncio.sleep(0.02)
        assert caplog.text.count("could not publish a change of table t9") == 2
    finally:
        await away.stop()


async def test_the_listener_counts_its_subscriptions() -> None:
    """A table read under subscription `epoch` has missed nothing while it holds; not once
    the listener lost Redis and subscribed again (messages sent meanwhile are lost)."""
    port = free_port()

    async def ignore(_code: str, _change: dict[str, Any] | None) -> None:
        return None

    listener = RedisPubSub(f"redis://127.0.0.1:{port}/0")
    await listener.start(ignore)
    try:
        assert not listener.heard_all_since(listener.epoch)  # Redis away: nothing is heard
        with redis_on(port):
            for _ in range(300):
                if listener.listening:
                    break
                await asyncio.sleep(0.02)
            first = listener.epoch
            assert first >= 1 and listener.heard_all_since(first)
        for _ in range(300):  # Redis stopped: the listener notices
            if not listener.listening:
                break
            await asyncio.sleep(0.02)
        assert not listener.heard_all_since(first)
        with redis_on(port):
            for _ in range(300):
                if listener.listening:
                    break
                await asyncio.sleep(0.02)
            assert listener.epoch > first
            assert listener.heard_all_since(listener.epoch)
            assert not listener.heard_all_since(first)
    finally:
        await listener.stop()


async def test_a_malformed_sessions_message_is_ignored_and_a_good_one_heard() -> None:
    """Closing sessions elsewhere: a message whose fields are not text closes nothing and
    breaks nothing (the handler is not called with them)."""
    listener = RedisPubSub("redis://unused")
    closed: list[tuple[str, str | None, str | None]] = []

    async def on_sessions(player: str, only: str | None, keep: str | None) -> int:
        closed.append((player, only, keep))
        return 0

    async def no_table(_code: str, _change: dict[str, Any] | None) -> None:
        raise AssertionError("not a table's change")

    listener.listen_sessions(on_sessions)
    for hostile in (
        {"origin": "x", "sessions_of": 3},
        {"origin": "x", "sessions_of": None, "only": "a"},
        {"origin": "x", "sessions_of": "p", "only": ["a"]},
        {"origin": "x", "sessions_of": "p", "keep": {"k": 1}},
        {"origin": listener.origin, "sessions_of": "p"},  # its own: already closed here
    ):
        await listener._heard(hostile, no_table)
    await asyncio.sleep(0.01)
    assert closed == []
    await listener._heard({"origin": "x", "sessions_of": "p", "only": "s1"}, no_table)
    await asyncio.sleep(0.01)  # closed in a task of its own, not in the listener's loop
    assert closed == [("p", "s1", None)]
