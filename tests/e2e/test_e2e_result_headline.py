"""The end of a game written for the one who reads it (Debian's Chromium).

The winner reads « Vous avez gagné, avec … ! », the losers « X et Y gagnent la partie. » and
where they finished; the engine's reason comes below, then the final ranking, and the
« Rejouer » / « Retour au salon » buttons. A Parlote game steered to its end, read from
both teams' pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    code_of,
    create_table,
    join,
    live_server,
    put_state,
    shoot,
    watched_page,
)

from choux.games.parlote.actions import Clock
from choux.games.parlote.state import OVER, ParloteState
from choux.games.parlote.testing import arrange, contract_for, standard_hands

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

GUSTAVE, BERTHE = 0, 1  # Gustave plays with seat 2, Berthe with seat 3


def finished_game() -> ParloteState:
    """One deal to 100 points, played out on the clock: one team passes the target."""
    state = arrange(
        4,
        seed=1,
        options={"target": 100},
        reader=0,
        hands=standard_hands(),
        contract=contract_for(1, 80),
    )
    while state.phase != OVER:
        state.apply(None, Clock())
    assert state.winner is not None
    return state


def test_result_headline_is_written_for_the_winner_and_for_the_loser(tmp_path: Path) -> None:
    state = finished_game()
    winner_seat = GUSTAVE if state.winner == 0 else BERTHE
    loser_seat = BERTHE if winner_seat == GUSTAVE else GUSTAVE
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        gustave, errors = watched_page(browser, DESKTOP)
        berthe, _ = watched_page(browser, PHONE, errors)
        # a table of invited friends is private: Berthe comes in by the invite link
        invite = create_table(
            gustave, server.url, "parlote", "Gustave", 4, dict.fromkeys(range(4), "human")
        )
        code = code_of(invite)
        join(berthe, invite, "Berthe", place=BERTHE)
        put_state(server, code, state)
        pages = {GUSTAVE: gustave, BERTHE: berthe}
        names = {GUSTAVE: "Gustave", BERTHE: "Berthe"}
        for page in pages.values():
            page.wait_for_selector("#result:not([hidden])")

        winner = pages[winner_seat]
        title = winner.locator("#result-title").inner_text()
        assert title.startswith("Vous avez gagné"), title
        assert winner.locator("#result-place").inner_text() == ""

        loser = pages[loser_seat]
        title = loser.locator("#result-title").inner_text()
        assert names[winner_seat] in title and title.endswith("gagnent la partie."), title
        assert "Vous avez gagné" not in loser.locator("#result").inner_text()
        assert loser.locator("#result-place").inner_text() == "Votre équipe s'incline."

        for seat, page in pages.items():
            reason = page.locator("#result-reason").inner_text()
            assert reason.startswith("Objectif de 100 points dépassé"), reason
            assert reason.endswith("."), reason  # read as a sentence, like the other games'
            assert page.locator("#result-list li").count() == 4  # the final ranking
            assert page.locator("#rematch-form button").inner_text() == "Rejouer"
            assert page.locator("#lobby-link").inner_text() == "Retour au salon"
            assert page.locator("#lobby-link").get_attribute("href") == "/"
            shoot(page, f"result-headline-{'winner' if seat == winner_seat else 'loser'}")
        assert not errors, errors
