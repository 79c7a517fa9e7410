"""Accounts and games over days, as a demanding player and an operator probed them: the
log-in limit per pseudonym, « À vous de jouer » for the person the turn comes to (not the
one who just moved), « Mes parties » after a correspondence game was abandoned, and what
a public profile shows of private tables."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from pushstub import Device, PushStub
from sqlalchemy import select, update
from test_web_accounts import PASSWORD, login, signup, text_of
from test_web_correspondence import create_days_table, due_now, stored
from test_web_push import subscribe
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixtures)
from webhelpers import client, create_table, csrf_of, join, other, play_to_end, wait_for

from choux.play.accounts import SESSION_DAYS
from choux.play.store import account_sessions_t


def from_address(c: TestClient, address: str) -> TestClient:
    """Another visitor, coming from its own network address."""
    visitor = TestClient(c.app, client=(address, 50000))
    visitor.portal = c.portal
    return visitor


def play_once(
    players: dict[int, TestClient], code: str, table: Any, seat: int | None = None
) -> int:
    """`seat` (by default the one person whose turn it is) plays their first legal action;
    returns their seat."""
    version = table.version
    if seat is None:
        (seat,) = table.state.actors()
    with players[seat].websocket_connect(f"/t/{code}/ws") as ws:
        message = ws.receive_json()
        while message["type"] != "state" or message["version"] != version:
            message = ws.receive_json()
        action = message["view"]["legal"][0]["action"]
        ws.send_json({"type": "action", "id": f"m{version}", "action": action})
        wait_for(lambda: table.version > version)
    return int(seat)


def test_look_alike_spellings_of_a_pseudonym_share_its_log_in_limit(sqlite_url: str) -> None:
    """A full-width « ＧＥＲＭＡＩＮＥ » logs in to Germaine's account, so it counts against
    Germaine's limits too (before, each of the 2^8 spellings had its own 10 tries): the
    address's for this pseudonym, and the pseudonym's from every address (ten times that),
    which bounds guesses spread over many addresses."""
    with client(sqlite_url, limit_login="3 per minute") as c:
        assert signup(c, "Germaine").status_code == 303
        spellings = ["Germaine", "GERMAINE", "ＧＥＲＭＡＩＮＥ", "Ｇermaine", "gＥrmaine"]
        # one address, its login budget spread over the pseudonym's spellings (its own
        # budget per address is the same 3: another pseudonym would be refused too)
        same = from_address(c, "10.0.0.1")
        answers = [login(same, p, "pas le bon mot de passe").status_code for p in spellings]
        assert answers == [403, 403, 403, 429, 429]
        # many addresses, one try each: the pseudonym's own budget is 30 a minute
        spread = [
            login(from_address(c, f"10.1.{n // 250}.{n % 250}"), spellings[n % 5], "faux")
            for n in range(33)
        ]
        # 3 tries counted already: 27 more, then refused whatever the address
        assert [a.status_code for a in spread] == [403] * 27 + [429] * 6
        # even the right password, in yet another spelling, waits like the others
        right = login(from_address(c, "10.0.1.1"), "ｇｅｒｍａｉｎｅ", PASSWORD)
        assert right.status_code == 429
        assert "Trop de tentatives de connexion" in text_of(right)


def turns_told(service: Any) -> list[tuple[int, list[int]]]:
    """Every « À vous de jouer » the service sends from now on: (version, seats told)."""
    told: list[tuple[int, list[int]]] = []

    async def hook(table: Any, seats: list[int]) -> None:
        told.append((table.version, list(seats)))

    service.turn_hooks.append(hook)
    return told


def test_the_player_who_keeps_the_turn_is_not_told_it_is_their_turn(sqlite_url: str) -> None:
    """« À vous de jouer » goes to the person the turn comes to. A Chouine player who wins
    a trick leads the next one: the table still waits for them, and they have just moved
    (often on another device than the phone a notification would ring)."""
    with client(sqlite_url) as alice:
        service = alice.app.state.service
        told = turns_told(service)
        code = create_days_table(alice, "chouine")
        bob = other(alice)
        join(bob, code, "Bob")
        table = service.tables[code]
        wait_for(lambda: told == [(0, list(table.state.actors()))])
        players = {0: alice, 1: bob}
        kept = 0
        for _ in range(24):  # within the first deal
            seat = play_once(players, code, table)
            wait_for(lambda: table.move_at is not None)  # this version's deadline is stored
            alice.portal.call(asyncio.sleep, 0.05)  # and its notifications on their way
            actors = list(table.state.actors())
            notified = [seats for version, seats in told if version == table.version]
            if actors == [seat]:  # the same person plays again: nobody is told
                kept += 1
                assert notified == [], (table.version, told)
            else:  # the turn comes to the other person: told once
                assert notified == [actors], (table.version, told)
        assert kept > 0  # the deal gave at least one trick to its leader's opponent


def chouineurs_by_days(host: TestClient) -> tuple[str, dict[int, TestClient]]:
    """A Chouineurs of three people at an hour a move, made by Ana; its code and the three."""
    page = host.get("/nouvelle?jeu=chouineurs")
    data = {"csrf": csrf_of(page.text), "jeu": "chouineurs", "joueurs": "3", "pendule": "0"}
    data.update({f"place_{n}": "human" for n in range(3)})
    data.update(pseudo="Ana", correspondance=str(3600), echeance="bot")
    created = host.post("/tables", data=data, follow_redirects=False)
    code = created.headers["location"].rsplit("/", 1)[1]
    players = {0: host}
    for n in range(1, 3):
        players[n] = other(host)
        join(players[n], code, f"Joueur{n}")
    return code, players


def test_a_decision_of_all_at_once_keeps_one_deadline(sqlite_url: str) -> None:
    """Everyone's secret choice at once: one person answering does not give the others a
    new hour, the decision's deadline stays where it was."""
    with client(sqlite_url) as host:
        code, players = chouineurs_by_days(host)
        table = host.app.state.service.tables[code]
        wait_for(lambda: table.move_at is not None)
        assert len(table.state.actors()) > 1
        due = table.move_at
        host.portal.call(asyncio.sleep, 1.1)  # a fresh deadline would be a second later
        play_once(players, code, table, min(table.state.actors()))
        wait_for(lambda: table.move_at is not None)
        assert table.move_at == due


def test_each_new_decision_gets_a_fresh_deadline(sqlite_url: str) -> None:
    """At Chouine each move is a new decision, even when a trick's winner leads the next
    one (a review saw the winner lead on what was left of the deadline of the trick)."""
    with client(sqlite_url) as alice:
        code = create_days_table(alice, "chouine")
        bob = other(alice)
        join(bob, code, "Bob")
        table = alice.app.state.service.tables[code]
        players = {0: alice, 1: bob}
        wait_for(lambda: table.move_at is not None)
        for _ in range(4):
            due = table.move_at
            alice.portal.call(asyncio.sleep, 1.05)
            play_once(players, code, table)
            wait_for(lambda due=due: table.move_at is not None and table.move_at != due)
            assert table.move_at > due + 1


def test_everyone_asked_at_once_is_told_once(sqlite_url: str) -> None:
    """The Chouineurs' first decision is everyone's at once: each person is told when the
    table starts waiting for them, not again each time another person has answered."""
    with client(sqlite_url) as host:
        service = host.app.state.service
        told = turns_told(service)
        code, players = chouineurs_by_days(host)
        table = service.tables[code]
        wait_for(lambda: table.move_at is not None)
        first = sorted(table.state.actors())
        wait_for(lambda: told == [(0, first)])
        assert len(first) > 1  # everyone at once
        while len(table.state.actors()) > 1:
            waiting = set(table.state.actors())
            seat = play_once(players, code, table, min(waiting))
            wait_for(lambda: table.move_at is not None)
            host.portal.call(asyncio.sleep, 0.05)
            for _, seats in told[1:]:  # only people the table did not wait for already
                assert not set(seats) & (waiting - {seat}), told
        # the answers' phase: each person told once (the next decision is a new one)
        during = [seats for version, seats in told if version < table.version]
        assert [sum(s in seats for seats in during) for s in first] == [1] * len(first), told


def finished_section(page: str) -> str:
    return page.split('id="finished"', 1)[1].split("</section>", 1)[0]


def test_an_abandoned_correspondence_game_stays_in_my_games(sqlite_url: str) -> None:
    """The deadline passed and the table's rule abandons the game (no record, not rated):
    when its players come back days later, « Mes parties » still shows it, abandoned,
    with a link to the table (before, it was in neither list: the game had vanished)."""
    with client(sqlite_url, correspondence_scale=1000.0) as alice:
        code = create_days_table(alice, "chouine", "abandon")
        bob = other(alice)
        join(bob, code, "Bob")
        wait_for(lambda: alice.app.state.service.tables[code].move_at is not None)
        alice.portal.call(due_now, alice.app.state.store)
        wait_for(lambda: stored(alice, code).status == "over", timeout=10)
        # a table nobody came to is no game: not listed
        lonely = create_days_table(alice, "chouine")
    with client(sqlite_url) as later:  # days later, after a restart
        for cookies in (alice.cookies, bob.cookies):
            visitor = other(later)
            visitor.cookies = cookies
            page = text_of(visitor.get("/mes-parties"))
            ongoing = page.split('id="ongoing"', 1)[1].split("</section>", 1)[0]
            finished = finished_section(page)
            assert f"/t/{code}" not in ongoing
            assert f'href="/t/{code}"' in finished and "abandonnée" in finished
            assert "Alice et Bob" in finished
            assert lonely not in finished  # an open table nobody came to is no game

            # and the table itself still says why it ended (its log line lived in memory)
            def says_why(visitor: TestClient = visitor) -> bool:
                log = visitor.get(f"/t/{code}/etat.json").json()["log"]
                return any("abandonnée, non classée" in line["text"] for line in log)

            wait_for(says_why)
            log = visitor.get(f"/t/{code}/etat.json").json()["log"]
            assert sum("abandonnée, non classée" in line["text"] for line in log) == 1
            # and that it was a game over days whose rule was to abandon it
            rules = [line["text"] for line in log if "Partie par correspondance" in line["text"]]
            assert rules == [
                "Partie par correspondance : 1 heure par coup ; au-delà, la partie est "
                "abandonnée (non classée)."
            ]


def test_a_public_profile_does_not_list_private_games(sqlite_url: str, course: str) -> None:
    """A private table's game replays only for those who sat there: a stranger reading the
    profile of one of them does not learn it was played, nor with whom."""
    with client(sqlite_url) as alice:
        assert signup(alice, "Germaine").status_code == 303
        page = alice.get(f"/nouvelle?jeu={course}")
        data = {
            "csrf": csrf_of(page.text),
            "jeu": course,
            "joueurs": "2",
            "pendule": "0",
            "place_0": "human",
            "place_1": "human",
            "prive": "1",
            "pseudo": "Germaine",
        }
        created = alice.post("/tables", data=data, follow_redirects=False)
        assert created.status_code == 303, text_of(created)[-3000:]
        location = created.headers["location"]
        code = location.rsplit("/", 1)[1]
        invite = re.search(r"\?cle=([\w-]+)", alice.get(location).text)
        assert invite is not None
        bob = other(alice)
        bob.get(f"/t/{code}?cle={invite.group(1)}")
        assert join(bob, code, "Marcel").status_code == 303
        table = alice.app.state.service.tables[code]
        players = {0: alice, 1: bob}
        for _ in range(20):
            wait_for(lambda: table.status == "over" or bool(table.state.actors()))
            if table.status == "over":
                break
            play_once(players, code, table)
        wait_for(lambda: table.record_id is not None)
        record = table.record_id
        public = create_table(alice, course, ["human", "bot:random"], "Germaine")
        with alice.websocket_connect(f"/t/{public}/ws") as ws:
            shown = play_to_end(ws)["record_id"]
        stranger = other(alice)
        assert stranger.get(f"/parties/{record}").status_code == 403
        profile = text_of(stranger.get("/joueur/Germaine"))
        assert f"/parties/{shown}" in profile  # the public game is there
        assert f"/parties/{record}" not in profile and "Marcel" not in profile
        # Germaine herself, and Marcel who sat there, still find it
        assert f"/parties/{record}" in alice.get("/joueur/Germaine").text
        assert f"/parties/{record}" in bob.get("/mes-parties").text


def test_an_expired_session_is_not_counted_as_a_connected_device(sqlite_url: str) -> None:
    """Sixty days after a log-in the phone is a guest again: the account page must not
    go on counting it among the connected devices."""
    with client(sqlite_url) as laptop:
        assert signup(laptop, "Germaine").status_code == 303
        phone = other(laptop)
        assert login(phone, "Germaine").status_code == 303
        assert "2 appareils connectés" in text_of(laptop.get("/compte"))
        store = laptop.app.state.store

        async def age_the_oldest_session() -> None:
            async with store.db.begin() as conn:
                oldest = (
                    await conn.execute(
                        select(account_sessions_t.c.token_hash)
                        .order_by(account_sessions_t.c.created_at)
                        .limit(1)
                    )
                ).scalar_one()
                await conn.execute(
                    update(account_sessions_t)
                    .where(account_sessions_t.c.token_hash == oldest)
                    .values(created_at=datetime.now(UTC) - timedelta(days=SESSION_DAYS + 1))
                )

        laptop.portal.call(age_the_oldest_session)  # the laptop's: signed up first
        assert laptop.get("/compte", follow_redirects=False).status_code == 303  # a guest
        page = text_of(phone.get("/compte"))
        assert "1 appareil connecté" in page and "2 appareils" not in page


def test_a_device_s_notifications_follow_it_when_it_logs_in_or_out(sqlite_url: str) -> None:
    """A phone that turned notifications on as a guest, then logged in, is told of the
    account's turns; a shared tablet that logged out is no longer told of them (before, the
    subscription stayed with the identity it was made under: the phone heard nothing, the
    tablet went on hearing of the account's tables)."""
    devices = {"phone": Device(), "tablet": Device()}
    with PushStub() as stub, client(sqlite_url, push_allow_local=True) as alice:
        assert signup(alice, "Germaine").status_code == 303
        bob = other(alice)
        assert signup(bob, "Marcel").status_code == 303
        code = create_days_table(alice, "chouine")
        phone, tablet = other(alice), other(alice)
        sub = devices["phone"].subscription(f"{stub.url}/phone")
        assert subscribe(phone, code, sub).is_success  # as a guest
        assert login(phone, "Germaine").status_code == 303
        assert login(tablet, "Marcel").status_code == 303
        sub = devices["tablet"].subscription(f"{stub.url}/tablet")
        assert subscribe(tablet, code, sub).is_success
        page = tablet.get("/compte")
        tablet.post("/deconnexion", data={"csrf": csrf_of(page.text)})
        join(bob, code, "Marcel")
        table = alice.app.state.service.tables[code]
        wait_for(lambda: table.move_at is not None)
        first = table.state.actors()[0]
        if first == 1:  # Marcel plays first: then it is Germaine's turn
            play_once({0: alice, 1: bob}, code, table)
            wait_for(lambda: table.move_at is not None)
        wait_for(lambda: [p.path for p in stub.received] == ["/phone"])
        alice.portal.call(asyncio.sleep, 0.2)
        assert [p.path for p in stub.received] == ["/phone"]  # never the tablet
