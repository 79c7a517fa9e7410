"""Correspondence tables: days per move, no bot for the absent, the table's rule at timeout,
deadlines kept in the store across restarts."""

from __future__ import annotations

import asyncio
import html
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from scaleout_helpers import free_port, redis_on
from sqlalchemy import update
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, csrf_of, join, other, postgres_or_skip, wait_for

from choux.play.correspondence_store import correspondence_t

HOUR = 3600


def text_of(response: Any) -> str:
    """A page's text as read: its « ' » and « » » unescaped."""
    return html.unescape(response.text)


def create_days_table(
    c: Any, game: str, on_timeout: str = "bot", seconds: int = HOUR, second: str = "human"
) -> str:
    """A two-seat correspondence table made through the form by Alice; `second`: the other
    seat (« human » left free, or a bot such as « bot:random »)."""
    page = c.get(f"/nouvelle?jeu={game}")
    data = {
        "csrf": csrf_of(page.text),
        "jeu": game,
        "joueurs": "2",
        "pseudo": "Alice",
        "place_0": "human",
        "place_1": second,
        "pendule": "0",
        "correspondance": str(seconds),
        "echeance": on_timeout,
    }
    response = c.post("/tables", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).rsplit("/", 1)[1]


async def due_now(store: Any) -> None:
    """Every stored deadline passed: as if the days had gone by."""
    async with store.db.begin() as conn:
        await conn.execute(update(correspondence_t).values(due_at=datetime(2000, 1, 1, tzinfo=UTC)))


def stored(c: Any, code: str) -> Any:
    service = c.app.state.service
    return c.portal.call(service.store.load_table, code)


def test_the_form_offers_days_for_chouine_and_says_why_not_for_cul_de_chouette(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        assert 'name="correspondance"' in c.get("/nouvelle?jeu=chouine").text
        page = c.get("/nouvelle?jeu=cul-de-chouette").text
        assert 'name="correspondance"' not in page
        assert "ne se joue pas par correspondance" in page
        data = {
            "csrf": csrf_of(page),
            "jeu": "cul-de-chouette",
            "joueurs": "2",
            "pseudo": "Alice",
            "place_0": "human",
            "place_1": "human",
            "correspondance": str(HOUR),
        }
        refused = c.post("/tables", data=data, follow_redirects=False)
        assert refused.status_code == 400
        assert "tout le monde soit là" in text_of(refused)
        # nor the Parlote: its « Moi ! » and its time to argue a card run in seconds
        parlote = text_of(c.get("/nouvelle?jeu=parlote"))
        assert 'name="correspondance"' not in parlote and "propre minuterie" in parlote
        data.update(jeu="parlote", joueurs="4", place_2="human", place_3="human")
        refused = c.post("/tables", data=data, follow_redirects=False)
        assert refused.status_code == 400 and "propre minuterie" in text_of(refused)
        data.update(jeu="chouine", joueurs="2", correspondance="7")
        del data["place_2"], data["place_3"]
        assert "Temps par coup impossible" in c.post("/tables", data=data).text
        assert c.app.state.service.tables == {}  # nothing was created


def test_an_absent_player_is_not_replaced_by_a_bot(sqlite_url: str) -> None:
    with client(sqlite_url, grace_seconds=0.1) as alice:
        code = create_days_table(alice, "chouine")
        bob = other(alice)
        join(bob, code, "Bob")
        with bob.websocket_connect(f"/t/{code}/ws") as wb:
            wb.receive_json()
        table = alice.app.state.service.tables[code]
        wait_for(lambda: table.move_at is not None)
        assert table.move_at > table.row.created_at.timestamp() + HOUR - 60
        alice.portal.call(lambda: asyncio.sleep(0.5))
        assert [s.kind for s in table.seats] == ["human", "human"]
        # against a bot, the game starts at its creation: Alice has days, not the grace
        solo = alice.app.state.service.tables[
            create_days_table(alice, "chouine", second="bot:random")
        ]
        alice.portal.call(lambda: asyncio.sleep(0.5))
        assert solo.status == "live" and [s.kind for s in solo.seats] == ["human", "bot"]


def test_at_timeout_a_bot_plays_that_move_even_after_a_restart(sqlite_url: str) -> None:
    with client(sqlite_url, correspondence_scale=1000.0) as alice:  # an hour: not now
        code = create_days_table(alice, "chouine")
        join(other(alice), code, "Bob")
        table = alice.app.state.service.tables[code]
        wait_for(lambda: table.move_at is not None)
        waiting = table.state.actors()
    # restarted with hours of a second: the stored deadline (an hour away) is kept ...
    with client(sqlite_url, correspondence_scale=1 / HOUR) as again:
        again.portal.call(lambda: asyncio.sleep(0.6))
        assert stored(again, code).version == 0
    # ... and fires once it is due, without anyone visiting the table
    with client(sqlite_url, correspondence_scale=1 / HOUR) as later:
        service = later.app.state.service
        later.portal.call(due_now, later.app.state.store)
        wait_for(lambda: stored(later, code).version == 1, timeout=10)
        table = later.portal.call(service.get, code)
        assert table.status == "live" and table.seats[waiting[0]].kind == "human"
        assert any("Temps écoulé" in str(text) for _, text in table.log)
        # the next move has its own deadline, a second later (an hour scaled)
        wait_for(lambda: stored(later, code).version == 2, timeout=10)


def abandoned_game(alice: Any) -> str:
    """Alice and Bob's Chouine by correspondence, abandoned at its first deadline (scale
    it short); its code."""
    code = create_days_table(alice, "chouine", "abandon")
    join(other(alice), code, "Bob")
    wait_for(lambda: stored(alice, code).status == "over", timeout=10)
    return code


def test_at_timeout_the_game_can_be_abandoned_and_not_rated(sqlite_url: str) -> None:
    with client(sqlite_url, correspondence_scale=1 / HOUR) as alice:
        code = abandoned_game(alice)
        service = alice.app.state.service
        table = service.tables[code]
        assert table.version == 0 and table.record_id is None
        assert any("abandonnée" in str(text) for _, text in table.log)
        assert alice.portal.call(service.store.ladder, "chouine") == []


@pytest.mark.postgres
def test_with_two_processes_one_of_them_fires_each_deadline() -> None:
    slow = {"resync_seconds": 0.5, "correspondence_scale": 1000.0}
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, **slow) as a,
        client(db, redis_url=redis_url, **slow) as b,
    ):
        code = create_days_table(a, "chouine")
        join(other(a), code, "Bob")
        assert b.get(f"/t/{code}").status_code == 200  # B holds the table too
        service_a, service_b = a.app.state.service, b.app.state.service
        wait_for(lambda: service_a.tables[code].move_at is not None)
        a.portal.call(due_now, a.app.state.store)
        wait_for(lambda: stored(a, code).version == 1)
        wait_for(lambda: service_b.tables[code].version == 1)
        a.portal.call(asyncio.sleep, 1.0)  # both pollers have seen the deadline by now
        assert len(service_a.fired_log) + len(service_b.fired_log) == 1
        assert stored(a, code).version == 1


def test_an_open_correspondence_table_waits_days_for_its_players(sqlite_url: str) -> None:
    with client(sqlite_url, open_table_seconds=0.3) as c:
        days = create_days_table(c, "chouine")
        page = c.get("/nouvelle?jeu=chouine")
        data = {
            "csrf": csrf_of(page.text),
            "jeu": "chouine",
            "joueurs": "2",
            "pseudo": "Alice",
            "place_0": "human",
            "place_1": "human",
        }
        at_once = c.post("/tables", data=data, follow_redirects=False).headers["location"]
        at_once = at_once.rsplit("/", 1)[1]
        wait_for(lambda: stored(c, at_once).status == "over")
        c.portal.call(asyncio.sleep, 0.5)
        assert stored(c, days).status == "open"


def test_a_correspondence_table_against_a_bot_keeps_its_rule_and_deadlines(
    sqlite_url: str,
) -> None:
    """A table with a bot is live as soon as it is created: its first deadline is looked
    for while the form's handler is still making it a correspondence table. That read
    (no rule yet) must not make the process forget the rule once it is stored: before,
    about one such table in three never had a deadline again (its timeouts never fired,
    and an absent person was replaced by a bot as at a table played in one sitting)."""
    with client(sqlite_url, correspondence_scale=1000.0) as alice:
        service = alice.app.state.service
        codes = [create_days_table(alice, "chouine", second="bot:random") for _ in range(12)]
        for code in codes:
            table = service.tables[code]
            wait_for(lambda t=table: t.move_at is not None)  # Alice's turn has its deadline
            assert alice.portal.call(service.rule_for, table) is not None


def test_the_rematch_of_a_game_over_days_is_over_days_too(sqlite_url: str) -> None:
    from webhelpers import csrf_of as csrf

    with client(sqlite_url, correspondence_scale=1 / HOUR) as alice:
        code = abandoned_game(alice)
        service = alice.app.state.service
        response = alice.post(
            f"/t/{code}/rejouer", data={"csrf": csrf(alice.get("/").text)}, follow_redirects=False
        )
        assert response.status_code == 303
        new = service.tables[response.headers["location"].rsplit("/", 1)[1]]
        rule = alice.portal.call(service.rule_for, new)
        assert rule is not None and (rule.move_seconds, rule.on_timeout) == (HOUR, "abandon")
        assert any("Partie par correspondance" in str(text) for _, text in new.log)


def test_a_game_the_clock_played_alone_is_not_rated(sqlite_url: str) -> None:
    """Found by an outside audit: a rematch nobody played (every move the timeout bot's,
    no action with a client id) moved the ladder and counted a win. A seat whose every
    move was the clock's counts as a seat replaced by a robot; a game where no person
    made a move is not rated at all. Read from the stored actions (client id)."""
    fast = {"correspondence_scale": 1e-5, "correspondence_poll_seconds": 0.05}
    with client(sqlite_url, **fast) as alice:
        code = create_days_table(alice, "chouine")
        join(other(alice), code, "Bob")
        service = alice.app.state.service
        wait_for(lambda: stored(alice, code).status == "over", timeout=60)
        assert service.tables[code].record_id is not None  # played to its end, by the clock
        assert alice.portal.call(service.store.ladder, "chouine") == []


def test_after_a_restart_the_journal_still_says_the_game_is_over_days(sqlite_url: str) -> None:
    """The line « Partie par correspondance : … » lived in memory only: a restarted server
    rebuilt the journal without it. It is said again, at the same place."""
    with client(sqlite_url, correspondence_scale=1000.0) as alice:
        service = alice.app.state.service
        code = create_days_table(alice, "chouine")
        join(other(alice), code, "Bob")
        solo = create_days_table(alice, "chouine", second="bot:random")  # live at once
        wait_for(lambda: service.tables[solo].move_at is not None)
        before = {c: [text for _, text in service.tables[c].log] for c in (code, solo)}
        line = "Partie par correspondance : 1 heure par coup ; au-delà, un robot joue le coup."
        assert all(line in lines for lines in before.values())
    with client(sqlite_url, correspondence_scale=1000.0) as again:
        service = again.app.state.service
        for c in (code, solo):
            table = again.portal.call(service.get, c)  # rebuilt at start (the lobby's)
            assert [text for _, text in table.log] == before[c]
            service.tables.pop(c)  # out of memory: rebuilt at its first visit
            table = again.portal.call(service.get, c)
            assert [text for _, text in table.log] == before[c]


def test_a_person_the_clock_keeps_playing_for_is_told_no_more_until_they_play(
    sqlite_url: str,
) -> None:
    """Found by an outside audit: absent players got « À vous de jouer » for every move of
    a game the timeout bot played (one mail an hour). After three of a person's moves in a
    row played by the clock, their turns are no longer notified, until they play again."""
    fast = {"correspondence_scale": 1e-4, "correspondence_poll_seconds": 0.05}
    with client(sqlite_url, **fast) as alice:
        service = alice.app.state.service
        told: list[tuple[int, int]] = []  # (seat, how many of its moves were played then)

        async def hook(table: Any, seats: list[int]) -> None:
            told.extend((s, sum(1 for seat, _ in table.actions if seat == s)) for s in seats)

        service.turn_hooks.append(hook)
        code = create_days_table(alice, "chouine")
        join(other(alice), code, "Bob")
        table = service.tables[code]
        wait_for(lambda: table.version >= 12, timeout=30)
        service.settings.correspondence_scale = 1000.0  # the next deadlines: far away
        wait_for(lambda: table.move_at is not None and table.move_at > time.time() + 60)
        assert {seat for seat, _ in told} == {0, 1}  # both were told at first
        assert all(played < 3 for _, played in told), told  # and not after three timeouts

        def clock_plays() -> None:
            version = table.version
            wait_for(lambda: table.move_at is not None)  # this version's deadline is stored
            alice.portal.call(due_now, alice.app.state.store)
            wait_for(lambda: table.version > version)

        while 0 not in table.state.actors():
            clock_plays()
        move = table.state.legal_actions(0)[0].to_json()
        alice.portal.call(service.act, table, 0, move, "alice-back")  # Alice plays again
        count = len(told)
        for _ in range(6):
            if any(seat == 0 for seat, _ in told[count:]) or table.status != "live":
                break
            clock_plays()
            alice.portal.call(asyncio.sleep, 0.1)
        assert any(seat == 0 for seat, _ in told[count:]), told[count:]
