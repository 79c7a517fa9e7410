"""QA regressions of Chouineurs: when you must cry, the trick that made you cry stays on the
felt and the prompt speaks to you; the reserve is named as the rules name it (cards, not
tokens); the secret choice is seen without scrolling, and the status line says what is asked.

On a prepared position, so that Alice cries every time: she leads the yellow 1 and the two
bots can only follow with higher yellows."""

from __future__ import annotations

from pathlib import Path

import e2e_tables as tables
import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    code_of,
    live_server,
    on_screen_at_top,
    put_state,
    watched_page,
)

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_the_crybaby_sees_the_trick_that_made_them_cry(tmp_path: Path) -> None:
    from choux.games.chouineurs.actions import Play
    from choux.games.chouineurs.testing import arrange, code, prepare_all

    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        invite = tables.create_table(
            page,
            server.url,
            "chouineurs",
            "Alice",
            3,
            {0: "human", 1: "bot:greedy", 2: "bot:greedy"},
        )
        state = arrange(
            3,
            hands=[["jaune1", "bleu3"], ["jaune9", "bleu5"], ["jaune5", "rouge4"]],
            leader=0,
            reserve=5,
        )
        prepare_all(state, ["orange", "orange", "orange"])
        for seat in range(3):  # each plays their yellow: Alice's 1 is the lowest
            state.apply(seat, Play(code(state.hands[seat][0])))
        assert state.actors() == (0,)
        put_state(server, code_of(invite), state)
        page.wait_for_selector(".cx-cry")
        assert "réserve : 5 cartes" in page.inner_text(".cx-info")
        assert "jeton" not in page.inner_text("#table")
        assert "Vous pleurez" in page.inner_text(".cx-cry")
        status = page.inner_text("#status-line")
        assert status.startswith("Vous chouinez : retournez une carte"), status
        label = page.inner_text("#actions .button.action")
        assert label == "Pleurer pour 1 point : prendre une carte de la réserve", label
        assert "Dernier pli" in page.inner_text(".cx-felt")
        assert page.locator(".cx-felt .cx-played").count() == 3
        assert page.locator(".cx-felt .cx-played.cry").count() == 1  # Alice's yellow 1
        assert "Le pli est vide" not in page.inner_text(".cx-felt")
        assert not errors, errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "laptop"])
def test_the_secret_choice_is_seen_without_scrolling(
    tmp_path: Path, viewport: dict[str, int]
) -> None:
    """The orientation, the five bet cards and « Valider » above the fold when they are asked,
    at 390x844 and 1280x800; the status line asks for that choice, not « À vous de jouer »."""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, viewport)
        tables.create_table(
            page,
            server.url,
            "chouineurs",
            "Alice",
            4,
            {0: "human", 1: "bot:greedy", 2: "bot:greedy", 3: "bot:greedy"},
        )
        page.wait_for_selector(".cx-chooser")
        status = page.inner_text("#status-line")
        assert status.startswith("À vous de choisir l'orientation de votre main et votre pari"), (
            status
        )
        assert "réfléchit" not in page.inner_text(".cx-seat.me")
        on_screen_at_top(page, ".cx-orient-choice button")
        on_screen_at_top(page, ".cx-betcard")
        page.click(".cx-betcard >> nth=1")
        on_screen_at_top(page, ".cx-confirm")
        # the hand, turned as chosen, starts inside the viewport too
        top = page.evaluate(
            "document.querySelector('.cx-seat.me .cx-hand').getBoundingClientRect().top"
        )
        assert top < viewport["height"], top
        page.click(".cx-confirm")
        page.wait_for_selector(".cx-chooser", state="detached")
        assert not errors, errors
