"""A player's-eye polish of the table page (Debian's Chromium): on a phone the hand is on
screen when the turn comes, a refused move is told where the player looks, names are joined
and elided in French, and the game's `waitingOn(view)` hook decides whose turn it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import e2e_tables as tables
import pytest
from e2e_tables import PHONE, chromium, code_of, live_server, put_state, quicken_bots, watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

BOTS = {0: "human", 1: "bot:greedy", 2: "bot:greedy", 3: "bot:greedy"}

IN_VIEW = """selector => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return [r.top, r.bottom, innerHeight];
}"""


OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect();
  const s = document.querySelector(b).getBoundingClientRect();
  return Math.max(0, Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top));
}"""


def in_view(page: Any, selector: str) -> None:
    top, bottom, height = page.evaluate(IN_VIEW, selector)
    assert top >= 0 and bottom <= height, (selector, top, bottom, height)


def test_a_phone_shows_the_hand_when_the_turn_comes_in_a_four_player_chouine(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        invite = tables.create_table(page, server.url, "chouine", "Amélie", 4, BOTS)
        quicken_bots(server, invite, 0.2)
        page.wait_for_selector("#table.my-turn .cq-hand button.card.playable", timeout=30000)
        page.wait_for_timeout(700)  # a smooth scroll, if any, has ended
        in_view(page, ".cq-hand")
        # the table is full and playing: the link folds under a small « Inviter » button
        assert page.is_visible("#invite-toggle")
        assert not page.is_visible("#invite-link")
        page.click("#invite-toggle")
        assert page.is_visible("#invite-link")
        assert page.input_value("#invite-link") == invite
        # the fair-deal panel's 64-digit fingerprint wraps instead of widening the page
        page.click("#fairness summary")
        page.wait_for_selector("#commitment", state="visible")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert not errors, errors


def test_a_refused_card_is_told_on_screen_wherever_the_page_is_scrolled(tmp_path: Path) -> None:
    from choux.games.chouine.actions import Play
    from choux.games.chouine.testing import arrange

    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        invite = tables.create_table(
            page, server.url, "chouine", "Alice", 2, {0: "human", 1: "bot:greedy"}, {"manches": "1"}
        )
        state = arrange(2, hands=["AH 7S 9C", "KH 8C TD"], trump="D", talon="", leader=1)
        state.apply(1, Play("KH"))
        put_state(server, code_of(invite), state)
        blocked = ".cq-hand button.card.blocked:not([disabled])"
        page.wait_for_selector(f"#table:not(.busy) {blocked}")
        page.locator(blocked).first.click(force=True)
        page.wait_for_selector("#notice:not([hidden])")
        assert "fournir" in page.inner_text("#notice")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # far below the hand
        page.wait_for_timeout(100)
        in_view(page, "#notice")
        assert page.get_attribute("#notice", "role") in ("alert", "status")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        # at the top of the page, on a phone, it lies over the top bar, not the status line
        assert page.evaluate(OVERLAP, ["#notice", "#status-line"]) == 0
        # French typography: no line may start with « ! » (a narrow non-breaking space)
        status = page.evaluate("() => document.querySelector('#status-line').textContent")
        assert "\u202f!" in status and " !" not in status, status
        page.screenshot(path=str(tmp_path / "notice.png"))
        page.wait_for_selector("#notice", state="hidden", timeout=12000)  # it fades away
        assert not errors, errors


NAMES_SCRIPT = """async () => {
  const w = await import("/static/js/widgets.js");
  const c = await import("/static/js/cards.js");
  const o = await import("/static/js/outcome.js");
  const names = ["Odette", "Hector", "<img src=x onerror=alert(1)>", "Éloïse", "Yvonne"];
  const node = document.createElement("p");
  node.textContent = w.withNames("signale une bévue de {p2}", names);
  return {
    card: w.withNames("Carte de {p0}", names),
    bevue: w.withNames("{p1} signale une bévue de {p3}", names),
    aspirate: w.withNames("Carte de {p1}", names),
    que: c.fill("Il faut que {p4} joue", names),
    same: c.fill === w.withNames,
    hostile: node.innerHTML,
    hostileNodes: node.children.length,
    three: o.joinNames(["Odette", "Marcel", "Simone"]),
    won: o.headline({ ranks: [2, 1] }, 0, ["Amélie", "Odette"], null, o.matchWord({ matchWord: () => "le match" }, {}, {})),
    plain: o.headline({ ranks: [2, 1] }, 0, ["Amélie", "Odette"], null, o.matchWord({}, {}, {})),
  };
}"""


def test_names_are_joined_with_et_and_elided_before_a_vowel(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.goto(f"{server.url}/regles/chouine")
        found = page.evaluate(NAMES_SCRIPT)
        assert found["card"] == "Carte d'Odette"
        assert found["bevue"] == "Hector signale une bévue d'Éloïse"
        assert found["aspirate"] == "Carte de Hector"  # an h keeps its « de »
        assert found["que"] == "Il faut qu'Yvonne joue"
        assert found["same"]  # one helper for every game
        assert found["hostileNodes"] == 0 and "&lt;img" in found["hostile"]
        assert found["three"] == "Odette, Marcel et Simone"
        assert found["won"] == "Odette gagne le match."
        assert found["plain"] == "Odette gagne la partie."
        assert not errors, errors


WAITING_ON = """export * from "/static/js/games/chouine.js?reel";
export function waitingOn(view) { return [1, 2, 3]; }
"""


def test_the_waiting_on_hook_decides_whose_turn_it_is(tmp_path: Path) -> None:
    """A renderer's `waitingOn(view)` overrides `view.actors` for the status line, the chips,
    the my-turn class and the tab title: here it names the three robots while the engine
    waits for Amélie."""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.route(
            "**/static/js/games/chouine.js",
            lambda route: route.fulfill(
                status=200, content_type="text/javascript", body=WAITING_ON
            ),
        )
        invite = tables.create_table(page, server.url, "chouine", "Amélie", 4, BOTS)
        quicken_bots(server, invite, 0.2)
        page.wait_for_function(
            "() => window.chouxTable && window.chouxTable.current.view.actors?.includes(0)",
            timeout=30000,
        )
        page.wait_for_timeout(200)
        status = page.inner_text("#status-line")
        assert status.startswith("À Odette, Marcel et Simone de jouer."), status
        assert not page.evaluate("document.getElementById('table').classList.contains('my-turn')")
        assert not page.title().startswith("●")
        acting = page.eval_on_selector_all(
            "#seats .seat-chip.acting", "ns => ns.map(n => n.dataset.seat)"
        )
        assert acting == ["1", "2", "3"]
        assert not errors, errors
