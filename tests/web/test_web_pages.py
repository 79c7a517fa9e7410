"""HTTP pages: lobby, table creation, joining, rules, replays, and every kind of bad input."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    db_url_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, csrf_of, join, other, play_to_end

from choux import games
from choux.web.catalog import rules_page


def test_lobby_lists_the_four_games(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/")
    assert page.status_code == 200
    for title in ("Chouine", "Chouineurs", "Cul de Chouette", "Parlote"):
        assert title.lower() in page.text.lower()
    assert "Créer une table" in page.text


def test_every_response_sets_security_headers(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    cookie = page.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()


@pytest.mark.parametrize("name", ["chouine", "chouineurs"])
def test_creation_form_shows_options_and_bot_levels(sqlite_url: str, name: str) -> None:
    if name not in games.names():
        pytest.skip(f"{name} is not registered yet")
    game = games.get(name)
    with client(sqlite_url) as c:
        page = c.get(f"/nouvelle?jeu={name}")
    assert page.status_code == 200
    for option in game.options:
        assert f'name="opt_{option.name}"' in page.text
    for level in game.bots():
        assert f"bot:{level}" in page.text


def test_create_table_gives_an_invite_link_and_the_first_seat(db_url: str, course: str) -> None:
    with client(db_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        page = c.get(f"/t/{code}")
        state = c.get(f"/t/{code}/etat.json").json()
    assert page.status_code == 200
    assert f"/t/{code}" in page.text
    assert state["seat"] == 0 and state["seats"][0]["name"] == "Alice"
    assert state["status"] == "live"


def test_form_without_csrf_token_is_refused(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        c.get("/")
        response = c.post(
            "/tables",
            data={"jeu": course, "joueurs": "2", "place_0": "human", "place_1": "bot"},
            follow_redirects=False,
        )
        assert response.status_code == 403
        assert "formulaire" in response.text
        assert c.get("/").text.count("/t/") == 0


def test_second_person_joins_by_the_invite_link(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code = create_table(alice, course, ["human", "human"], "Alice")
        assert alice.get(f"/t/{code}/etat.json").json()["status"] == "open"
        bob = other(alice)
        response = join(bob, code, "Bob")
        assert response.status_code == 303
        state = bob.get(f"/t/{code}/etat.json").json()
        assert state["seat"] == 1 and state["status"] == "live"
        assert [s["name"] for s in state["seats"]] == ["Alice", "Bob"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Choisissez un pseudonyme"),
        ("   ", "Choisissez un pseudonyme"),
        ("x" * 25, "trop long"),
        ("alice", "déjà pris"),
        ("bad\u0000name", "invisibles"),
        ("\u3164", "invisibles"),  # a Hangul filler: a letter that draws nothing
        ("\u2800\u2800", "invisibles"),
        ("{p0}", "accolades"),
        ("\u0410lice", "alphabets"),  # a Cyrillic « А »: « Alice » to the eye
        ("Bοb", "alphabets"),  # a Greek omicron
        ("Robot gourmand", "réservés aux robots"),  # a person passing for a bot
        ("bot: expert", "réservés aux robots"),
        ("ℝobot-Gaston", "réservés aux robots"),
        ("\u13aalice", "alphabets"),  # a Cherokee « Ꭺ »
    ],
)
def test_bad_pseudonyms_are_refused_in_french(
    sqlite_url: str, course: str, name: str, message: str
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        visitor = other(c)
        response = join(visitor, code, name)
        assert 400 <= response.status_code < 500
        assert message in response.text
        assert c.get(f"/t/{code}/etat.json").json()["status"] == "open"


def test_full_table_and_unknown_code_are_clear_4xx(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        visitor = other(c)
        response = join(visitor, code, "Bob")
        assert response.status_code == 409 and "complète" in response.text
        missing = visitor.get("/t/zzzzzzzz")
        assert missing.status_code == 404 and "existe pas" in missing.text
        assert visitor.get("/t/" + "x" * 300).status_code == 404


def test_bad_creation_inputs_are_4xx_never_500(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        csrf = csrf_of(c.get(f"/nouvelle?jeu={course}").text)
        cases = [
            {"jeu": "poker", "joueurs": "2"},
            {"jeu": course, "joueurs": "9"},
            {"jeu": course, "joueurs": "deux"},
            {"jeu": course, "joueurs": "2", "place_1": "bot:genie"},
            {"jeu": course, "joueurs": "2", "place_1": "martien"},
            {"jeu": course, "joueurs": "2", "pendule": "7"},
            {"jeu": course, "joueurs": "2", "pseudo": ""},
        ]
        for case in cases:
            response = c.post("/tables", data={"csrf": csrf, **case}, follow_redirects=False)
            assert 400 <= response.status_code < 500, case


def test_user_text_is_escaped_in_pages(sqlite_url: str, course: str) -> None:
    evil = "<script>x()</script>"
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], evil[:24])
        page = c.get(f"/t/{code}").text
        lobby = c.get("/").text
    assert "<script>x()" not in page and "<script>x()" not in lobby
    assert "&lt;script&gt;" in lobby


@pytest.mark.parametrize("name", list(games.MODULES))
def test_rules_page_is_a_deck_of_cards_with_a_text_switch(sqlite_url: str, name: str) -> None:
    page = rules_page(name)
    assert page is not None  # every game has its rules page
    with client(sqlite_url) as c:
        response = c.get(f"/regles/{name}")
    assert response.status_code == 200
    assert "toutes les règles en texte" in response.text.lower()
    assert response.text.count('class="rule-card"') == sum(
        len(s["cards"]) for s in page["sections"]
    )
    assert len(page["sections"]) == 4


@pytest.mark.parametrize("name", list(games.MODULES))
def test_rules_page_invites_to_play_in_correct_french(sqlite_url: str, name: str) -> None:
    # « Jouer à » + a title would read « Jouer à La Chouine », « Jouer à Cul de Chouette »:
    # each game says its own sentence, with its article
    page = rules_page(name)
    assert page is not None and page["play_label"].startswith("Jouer ")
    with client(sqlite_url) as c:
        text = c.get(f"/regles/{name}").text
    assert f">{page['play_label']}</a>" in text
    assert (
        "Jouer à La " not in text and "Jouer à Cul" not in text and "Jouer à Chouineurs" not in text
    )


def test_rules_page_found_when_a_compiled_build_leads_the_package_path(tmp_path: Path) -> None:
    """choux.engine.native puts the build folder (no page.toml there) first in __path__,
    in place (the list is also the package spec's search locations)."""
    import choux.games.chouine as chouine

    chouine.__path__.insert(0, str(tmp_path))
    try:
        page = rules_page("chouine")
    finally:
        chouine.__path__.remove(str(tmp_path))
    assert page is not None and len(page["sections"]) == 4


def test_rules_page_of_an_unknown_game_is_404(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert c.get("/regles/belote").status_code == 404


def test_rich_text_escapes_html_and_keeps_bold() -> None:
    from choux.web.templating import rich_text

    html = str(rich_text("**gras** <b>non</b>\n\nsecond"))
    assert html == "<p><strong>gras</strong> &lt;b&gt;non&lt;/b&gt;</p><p>second</p>"


def test_unknown_replay_and_unknown_page_are_404(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert c.get("/parties/999").status_code == 404
        assert c.get("/parties/abc").status_code in (404, 422)
        assert c.get("/nulle-part").status_code == 404


def test_table_page_weight_is_small(sqlite_url: str) -> None:
    """HTML + CSS + JS of a table page under 150 KB."""
    if "chouine" not in games.names():
        pytest.skip("chouine not registered")
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice")
        html = c.get(f"/t/{code}").text
        total = len(html.encode())
        assets = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', html))
        assets |= {
            "/static/js/dom.js",
            "/static/js/net.js",
            "/static/js/games/generic.js",
            "/static/js/games/chouine.js",
        }
        for asset in assets:
            response = c.get(asset)
            if response.status_code == 200:
                total += len(response.content)
    assert total < 150_000, total


@pytest.mark.parametrize("name", ["cul-de-chouette", "parlote"])
def test_table_page_sends_the_constants_the_interface_needs(sqlite_url: str, name: str) -> None:
    """Shout texts and the argument limit come from the server: the scripts copy none."""
    game = games.get(name)
    with client(sqlite_url) as c:
        code = create_table(c, name, ["human"] + ["bot:random"] * (game.min_players - 1))
        html = c.get(f"/t/{code}").text
    found = re.search(r'<script type="application/json" id="game-constants">(.*?)</script>', html)
    assert found is not None
    sent = json.loads(found.group(1))
    assert sent == game.client_constants() and sent


def test_shared_screen_only_for_games_without_hidden_hands(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "human"], "Alice")
        page = c.get(f"/t/{code}").text
        refused = c.post(f"/t/{code}/ajouter", data={"csrf": csrf_of(page), "pseudo": "Bob"})
        assert refused.status_code == 400 and "écran partagé" in refused.text
        code = create_table(c, "cul-de-chouette", ["human", "human", "human"], "Alice")
        page = c.get(f"/t/{code}").text
        bad = c.post(f"/t/{code}/ajouter", data={"csrf": csrf_of(page), "place": "x"})
        assert bad.status_code == 400 and "Place invalide" in bad.text
        added = c.post(
            f"/t/{code}/ajouter",
            data={"csrf": csrf_of(page), "pseudo": "Bob", "place": "1"},
            follow_redirects=False,
        )
        assert added.status_code == 303
        assert c.get(f"/t/{code}/etat.json").json()["seats"][1]["name"] == "Bob"


def test_a_finished_games_bots_are_named_robots_in_its_record_replay_and_lobby(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        record = c.get(f"/parties/{final['record_id']}.json").json()
        replay = c.get(f"/parties/{final['record_id']}").text
        lobby = c.get("/").text
    assert record["bots"] == [1]
    bot = record["names"][1]
    assert f"{bot} (robot)" in replay and "Alice (robot)" not in replay
    ranks = record["result"]["ranks"]
    assert ("(robot)" in lobby) == (ranks[1] == 1)  # the lobby names a winning bot so


def test_a_records_bot_seats_are_read_defensively() -> None:
    from choux.engine.record import Record

    data = Record("chouine", 2, 7, {}).to_json()
    assert "bots" not in data  # no bot, no field: older readers see the same record
    hostile = dict(data, bots=["1", -1, 5, True, 1, 1, 0])
    assert Record.from_json(hostile).bots == [0, 1]
    assert Record.from_json(dict(data, bots="everyone")).bots == []


def test_the_lobby_lists_a_tables_players_as_french_does(sqlite_url: str) -> None:
    """« Alice, Bruno et Chloé », not « Alice, Bruno, Chloé »."""
    with client(sqlite_url) as c:
        code = create_table(c, "cul-de-chouette", ["human", "bot:easy", "bot:easy"], "Alice")
        names = [seat["name"] for seat in c.get(f"/t/{code}/etat.json").json()["seats"]]
        lobby = c.get("/").text
    assert len(names) == 3
    assert html.escape(f"{names[0]}, {names[1]} et {names[2]}", quote=False) in lobby
    assert html.escape(", ".join(names), quote=False) not in lobby


def test_a_replay_whose_result_todays_rules_do_not_give_says_the_record_stands(
    sqlite_url: str,
) -> None:
    """A game finished before a rule changed: its film is today's rules, its result the
    recorded one, and the page says so rather than contradict it silently."""
    import sqlite3

    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        record_id = final["record_id"]
        assert "replay-rules-note" not in c.get(f"/parties/{record_id}").text
        db = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
        (text,) = db.execute("SELECT record FROM records WHERE id = ?", (record_id,)).fetchone()
        record = json.loads(text)
        record["result"]["ranks"] = list(reversed(record["result"]["ranks"]))
        db.execute("UPDATE records SET record = ? WHERE id = ?", (json.dumps(record), record_id))
        db.commit()
        db.close()
        page = c.get(f"/parties/{record_id}")
    assert page.status_code == 200
    assert "replay-rules-note" in page.text and "qui fait foi" in page.text


def test_the_health_check_sets_no_cookie(sqlite_url: str) -> None:
    """A probe every few seconds got a new session cookie each time."""
    with client(sqlite_url) as c:
        answer = c.get("/healthz")
        assert answer.status_code == 200 and answer.text == "ok"
        assert "set-cookie" not in answer.headers


def test_every_page_title_is_plain_text(sqlite_url: str, course: str) -> None:
    """A page's <title> (its tab, history, bookmarks, what a screen reader says first) is
    a few words: « Mon compte »'s held a whole pasted section of HTML."""
    from test_web_accounts import signup

    with client(sqlite_url) as c:
        assert signup(c, "Titouan").status_code == 303
        code = create_table(c, course, ["human", "human"], "Titouan")
        paths = [
            "/",
            "/compte",
            "/compte/supprimer",
            "/mes-parties",
            "/joueur/Titouan",
            f"/classement/{course}",
            f"/nouvelle?jeu={course}",
            f"/t/{code}",
            "/regles/chouine",
        ]
        for path in paths:
            page = c.get(path)
            assert page.status_code == 200, path
            titles = re.findall(r"<title>(.*?)</title>", page.text, re.DOTALL)
            assert len(titles) == 1, path
            assert "<" not in titles[0] and "\n" not in titles[0] and len(titles[0]) < 90, path
