"""Limits against abuse: rate limits per client (French 429 / refusal), bot-only tables
per client and in total, open tables that expire, finished tables that leave memory,
lazy loading at start-up and a quiet moment before bots move on a restored table."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import (
    client,
    create_table,
    csrf_of,
    join,
    other,
    page_log,
    receive_state,
    wait_for,
)

from choux.play import service as service_module
from choux.play.settings import Settings
from choux.web.ratelimits import Limits


def redis_problem() -> str | None:
    try:
        import redis

        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_timeout=2).ping()
    except Exception as error:
        return f"Redis unreachable ({error.__class__.__name__}): skipped"
    return None


def post_table(c, game: str = "chouine", seats: tuple[str, ...] = ("human", "bot:random")):  # type: ignore[no-untyped-def]
    page = c.get(f"/nouvelle?jeu={game}")
    data = {
        "csrf": csrf_of(page.text),
        "jeu": game,
        "joueurs": str(len(seats)),
        "pendule": "0",
        "pseudo": "Alice",
    }
    data.update({f"place_{i}": s for i, s in enumerate(seats)})
    return c.post("/tables", data=data, follow_redirects=False)


def test_table_creation_is_rate_limited_per_client_with_a_french_429(sqlite_url: str) -> None:
    with client(sqlite_url, limit_create="3 per minute") as c:
        statuses = [post_table(c).status_code for _ in range(3)]
        refused = post_table(c)
    assert statuses == [303, 303, 303]
    assert refused.status_code == 429
    assert "Trop de demandes" in refused.text and refused.headers["retry-after"]
    assert refused.headers["content-type"].startswith("text/html")


def test_joins_are_rate_limited_per_client(sqlite_url: str) -> None:
    with client(sqlite_url, limit_join="2 per minute") as c:
        codes = [create_table(c, "chouine", ["human", "human"]) for _ in range(3)]
        bob = other(c)
        answers = [join(bob, code, "Bob").status_code for code in codes]
    assert answers[:2] == [303, 303] and answers[2] == 429


def test_every_post_route_of_the_site_draws_from_a_budget(sqlite_url: str) -> None:
    """A form added later cannot be left out: every POST route is found in the app itself."""
    from starlette.requests import Request
    from starlette.routing import Route

    from choux.web import accounts, days_pages, learn, pages, players, seating, ws

    with client(sqlite_url) as c:
        limits: Limits = c.app.state.limits  # type: ignore[attr-defined]
        routers = (accounts, days_pages, learn, pages, players, seating, ws)
        posts = [
            route.path
            for module in routers
            for route in module.router.routes
            if isinstance(route, Route) and "POST" in (route.methods or ())
        ]
        assert len(posts) >= 15  # the forms of accounts, tables, seats, push, players
        for path in posts:
            concrete = path.replace("{code}", "ABCD").replace("{pseudo}", "Alice")
            concrete = concrete.replace("{game}", "chouine")
            scope = {"type": "http", "method": "POST", "path": concrete, "headers": []}
            assert limits.kind_of(Request(scope)) is not None, path
            assert limits.kind_of(Request({**scope, "method": "GET"})) is None


def test_following_a_player_and_leaving_a_seat_are_rate_limited(sqlite_url: str) -> None:
    """Routes once without a budget: each click is a database write or a table change."""
    with client(sqlite_url, limit_join="3 per minute") as c:
        answers = []
        for _ in range(4):
            page = c.get("/")
            answers.append(
                c.post(
                    "/joueur/Personne/suivre",
                    data={"csrf": csrf_of(page.text)},
                    follow_redirects=False,
                ).status_code
            )
        code = create_table(other(c), "chouine", ["human", "human"])
        page = c.get(f"/t/{code}")
        leave = c.post(f"/t/{code}/retirer", data={"csrf": csrf_of(page.text)})
    assert answers[:3] == [404, 404, 404] and answers[3] == 429
    assert leave.status_code == 429 and "Trop de demandes" in leave.text


def test_socket_messages_beyond_the_budget_are_refused_and_the_socket_kept(
    sqlite_url: str,
) -> None:
    with client(sqlite_url, limit_messages="5 per minute") as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            replies = []
            for _ in range(7):
                ws.send_json({"type": "ping"})
                message = ws.receive_json()
                while message["type"] not in ("pong", "refused"):
                    message = ws.receive_json()
                replies.append(message)
    assert [r["type"] for r in replies] == ["pong"] * 5 + ["refused"] * 2
    assert replies[-1]["message"] == "Trop de messages : ralentissez."


def test_bot_only_tables_are_limited_per_client_and_in_total(sqlite_url: str) -> None:
    bots = ("bot:random", "bot:random")
    with client(sqlite_url, max_bot_tables_per_client=2, max_bot_tables=3, bot_pace=5.0) as c:
        mine = [post_table(c, seats=bots).status_code for _ in range(3)]
        c.app.state.service.tables  # noqa: B018 (the limits count live tables in memory)
        for table in c.app.state.service.tables.values():
            table.client = "someone else"  # the first two belong to another address
        third = post_table(c, seats=bots)
        over_total = post_table(c, seats=bots)
        with_a_person = post_table(c)
    assert mine[:2] == [303, 303] and mine[2] == 429
    assert third.status_code == 303
    assert over_total.status_code == 429 and "robots" in over_total.text
    assert with_a_person.status_code == 303  # tables with a person are not limited


def test_tables_waiting_for_players_are_capped_per_client(sqlite_url: str) -> None:
    """A stream of empty tables from one address would push everyone else's off the
    lobby's list (it shows the newest ones only)."""
    two = ("human", "human")
    with client(sqlite_url, max_open_tables_per_client=3) as c:
        mine = [post_table(c, seats=two) for _ in range(4)]
        refused = post_table(c, seats=two)
        closed = c.post(
            mine[0].headers["location"] + "/fermer", data={"csrf": csrf_of(c.get("/").text)}
        )
        after_closing = post_table(c, seats=two)
        with_a_bot = post_table(c)  # live at once: nobody is waited for
        stranger = TestClient(c.app, client=("203.0.113.9", 50000))
        stranger.portal = c.portal
        theirs = post_table(stranger, seats=two)
        lobby = c.get("/").text
    assert [r.status_code for r in mine] == [303, 303, 303, 429]
    assert refused.status_code == 429
    assert "3 tables qui attendent des joueurs" in refused.text
    assert closed.status_code == 200
    assert page_log(closed.text)[-1] == "Table fermée par son hôte avant la partie."
    assert after_closing.status_code == 303
    assert with_a_bot.status_code == 303
    assert theirs.status_code == 303 and theirs.headers["location"].split("/")[-1] in lobby


def test_one_ipv6_subscriber_shares_one_budget_across_its_addresses(sqlite_url: str) -> None:
    """Every address of an IPv6 /64 counts as one client: one subscriber picks any of them."""
    with client(sqlite_url, limit_create="2 per minute") as c:

        def from_address(host: str) -> TestClient:
            visitor = TestClient(c.app, client=(host, 50000))
            visitor.portal = c.portal
            return visitor

        same = [
            post_table(from_address(f"2001:db8:7:1::{n:x}")).status_code for n in (1, 0xBEEF, 9)
        ]
        next_block = post_table(from_address("2001:db8:7:2::1")).status_code
    assert same == [303, 303, 429]
    assert next_block == 303


def test_limits_use_redis_when_configured() -> None:
    problem = redis_problem()
    if problem:
        pytest.skip(problem)
    settings = Settings(redis_url="redis://127.0.0.1:6379/0", limit_create="2 per minute")
    first, second = Limits(settings), Limits(settings)  # two processes, one budget
    import asyncio
    import uuid

    who = uuid.uuid4().hex

    async def hits() -> list[bool]:
        return [
            await first.allow("create", who),
            await second.allow("create", who),
            await first.allow("create", who),
        ]

    assert asyncio.run(hits()) == [True, True, False]


def test_an_open_table_nobody_completes_expires(sqlite_url: str) -> None:
    with client(sqlite_url, open_table_seconds=0.3) as c:
        code = create_table(c, "chouine", ["human", "human"])
        service = c.app.state.service
        wait_for(lambda: service.tables[code].status == "over", 5)
        assert code not in c.get("/").text
        page = c.get(f"/t/{code}").text
        assert "personne n'est venu" in page or "terminée" in page
        refused = join(other(c), code, "Bob")
        assert refused.status_code == 410 and "fermée" in refused.text


def test_a_table_completed_in_time_does_not_expire(sqlite_url: str) -> None:
    with client(sqlite_url, open_table_seconds=0.5) as c:
        code = create_table(c, "chouine", ["human", "human"])
        assert join(other(c), code, "Bob").status_code == 303
        time.sleep(0.8)
        assert c.app.state.service.tables[code].status == "live"


def bot_to_move(c, code: str) -> None:  # type: ignore[no-untyped-def]
    """Alice (seat 0) plays first if it is her turn: then the bot (seat 1) is to move."""
    service = c.app.state.service
    table = service.tables[code]
    if table.state.actors() == (0,):
        action = table.state.legal_actions(0)[0].to_json()
        c.portal.call(service.act, table, 0, action, "first")
    assert table.state.actors() == (1,)


def test_start_up_loads_open_tables_and_live_ones_on_first_access(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "LOBBY_TABLES", 1)  # the newest live table only
    with client(sqlite_url) as c:
        waiting = create_table(c, "chouine", ["human", "human"])
        older = create_table(c, "chouine", ["human", "bot:random"])
        create_table(c, "chouine", ["human", "bot:random"])
    with client(sqlite_url) as c:
        service = c.app.state.service
        assert waiting in service.tables  # the lobby lists it
        assert older not in service.tables and older in service.restored
        assert c.get(f"/t/{older}").status_code == 200
        assert service.tables[older].status == "live"


def test_the_lobby_lists_public_live_tables_after_a_restart_their_bots_asleep(
    sqlite_url: str,
) -> None:
    with client(sqlite_url, bot_pace=30.0) as c:  # the bot will not move before the stop
        code = create_table(c, "chouine", ["human", "bot:random"])
        bot_to_move(c, code)
        version = c.app.state.service.tables[code].version
    with client(sqlite_url, bot_pace=0.05, restore_quiet_seconds=0.0) as c:
        service = c.app.state.service
        assert code in other(c).get("/").text  # listed without anyone visiting it
        table = service.tables[code]
        assert table.status == "live" and table.version == version
        time.sleep(0.5)
        assert table.version == version  # asleep: the bot waits for a first visit
        assert other(c).get(f"/t/{code}").status_code == 200  # a spectator wakes it
        wait_for(lambda: table.version > version, 5)


def test_a_finished_table_loaded_on_demand_leaves_memory(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        table = c.app.state.service.tables[code]
        c.portal.call(c.app.state.store.set_status, table.row.id, "over")  # type: ignore[union-attr]
    with client(sqlite_url, evict_seconds=0.1) as c:
        service = c.app.state.service
        assert c.get(f"/t/{code}").status_code == 200  # loaded to be shown...
        assert code in service.tables
        wait_for(lambda: code not in service.tables, 5)  # ...then gone from memory
        assert c.get(f"/t/{code}").status_code == 200  # and back on demand


def test_bots_stay_quiet_on_a_restored_table_while_pages_reconnect(sqlite_url: str) -> None:
    with client(sqlite_url, bot_pace=30.0) as c:  # the bot will not move before the stop
        code = create_table(c, "chouine", ["human", "bot:random"])
        bot_to_move(c, code)
    with client(sqlite_url, restore_quiet_seconds=1.0) as c:
        service = c.app.state.service
        c.get(f"/t/{code}")
        table = service.tables[code]
        start = table.version
        time.sleep(0.5)
        assert table.version == start  # pages are still reconnecting: no bot move yet
        wait_for(lambda: table.version > start, 10)


def test_a_restored_table_resumes_at_once_when_every_person_is_back(sqlite_url: str) -> None:
    with client(sqlite_url, bot_pace=30.0) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        bot_to_move(c, code)
        start = c.app.state.service.tables[code].version  # the bot is to move from here
        cookies = dict(c.cookies)  # Alice's seat token
    with client(sqlite_url, restore_quiet_seconds=30.0) as c:
        service = c.app.state.service
        c.cookies.update(cookies)
        with c.websocket_connect(f"/t/{code}/ws") as ws:  # Alice's page reconnects
            receive_state(ws)
            table = service.tables[code]
            # no 30 s wait: she is back (read against the version before the restart, since
            # on a busy machine the bot may move before this line runs)
            wait_for(lambda: table.version > start, 5)
