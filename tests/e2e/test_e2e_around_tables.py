"""The pages around the tables in Chromium, at phone and laptop sizes: what a thumb taps in
the top bar and on the pages' chips, a logged-in phone's way to its account, the replay's
layout and arrows, and the dark theme's contrast where the light theme's colours stayed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import e2e_tables as tables
import pytest
from e2e_tables import DESKTOP, PHONE, chromium, code_of, live_server, shoot_sizes, watched_page
from test_e2e_accounts import play_seat_to_the_end, sign_up

pytestmark = [pytest.mark.e2e]

#: what a phone taps outside the tables: the bar, the lobby's buttons, the pages' chips
TAPPED = ".topbar a, .game-tile .button, .game-switch .chip, .rules-toc .chip, .rules-switch .chip"

#: WCAG contrast of an element's text on the first opaque background behind it
CONTRAST = """selector => {
  const lum = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const parts = getComputedStyle(n).backgroundColor.match(/[\\d.]+/g);
      if (parts && (parts.length < 4 || Number(parts[3]) > 0.5)) return getComputedStyle(n).backgroundColor;
    }
    return "rgb(255, 255, 255)";
  };
  return [...document.querySelectorAll(selector)].map((node) => {
    const a = lum(getComputedStyle(node).color), b = lum(behind(node));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}"""


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return page.evaluate(  # type: ignore[no-any-return]
        """selector => [...document.querySelectorAll(selector)].filter((n) => n.offsetParent)
            .map((n) => { const r = n.getBoundingClientRect();
              return { text: n.textContent.trim(), w: r.width, h: r.height, left: r.left, right: r.right }; })""",
        selector,
    )


def test_a_phone_taps_the_bar_and_the_chips_and_reaches_its_account(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        for path in ("/", "/nouvelle", "/regles/chouine", "/classement/chouine"):
            page.goto(server.url + path)
            found = boxes(page, TAPPED)
            assert found, path
            small = [b for b in found if b["h"] < 44 or b["w"] < 44]
            assert not small, (path, small)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
            # the 44 px targets did not make the bar taller
            assert page.locator(".topbar").bounding_box()["height"] <= 50, path
        sign_up(page, server.url, "Germaine")
        page.goto(server.url + "/")
        # logged in, the phone's bar shows a person (gold) leading to the account page
        account = page.locator(".topnav .nav-account")
        box = account.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
        assert box["x"] + box["width"] <= PHONE["width"]
        assert account.get_attribute("aria-label") == "Mon compte (Germaine)"
        assert "Germaine" not in page.inner_text(".topnav")
        shoot_sizes(page, "around-lobby-account")
        account.click()
        page.wait_for_url("**/compte")
        page.set_viewport_size(DESKTOP)
        assert "Germaine" in page.inner_text(".topnav")  # the laptop shows the pseudonym
        assert not errors, errors


def test_a_replay_and_the_account_pages_read_well_in_both_themes(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        sign_up(page, server.url, "Germaine")
        invite = tables.create_table(
            page, server.url, "chouine", "Germaine", 2, {1: "bot:random"}, {"manches": "1"}
        )
        play_seat_to_the_end(server, code_of(invite), 0)
        page.goto(server.url + "/mes-parties")
        page.click("#finished a[href^='/parties/']")
        page.wait_for_selector("#step-label:has-text('Début de la partie')")
        assert page.inner_text("#replay-winners").startswith("Gagnant : ")
        # her own game opens on her own cards (it opened on the spectator's, hands hidden)
        assert page.input_value("#viewpoint") == "0"
        page.wait_for_selector("#board .cq-hand .card")
        # on a laptop the moves' log sits beside the board, as at a table
        board = page.locator("#board").bounding_box()
        side = page.locator(".table-side").bounding_box()
        assert board is not None and side is not None and side["x"] >= board["x"] + board["width"]
        # an arrow moves one move, whether the slider has the focus or not
        page.focus("#slider")
        page.keyboard.press("ArrowRight")
        assert page.input_value("#slider") == "1"
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("ArrowRight")
        assert page.input_value("#slider") == "2"
        assert page.inner_text("#step-label").startswith("Coup 2 / ")
        page.set_viewport_size(PHONE)
        assert page.locator("#viewpoint").bounding_box()["height"] >= 44
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shoot_sizes(page, "around-replay")

        # a second person at a live table: one of the two reads « à vous de jouer »
        live = tables.create_table(page, server.url, "chouine", "Germaine", 2, {1: "human"})
        other, _ = watched_page(browser, PHONE, errors)
        tables.join(other, live, "Bruno")
        for theme in ("light", "dark"):
            for person in (page, other):
                person.emulate_media(color_scheme=theme)
            checks = {
                "/classement/chouine": ".ladder-score, .ladder-name",
                "/joueur/Germaine": ".stat-score, .stat-card h3, .stat-line",
                "/compte?bienvenue=1": ".notice.ok, .button.danger",
            }
            for path, selector in checks.items():
                page.goto(server.url + path)
                ratios = page.evaluate(CONTRAST, selector)
                assert ratios and min(ratios) >= 4.5, (theme, path, ratios)
            badges = []
            for person in (page, other):
                person.goto(server.url + "/mes-parties")
                badges += person.evaluate(CONTRAST, ".turn-badge")
            assert len(badges) == 1 and badges[0] >= 4.5, (theme, badges)
        assert not errors, errors


def test_a_host_closes_a_waiting_table_and_a_friends_page_says_so(tmp_path: Path) -> None:
    """Closed before its start, a table says it was never played, not that a move's time ran
    out (an open table that expires reads the same)."""
    with live_server(tmp_path) as server, chromium() as browser:
        host, errors = watched_page(browser, PHONE)
        friend, _ = watched_page(browser, DESKTOP, errors)
        invite = tables.create_table(
            host, server.url, "chouine", "Alice", 3, {1: "human", 2: "human"}
        )
        tables.join(friend, invite, "Bob")
        host.reload()
        host.locator(".host-panel summary").click()
        host.locator("#close-form button").click()
        host.wait_for_url("**/t/*")
        for page in (host, friend):
            page.wait_for_function("() => !document.getElementById('result').hidden")
            assert tables.plain(page.locator("#result-title").inner_text()) == "Table fermée"
            assert "aucune partie n'a été jouée" in tables.plain(
                page.locator("#result-place").inner_text()
            )
            assert "Table fermée avant le début" in tables.plain(
                page.locator("#status-line").inner_text()
            )
        assert not errors


def test_a_host_may_leave_once_the_game_starts_without_reloading(tmp_path: Path) -> None:
    """The host's page showed no « Quitter la table » until reloaded: drawn only when the
    page loaded, hidden for a host while the table waited (an evening's audit)."""
    with live_server(tmp_path) as server, chromium() as browser:
        host, errors = watched_page(browser, DESKTOP)
        friend, _ = watched_page(browser, PHONE, errors)
        invite = tables.create_table(host, server.url, "chouine", "Alice", 2, {1: "human"})
        assert host.locator("#leave-panel").is_hidden()  # waiting: the host closes instead
        tables.join(friend, invite, "Bob")
        host.wait_for_function("() => !document.getElementById('leave-panel').hidden")
        host.locator("#leave-panel summary").click()
        host.locator("#leave-form button").click()
        host.wait_for_url("**/t/*")
        friend.wait_for_function(
            "() => [...document.querySelectorAll('#log li')].some("
            "(li) => li.textContent.includes('Bob est maintenant'))"
        )
        assert not errors
