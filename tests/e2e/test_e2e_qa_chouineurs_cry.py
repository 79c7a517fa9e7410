"""QA regression: when you must cry (Chouineurs), the trick that made you cry stays on the
felt and the prompt speaks to you; the token reserve is named.

On a prepared position, so that Alice cries every time: she leads the yellow 1 and the two
bots can only follow with higher yellows."""

from __future__ import annotations

from pathlib import Path

import e2e_tables as tables
import pytest
from e2e_tables import PHONE, chromium, code_of, live_server, put_state, watched_page

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
        assert "jetons en réserve" in page.inner_text(".cx-info")
        assert "Vous pleurez" in page.inner_text(".cx-cry")
        assert "Dernier pli" in page.inner_text(".cx-felt")
        assert page.locator(".cx-felt .cx-played").count() == 3
        assert page.locator(".cx-felt .cx-played.cry").count() == 1  # Alice's yellow 1
        assert "Le pli est vide" not in page.inner_text(".cx-felt")
        assert not errors, errors
