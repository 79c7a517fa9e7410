"""La parlote coinchée with a fifth seat in Debian's Chromium: Ernestine creates a table of
five, four bots play and she referees from her phone, accepting or rejecting each argument.

Choosing five players in the form selects the Arbitre mode by itself; the arbiter's page
shows the trick and the arguments, the « Accepter / Rejeter » buttons, and never a hand.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from e2e_tables import (
    PHONE,
    chromium,
    create_table,
    current,
    live_server,
    on_screen_at_top,
    quicken_bots,
    shoot,
    watched_page,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

ARBITER = 4


def test_parlote_arbiter_referees_a_game_of_four_bots(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=0.3, bot_pace=0.05) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.goto(f"{server.url}/nouvelle?jeu=parlote")
        page.select_option("select[name=joueurs]", "5")
        assert page.locator("select[name=opt_mode]").input_value() == '"arbitre"'
        assert "Arbitre" in page.locator(".seat-choice[data-seat='4']").inner_text()
        invite = create_table(
            page,
            server.url,
            "parlote",
            "Ernestine",
            5,
            {0: "bot:greedy", 1: "bot:greedy", 2: "bot:random", 3: "bot:greedy", 4: "human"},
            {"target": "100", "play_seconds": "15", "argument_required": "on"},
        )
        quicken_bots(server, invite, 0.3)
        assert current(page)["seat"] == ARBITER
        assert page.locator("#seats .seat-tag.arbiter").inner_text().lower() == "arbitre"
        verdicts = {"true": 0, "false": 0}
        judged_on_screen = False
        deadline = time.monotonic() + 150  # generous: the machine may be loaded
        while time.monotonic() < deadline and current(page)["status"] != "over":
            view = current(page)["view"]
            assert view["hand"] == [] and page.locator(".parlote .pcard").count() == 0
            if page.locator("[data-action=arbitrer]").count():
                if not sum(verdicts.values()):
                    assert page.locator(".window-banner.kind-judge").count() == 1
                    assert page.locator(".arbiter-note").count() == 1
                    # the verdict sits in the dock: on screen unscrolled, with its clock
                    if on_screen_at_top(page, "[data-action=arbitrer]", gone_ok=True):
                        judged_on_screen = True
                        docks = page.locator(".parlote-dock").all_inner_texts()
                        assert not docks or "Arbitrage" in docks[0], docks
                    shoot(page, "parlote-arbiter-judge-phone")
                counts = "false" if verdicts["false"] <= verdicts["true"] else "true"
                with contextlib.suppress(PlaywrightTimeout):  # the clock may close it first
                    page.click(f"[data-action=arbitrer][data-counts={counts}]", timeout=1500)
                    verdicts[counts] += 1
            page.wait_for_timeout(40)
        assert current(page)["status"] == "over", "the game reached its end"
        assert verdicts["true"] and verdicts["false"], verdicts
        assert judged_on_screen
        log = page.locator("#log").inner_text()
        assert "est rejeté" in log and "est retenu" in log
        page.wait_for_selector("#result:not([hidden])")
        shoot(page, "parlote-arbiter-over-phone", full_page=True)
        assert not errors, errors
