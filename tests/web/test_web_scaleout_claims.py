"""Several processes on one table: one of them thinks for the bots of each version (a Redis
claim), the others take over when it dies; the seat lists show people connected anywhere."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest
import webgame
from scaleout_helpers import free_port, redis_on
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, join, postgres_or_skip, wait_for

from choux.engine.base import BotMove, State


@pytest.fixture(name="thoughts")
def thoughts_fixture(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times the "lent" bot was asked to choose, by the counter's total (one total
    per version in this game): every process's calls, whatever the pool thread."""
    counts: Counter[int] = Counter()
    lock = threading.Lock()
    choose = webgame.SlowBot.choose

    def counted(self: Any, state: State, seat: int) -> BotMove | None:
        with lock:
            counts[state.total] += 1  # type: ignore[attr-defined]
        return choose(self, state, seat)

    monkeypatch.setattr(webgame.SlowBot, "choose", counted)
    return counts


def receive_until(ws: Any, predicate: Any, timeout: float = 15.0) -> dict[str, Any]:
    """The first state message matching `predicate` (the server's heartbeats keep the loop
    turning when nothing else comes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = ws.receive_json()
        if message["type"] == "state" and predicate(message):
            return dict(message)
    raise AssertionError("no such state message")


@pytest.mark.postgres
def test_two_processes_think_once_per_version_for_the_bots(
    course: str, thoughts: Counter[int]
) -> None:
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, bot_pace=0.25, resync_seconds=0.5) as a,
        client(db, redis_url=redis_url, bot_pace=0.25, resync_seconds=0.5) as b,
    ):
        code = create_table(a, course, ["bot:lent", "bot:lent"], None)
        assert b.get(f"/t/{code}").status_code == 200  # B holds the table too, from now on
        service_a, service_b = a.app.state.service, b.app.state.service
        table_a, table_b = service_a.tables[code], service_b.tables[code]
        shared_from = table_b.version
        wait_for(lambda: table_a.status == table_b.status == "over", timeout=30)
        final = table_a.version
        assert table_b.version == final
        assert final - shared_from >= 2  # several versions were held by both processes
        assert sorted(thoughts.values()) == [1] * final, thoughts  # one decision per version
        assert service_a.bot_decisions + service_b.bot_decisions == final
        row = a.portal.call(service_a.store.load_table, code)
        assert len(row.actions) == final


@pytest.mark.postgres
def test_a_process_that_died_holding_the_claim_does_not_stall_the_table(
    course: str, thoughts: Counter[int]
) -> None:
    """The process that took the claim of the bot's move thinks, waits its pace (extending
    the claim), and stops before writing: the other one waits for the claim to lapse, finds
    the table still at that version, takes the claim and plays."""
    with postgres_or_skip() as db, redis_on(free_port()) as redis_url:
        options = {"redis_url": redis_url, "bot_pace": 1.5, "claim_seconds": 0.5}
        alive = [client(db, **options), client(db, **options)]
        for c in alive:
            c.__enter__()
        try:
            a, b = alive
            code = create_table(a, course, ["human", "bot:lent"], "Alice")
            assert b.get(f"/t/{code}").status_code == 200
            services = {c: c.app.state.service for c in alive}
            a.portal.call(services[a].act, services[a].tables[code], 0, {"type": "add", "n": 1})
            wait_for(lambda: sum(s.bot_decisions for s in services.values()) == 1, timeout=10)
            winner = next(c for c, s in services.items() if s.bot_decisions == 1)
            loser = b if winner is a else a
            survivor = services[loser]
            wait_for(lambda: survivor.pubsub.claims_lost >= 1, timeout=10)  # it waits
            alive.remove(winner)
            winner.__exit__(None, None, None)  # dies before playing the move it chose
            assert survivor.tables[code].version == 1
            wait_for(lambda: survivor.tables[code].version == 2, timeout=20)
            assert survivor.bot_decisions == 1
            assert thoughts[1] == 2  # the total after Alice's move: the dead one's, then this one's
            row = loser.portal.call(survivor.store.load_table, code)
            assert [seat for seat, _, _ in row.actions] == [0, 1]
        finally:
            for c in alive:
                c.__exit__(None, None, None)


def test_a_claim_left_by_a_dead_process_only_delays_the_bot(sqlite_url: str, course: str) -> None:
    """A claim taken by a process that is gone (it never writes): the bot of this process
    waits for the claim to lapse in Redis, then plays."""
    import redis

    with (
        redis_on(free_port()) as redis_url,
        client(sqlite_url, redis_url=redis_url, bot_pace=0.0) as c,
    ):
        code = create_table(c, course, ["human", "bot:lent"], "Alice")
        service = c.app.state.service
        table = service.tables[code]
        with redis.Redis.from_url(redis_url) as r:
            r.set(f"choux:claim:{code}:1:bots", "a-dead-process", px=1500)
        claimed = time.monotonic()
        c.portal.call(service.act, table, 0, {"type": "add", "n": 1}, "a1")
        wait_for(lambda: table.version == 2, timeout=20)
        assert time.monotonic() - claimed >= 1.3  # not before the claim lapsed
        assert service.bot_decisions == 1


def test_without_redis_every_process_plays_its_bots_at_once(sqlite_url: str, course: str) -> None:
    """Redis configured but down: claims cannot be taken, the bots play without them (as one
    process without Redis does), and the game is not slowed down."""
    with client(sqlite_url, redis_url=f"redis://127.0.0.1:{free_port()}/0", bot_pace=0.0) as c:
        code = create_table(c, course, ["bot:lent", "bot:lent"], None)
        table = c.app.state.service.tables[code]
        started = time.monotonic()
        wait_for(lambda: table.status == "over", timeout=20)
        assert time.monotonic() - started < 10
        assert c.app.state.service.bot_decisions == table.version


@pytest.mark.postgres
def test_a_person_connected_through_another_process_is_shown_connected(course: str) -> None:
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=0.5, heartbeat_seconds=0.2) as a,
        client(db, redis_url=redis_url, resync_seconds=0.5, heartbeat_seconds=0.2) as b,
    ):
        code = create_table(a, course, ["human", "human"], "Alice")
        with a.websocket_connect(f"/t/{code}/ws") as alice:
            first = receive_until(alice, lambda m: True)
            assert [s["connected"] for s in first["seats"]] == [True, False]
            assert join(b, code, "Bob").status_code == 303
            with b.websocket_connect(f"/t/{code}/ws") as bob:
                seen = receive_until(bob, lambda m: m["seats"][1]["name"] == "Bob")
                assert seen["seats"][0]["connected"]  # Alice, through A, seen from B
                shown = receive_until(alice, lambda m: m["seats"][1]["connected"])
                assert shown["seats"][1]["name"] == "Bob"
            # Bob's last socket closed: Alice sees him absent (told at once, not by expiry)
            receive_until(alice, lambda m: not m["seats"][1]["connected"])
            table_a = a.app.state.service.tables[code]
            assert table_a.seats_json()[1]["connected"] is False
