"""The table service: persistence and restart, clocks, bots, rematch, replacements."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    db_url_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import (
    client,
    create_table,
    join,
    other,
    receive_state,
    receive_version,
    settings,
    wait_for,
)

from choux import games
from choux.play.service import SeatSpec, TableError, TableService
from choux.play.store import Store, VersionConflict


def test_restart_rebuilds_live_tables_from_the_action_log(db_url: str, course: str) -> None:
    with client(db_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        bob = other(c)
        join(bob, code, "Bob")
        with c.websocket_connect(f"/t/{code}/ws") as wa:
            receive_state(wa)
            wa.send_json({"type": "action", "id": "r1", "action": {"type": "add", "n": 2}})
            before = receive_version(wa, 1)
        alice_cookies = dict(c.cookies)
        bob_cookies = dict(bob.cookies)
        lines = [line["text"] for line in c.get(f"/t/{code}/etat.json").json()["log"]]
    with client(db_url) as c2:
        c2.cookies.update(alice_cookies)
        after = c2.get(f"/t/{code}/etat.json").json()
        assert after["version"] == 1 and after["seat"] == 0
        assert after["view"] == before["view"]
        # the log as it was, its first lines too (« Table ouverte », who sat down)
        assert lines[:2] == ["Table ouverte : La Course.", "Bob s'installe à la place 2."]
        assert [line["text"] for line in after["log"]] == lines
        bob2 = other(c2)
        bob2.cookies.update(bob_cookies)
        with bob2.websocket_connect(f"/t/{code}/ws") as wb:
            state = receive_state(wb)
            assert state["seat"] == 1 and state["view"]["actors"] == [1]
            wb.send_json({"type": "action", "id": "r2", "action": {"type": "add", "n": 1}})
            assert receive_version(wb, 2)["view"]["total"] == 3
        # the same client action id after the restart is still applied once
        with c2.websocket_connect(f"/t/{code}/ws") as wa:
            receive_state(wa)
            wa.send_json({"type": "action", "id": "r1", "action": {"type": "add", "n": 2}})
            message = wa.receive_json()
            while message["type"] != "ack":
                message = wa.receive_json()
            assert message["version"] == 1
        assert c2.app.state.service.tables[code].state.total == 3
        # the lobby lists restored tables next to new ones
        create_table(c2, course, ["human", "bot:random"], "Carole")
        assert c2.get("/").status_code == 200


def test_deadline_applies_the_timeout_action_once(db_url: str, course: str) -> None:
    with client(db_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice", {"fenetre": "on"})
        join(other(c), code, "Bob")
        service = c.app.state.service
        table = service.tables[code]
        c.portal.call(service.act, table, 0, {"type": "add", "n": 1}, "d1")
        c.portal.call(service.act, table, 1, {"type": "add", "n": 1}, "d2")
        assert table.state.open and table.deadline_at is not None
        wait_for(lambda: table.version == 3)
        assert table.actions[-1] == (None, {"type": "close"})
        assert any("fenêtre se ferme" in str(entry) for _, entry in table.log)
        time.sleep(0.3)
        assert table.version == 3 and table.state.actors() == (0,)


def test_bots_play_a_whole_game_and_the_record_is_stored(db_url: str, course: str) -> None:
    with client(db_url) as c:
        code = create_table(c, course, ["bot:lent", "bot:random"], None, {"fenetre": "on"})
        table = c.app.state.service.tables[code]
        wait_for(lambda: table.status == "over")
        assert table.record_id is not None
        record = c.get(f"/parties/{table.record_id}.json").json()
        assert record["game"] == course and len(record["actions"]) == table.version
        page = c.get(f"/parties/{table.record_id}")
        assert page.status_code == 200
        lobby = c.get("/").text
        assert f"/parties/{table.record_id}" in lobby


def test_bot_moves_wait_for_their_delay(sqlite_url: str, course: str) -> None:
    with client(sqlite_url, bot_pace=0.3) as c:
        code = create_table(c, course, ["bot:random", "human"], "Alice")
        table = c.app.state.service.tables[code]
        started = time.monotonic()
        wait_for(lambda: table.version >= 1)
        assert time.monotonic() - started >= 0.25


def test_table_waits_for_every_person_before_starting(sqlite_url: str, course: str) -> None:
    with client(sqlite_url, bot_pace=0.0) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        table = c.app.state.service.tables[code]
        time.sleep(0.1)
        assert table.status == "open" and table.version == 0
        join(other(c), code, "Bob")
        assert table.status == "live"
        assert any("commence" in str(entry) for _, entry in table.log)


def test_action_before_start_and_after_end_is_refused(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_json({"type": "action", "id": "e", "action": {"type": "add", "n": 1}})
            message = ws.receive_json()
            while message["type"] != "refused":
                message = ws.receive_json()
            assert "pas encore commencé" in message["message"]


def test_host_replaces_a_player_by_a_bot(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        bob = other(c)
        join(bob, code, "Bob")
        from webhelpers import csrf_of

        refused = bob.post(
            f"/t/{code}/remplacer",
            data={"csrf": csrf_of(bob.get("/").text), "place": "0"},
            follow_redirects=False,
        )
        assert refused.status_code == 403
        response = c.post(
            f"/t/{code}/remplacer",
            data={"csrf": csrf_of(c.get("/").text), "place": "1"},
            follow_redirects=False,
        )
        assert response.status_code == 303
        table = c.app.state.service.tables[code]
        assert table.seats[1].kind == "bot"
        assert bob.get(f"/t/{code}/etat.json").json()["seat"] is None
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_json({"type": "action", "id": "h", "action": {"type": "add", "n": 1}})
            receive_version(ws, 2)  # the bot answered


def test_absent_player_is_replaced_after_the_grace_period(sqlite_url: str, course: str) -> None:
    with client(sqlite_url, grace_seconds=0.2) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        join(other(c), code, "Bob")
        table = c.app.state.service.tables[code]
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            # the log line comes after the seat is stored: leaving before that write ends
            # would cancel it mid-query at shutdown (aiosqlite's close can then hang)
            wait_for(lambda: any("remplacé·e par un robot" in text for _, text in table.log))
            assert table.seats[1].kind == "bot"
            assert table.seats[0].kind == "human"


def test_move_clock_plays_for_a_slow_person(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice", clock=30)
        table = c.app.state.service.tables[code]
        table.row.clock = 0.1  # type: ignore[assignment]
        c.portal.call(c.app.state.service._after_change, table)  # re-arm: short clock
        wait_for(lambda: table.version >= 1)
        assert table.actions[0][0] == 0
        assert any("Temps écoulé" in str(entry) for _, entry in table.log)


def finish_course(c: Any, code: str) -> None:
    """Both seats of a « course » table add 2 in turn until it is over."""
    service = c.app.state.service
    table = service.tables[code]
    for step in range(3):
        for seat in (0, 1):
            if table.status == "live":
                add = {"type": "add", "n": 2}
                c.portal.call(service.act, table, seat, add, f"m{step}{seat}")
    assert table.status == "over"


def finished_duel(c: Any, course: str) -> tuple[str, Any]:
    """A « course » table of Alice (`c`) and Bob, played to its end: its code, Bob's client."""
    code = create_table(c, course, ["human", "human"], "Alice")
    bob = other(c)
    join(bob, code, "Bob")
    finish_course(c, code)
    return code, bob


def rematch(c: Any, code: str) -> str:
    """« Rejouer » pressed by `c`: the rematch's code."""
    from webhelpers import csrf_of

    answer = c.post(
        f"/t/{code}/rejouer", data={"csrf": csrf_of(c.get("/").text)}, follow_redirects=False
    )
    assert answer.status_code == 303
    return str(answer.headers["location"]).rsplit("/", 1)[1]


def test_rematch_keeps_seats_and_bots(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code, bob = finished_duel(c, course)
        new_code = rematch(bob, code)
        assert new_code != code
        assert bob.get(f"/t/{new_code}/etat.json").json()["seat"] == 1
        # Alice's seat waits for her: a stranger neither sees the table nor takes her seat
        stranger = other(c)
        assert f"/t/{new_code}" not in stranger.get("/").text
        assert join(stranger, new_code, "Intrus").status_code in (403, 404)
        assert c.get(f"/t/{new_code}").status_code == 200  # Alice follows the link
        state = c.get(f"/t/{new_code}/etat.json").json()
        assert state["seat"] == 0 and state["status"] == "live"
        assert [s["name"] for s in state["seats"]] == ["Alice", "Bob"]
        assert c.get(f"/t/{code}/etat.json").json()["next_code"] == new_code


def test_a_rematch_keeps_each_seat_for_its_former_player_against_invitees(
    sqlite_url: str, course: str
) -> None:
    """A newcomer with the rematch's invite link took the seat of a former player, who then
    found their own rematch as a spectator (an evening's audit). The seat is now kept for
    them a few minutes: not offered, refused by name, and theirs when they come."""
    import html
    import re

    with client(sqlite_url) as c:
        code, bob = finished_duel(c, course)
        new_code = rematch(c, code)
        hosts_page = html.unescape(c.get(f"/t/{new_code}").text)
        link = re.search(rf"/t/{new_code}\?cle=[\w-]+", hosts_page)
        assert link is not None
        # the host, who sends the link around, is told too
        assert "La place 2 attend Bob, qui jouait la partie précédente" in hosts_page
        stranger = other(c)
        page = html.unescape(stranger.get(link.group(0)).text)
        assert "La place 2 attend Bob, qui jouait la partie précédente" in page
        assert f'action="/t/{new_code}/rejoindre"' not in page  # no seat to offer
        for seat in (1, None):
            refused = join(stranger, new_code, "Intrus", seat)
            assert refused.status_code == 400, refused.status_code
            assert "La place 2 est gardée quelques minutes pour Bob" in html.unescape(refused.text)
        still = c.get(f"/t/{new_code}/etat.json").json()
        assert still["status"] == "open" and still["seats"][0]["name"] == "Alice"
        bob.get(f"/t/{new_code}")  # Bob follows « Rejoindre la revanche »: his seat
        state = bob.get(f"/t/{new_code}/etat.json").json()
        assert state["seat"] == 1 and state["status"] == "live"


async def test_store_refuses_a_second_writer_at_the_same_version(db_url: str, course: str) -> None:
    store = Store(db_url)
    await store.open()
    try:
        service = TableService(settings(db_url), store)
        table, _ = await service.create(
            course, 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
        )
        await store.append_action(table.row.id, 1, 0, {"type": "add", "n": 1}, None)
        with pytest.raises(VersionConflict):
            await store.append_action(table.row.id, 1, 1, {"type": "add", "n": 2}, None)
        row = await store.load_table(table.code)
        assert row is not None and row.version == 1 and len(row.actions) == 1
        await service.stop()
    finally:
        await store.close()


async def test_service_refuses_unknown_games_and_bad_options(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    await store.open()
    try:
        service = TableService(settings(sqlite_url), store)
        with pytest.raises(TableError):
            await service.create("belote", 4, {}, [SeatSpec("human")] * 4)
        if "chouine" in games.names():
            with pytest.raises(TableError) as error:
                await service.create("chouine", 2, {"preset": "x"}, [SeatSpec("human")] * 2)
            assert "impossible" in error.value.message.lower()
        await service.stop()
    finally:
        await store.close()
    await asyncio.sleep(0)


async def test_one_bad_append_in_a_batch_does_not_sink_the_others(db_url: str, course: str) -> None:
    store = Store(db_url)
    await store.open()
    try:
        service = TableService(settings(db_url), store)
        specs = [SeatSpec("human"), SeatSpec("human")]
        one, _ = await service.create(course, 2, {}, specs, creator="Alice")
        two, _ = await service.create(course, 2, {}, specs, creator="Alice")
        results = await asyncio.gather(
            store.append_action(one.row.id, 1, 0, {"type": "add", "n": 1}, None),
            store.append_action(two.row.id, 5, 0, {"type": "add", "n": 1}, None),  # wrong version
            return_exceptions=True,
        )
        assert results[0] is None and isinstance(results[1], VersionConflict)
        row_one, row_two = await store.load_table(one.code), await store.load_table(two.code)
        assert row_one is not None and row_one.version == 1 and len(row_one.actions) == 1
        assert row_two is not None and row_two.version == 0 and not row_two.actions
        await service.stop()
    finally:
        await store.close()


async def test_a_batch_of_appends_and_a_game_end_are_each_stored_once(
    db_url: str, course: str
) -> None:
    """Appends of many tables arriving together (one statement on PostgreSQL), one of them
    ending its game (record in the same batch), one stored already by an attempt whose
    answer was lost (the same client id again: a success, not a conflict)."""
    store = Store(db_url)
    await store.open()
    try:
        service = TableService(settings(db_url), store)
        specs = [SeatSpec("human"), SeatSpec("human")]
        tables = [(await service.create(course, 2, {}, specs, creator="A"))[0] for _ in range(6)]
        ids = [t.row.id for t in tables]
        await store.append_action(ids[5], 1, 0, {"type": "add", "n": 1}, "sent-twice")
        record = {"game": course, "players": 2, "result": None}
        results = await asyncio.gather(
            *(store.append_action(i, 1, 0, {"type": "add", "n": 1}, f"c{i}") for i in ids[:4]),
            store.append_action(ids[4], 1, 1, {"type": "add", "n": 2}, None, record),
            store.append_action(ids[5], 1, 0, {"type": "add", "n": 1}, "sent-twice"),
            return_exceptions=True,
        )
        assert results[:4] == [None] * 4 and results[5] is None
        assert isinstance(results[4], int) and await store.record_id_for_table(ids[4]) == results[4]
        for table in tables:
            row = await store.load_table(table.code)
            assert row is not None and row.version == 1 and len(row.actions) == 1
        ended = await store.load_table(tables[4].code)
        assert ended is not None and ended.status == "over"
        assert ended.actions == [(1, {"type": "add", "n": 2}, None)]
        with pytest.raises(VersionConflict):  # another client's move at a taken version
            await store.append_action(ids[0], 1, 1, {"type": "add", "n": 3}, "late")
        await service.stop()
    finally:
        await store.close()


def test_finished_tables_leave_memory_and_reload_on_demand(sqlite_url: str, course: str) -> None:
    with client(sqlite_url, evict_seconds=0.1) as c:
        code = create_table(c, course, ["bot:random", "bot:random"], None)
        service = c.app.state.service
        table = service.tables[code]
        wait_for(lambda: table.status == "over")
        wait_for(lambda: code not in service.tables)
        state = c.get(f"/t/{code}/etat.json").json()
        assert state["status"] == "over" and state["result"] is not None
        assert state["record_id"] == table.record_id


async def test_hostile_text_in_an_action_is_stored_as_it_came(db_url: str, course: str) -> None:
    """What people type goes in the log as it came, through the batch of appends too (on
    PostgreSQL one JSON text carries the batch: the action's JSON is nested in it)."""
    store = Store(db_url)
    await store.open()
    try:
        service = TableService(settings(db_url), store)
        specs = [SeatSpec("human"), SeatSpec("human")]
        texts = [
            "l'argument \"fallacieux\" \\ n'est pas {un} [tableau]",
            "\u0000 nul, \u2028 séparateur, \U0001f600 emoji",
            "'); drop table actions; --",
            '\\u0000 \\" \\\\ %s %(now)s $1 ::json',
        ]
        tables = [(await service.create(course, 2, {}, specs, creator="A"))[0] for _ in texts]
        actions = [{"type": "add", "n": 1, "text": text} for text in texts]
        results = await asyncio.gather(
            *(
                store.append_action(table.row.id, 1, 0, action, f"c{index}")
                for index, (table, action) in enumerate(zip(tables, actions, strict=True))
            )
        )
        assert results == [None] * len(texts)
        for table, action in zip(tables, actions, strict=True):
            row = await store.load_table(table.code)
            assert row is not None and row.actions == [(0, action, f"c{tables.index(table)}")]
        await service.stop()
    finally:
        await store.close()


async def test_a_move_s_wording_is_the_engine_s_not_the_client_s(sqlite_url: str) -> None:
    """A Chouineurs card's end in words (`shows`) is never compared: a client's own text
    there was stored and then read in every replay's list of moves. The stored move carries
    the engine's wording."""
    store = Store(sqlite_url)
    await store.open()
    try:
        service = TableService(settings(sqlite_url), store)
        specs = [SeatSpec("human")] * 3
        table, _ = await service.create("chouineurs", 3, {}, specs, creator="Alice")
        for seat, name in ((1, "Bob"), (2, "Chloé")):
            await service.join(table, seat, name)
        state = table.state
        for seat in range(3):
            await service.act(table, seat, state.legal_actions(seat)[0].to_json())
        seat = table.state.actors()[0]  # the first lead
        legal = table.state.legal_actions(seat)[0]
        forged = {**legal.to_json(), "shows": "AS de pique (allez voir evil.example)"}
        await service.act(table, seat, forged)
        row = await store.load_table(table.code)
        assert row is not None
        stored = row.actions[-1][1]
        assert stored == legal.to_json() and "evil" not in str(stored)
        await service.stop()
    finally:
        await store.close()


def test_a_rematch_lets_an_account_in_from_any_of_its_devices(sqlite_url: str, course: str) -> None:
    """Bob plays logged in on his phone; the rematch opens for him on his laptop too (it
    answered « table privée »), and as himself (the claim was refused: « Bob » is an
    account's pseudonym, log in to play under it, though he was logged in)."""
    from test_web_accounts import login, signup
    from webhelpers import csrf_of

    with client(sqlite_url) as c:
        assert signup(c, "Alice").status_code == 303
        code = create_table(c, course, ["human", "human"], "Alice")
        phone = other(c)
        assert signup(phone, "Bob").status_code == 303
        join(phone, code, "Bob")
        finish_course(c, code)
        response = c.post(
            f"/t/{code}/rejouer", data={"csrf": csrf_of(c.get("/").text)}, follow_redirects=False
        )
        new_code = response.headers["location"].rsplit("/", 1)[1]
        laptop = other(c)
        assert login(laptop, "Bob").status_code == 303
        assert laptop.get(f"/t/{new_code}").status_code == 200
        state = laptop.get(f"/t/{new_code}/etat.json").json()
        assert state["seat"] == 1 and state["status"] == "live"
        assert phone.get(f"/t/{new_code}/etat.json").json()["seat"] == 1


async def test_a_window_s_clocks_keep_their_time_through_the_others_clicks(
    sqlite_url: str,
) -> None:
    """The rules' « Windows are fair »: a window « stays open until its deadline ». A race,
    a fair window and the move clock run until their deadline: a −10 pressed
    meanwhile neither lengthens the window nor hands the idle roller a new move clock (an
    audit kept a 4 s race open 15 s, and an idle roller waited 59 s of a 30 s clock)."""
    from choux.games.cul_de_chouette.actions import DeclareBevue, EnterDice

    store = Store(sqlite_url)
    await store.open()
    try:
        overrides = {"deadline_scale": 1.0, "bot_pace": 60.0}
        service = TableService(settings(sqlite_url, **overrides), store)
        specs = [SeatSpec("human")] * 3
        table, _ = await service.create(
            "cul-de-chouette", 3, {"des": "reels"}, specs, clock=30, creator="Alice"
        )
        for seat, name in ((1, "Bob"), (2, "Chloé")):
            await service.join(table, seat, name)

        def state() -> Any:  # each move swaps in a new state
            return table.state

        while state().step == "ouverture":  # the opening dice: 1 for seat 0, then 6s
            assert state().tiebreak is not None
            seat = state().tiebreak.pending[0]
            await service.act(table, seat, EnterDice((1 if seat == 0 else 6,)).to_json())
        assert state().step == "debut" and state().roller == 0
        move_at = table.move_at
        assert move_at is not None
        await asyncio.sleep(0.05)
        await service.act(table, 1, DeclareBevue(2).to_json())  # nothing to do with the roll
        assert table.move_at == move_at  # the roller's clock runs on
        await service.act(table, 0, EnterDice((2, 2)).to_json())
        if state().step == "achat":
            for seat in (1, 2):
                await service.act(table, seat, {"type": "passer"})
        await service.act(table, 0, EnterDice((4,)).to_json())  # 2-2-4: a Chouette Velute race
        assert state().race is not None and table.deadline_at is not None
        race_ends = table.deadline_at
        await asyncio.sleep(0.05)
        await service.act(table, 2, DeclareBevue(1).to_json())
        assert table.deadline_at == race_ends  # not 4 s after the last click
        assert state().race is not None
        await service.stop()
    finally:
        await store.close()


def test_the_site_s_opening_dice_are_in_the_journal(sqlite_url: str) -> None:
    """With the site's dice, who starts a Cul de Chouette is rolled as the table is made:
    those dice were in no journal (the state's first events were dropped). They now follow
    « Tout le monde est là », as any roll's lines do, and a table read back from the store
    says them again."""
    with client(sqlite_url, bot_pace=60.0) as c:
        code = create_table(c, "cul-de-chouette", ["human", "human", "human"], "Alice")
        table = c.app.state.service.tables[code]
        assert not any("lance un" in str(entry) for _, entry in table.log)  # not before the start
        for name in ("Bob", "Chloé"):
            join(other(c), code, name)
        lines = [line["text"] for line in c.get(f"/t/{code}/etat.json").json()["log"]]
        view = table.state.view(None)
        starter = ("Alice", "Bob", "Chloé")[view["roller"]]
        start = lines.index("Tout le monde est là : la partie commence !")
        opening = lines[start + 1 :]
        assert opening[-1] == f"{starter} a le plus petit dé et commence.", lines
        for name in ("Alice", "Bob", "Chloé"):
            assert any(line.startswith(f"{name} lance un ") for line in opening), lines
        seated = dict(table.log)  # what was logged before any move, at version 0
        assert set(seated) == {0}
        assert table.version == 0 and view["step"] == "debut"
        # a table the creator fills with bots starts at once: its opening dice are logged
        bots = create_table(c, "cul-de-chouette", ["human", "bot:easy"], "Alice")
        texts = [str(e) for _, e in c.app.state.service.tables[bots].log]
        assert sum("lance un" in t for t in texts) >= 2, texts
    with client(sqlite_url, bot_pace=60.0) as again:  # a restart reads the table back
        after = [line["text"] for line in again.get(f"/t/{code}/etat.json").json()["log"]]
        assert after == lines
