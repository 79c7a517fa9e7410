"""The rating ladder: each finished game moves its players (people by the guest identity
of their browser, bots by level) once, in the transaction that stores its record."""

from __future__ import annotations

import html
import re

import pytest
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    db_url_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, other, play_to_end

from choux import games
from choux.play import store as store_module
from choux.play.ratings import BOT_PREFIX, Entrant, Standing, entrants, rate


def ladder_rows(html: str) -> list[tuple[str, int, int]]:
    """(name, shown rating, games) of each row of a ladder page."""
    rows = re.findall(
        r'<td class="ladder-name">([^<]*).*?<td class="ladder-score">(\d+)</td>\s*<td>(\d+)</td>',
        html,
        re.S,
    )
    return [(name.strip(), int(score), int(played)) for name, score, played in rows]


def test_a_finished_game_moves_both_players_on_the_ladder(db_url: str, course: str) -> None:
    with client(db_url) as c:
        assert "Personne n'est encore classé" in html.unescape(c.get(f"/classement/{course}").text)
        results = []
        for _ in range(2):
            code = create_table(c, course, ["human", "bot:random"], "Alice")
            with c.websocket_connect(f"/t/{code}/ws") as ws:
                results.append(play_to_end(ws)["result"])
        page = c.get(f"/classement/{course}")
        assert page.status_code == 200
        rows = ladder_rows(page.text)
        names = [name for name, _, _ in rows]
        assert len(rows) == 2 and "Alice" in names, rows
        assert all(played == 2 for _, _, played in rows), rows  # the same browser, followed
        alice = next(r for r in rows if r[0] == "Alice")
        bot = next(r for r in rows if r[0] != "Alice")
        alice_wins = sum(1 for r in results if r["ranks"][0] == 1)
        if alice_wins == 2:
            assert alice[1] > bot[1]
        elif alice_wins == 0:
            assert alice[1] < bot[1]
        assert 'class="me"' in page.text  # Alice's own row is marked for her
        assert "Robot " in bot[0]  # named by its level, not by one table's name for it
        # another visitor sees the same ladder, without Alice's mark
        assert 'class="me"' not in other(c).get(f"/classement/{course}").text


def test_a_failed_rating_never_loses_the_last_action(
    sqlite_url: str, course: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> list[Standing]:
        raise RuntimeError("rating bug")

    monkeypatch.setattr(store_module, "rate", broken)
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        assert final["status"] == "over" and final["record_id"]
        assert c.get(f"/parties/{final['record_id']}.json").status_code == 200
        assert "Personne n'est encore classé" in html.unescape(c.get(f"/classement/{course}").text)


def test_the_ladder_of_an_unknown_game_is_a_404(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        response = c.get("/classement/belote")
        assert response.status_code == 404
        assert "Ce jeu n'existe pas" in html.unescape(response.text)


def test_the_winner_gains_what_the_loser_loses_in_expectation() -> None:
    after = rate([Entrant("p1", "Ana", 1), Entrant("p2", "Bob", 2)], {})
    ana, bob = after
    assert ana.mu > 25 > bob.mu and ana.sigma < 25 / 3 and bob.sigma < 25 / 3
    assert (ana.games, ana.wins, bob.games, bob.wins) == (1, 1, 1, 0)
    assert ana.score > 1000 > bob.score


def test_beating_a_stronger_player_gains_more() -> None:
    strong = Standing("p2", "Bob", mu=35.0, sigma=3.0, games=40, wins=30)
    weak = Standing("p3", "Cid", mu=15.0, sigma=3.0, games=40, wins=5)
    upset = rate([Entrant("p1", "Ana", 1), Entrant("p2", "Bob", 2)], {"p2": strong})
    expected = rate([Entrant("p1", "Ana", 1), Entrant("p3", "Cid", 2)], {"p3": weak})
    assert upset[0].mu - 25 > expected[0].mu - 25 > 0


def test_partners_who_finish_together_move_together() -> None:
    after = rate(
        [Entrant("a", "A", 1), Entrant("b", "B", 2), Entrant("c", "C", 1), Entrant("d", "D", 2)],
        {},
    )
    by = {s.player: s for s in after}
    assert by["a"].mu == pytest.approx(by["c"].mu) and by["a"].mu > 25
    assert by["b"].mu == pytest.approx(by["d"].mu) and by["b"].mu < 25
    assert by["a"].wins == by["c"].wins == 1


def test_a_draw_between_everyone_counts_a_game_and_no_win() -> None:
    after = rate([Entrant("a", "A", 1), Entrant("b", "B", 1)], {})
    assert all(s.games == 1 and s.wins == 0 and s.mu == pytest.approx(25) for s in after)


def test_who_is_rated() -> None:
    person = ("human", "Ana", None, "guest-ana")
    bot = ("bot", "Robot", "greedy", None)
    found = entrants([person, bot], [1, 2], [0, 1])
    assert [(e.player, e.rank) for e in found] == [("guest-ana", 1), (BOT_PREFIX + "greedy", 2)]
    # a person replaced by a bot during the game: not rated, and the bot standing in neither
    replaced = ("bot", "Robot", "greedy", "guest-bob")
    assert [e.player for e in entrants([person, replaced, bot], [1, 2, 3], [0, 1, 2])] == [
        "guest-ana",
        BOT_PREFIX + "greedy",
    ]
    # a seat played from someone else's shared screen has no identity
    shared = ("human", "Léa", None, None)
    assert [e.player for e in entrants([person, shared], [1, 2], [0, 1])] == []
    # bots only: nobody is rated (a bench of bot tables must not move the bots' ratings)
    assert entrants([bot, ("bot", "R2", "random", None)], [1, 2], [0, 1]) == []
    # one identity at two seats (one browser for two seats) counts for neither
    assert entrants([person, person, bot], [1, 2, 3], [0, 1, 2]) == []


def test_a_person_against_two_robots_of_one_level_is_rated() -> None:
    """The usual solo game (the form offers « robot gourmand » at every free seat): it was
    not rated at all, and a solo Parlote (three robots, two levels) could never be."""
    person = ("human", "Ana", None, "guest-ana")
    bot = ("bot", "Robot", "greedy", None)
    found = entrants([bot, person, bot], [2, 1, 3], [0, 1, 2])
    assert [(e.player, e.rank) for e in found] == [
        (BOT_PREFIX + "greedy", 2),
        ("guest-ana", 1),
        (BOT_PREFIX + "greedy", 3),
    ]
    after = {s.player: s for s in rate(found, {})}
    assert set(after) == {"guest-ana", BOT_PREFIX + "greedy"}  # one standing a player
    ana, greedy = after["guest-ana"], after[BOT_PREFIX + "greedy"]
    assert ana.mu > 25 > greedy.mu and (ana.games, ana.wins) == (1, 1)
    assert (greedy.games, greedy.wins) == (1, 0)
    # a level's seats on both sides of a team game: one game, a win, a mean of both updates
    team = entrants([person, bot, bot, bot], [1, 2, 1, 2], [0, 1, 2, 3])
    mixed = {s.player: s for s in rate(team, {})}
    assert mixed[BOT_PREFIX + "greedy"].wins == 1 and mixed[BOT_PREFIX + "greedy"].games == 1
    assert mixed["guest-ana"].mu > mixed[BOT_PREFIX + "greedy"].mu
    # robots alone, whatever their levels, still rate nobody
    assert entrants([bot, bot, bot], [1, 2, 3], [0, 1, 2]) == []


def test_the_parlote_referee_is_not_a_competitor() -> None:
    parlote = games.get("parlote")
    assert parlote.competitors(5, {"mode": "arbitre"}) == (0, 1, 2, 3)
    assert parlote.competitors(4, {}) == (0, 1, 2, 3)
    assert games.get("chouine").competitors(3, {}) == (0, 1, 2)


def test_a_seat_the_clock_played_for_is_not_rated() -> None:
    """A person whose every move was played by the clock (a correspondence timeout) is
    rated as a person replaced by a robot: not at all."""
    ana, bob = ("human", "Ana", None, "guest-ana"), ("human", "Bob", None, "guest-bob")
    cid = ("human", "Cid", None, "guest-cid")
    assert [e.player for e in entrants([ana, bob, cid], [1, 2, 3], [0, 1, 2], {1})] == [
        "guest-ana",
        "guest-cid",
    ]
    assert entrants([ana, bob], [1, 2], [0, 1], {1}) == []  # one person left: nobody
    bot = ("bot", "Robot", "greedy", None)
    assert entrants([ana, bot], [2, 1], [0, 1], {0}) == []  # the bot alone is not rated
