"""Accessibility in Debian's Chromium: an axe audit (axe-core, bundled with
axe-playwright-python and injected into the page: nothing is fetched) of every page and of
each game's table, at phone and desktop sizes, in the light and the dark (system) theme;
moves and log lines announced in a live region; every control reachable by keyboard with a
visible focus ring.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_flow import click_first
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    code_of,
    create_table,
    live_server,
    prepared_table,
    put_state,
    quicken_bots,
    shoot,
)

from choux import games
from choux.games.parlote.actions import ClaimLiar
from choux.games.parlote.state import OVER, ParloteState
from choux.games.parlote.testing import argument_under_vote, arrange, contract_for, standard_hands

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

GAMES = {"chouine": 2, "chouineurs": 3, "cul-de-chouette": 3, "parlote": 4}
SERIOUS = ("serious", "critical")


def audit(page: Any, where: str) -> list[str]:
    """The serious and critical axe violations on the page, one readable line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = []
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] in SERIOUS:
            for node in violation["nodes"]:
                summary = " ".join(node.get("failureSummary", "").split())[:160]
                found.append(f"{where}: {violation['id']} {node['target']} {summary}")
    return found


def finished_parlote() -> ParloteState:
    state = arrange(
        4,
        seed=1,
        options={"target": 100},
        reader=0,
        hands=standard_hands(),
        contract=contract_for(),
    )
    while state.phase != OVER:
        state.apply_timeout()
    return state


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violation_on_any_page_or_table(tmp_path: Path, scheme: str) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.05) as server, chromium() as browser:
        context = browser.new_context(viewport=PHONE, color_scheme=scheme)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        elsewhere: list[str] = []
        page.on(
            "request",
            lambda r: None if r.url.startswith((server.url, "data:")) else elsewhere.append(r.url),
        )
        # a game of two quick bots, to be finished for its replay page and the ladder's rows
        level = next(iter(games.get("cul-de-chouette").bots()))
        bots = {0: f"bot:{level}", 1: f"bot:{level}"}
        invite = create_table(page, server.url, "cul-de-chouette", "", 2, bots, {"objectif": "20"})
        quicken_bots(server, invite, 0.01)
        finished = code_of(invite)
        tables = {name: prepared_table(page, server, name, "Alice", n) for name, n in GAMES.items()}
        states: dict[str, Any] = {
            name: games.get(name).new(n, 7, {}) for name, n in GAMES.items() if name != "parlote"
        }
        states["parlote"] = arrange(4, seed=1, reader=3)  # Alice (seat 0) opens the bidding
        for name, state in states.items():
            put_state(server, tables[name], state)
        extra = {  # more Parlote moments on tables of their own
            "parlote-vote": argument_under_vote("Tout le monde le dit, donc c'est vrai."),
            "parlote-over": finished_parlote(),
            "parlote-liar": ParloteState(3),
        }
        for name, state in extra.items():
            tables[name] = prepared_table(page, server, "parlote", "Alice", 4)
            put_state(server, tables[name], state)

        pages = ["/", "/nouvelle", "/nouvelle?jeu=inconnu", "/t/inconnu"]
        for name in GAMES:
            pages += [f"/nouvelle?jeu={name}", f"/regles/{name}", f"/classement/{name}"]
        pages += [f"/t/{code}" for code in tables.values()]
        for name in ("chouine", "cul-de-chouette"):  # the guided first games
            page.goto(f"{server.url}/regles/{name}")
            page.click("form.learn-form button")
            page.wait_for_url("**/t/*?apprendre=1")
            pages.append(page.url.replace(server.url, ""))
        record = _wait_for_record(server, finished)
        pages.append(f"/parties/{record}")

        problems: list[str] = []
        for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(viewport)
            for path in pages:
                page.goto(server.url + path)
                if path.startswith("/t/") and path != "/t/inconnu":
                    page.wait_for_selector("#board > *")
                page.wait_for_timeout(150)
                problems += audit(page, f"{label} {path}")
            for name, code in tables.items():
                page.goto(f"{server.url}/t/{code}")
                page.wait_for_selector("#board > *")
                shoot(page, f"a11y-{scheme}-{name}-{label}", full_page=True)
        assert not problems, "\n".join(problems)
        assert not elsewhere, elsewhere  # the audit fetched nothing from outside
        assert not errors, errors


def _wait_for_record(server: Any, code: str) -> int:
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        table = server.service.tables.get(code)
        if table is not None and table.record_id is not None:
            return int(table.record_id)
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their Chouine")


def test_moves_and_log_lines_are_announced_in_a_live_region(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)
        region = page.locator("#announcer")
        assert region.get_attribute("aria-live") == "polite"
        put_state(server, code, ParloteState(1))
        page.wait_for_selector("[data-action=moi]")
        page.wait_for_function("() => document.getElementById('announcer').textContent !== ''")
        # the turn comes to Gustave: he hears what is asked of him, as the status line says
        assert region.text_content() == "Qui a menti en dernier ?"
        assert page.locator("#status-line").inner_text().startswith("Qui a menti en dernier ?")

        async def someone_claims() -> None:
            await server.service.act(server.service.tables[code], 2, ClaimLiar().to_json())

        server.call(someone_claims())
        page.wait_for_function(
            "() => document.getElementById('announcer').textContent.includes('Moi !')"
        )
        # the region is read by screen readers only, the visible log keeps its lines
        box = region.bounding_box()
        assert box is not None and box["width"] <= 1 and box["height"] <= 1
        assert "Moi !" in page.locator("#log").inner_text()


def test_the_turn_after_an_optional_moi_is_still_announced(tmp_path: Path) -> None:
    """Gustave may say « Moi ! » and does not: when the clock ends that round and makes him
    the first to draw, a screen reader still hears « À vous de piocher ! ». (My first way
    of announcing the optional « Moi ! » shared the turn's memory and swallowed it: a
    review.)"""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page = browser.new_page(viewport=PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)
        state = ParloteState(3)  # the clock then draws Gustave among four silent players
        put_state(server, code, state)
        page.wait_for_function(
            "() => document.getElementById('announcer').textContent.includes('Qui a menti')"
        )

        async def the_clock_ends_the_round() -> None:
            table = server.service.tables[code]
            async with table.lock:
                table.state.apply_timeout()

        server.call(the_clock_ends_the_round())
        put_state(server, code, state)
        page.wait_for_function(
            "() => document.getElementById('announcer').textContent.includes('piocher')"
        )


CONTROLS = (
    "a[href], button:not([disabled]), select:not([disabled]), textarea:not([disabled]), "
    "input:not([type=hidden]):not([disabled]), summary"
)


def keyboard_walk(page: Any, where: str) -> list[str]:
    """Tab through the page: every visible control must get the focus, with a visible
    ring. Returns what went wrong."""
    count = page.evaluate(
        """(selector) => {
            // what a person sees: not in a closed <details>, not hidden by CSS
            const shown = [...document.querySelectorAll(selector)].filter((el) => {
              const box = el.getBoundingClientRect();
              return box.width > 0 && box.height > 0
                && el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true });
            });
            // a hand is one Tab stop (roving tabindex): reaching any of its cards reaches it
            const groups = [...document.querySelectorAll("[data-roving]")];
            shown.forEach((el, i) => {
              const group = el.closest("[data-roving]");
              el.dataset.kb = group ? `hand${groups.indexOf(group)}` : String(i);
            });
            return shown.length;
        }""",
        CONTROLS,
    )
    assert count > 0, where
    reached: set[str] = set()
    problems = []
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(count + 15):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => {
                const el = document.activeElement;
                if (!el || el === document.body) return null;
                const style = getComputedStyle(el);
                const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
                return { kb: el.dataset.kb || null, ring, html: el.outerHTML.slice(0, 80) };
            }"""
        )
        if focused is None:
            continue
        if focused["kb"] is not None:
            reached.add(focused["kb"])
        if not focused["ring"]:
            problems.append(f"{where}: no visible focus on {focused['html']}")
    missing = page.evaluate(
        """(reached) => [...document.querySelectorAll('[data-kb]')]
            .filter((el) => !reached.includes(el.dataset.kb))
            .map((el) => el.outerHTML.slice(0, 80))""",
        sorted(reached),
    )
    problems += [f"{where}: never reached by Tab: {html}" for html in missing]
    return problems


def test_every_control_is_reachable_by_keyboard_with_a_visible_focus(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page = browser.new_page(viewport=DESKTOP)
        problems: list[str] = []
        for path in ("/", "/nouvelle?jeu=cul-de-chouette", "/regles/parlote"):
            page.goto(server.url + path)
            problems += keyboard_walk(page, path)
        for name, players in GAMES.items():
            code = prepared_table(page, server, name, "Alice", players)
            state = (
                arrange(4, seed=1, reader=3)
                if name == "parlote"
                else games.get(name).new(players, 5, {})
            )
            put_state(server, code, state)
            page.goto(f"{server.url}/t/{code}")
            page.wait_for_selector("#board > *")
            page.wait_for_timeout(200)
            problems += keyboard_walk(page, f"table {name}")
        assert not problems, "\n".join(problems)


def test_keyboard_play_keeps_the_focus_in_the_hand_after_each_card(tmp_path: Path) -> None:
    """Playing a card with Enter redrew the hand and left the focus on the page's body: the
    next card meant tabbing again from the top of the page (found playing by keyboard)."""
    with live_server(tmp_path, bot_pace=0.02) as server, chromium() as browser:
        page = browser.new_page(viewport=DESKTOP)
        create_table(page, server.url, "chouine", "Alice", 2, {1: "bot:random"})
        played = 0
        for _ in range(200):
            if played == 4:
                break
            card = page.locator(".cq-hand button.card.playable")
            if not card.count():
                page.wait_for_timeout(50)
                continue
            if played == 0:
                card.first.focus()  # the one Tab walk to the hand, done once
            else:  # after the first card, the focus is back in the hand by itself
                page.wait_for_function(
                    "() => document.activeElement && document.activeElement.closest('.cq-hand')"
                )
            before = page.evaluate("window.chouxTable.current.version")
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => window.chouxTable.current.version > {before}")
            played += 1
        assert played == 4
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.closest('.cq-hand')"
        )
        # arrow keys, Home and End walk the hand (on our turn: nothing moves meanwhile)
        page.wait_for_selector(".cq-hand button.card.playable")
        page.locator(".cq-hand button.card").first.focus()
        page.keyboard.press("Home")
        cards = page.eval_on_selector_all(".cq-hand button", "els => els.map(e => e.dataset.card)")
        focused = "document.activeElement.dataset.card"
        assert page.evaluate(focused) == cards[0]
        page.keyboard.press("ArrowRight")
        assert page.evaluate(focused) == cards[1]
        page.keyboard.press("End")
        assert page.evaluate(focused) == cards[-1]
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(focused) == cards[-2]
        # the hand is one Tab stop: Tab leaves it, Shift+Tab comes back to the same card
        page.keyboard.press("Tab")
        assert not page.evaluate("!!document.activeElement.closest('.cq-hand')")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(focused) == cards[-2]


def test_the_last_trick_toggle_keeps_its_focus_and_gives_way_to_the_next_card(
    tmp_path: Path,
) -> None:
    """« Voir le dernier pli » lost the focus when pressed, and the last trick stayed on the
    felt after the next card was played: it was the player's turn with the card just led
    hidden."""
    with live_server(tmp_path, bot_pace=0.02) as server, chromium() as browser:
        page = browser.new_page(viewport=DESKTOP)
        create_table(page, server.url, "chouine", "Alice", 2, {1: "bot:random"})
        toggle = page.locator("#last-trick-toggle")
        for _ in range(200):  # play until a trick is over and it is our turn again
            if (
                toggle.count()
                and toggle.is_enabled()
                and page.locator(".cq-hand .playable").count()
            ):
                break
            click_first(page, ".cq-hand button.card.playable")
            page.wait_for_timeout(80)
        toggle.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#last-trick-toggle[aria-pressed=true]")
        assert page.evaluate("document.activeElement.id") == "last-trick-toggle"
        before = page.evaluate("window.chouxTable.current.version")
        page.locator(".cq-hand button.card.playable").first.click()
        page.wait_for_function(f"() => window.chouxTable.current.version > {before}")
        page.wait_for_selector("#last-trick-toggle[aria-pressed=false]")
        assert page.locator("#last-trick-toggle").inner_text() == "Voir le dernier pli"
