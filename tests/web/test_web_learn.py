"""« Apprendre à jouer » over HTTP: a lesson table on its prepared deal, refused elsewhere."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, csrf_of, other, play_to_end

from choux import games
from choux.web.lessons import LESSONS

STATIC = Path(__file__).parents[2] / "src" / "choux" / "web" / "static"


def test_every_game_has_a_lesson_with_its_panel_script() -> None:
    assert sorted(LESSONS) == sorted(games.names())
    for name, lesson in LESSONS.items():
        assert lesson.game == name
        assert (STATIC / "js" / "lessons" / f"{name}.js").is_file(), name
        game = games.get(name)
        assert lesson.bot in game.bots(), (name, lesson.bot)
        assert game.min_players <= lesson.players <= game.max_players
        game.new(lesson.players, lesson.seed, dict(lesson.options))  # options valid


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_lesson_opens_a_table_on_the_prepared_deal_against_the_easiest_robot(
    sqlite_url: str, name: str
) -> None:
    lesson = LESSONS[name]
    with client(sqlite_url) as c:
        csrf = csrf_of(c.get(f"/regles/{name}").text)
        answer = c.post(f"/apprendre/{name}", data={"csrf": csrf}, follow_redirects=False)
        assert answer.status_code == 303
        location = str(answer.headers["location"])
        assert location.endswith("?apprendre=1")
        code = location.split("/t/", 1)[1].split("?", 1)[0]
        table = c.app.state.service.tables[code]  # type: ignore[attr-defined]
        page = c.get(location)
        plain = c.get(f"/t/{code}")
        state = c.get(f"/t/{code}/etat.json").json()
    assert table.row.seed == lesson.seed and table.row.players == lesson.players
    assert [s.kind for s in table.seats] == ["human"] + ["bot"] * (lesson.players - 1)
    assert all(s.level == lesson.bot for s in table.seats[1:])
    assert state["seat"] == 0 and state["status"] == "live"
    assert 'id="lesson"' in page.text and f"/static/js/lessons/{name}.js" in page.text
    assert 'id="lesson"' not in plain.text  # the same table without the lesson panel
    assert "non classée" in page.text  # it says it does not count for the ladder
    # its fairness panel does not claim a secret random seed: the deal is the same each time
    assert "donne choisie à l'avance" in html.unescape(plain.text)
    assert "graine secrète" not in plain.text


def test_lesson_refused_for_a_game_without_one_and_without_csrf(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        csrf = csrf_of(c.get("/").text)
        missing = c.post("/apprendre/belote", data={"csrf": csrf}, follow_redirects=False)
        forged = c.post("/apprendre/chouine", data={"csrf": "x"}, follow_redirects=False)
    assert missing.status_code == 404 and "partie guidée" in missing.text
    assert forged.status_code == 403


def test_a_lesson_is_private_and_never_rated(sqlite_url: str) -> None:
    """Its deal is known in advance: it must not move the ladder, nor wait in the lobby for
    strangers. A table on a fresh deal, played the same way, is rated."""
    with client(sqlite_url) as c:
        csrf = csrf_of(c.get("/regles/chouine").text)
        location = str(c.post("/apprendre/chouine", data={"csrf": csrf}).url)
        code = location.split("/t/", 1)[1].split("?", 1)[0]
        assert code not in c.get("/").text  # not listed in the lobby
        assert code not in other(c).get("/").text
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        assert final["status"] == "over" and final["record_id"]
        assert "Personne n'est encore classé" in html.unescape(c.get("/classement/chouine").text)
        fresh = create_table(c, "chouine", ["human", "bot:random"], "Alice")
        fresh_page = html.unescape(c.get(f"/t/{fresh}").text)
        assert "graine secrète" in fresh_page and "donne choisie à l'avance" not in fresh_page
        with c.websocket_connect(f"/t/{fresh}/ws") as ws:
            assert play_to_end(ws)["status"] == "over"
        assert "Personne n'est encore classé" not in html.unescape(
            c.get("/classement/chouine").text
        )
