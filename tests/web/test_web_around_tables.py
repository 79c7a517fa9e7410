"""The pages around the tables, as a player reads them: the way back after a refused form,
the log-out said, « Mes parties » at a correspondence table, the replay's winner."""

from __future__ import annotations

import contextlib
import html
import re
import time

from test_web_account_data import post_form
from test_web_accounts import PASSWORD, login, post, signup
from test_web_correspondence import create_days_table
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import (
    alice_and_bob,
    client,
    create_table,
    csrf_of,
    join,
    other,
    play_to_end,
    receive_state,
    wait_for,
)

DAY = 86400


def text_of(response: object) -> str:
    return html.unescape(response.text)  # type: ignore[attr-defined]


def error_back(page: str) -> str | None:
    """The address of the error page's « back » button, if it has one."""
    match = re.search(r'<a class="button primary" href="([^"]*)" id="error-back">', page)
    return html.unescape(match.group(1)) if match else None


def test_a_refused_form_leads_back_where_it_was_filled(sqlite_url: str) -> None:
    with client(sqlite_url) as alice:
        code = create_table(alice, "chouine", ["human", "human"], "Alice")
        bob = other(alice)
        page = bob.get(f"/t/{code}")
        form = {"csrf": csrf_of(page.text), "pseudo": "alice"}  # Alice's pseudonym, taken
        refused = bob.post(f"/t/{code}/rejoindre", data=form)
        assert refused.status_code == 409 and "déjà pris" in text_of(refused)
        assert error_back(refused.text) == f"/t/{code}"
        assert "Retour à la table" in text_of(refused)
        # from the table page with its key: back to that very address
        referer = {"referer": f"http://testserver/t/{code}?cle=secret"}
        again = bob.post(f"/t/{code}/rejoindre", data=form, headers=referer)
        assert error_back(again.text) == f"/t/{code}?cle=secret"
        # another site's address is never offered, nor a table that does not exist
        foreign = {"referer": f"https://ailleurs.example/t/{code}"}
        assert error_back(bob.post(f"/t/{code}/rejoindre", data=form, headers=foreign).text) == (
            f"/t/{code}"
        )
        gone = bob.post("/t/inconnue/rejoindre", data=form)
        assert gone.status_code == 404 and error_back(gone.text) is None
        # a refused creation: back to the form it came from, on this site only
        bad = {"csrf": form["csrf"], "jeu": "chouine", "joueurs": "deux"}
        from_form = {"referer": "http://testserver/nouvelle?jeu=chouine"}
        refused = bob.post("/tables", data=bad, headers=from_form)
        assert refused.status_code == 400 and error_back(refused.text) == "/nouvelle?jeu=chouine"
        assert "Revenir à la page précédente" in text_of(refused)
        sneaky = {"referer": "http://testserver//ailleurs.example/x"}
        assert error_back(bob.post("/tables", data=bad, headers=sneaky).text) is None
        backslash = {"referer": "http://testserver/\\ailleurs.example/x"}  # read as //
        assert error_back(bob.post("/tables", data=bad, headers=backslash).text) is None
        # a form's address opened directly: said in words, not « method not allowed »
        direct = bob.get(f"/t/{code}/rejoindre")
        assert direct.status_code == 405 and "ne s'ouvre pas directement" in text_of(direct)
        assert error_back(direct.text) == f"/t/{code}"


def test_logging_out_is_said_on_the_page_that_follows(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        out = post(c, "/deconnexion")
        assert out.status_code == 303 and out.headers["location"] == "/connexion?deconnecte=1"
        page = text_of(c.get(out.headers["location"]))
        assert "Vous êtes déconnecté·e sur cet appareil." in page and 'id="login-form"' in page
        assert login(c, "Germaine", PASSWORD).status_code == 303
        everywhere = post(c, "/deconnexion-partout")
        assert everywhere.headers["location"] == "/connexion?deconnecte=partout"
        page = text_of(c.get(everywhere.headers["location"]))
        assert "Vous êtes déconnecté·e sur tous vos appareils." in page
        assert "déconnecté" not in text_of(c.get("/connexion?deconnecte=autre"))


def ongoing_of(c: object) -> str:
    page = text_of(c.get("/mes-parties"))  # type: ignore[attr-defined]
    return page.split('id="ongoing"', 1)[1].split("</section>", 1)[0]


def test_my_games_say_whom_a_correspondence_table_waits_for_and_until_when(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as alice:
        waiting = create_days_table(alice, "chouine", seconds=DAY)  # nobody else yet
        code = create_days_table(alice, "chouine", seconds=DAY)
        bob = other(alice)
        assert join(bob, code, "Bob").status_code == 303
        table = alice.app.state.service.tables[code]
        wait_for(lambda: table.status == "live" and table.move_at is not None)
        first = table.seats[table.state.actors()[0]].name
        mine, bobs = ongoing_of(alice), ongoing_of(bob)
    # the one who moves reads « à vous de jouer », the other whom the table waits for
    waits = {"Alice": (mine, bobs), "Bob": (bobs, mine)}
    moving, idle = waits[first]
    assert "à vous de jouer" in moving and f"à {first} de jouer" in idle
    for page in (mine, bobs):
        assert re.search(r"par correspondance · encore 23 h \d+ min pour ce coup", page)
    # a seat nobody took yet is not a player called « Place 2 »
    row = mine.split(f"/t/{waiting}", 1)[1].split("</li>", 1)[0]
    assert "Place 2" not in row and "en attente de joueurs" in row


def test_a_replay_names_its_winner_and_a_ladder_says_robot_once(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        record = c.get(f"/parties/{final['record_id']}.json").json()
        replay = text_of(c.get(f"/parties/{final['record_id']}"))
        ladder = c.get("/classement/chouine").text
        stranger = text_of(other(c).get(f"/parties/{final['record_id']}"))
    # the player's replay opens on their own cards; a stranger's on the spectator's view
    assert '<option value="0" selected>Alice (vous)</option>' in replay
    assert " selected>" not in stranger.split('id="viewpoint"', 1)[1].split("</select>", 1)[0]
    winner = record["result"]["ranks"].index(1)
    name = record["names"][winner] + (" (robot)" if winner in record["bots"] else "")
    assert f'id="replay-winners">Gagnant : {name}</p>' in replay
    assert "Robot au hasard" in ladder and 'Robot au hasard <span class="seat-tag">' not in ladder


def test_my_games_say_your_turn_at_cul_de_chouette_only_to_the_awaited_seat(
    sqlite_url: str,
) -> None:
    """Everyone at a Cul de Chouette table « acts » (the −10 button, a shout out of place):
    « à vous de jouer » is for the seats the game waits for, not for every actor."""
    with client(sqlite_url) as alice:
        code = create_table(alice, "cul-de-chouette", ["human", "human", "human"])
        bob, carla = other(alice), other(alice)
        assert join(bob, code, "Bob").status_code == 303
        assert join(carla, code, "Carla").status_code == 303
        table = alice.app.state.service.tables[code]
        wait_for(lambda: table.status == "live")
        visitors = (alice, bob, carla)
        with contextlib.ExitStack() as pages:  # everyone's page open: everyone present
            sockets = [pages.enter_context(v.websocket_connect(f"/t/{code}/ws")) for v in visitors]
            for ws in sockets:
                receive_state(ws)
            for _ in range(60):  # the awaited seat moves on until others may act too
                waiting = table.state.view(None)["waiting"]
                if len(table.state.actors()) == 3 and 0 < len(waiting) < 3:
                    break
                if not waiting:  # a race: the clock ends it
                    time.sleep(0.05)
                    continue
                seat, version = waiting[0], table.version
                legal = [m["action"] for m in table.state.view(seat)["legal"]]
                move = next(m for m in legal if m["type"] not in ("crier", "bevue"))
                sockets[seat].send_json({"type": "action", "id": f"m{version}", "action": move})
                end = time.monotonic() + 5
                while table.version == version and time.monotonic() < end:
                    time.sleep(0.01)
            assert len(table.state.actors()) == 3 and 0 < len(waiting) < 3, waiting
            for seat, visitor in enumerate(visitors):
                told = "à vous de jouer" in ongoing_of(visitor)
                assert told == (seat in waiting), (seat, waiting)


def test_the_log_ends_a_game_with_its_reason_as_a_sentence(sqlite_url: str) -> None:
    """Cul de Chouette's reason (« 343 points atteints sur ses propres dés ») has no full
    stop of its own: the log's last line read as a sentence cut short."""
    with client(sqlite_url) as c:
        code = create_table(
            c, "cul-de-chouette", ["human", "bot:easy"], options={"objectif": "100"}
        )
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        lines = [line["text"] for line in c.get(f"/t/{code}/etat.json").json()["log"]]
    reason = final["result"]["reason"]
    assert not reason.endswith(".")  # the engine's own words, as the record keeps them
    assert f"Partie terminée. {reason}." in lines, lines[-3:]


def test_a_person_replaced_by_a_bot_is_marked_robot_once(sqlite_url: str) -> None:
    """The seat's name already says « (robot) » once a bot stands in for a person who left;
    the record marks the seat as a bot too, and the pages said « Alice (robot) (robot) »."""
    with client(sqlite_url, grace_seconds=0.1) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
        table = c.app.state.service.tables[code]
        wait_for(lambda: table.status == "over", timeout=60)  # the bots finish it
        record_id = table.record_id
        record = c.get(f"/parties/{record_id}.json").json()
        replay = text_of(c.get(f"/parties/{record_id}"))
        lobby = text_of(c.get("/"))
    assert record["names"][0] == "Alice (robot)" and 0 in record["bots"]
    for page in (replay, lobby):
        assert "(robot) (robot)" not in page
    assert "Alice (robot)" in replay


def test_the_others_see_how_long_before_a_bot_takes_an_absent_seat(
    sqlite_url: str, course: str
) -> None:
    """Alice closes her page: Bob's page said « absent » and nothing of how long he would
    wait. Each state now carries the seconds before a bot takes her seat (`bot_in`), and
    nothing once she is back."""
    with client(sqlite_url, grace_seconds=120) as c:
        code, bob = alice_and_bob(c, course)
        table = c.app.state.service.tables[code]
        with bob.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            with c.websocket_connect(f"/t/{code}/ws") as alice:
                receive_state(alice)
                # her seat's grace (armed while no page of hers was open) ends as she comes
                wait_for(lambda: table.connections.get(0) == 1 and not table.bot_at)
                assert bob.get(f"/t/{code}/etat.json").json()["bot_in"] == {}
            wait_for(lambda: 0 in table.bot_at)
            state = bob.get(f"/t/{code}/etat.json").json()
            assert 110 <= state["bot_in"]["0"] <= 120
            with c.websocket_connect(f"/t/{code}/ws") as alice:
                receive_state(alice)
                wait_for(lambda: not table.bot_at)
                assert bob.get(f"/t/{code}/etat.json").json()["bot_in"] == {}


def test_a_page_that_reconnects_after_a_long_cut_gets_its_seat_back(
    sqlite_url: str, course: str
) -> None:
    """A phone off the network longer than the grace: a bot took its seat. Its page's
    socket reconnects (no reload): it showed a spectator's view, hand gone, nothing said.
    The person gets the seat back, as a page load gives it back."""
    with client(sqlite_url, grace_seconds=0.2) as c:
        code, bob = alice_and_bob(c, course)
        table = c.app.state.service.tables[code]
        with bob.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            with c.websocket_connect(f"/t/{code}/ws") as alice:
                assert receive_state(alice)["seat"] == 0
            wait_for(lambda: table.seats[0].kind == "bot")
            assert table.seats[0].name == "Alice (robot)"
            with c.websocket_connect(f"/t/{code}/ws") as alice:  # the same page, back
                state = receive_state(alice)
                assert state["seat"] == 0
                assert table.seats[0].kind == "human" and table.seats[0].name == "Alice"
                assert "Alice reprend sa place" in " ".join(
                    line for _, line in table.log if isinstance(line, str)
                )
        # a seat the person gave away for good stays the bot's
        assert post_form(c, code, "quitter").status_code == 303
        with c.websocket_connect(f"/t/{code}/ws") as alice:
            assert receive_state(alice)["seat"] is None
        assert table.seats[0].kind == "bot"


def test_a_creator_who_never_opens_a_table_of_bots_is_replaced_in_time(
    sqlite_url: str, course: str
) -> None:
    """A table of its creator and bots starts at once: a creator who never opened its page
    had no grace running, so the table stayed live for ever, held memory and a lobby line,
    and a script made them by the dozen. The creator has the grace as anyone absent; once
    bots play all of a client's such tables, the cap on bot tables applies to them."""
    with client(sqlite_url, grace_seconds=0.2, bot_pace=5.0, max_bot_tables_per_client=2) as c:
        codes = [create_table(c, course, ["human", "bot:random"], "Alice") for _ in range(2)]
        tables = [c.app.state.service.tables[code] for code in codes]
        wait_for(lambda: all(t.seats[0].kind == "bot" for t in tables))
        assert all(t.status == "live" for t in tables)
        page = c.get(f"/nouvelle?jeu={course}")
        data = {"csrf": csrf_of(page.text), "jeu": course, "joueurs": "2", "pendule": "0"}
        data |= {"pseudo": "Alice", "place_0": "human", "place_1": "bot:random"}
        refused = c.post("/tables", data=data, follow_redirects=False)
        assert refused.status_code == 429, refused.status_code
        assert "assez de tables de robots" in html.unescape(refused.text)


def test_games_being_played_never_push_a_waiting_table_off_the_lobby(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        waiting = create_table(other(c), course, ["human", "human"], "Berthe")
        for _ in range(45):
            create_table(c, course, ["human", "bot:random"], "Alice")
        assert f'href="/t/{waiting}"' in c.get("/").text
