"""Private tables (the invite link carries a secret), seats that come back to their
identity after a bot stood in, the host freeing a seat before the start, quick play, and
following a player. Each refusal is French and changes nothing."""

from __future__ import annotations

import asyncio
import html
import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, csrf_of, other, page_log, receive_state

from choux.play.errors import TableError
from choux.play.store import tables_t
from choux.web.seating import PRIVATE
from choux.web.ws import SEAT_LOST


def text_of(response: Any) -> str:
    return html.unescape(response.text)


def create_private(c: Any, game: str, seats: list[str], public: bool = False) -> tuple[str, str]:
    """A table made through the form as a person inviting friends; (code, invite link)."""
    page = c.get(f"/nouvelle?jeu={game}")
    data = {
        "csrf": csrf_of(page.text),
        "jeu": game,
        "joueurs": str(len(seats)),
        "pendule": "0",
        "pseudo": "Alice",
        "prive": "1",
        **{f"place_{i}": s for i, s in enumerate(seats)},
    }
    if public:
        data["publique"] = "1"
    response = c.post("/tables", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    code = response.headers["location"].rsplit("/", 1)[1]
    match = re.search(r'id="invite-link" readonly value="([^"]+)"', c.get(f"/t/{code}").text)
    assert match
    return code, html.unescape(match.group(1))


def post_form(c: Any, url: str, page_url: str, **data: str) -> Any:
    csrf = csrf_of(c.get(page_url).text)
    return c.post(url, data={"csrf": csrf, **data}, follow_redirects=False)


def test_a_private_table_is_unlisted_and_refused_without_its_secret(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code, invite = create_private(c, "cul-de-chouette", ["human", "human", "human"])
        assert "?cle=" in invite
        bob = other(c)
        assert f"/t/{code}" not in bob.get("/").text  # not in the lobby
        assert f"/t/{code}" not in c.get("/").text
        for url in (f"/t/{code}", f"/t/{code}?cle=mauvaise", f"/t/{code}/etat.json"):
            refused = bob.get(url)
            assert refused.status_code == 403 and PRIVATE in text_of(refused), url
        join = bob.post(
            f"/t/{code}/rejoindre",
            data={"csrf": csrf_of(bob.get("/").text), "pseudo": "Bob"},
            follow_redirects=False,
        )
        assert join.status_code == 403 and PRIVATE in text_of(join)
        table = c.portal.call(c.app.state.service.get, code)
        assert table.open_seats() == [1, 2]  # nothing changed
        # with the invite link: the page, then a seat
        link = urlsplit(invite)
        assert bob.get(f"{link.path}?{link.query}").status_code == 200
        joined = post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob")
        assert joined.status_code == 303
        assert table.open_seats() == [2]
        # the host keeps entering, and a public table is listed
        assert c.get(f"/t/{code}").status_code == 200
        public, link = create_private(c, "cul-de-chouette", ["human", "human"], public=True)
        assert "?cle=" not in link and f"/t/{public}" in bob.get("/").text


def test_the_host_frees_a_seat_taken_by_mistake_before_the_start(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "cul-de-chouette", ["human", "human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        table = c.portal.call(c.app.state.service.get, code)
        assert table.seats[1].name == "Bob"
        # only the host may
        refused = post_form(bob, f"/t/{code}/retirer", f"/t/{code}", place="0")
        assert refused.status_code == 403 and "Seul l'hôte" in text_of(refused)
        assert "Retirer de la table" in c.get(f"/t/{code}").text
        assert post_form(c, f"/t/{code}/retirer", f"/t/{code}", place="1").status_code == 303
        assert table.open_seats() == [1, 2] and table.seats[1].player is None
        assert "Vous regardez cette partie" in text_of(bob.get(f"/t/{code}"))
        # once the game runs, nobody is removed any more
        for name in ("Bob", "Carol"):
            post_form(other(c), f"/t/{code}/rejoindre", f"/t/{code}", pseudo=name)
        assert table.status == "live"
        late = post_form(c, f"/t/{code}/retirer", f"/t/{code}", place="1")
        assert late.status_code == 409 and "La partie a commencé" in text_of(late)


def test_the_host_closes_a_table_still_waiting_for_players(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        assert 'id="close-form"' in c.get(f"/t/{code}").text
        assert 'id="close-form"' not in bob.get(f"/t/{code}").text
        refused = post_form(bob, f"/t/{code}/fermer", f"/t/{code}")
        assert refused.status_code == 403 and "Seul l'hôte" in text_of(refused)
        table = c.portal.call(c.app.state.service.get, code)
        assert table.status == "open"
        assert post_form(c, f"/t/{code}/fermer", f"/t/{code}").status_code == 303
        assert table.status == "over" and code not in c.get("/").text
        assert (
            page_log(bob.get(f"/t/{code}").text)[-1] == "Table fermée par son hôte avant la partie."
        )
        # a table whose game has started is not closed
        live = create_table(c, "chouine", ["human", "human"])
        post_form(other(c), f"/t/{live}/rejoindre", f"/t/{live}", pseudo="Carol")
        late = post_form(c, f"/t/{live}/fermer", f"/t/{live}")
        assert late.status_code == 409 and "La partie a commencé" in text_of(late)
        assert c.portal.call(c.app.state.service.get, live).status == "live"


def test_a_replaced_seat_comes_back_to_its_identity_only(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        service = c.app.state.service
        table = c.portal.call(service.get, code)
        assert table.status == "live" and table.state.actors() == (0,)
        c.portal.call(service.replace_with_bot, table, 1, "absence prolongée")
        assert table.seats[1].kind == "bot"
        # somebody else cannot take it back
        carol = other(c)
        refused = post_form(carol, f"/t/{code}/reprendre", f"/t/{code}", place="1")
        assert refused.status_code == 403 and "une autre personne" in text_of(refused)
        assert table.seats[1].kind == "bot" and table.seats[1].name == "Bob (robot)"
        # Bob opens the table again: the seat is his, under his name
        page = text_of(bob.get(f"/t/{code}"))
        assert "Vous jouez à la place 2" in page
        assert (table.seats[1].kind, table.seats[1].name) == ("human", "Bob")
        assert 1 not in table.bots
        # his next decision waits for him: Alice moves, no bot answers for Bob
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            state = receive_state(ws)
            ws.send_json(
                {"type": "action", "id": "a1", "action": state["view"]["legal"][0]["action"]}
            )
            time.sleep(0.3)
        assert table.state.actors() == (1,) and table.version == 1
        with bob.websocket_connect(f"/t/{code}/ws") as ws:
            state = receive_state(ws)
            assert state["seat"] == 1 and state["view"]["legal"]


def test_quick_play_joins_the_oldest_waiting_public_table_or_opens_one(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        service = c.app.state.service
        first = post_form(c, "/jouer-maintenant", "/", jeu=course, attente="5", pseudo="Alice")
        assert first.status_code == 303
        code = first.headers["location"].rsplit("/", 1)[1]
        table = c.portal.call(service.get, code)
        assert table.status == "open" and not table.row.private and "fill" in table.tasks
        bob = other(c)
        second = post_form(bob, "/jouer-maintenant", "/", jeu=course, attente="5", pseudo="Bob")
        assert second.headers["location"] == f"/t/{code}"
        assert table.status == "live" and [s.name for s in table.seats] == ["Alice", "Bob"]
        assert c.get(f"/t/{code}/etat.json").json()["fill_in"] is None  # started: no wait
        # nobody comes: after the wait, bots fill the empty seats and the game starts
        alone = post_form(c, "/jouer-maintenant", "/", jeu=course, attente="5", pseudo="Alice")
        lonely = c.portal.call(service.get, alone.headers["location"].rsplit("/", 1)[1])
        assert lonely.code != code and lonely.status == "open"
        # its page says when the bots come: the wait chosen, counting down
        waiting = c.get(f"/t/{lonely.code}/etat.json").json()
        assert 0 < waiting["fill_in"] <= 5
        c.portal.call(service.fill_with_bots, lonely)
        assert c.get(f"/t/{lonely.code}/etat.json").json()["fill_in"] is None
        assert lonely.status == "live" and lonely.seats[1].kind == "bot"
        bad = post_form(c, "/jouer-maintenant", "/", jeu=course, attente="3600", pseudo="Alice")
        assert bad.status_code == 400 and "Attente impossible" in text_of(bad)


def test_the_lobby_shows_the_public_tables_of_followed_players(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/compte/creer")
        c.post(
            "/compte/creer",
            data={
                "csrf": csrf_of(page.text),
                "pseudo": "Alice",
                "mot_de_passe": "x" * 12,
                "confirmation": "x" * 12,
            },
        )
        code = create_table(c, "cul-de-chouette", ["human", "human", "bot:easy"])
        bob = other(c)
        assert "Les tables de vos amis" not in bob.get("/").text
        assert post_form(bob, "/joueur/Alice/suivre", "/joueur/Alice").status_code == 303
        assert "Ne plus suivre" in bob.get("/joueur/Alice").text
        assert 'href="/joueur/Alice"' in bob.get("/mes-parties").text.split('id="followed"')[1]
        lobby = text_of(bob.get("/"))
        assert "Les tables de vos amis" in lobby
        friends = lobby.split('id="friends-tables"', 1)[1].split("</section>", 1)[0]
        assert f"/t/{code}" in friends and "avec Alice" in friends
        post_form(bob, "/joueur/Alice/suivre", "/joueur/Alice", suivre="non")
        assert "Les tables de vos amis" not in bob.get("/").text
        assert bob.get("/joueur/Personne").status_code == 404
        # nobody follows themself (an audit saw the row stored)
        post_form(c, "/joueur/Alice/suivre", "/joueur/Alice")
        sections = c.get("/mes-parties").text.split('id="followed"')[1:]
        assert not any('href="/joueur/Alice"' in part.split("</section>")[0] for part in sections)


def test_a_private_game_replays_only_for_its_people_and_stays_off_the_lobby(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        code, invite = create_private(c, course, ["human", "human"])
        bob = other(c)
        link = urlsplit(invite)
        bob.get(f"{link.path}?{link.query}")
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        service = c.app.state.service
        table = c.portal.call(service.get, code)

        async def play_out() -> None:
            while table.status != "over":
                actors = table.state.actors()
                if not actors:  # a window the table clock closes
                    await asyncio.sleep(0.02)
                    continue
                seat = actors[0]
                await service.act(table, seat, table.state.legal_actions(seat)[0].to_json())

        c.portal.call(play_out)
        record_id = table.record_id
        assert record_id is not None
        for visitor in (c, bob):
            assert visitor.get(f"/parties/{record_id}").status_code == 200
        stranger = other(c)
        for url in (f"/parties/{record_id}", f"/parties/{record_id}.json"):
            refused = stranger.get(url)
            assert refused.status_code == 403 and "table privée" in text_of(refused), url
        assert f"/parties/{record_id}" not in stranger.get("/").text


def test_a_seat_the_host_gave_to_a_bot_does_not_come_back(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        assert post_form(c, f"/t/{code}/remplacer", f"/t/{code}", place="1").status_code == 303
        table = c.portal.call(c.app.state.service.get, code)
        assert table.seats[1].kind == "bot" and table.seats[1].excluded
        assert "Vous regardez cette partie" in text_of(bob.get(f"/t/{code}"))
        refused = post_form(bob, f"/t/{code}/reprendre", f"/t/{code}", place="1")
        assert refused.status_code == 403 and "confiée à un robot jusqu'à la fin" in text_of(
            refused
        )
        assert table.seats[1].kind == "bot"
        # the store remembers it: a restarted server refuses the same
        row = c.portal.call(c.app.state.service.store.load_table, code)
        assert row.seats[1].excluded and row.seats[1].player == table.seats[1].player


def test_a_seat_taken_back_gets_its_grace_period_again(sqlite_url: str, course: str) -> None:
    """Opening the page gives the seat back; if no socket follows, a bot comes back later
    instead of the table waiting for ever."""
    with client(sqlite_url, grace_seconds=0.3) as c:
        code = create_table(c, course, ["human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        service = c.app.state.service
        table = c.portal.call(service.get, code)
        c.portal.call(service.replace_with_bot, table, 1, "absence prolongée")
        bob.get(f"/t/{code}")  # the page only, no socket
        assert table.seats[1].kind == "human"
        deadline = time.time() + 5
        while table.seats[1].kind != "bot":
            assert time.time() < deadline
            time.sleep(0.05)
        # the bots finish the game: nothing is left moving when the server stops
        while table.status != "over":
            assert time.time() < deadline + 10
            time.sleep(0.05)


def test_quick_play_passes_a_table_where_the_pseudonym_is_taken(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        first = post_form(c, "/jouer-maintenant", "/", jeu=course, attente="60", pseudo="Alice")
        namesake = other(c)
        second = post_form(
            namesake, "/jouer-maintenant", "/", jeu=course, attente="60", pseudo="alice"
        )
        assert second.status_code == 303
        assert second.headers["location"] != first.headers["location"]  # a table of its own
        third = post_form(
            other(c), "/jouer-maintenant", "/", jeu=course, attente="60", pseudo="Bob"
        )
        assert third.headers["location"] == first.headers["location"]  # the oldest one


def test_quick_play_bots_still_come_after_a_restart(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        made = post_form(c, "/jouer-maintenant", "/", jeu=course, attente="60", pseudo="Alice")
        code = made.headers["location"].rsplit("/", 1)[1]
        table = c.portal.call(c.app.state.service.get, code)
        assert table.row.fill_at is not None
        soon = datetime.now(UTC) + timedelta(seconds=0.3)  # as if the wait were nearly over

        async def shorten() -> None:
            async with c.app.state.service.store.db.begin() as conn:
                await conn.execute(
                    update(tables_t).where(tables_t.c.code == code).values(fill_at=soon)
                )

        c.portal.call(shorten)
    with client(sqlite_url) as restarted:  # the server restarts meanwhile
        table = restarted.app.state.service.tables[code]
        deadline = time.time() + 5
        while table.status != "live":
            assert time.time() < deadline, "the bots never came"
            time.sleep(0.05)
        assert table.seats[1].kind == "bot"


def states_until_closed(ws: Any, limit: int = 50) -> tuple[list[dict[str, Any]], int | None]:
    """The state messages a socket receives until the server closes it, and its close code;
    None if it is still open after a state of the game under way (or `limit` messages)."""
    states = []
    for _ in range(limit):
        try:
            message = ws.receive_json()
        except WebSocketDisconnect as closed:
            return states, closed.code
        if message["type"] == "state":
            states.append(message)
            if message["status"] == "live":
                return states, None
    return states, None


def test_a_freed_seats_socket_never_sees_nor_plays_for_who_sits_there_next(
    sqlite_url: str,
) -> None:
    """Bob's page stays open after the host frees his seat; Carol takes it and the game
    starts: Bob's socket is closed, it is sent neither Carol's hand nor her turn."""
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "human", "human"])
        bob, carol, dave = other(c), other(c), other(c)
        page = f"/t/{code}"
        assert post_form(bob, f"{page}/rejoindre", page, pseudo="Bob").status_code == 303
        with bob.websocket_connect(f"{page}/ws") as ws:
            assert receive_state(ws)["seat"] == 1
            assert post_form(c, f"{page}/retirer", page, place="1").status_code == 303
            joined = post_form(carol, f"{page}/rejoindre", page, pseudo="Carol", place="1")
            assert joined.status_code == 303
            assert post_form(dave, f"{page}/rejoindre", page, pseudo="Dave").status_code == 303
            table = c.portal.call(c.app.state.service.get, code)
            assert table.status == "live" and table.seats[1].name == "Carol"
            hand = carol.get(f"{page}/etat.json").json()["view"]["hand"]
            assert hand
            states, closed = states_until_closed(ws)
            assert all(s["view"]["hand"] != hand for s in states), "Bob was sent Carol's hand"
            assert all(not s["view"]["legal"] for s in states)
            assert closed == SEAT_LOST
        # his page opened again: a spectator
        assert bob.get(f"{page}/etat.json").json()["seat"] is None


def test_an_excluded_persons_socket_is_closed_and_cannot_play_the_bots_seat(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "human"])
        bob = other(c)
        service = c.app.state.service
        page = f"/t/{code}"
        assert post_form(bob, f"{page}/rejoindre", page, pseudo="Bob").status_code == 303
        with bob.websocket_connect(f"{page}/ws") as ws:
            assert receive_state(ws)["seat"] == 1
            assert post_form(c, f"{page}/remplacer", page, place="1").status_code == 303
            table = c.portal.call(service.get, code)
            assert table.seats[1].kind == "bot"
            states, closed = states_until_closed(ws, limit=20)
            leaked = [s for s in states if s["seats"][1]["kind"] == "bot" and s["view"]["hand"]]
            assert not leaked, "the bot's hand went on to the excluded person's page"
            assert closed == SEAT_LOST
        # the write path itself refuses a move of a socket whose seat is lost (asked under
        # the table's lock, so that a move racing the host's decision is refused too); the
        # host's own turn is awaited first, so that the bot's moves cannot change the version
        deadline = time.monotonic() + 10
        while table.state.actors() != (0,) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.state.actors() == (0,)
        actor = 0
        action = table.state.legal_actions(actor)[0].to_json()
        version = table.version
        with pytest.raises(TableError, match="n'est plus la vôtre"):
            c.portal.call(lambda: service.act(table, actor, action, "z1", seat_lost=lambda: True))
        assert table.version == version


@pytest.mark.parametrize("game", ["chouine", "chouineurs"])
def test_before_the_start_a_seat_shows_no_hand_its_next_occupant_would_get(
    sqlite_url: str, game: str
) -> None:
    """The deal is made when the table is created; until the game starts a seat may change
    hands (the host frees it), so a seat is sent no more than a spectator sees."""
    with client(sqlite_url) as c:
        code = create_table(c, game, ["human", "human", "human"])
        bob = other(c)
        assert post_form(bob, f"/t/{code}/rejoindre", f"/t/{code}", pseudo="Bob").status_code == 303
        waiting = bob.get(f"/t/{code}/etat.json").json()
        assert waiting["status"] == "open" and waiting["seat"] == 1
        with bob.websocket_connect(f"/t/{code}/ws") as ws:
            pushed = receive_state(ws)
        for seen in (waiting, pushed):
            assert seen["view"]["hand"] == [] and not seen["view"]["legal"]
        assert post_form(c, f"/t/{code}/retirer", f"/t/{code}", place="1").status_code == 303
        carol = other(c)
        for visitor, name in ((carol, "Carol"), (other(c), "Dave")):
            joined = post_form(visitor, f"/t/{code}/rejoindre", f"/t/{code}", pseudo=name)
            assert joined.status_code == 303
        started = carol.get(f"/t/{code}/etat.json").json()
        assert started["status"] == "live" and started["seat"] == 1
        assert started["view"]["seat"] == 1 and started["view"]["hand"]  # now, her own


@pytest.mark.parametrize("private", [False, True])
def test_a_spectator_follows_the_rematch_as_a_spectator(
    sqlite_url: str, course: str, private: bool
) -> None:
    """Who watched a game may watch its rematch (« Regarder la revanche »); they had no way
    in, the rematch being private. They may not sit: its seats wait for the former players
    (a new friend comes in by the invite link). A stranger to a private game stays out."""
    from test_web_service import finish_course
    from webhelpers import join

    with client(sqlite_url) as c:
        if private:
            code, invite = create_private(c, course, ["human", "human"])
        else:
            code, invite = create_table(c, course, ["human", "human"], "Alice"), ""
        bob = other(c)
        key = urlsplit(invite).query.removeprefix("cle=") if private else ""
        if private:
            assert bob.get(f"/t/{code}?cle={key}").status_code == 200
        assert join(bob, code, "Bob").status_code == 303
        watcher, stranger = other(c), other(c)
        assert watcher.get(f"/t/{code}" + (f"?cle={key}" if private else "")).status_code == 200
        finish_course(c, code)
        rematch = post_form(c, f"/t/{code}/rejouer", f"/t/{code}")
        new = rematch.headers["location"].rsplit("/", 1)[1]
        assert watcher.get(f"/t/{code}/etat.json").json()["next_code"] == new
        page = watcher.get(f"/t/{new}")
        assert page.status_code == 200 and "/rejoindre" not in page.text  # no join form
        assert "cle=" not in page.text and "invite-link" not in page.text  # nor the secret
        with watcher.websocket_connect(f"/t/{new}/ws") as ws:
            assert receive_state(ws)["seat"] is None
        refused = post_form(watcher, f"/t/{new}/rejoindre", f"/t/{new}", pseudo="Chloé")
        assert refused.status_code == 403
        assert "attendent les joueurs de la partie précédente" in text_of(refused)
        table = c.portal.call(c.app.state.service.get, new)
        assert table.open_seats() == [1]  # Bob's seat still waits for him
        if private:
            assert stranger.get(f"/t/{new}").status_code == 403
        assert bob.get(f"/t/{new}").status_code == 200  # Bob comes back to his seat
        assert bob.get(f"/t/{new}/etat.json").json()["seat"] == 1
        # and the rematch of the rematch, watched the same way
        finish_course(c, new)
        again = post_form(bob, f"/t/{new}/rejouer", f"/t/{new}")
        third = again.headers["location"].rsplit("/", 1)[1]
        assert watcher.get(f"/t/{third}/etat.json").json()["seat"] is None
