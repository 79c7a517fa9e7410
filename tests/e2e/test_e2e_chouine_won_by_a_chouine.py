"""The last partie of a match won by a Chouine, declared from the page: both players read
who won by it, no score sheet and no points (a total could show the loser ahead), and the
Chouine listed with its cards and without points (it scores none: it wins). The rule:
`rules/chouine.md`, « the result names the Chouine as the reason, not a points total »."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chouine_in_hand,
    chromium,
    code_of,
    create_table,
    join,
    live_server,
    put_state,
    shoot,
    watched_page,
)

pytestmark = [pytest.mark.e2e]


def sheet_rows(page) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return list(page.eval_on_selector_all(".cq-result .cq-sheet tr", "rows => rows"))


def test_a_last_partie_won_by_a_chouine_shows_the_chouine_not_a_sheet(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        alice, errors = watched_page(browser, PHONE)
        bob, _ = watched_page(browser, DESKTOP, errors)
        seats = {0: "human", 1: "human"}
        invite = create_table(alice, server.url, "chouine", "Alice", 2, seats)
        join(bob, invite, "Bob")
        put_state(server, code_of(invite), chouine_in_hand())
        # Alice declares it from her buttons, Bob finishes the trick with any card
        alice.click("button.action[data-action*='chouine']")
        bob.wait_for_selector(".cq-hand .card:not([disabled])")
        bob.click(".cq-hand .card:not([disabled])")
        for page in (alice, bob):
            page.wait_for_selector("#result:not([hidden])")
            result = page.inner_text(".cq-result")
            assert "gagne la partie par la Chouine" in result, result
            assert page.locator(".cq-result .cq-chouine").count() == 1
            assert "Dernière partie du match" in result
            assert sheet_rows(page) == []  # totals that could show the loser ahead: none
            assert page.locator(".cq-seat .cq-points").count() == 0
            # the Chouine is listed with its cards, and no points (it scores none)
            declared = page.inner_text(".cq-decls")
            assert "annonce la Chouine" in declared and "pts" not in declared, declared
            reason = page.inner_text("#result-reason")
            assert reason == "Manche terminée : 2 parties à 0.", reason
        assert alice.inner_text("#result-title").startswith("Vous avez gagné")
        assert bob.inner_text("#result-title").endswith(("gagne la partie.", "gagne la manche."))
        shoot(alice, "chouine-won-by-a-chouine")
        assert not errors, errors
