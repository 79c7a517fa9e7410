"""Cul de Chouette pages in Debian's Chromium: what the forms start with, and what they say.

- The Civet's stake started at the largest bet (102): one tap on « Valider » staked it all.
  It now starts at the smallest legal stake; the player raises it on purpose.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import (
    PHONE,
    chromium,
    current,
    live_server,
    prepared_table,
    put_state,
    watched_page,
)

from choux.games.cul_de_chouette.testing import arrange

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

A, B, C = 0, 1, 2


def test_cdc_civet_stake_starts_at_the_smallest_bet(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 3, {"des": '"reels"'})
        state = arrange(3, scores=[80, 50, 60], roller=A, civet=[True, False, False])
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=civet]")
        stake = page.locator("[data-dialog=civet] input[name=stake]")
        legal = [
            entry["action"]["stake"]
            for entry in current(page)["view"]["legal"]
            if entry["action"]["type"] == "civet"
        ]
        assert stake.input_value() == str(min(legal)) == "1"
        assert stake.get_attribute("min") == "1" and stake.get_attribute("max") == "102"
        assert "maximum : 102 points" in page.locator("[data-dialog=civet]").inner_text()
        # another combination keeps the stake typed; one above the maximum comes down to it
        page.fill("[data-dialog=civet] input[name=stake]", "12")
        page.select_option("[data-dialog=civet] select", "Velute")
        assert stake.input_value() == "12"
        page.fill("[data-dialog=civet] input[name=stake]", "500")
        page.select_option("[data-dialog=civet] select", "Chouette")
        assert stake.input_value() == "102"
        # « Valider » at once bets the smallest stake
        page.fill("[data-dialog=civet] input[name=stake]", "")
        page.select_option("[data-dialog=civet] select", "Velute")
        assert stake.input_value() == "1"
        page.click("[data-dialog=civet] button[type=submit]")
        page.wait_for_function(
            "() => { const v = window.chouxTable.current.view; return v && v.civet_bet; }"
        )
        assert current(page)["view"]["civet_bet"] == {"combination": "Velute", "stake": 1}
        assert not errors, errors
