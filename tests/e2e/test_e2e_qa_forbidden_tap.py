"""QA regression: a tap on a card the rules forbid says why, in French (it used to be a
silently disabled card), and changes nothing."""

from __future__ import annotations

from pathlib import Path

import e2e_tables as tables
import pytest
from e2e_tables import PHONE, chromium, code_of, live_server, put_state, watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_a_tap_on_a_forbidden_card_says_why_in_french(tmp_path: Path) -> None:
    """Phase two, Marcel leads the king of hearts: Alice must follow with her ace. Her other
    cards stay tappable (greyed), and a tap on one gets the table's reason in French, the
    card still in her hand (it used to be a silently disabled card)."""
    from choux.games.chouine.actions import Play
    from choux.games.chouine.testing import arrange

    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        invite = tables.create_table(
            page, server.url, "chouine", "Alice", 2, {0: "human", 1: "bot:greedy"}, {"manches": "1"}
        )
        state = arrange(2, hands=["AH 7S 9C", "KH 8C TD"], trump="D", talon="", leader=1)
        state.apply(1, Play("KH"))  # Marcel leads; Alice answers
        put_state(server, code_of(invite), state)
        blocked = ".cq-hand button.card.blocked:not([disabled])"
        page.wait_for_selector(f"#table:not(.busy) {blocked}")
        assert page.locator(blocked).count() == 2  # the seven of spades, the nine of clubs
        assert page.locator(".cq-hand button.card.playable").count() == 1  # the ace of hearts
        card = page.locator(blocked).first.get_attribute("data-card")
        page.locator(blocked).first.click(force=True)  # aria-disabled, yet tappable
        page.wait_for_selector("#notice:not([hidden])")
        reason = page.inner_text("#notice")
        assert "vous devez fournir à cœur" in reason.lower(), reason
        assert card in page.evaluate("window.chouxTable.current.view.hand")  # still in hand
        assert not errors, errors
