"""Scale-out as an operator runs it: lost messages, Redis away, clocks and presence shared
by several processes on one database (see docs/operations.md)."""

from __future__ import annotations

import time

import pytest
import webgame
from scaleout_helpers import free_port, redis_on
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, join, other, postgres_or_skip, wait_for


def test_a_window_closed_by_another_process_is_not_closed_again(
    sqlite_url: str, course: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock armed for version 2 fires after another process moved the table to version
    5 (its message lost): it catches up, and closes nothing (the window of version 5 is a
    new one with its own clock), instead of replaying its stale timeout."""
    monkeypatch.setitem(webgame.WINDOW, "value", 0.8)
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice", {"fenetre": "on"})
        join(other(c), code, "Bob")
        service = c.app.state.service
        table = service.tables[code]
        c.portal.call(service.act, table, 0, {"type": "add", "n": 1}, "a1")
        c.portal.call(service.act, table, 1, {"type": "add", "n": 1}, "b1")
        assert table.version == 2 and table.state.open
        behind = [(3, None, {"type": "close"}), (4, 0, {"type": "add", "n": 1})]
        behind.append((5, 1, {"type": "add", "n": 1}))  # a new window opens
        for seq, seat, action in behind:
            c.portal.call(service.store.append_action, table.row.id, seq, seat, action, None)
        wait_for(lambda: table.version == 5, timeout=3)  # the stale clock caught up
        time.sleep(0.2)
        assert table.version == 5 and table.state.open  # and did not close the new window
        wait_for(lambda: table.version == 6, timeout=3)  # its own clock closes it, once
        time.sleep(0.3)
        row = c.portal.call(service.store.load_table, code)
        assert [a[1]["type"] for a in row.actions] == ["add"] * 2 + ["close", "add", "add"] + [
            "close"
        ]


@pytest.mark.postgres
def test_a_lost_message_is_made_up_by_the_resync_and_redis_comes_back(course: str) -> None:
    port = free_port()
    with (
        postgres_or_skip() as db,
        client(db, redis_url=f"redis://127.0.0.1:{port}/0", resync_seconds=0.2) as a,
        client(db, redis_url=f"redis://127.0.0.1:{port}/0", resync_seconds=0.2) as b,
    ):
        # both processes start while Redis is down, and serve anyway
        code = create_table(a, course, ["human", "human"], "Alice")
        assert join(b, code, "Bob").status_code == 303
        service_a, service_b = a.app.state.service, b.app.state.service
        table_a, table_b = service_a.tables[code], service_b.tables[code]
        wait_for(lambda: table_a.status == "live", timeout=3)  # by the resync, no message
        started = time.monotonic()
        a.portal.call(service_a.act, table_a, 0, {"type": "add", "n": 1}, "a1")
        assert time.monotonic() - started < 1.0  # Redis away does not slow the table down
        wait_for(lambda: table_b.version == 1, timeout=3)
        with redis_on(port):  # Redis is back: the listeners subscribe again
            time.sleep(2.5)
            b.portal.call(service_b.act, table_b, 1, {"type": "add", "n": 2}, "b1")
            wait_for(lambda: table_a.version == 2, timeout=3)
            assert table_a.state.total == table_b.state.total == 3


@pytest.mark.postgres
def test_a_player_on_another_process_is_not_replaced_by_a_bot(course: str) -> None:
    """Alice plays through process A; process B started the game (Bob joined there) and
    armed her grace clock: B must not hand her seat to a bot while her socket is open."""
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=0.1, grace_seconds=0.6) as a,
        client(db, redis_url=redis_url, resync_seconds=0.1, grace_seconds=0.6) as b,
    ):
        code = create_table(a, course, ["human", "human"], "Alice")
        with a.websocket_connect(f"/t/{code}/ws"):
            assert join(b, code, "Bob").status_code == 303
            table_b = b.app.state.service.tables[code]
            wait_for(lambda: table_b.seats[1].kind == "bot", timeout=5)  # Bob left: replaced
            time.sleep(1.0)
            assert table_b.seats[0].kind == "human"
            assert a.app.state.service.tables[code].seats[0].kind == "human"


@pytest.mark.postgres
def test_the_next_action_is_taken_from_the_message_without_reading_the_store(
    course: str,
) -> None:
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=60) as a,
        client(db, redis_url=redis_url, resync_seconds=60) as b,
    ):
        code = create_table(a, course, ["human", "human"], "Alice")
        assert join(b, code, "Bob").status_code == 303
        service_a, service_b = a.app.state.service, b.app.state.service
        table_a, table_b = service_a.tables[code], service_b.tables[code]
        wait_for(lambda: table_a.status == "live")
        reads: list[str] = []
        load = service_b.store.load_table

        async def counted(code: str, since: int = 0):  # type: ignore[no-untyped-def]
            reads.append(code)
            return await load(code, since)

        service_b.store.load_table = counted
        a.portal.call(service_a.act, table_a, 0, {"type": "add", "n": 2}, "a1")
        wait_for(lambda: table_b.version == 1)
        assert table_b.state.total == 2 and table_b.client_ids[(0, "a1")] == 1
        assert reads == []


@pytest.mark.postgres
def test_postgresql_serves_one_process_without_redis_or_several_with_it() -> None:
    """Two processes on one PostgreSQL base without Redis started without a word, and a
    game across them froze (neither heard the other's moves: an operator's audit)."""
    from webhelpers import postgres_or_skip

    from choux.web.startup import hold_database, release_database

    with postgres_or_skip() as url:
        try:
            assert hold_database(url) is None  # alone, without Redis
            refused = hold_database(url)
            assert refused is not None and "CHOUX_REDIS_URL" in refused
            refused = hold_database(url, "redis://127.0.0.1:6379/0")
            assert refused is not None and "sans Redis" in refused
            release_database()
            assert hold_database(url, "redis://r/0") is None  # several, with Redis
            assert hold_database(url, "redis://r/0") is None
            refused = hold_database(url)
            assert refused is not None and "CHOUX_REDIS_URL" in refused
        finally:
            release_database()
        with postgres_or_skip() as other_schema:  # another site in its own schema
            try:
                assert hold_database(url) is None and hold_database(other_schema) is None
            finally:
                release_database()


@pytest.mark.postgres
def test_every_process_shows_the_absent_countdown_and_only_for_the_absent(course: str) -> None:
    """Bob plays through process B, Alice through A. While Bob's page is open, A's pages
    must not count him down (A's own grace clock for him runs, since the game started
    there); once he leaves, A's pages count down to his bot too (they said nothing)."""
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=0.1, grace_seconds=30) as a,
        client(db, redis_url=redis_url, resync_seconds=0.1, grace_seconds=30) as b,
    ):
        code = create_table(b, course, ["human", "human"], "Bob")
        with b.websocket_connect(f"/t/{code}/ws"):
            assert join(a, code, "Alice").status_code == 303  # the game starts on A
            table_a = a.app.state.service.tables[code]
            wait_for(lambda: table_a.status == "live" and 0 in table_a.remote, timeout=5)
            time.sleep(0.5)
            assert 0 in table_a.bot_at  # A's clock for Bob runs...
            assert "0" not in table_a.bot_in()  # ...but his page is open on B: not absent
        # Bob's last socket closed on B: A hears it and its pages count down too
        wait_for(lambda: 0 not in table_a.remote, timeout=5)
        wait_for(lambda: "0" in table_a.bot_in(), timeout=5)
        assert 20 < table_a.bot_in()["0"] <= 30
        assert "0" in b.app.state.service.tables[code].bot_in()
