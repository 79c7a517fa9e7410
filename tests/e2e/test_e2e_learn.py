"""« Apprendre à jouer »: the guided first games, played to their end in Debian's Chromium.

From the rules page, one button opens a table against the easiest robot on a prepared deal
(the learner leads with the trump mariage in hand); the lesson panel beside the usual table
shows one rule at each step: at Chouine the mariage to announce, the free play while the
talon lasts, the draw after a trick, the obligations once it is empty, the count and the end;
at Cul de Chouette the turn, the Chouette of the prepared first roll and the Sirotage, the
reading of each roll, the races, and the end.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from e2e_flow import chouine_move, chouineurs_move, click_first
from e2e_tables import DESKTOP, PHONE, chromium, current, live_server, shoot, watched_page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def open_lesson(page: Any, url: str, game: str) -> None:
    """From the game's rules page, the « Apprendre à jouer » button, up to the lesson panel."""
    page.goto(f"{url}/regles/{game}")
    page.click("form.learn-form button")
    page.wait_for_url("**/t/*?apprendre=1")
    page.wait_for_selector("#lesson[data-step]")


def lesson_step(page: object) -> str:
    return str(page.locator("#lesson").get_attribute("data-step"))  # type: ignore[attr-defined]


def test_guided_chouine_from_the_rules_page_to_its_end(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=0.4, bot_pace=0.02) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        open_lesson(page, server.url, "chouine")
        view = current(page)["view"]
        assert view["players"] == 2 and current(page)["seat"] == 0
        # the prepared deal: Alice leads holding king and queen of trump
        assert lesson_step(page) == "annonce", lesson_step(page)
        assert "mariage" in page.locator("#lesson").inner_text().lower()
        shoot(page, "learn-chouine-annonce-phone")
        page.set_viewport_size(DESKTOP)
        shoot(page, "learn-chouine-annonce-desktop")
        page.set_viewport_size(PHONE)
        page.locator("#actions .button.action", has_text="mariage").first.click()
        page.wait_for_function("() => window.chouxTable.current.view.declarations.length > 0")

        steps = ["annonce"]
        deadline_moves = 400
        while current(page)["status"] != "over" and deadline_moves:
            deadline_moves -= 1
            step = lesson_step(page)
            if step != steps[-1]:
                steps.append(step)
                if step in ("talon-ferme", "decompte"):
                    shoot(page, f"learn-chouine-{step}-phone")
            if not chouine_move(page):
                page.wait_for_timeout(100)
        assert current(page)["status"] == "over", "the guided game did not end"
        page.wait_for_function("() => document.getElementById('lesson').dataset.step === 'fin'")
        assert "Vous savez jouer" in page.locator("#lesson").inner_text()
        seen = set(steps) | {"fin"}
        for step in ("annonce", "pioche", "talon-ferme", "decompte", "fin"):
            assert step in seen, steps
        progress = page.locator("#lesson-progress").text_content() or ""
        assert "règles vues sur 8" in progress, progress
        shoot(page, "learn-chouine-end-phone")
        assert not errors, errors


def test_learn_button_on_the_lobby_only_for_games_with_a_lesson(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        page.goto(server.url)
        tiles = page.locator(".game-tile", has=page.locator("form.learn-form"))
        assert tiles.count() >= 1
        assert "Chouine" in tiles.first.inner_text()
        page.locator("form[action='/apprendre/chouine'] button").click()
        page.wait_for_url("**/t/*?apprendre=1")
        page.wait_for_selector("#lesson[data-step]")
        assert not errors, errors


def cdc_move(page: Any) -> bool:
    """The learner's part at Cul de Chouette: roll when asked, shout the right cry in a
    race, keep a Chouette rather than sip, challenge nobody; windows close on the clock."""
    message = current(page)
    view, seat = message["view"], message["seat"]
    if message["status"] != "live" or seat not in view["actors"]:
        return False
    race = view.get("race")
    if race and seat not in race["order"]:
        # pressed as the button does (a tap could land after the race closed and the bar
        # folded: the race is short and the page redraws meanwhile)
        shout = {"type": "crier", "cry": race["cry"]}
        page.evaluate("(a) => window.chouxTable.act(a)", shout)
        return True
    for entry in view["legal"]:
        action = entry["action"]
        if action["type"] == "siroter" and not action["yes"]:
            page.evaluate("(a) => window.chouxTable.act(a)", action)
            return True
        # the roll as the « Lancer » button sends it (a tap could land on a redrawn page)
        if action["type"] in ("lancer", "souffler", "annoncer_total"):
            page.evaluate("(a) => window.chouxTable.act(a)", action)
            return True
    return False


def test_guided_cul_de_chouette_to_its_end(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=0.5, bot_pace=0.02) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        open_lesson(page, server.url, "cul-de-chouette")
        assert lesson_step(page) in ("ouverture", "tour"), lesson_step(page)
        shoot(page, "learn-cdc-start-phone")
        # the prepared dice: the learner rolls first, a Chouette of fives, and may sip
        page.click(".roll-button")
        page.wait_for_function("() => window.chouxTable.current.view.last_roll !== null")
        first = current(page)["view"]["last_roll"]
        assert first["seat"] == 0 and sorted(first["dice"]) == [5, 5, 6], first
        page.wait_for_function("() => document.getElementById('lesson').dataset.step === 'siroter'")
        shoot(page, "learn-cdc-first-chouette-phone")
        steps = [lesson_step(page)]
        moves = 600
        while current(page)["status"] != "over" and moves:
            moves -= 1
            view = current(page)["view"]
            if view["step"] == "debut" and view["roller"] == current(page)["seat"]:
                # the learner is about to roll: a person reads the panel first (the roll
                # would otherwise replace that moment before the panel is looked at)
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(
                        "() => document.getElementById('lesson').dataset.step === 'tour'",
                        timeout=3000,
                    )
            step = lesson_step(page)
            if step != steps[-1]:
                steps.append(step)
            # a person's pace: the page (and its lesson panel) draws each state before the
            # next move; every seat may always press the −10 button, so never idle
            cdc_move(page)
            page.wait_for_timeout(120)
        assert current(page)["status"] == "over", steps
        page.wait_for_function("() => document.getElementById('lesson').dataset.step === 'fin'")
        assert "lecture" in steps and "tour" in steps, steps
        assert "Vous savez jouer" in page.locator("#lesson").inner_text()
        shoot(page, "learn-cdc-end-phone")
        assert not errors, errors


def follow_lesson(page: Any, move: Any, moves: int) -> list[str]:
    """Play the learner's part with `move` until the game ends; the lesson steps seen."""
    steps = [lesson_step(page)]
    while current(page)["status"] != "over" and moves:
        moves -= 1
        # a person reads the panel before moving: it has caught up with this version
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(
                "() => document.getElementById('lesson').dataset.version"
                " === String(window.chouxTable.current.version)",
                timeout=2000,
            )
        step = lesson_step(page)
        if step != steps[-1]:
            steps.append(step)
        if not move(page):
            page.wait_for_timeout(80)
    assert current(page)["status"] == "over", steps
    page.wait_for_function("() => document.getElementById('lesson').dataset.step === 'fin'")
    return [*steps, "fin"]


def test_guided_chouineurs_to_its_end(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=0.4, bot_pace=0.02) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        open_lesson(page, server.url, "chouineurs")
        view = current(page)["view"]
        # the prepared deal: the learner leads the first round with the black 5
        assert view["players"] == 3 and view["round_leader"] == 0
        assert {"colour": "noir", "value": 5} in [c["top"] for c in view["hand"]]
        assert lesson_step(page) == "choix", lesson_step(page)
        assert "pari" in page.locator("#lesson").inner_text()
        shoot(page, "learn-chouineurs-choix-phone")
        steps = follow_lesson(page, chouineurs_move, 1500)
        for step in ("choix", "entame", "fournir", "pli", "decompte", "fin"):
            assert step in steps, steps
        assert "pleurer" in steps or "chouineur" in steps, steps
        assert "Vous savez jouer aux Chouineurs" in page.locator("#lesson").inner_text()
        shoot(page, "learn-chouineurs-end-phone")
        assert not errors, errors


def parlote_learner_move(page: Any) -> bool:
    """The learner's part at the parlote: « moi ! », a pile, the first bid at 80 with the
    form's colours (else pass), and every card with a short argument."""
    message = current(page)
    view = message["view"]
    if message["status"] != "live" or message["seat"] not in view["actors"]:
        return False
    legal = {entry["action"]["type"] for entry in view["legal"]}
    if "moi" in legal:
        return click_first(page, "[data-action=moi]")
    if view["phase"] == "draw":
        return click_first(page, ".pile.drawable")
    if "encherir" in legal and view["bidding"]["high"] is None:
        return click_first(page, ".bid-form button[type=submit]")
    if "passer" in legal:
        return click_first(page, "[data-action=passer]")
    if "jouer" in legal and click_first(page, "button.pcard.playable"):
        try:
            page.fill("textarea[name=argument]", "Tout le monde le dit, c'est donc vrai.")
            page.click(".argument-form button[type=submit]", timeout=2000)
        except PlaywrightTimeout:
            return False
        return True
    return False


def test_guided_parlote_to_its_end(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=0.4, bot_pace=0.02) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        open_lesson(page, server.url, "parlote")
        view = current(page)["view"]
        assert view["mode"] == "honneur" and view["target"] == 300
        assert lesson_step(page) == "menteur", lesson_step(page)
        steps = follow_lesson(page, parlote_learner_move, 3000)
        for step in ("menteur", "jouer", "gagner", "pli", "fin"):
            assert step in steps, steps
        assert "encheres" in steps or "encheres-autres" in steps, steps
        assert "Vous savez jouer à la parlote" in page.locator("#lesson").inner_text()
        shoot(page, "learn-parlote-end-phone")
        assert not errors, errors
