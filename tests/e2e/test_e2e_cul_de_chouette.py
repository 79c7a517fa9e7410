"""Cul de Chouette in Debian's Chromium: two people (a desktop and a phone) and a bot play a
whole short game with real dice typed in, through the pages.

The humans type scripted dice: Perceval makes a Chouette Velute (2-2-4) and wins the race
against Karadoc, who first shouts the wrong cry (a Bévue); Karadoc then presses the −10
button under Perceval's sheet; Perceval ends the game with a Pélican (6-6-6).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    create_table,
    current,
    desktop_and_phone,
    join,
    live_server,
    prepared_table,
    put_state,
    quicken_bots,
    shoot,
    shoot_sizes,
    watched_page,
)

from choux.games.cul_de_chouette import races
from choux.games.cul_de_chouette.actions import AnnounceTotal, BuyCul, Sip
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

EVIL = "<b>Karadoc</b><script>"  # a pseudonym full of HTML: shown as text
A, B, C = 0, 1, 2


def view(page: Any) -> dict[str, Any]:
    return current(page)["view"]  # type: ignore[no-any-return]


def wait_view(page: Any, test: str, timeout: float = 15_000) -> None:
    """Wait until a JS condition on `v` (the seat's view) holds on the page."""
    page.wait_for_function(
        f"() => {{ const c = window.chouxTable && window.chouxTable.current; const v = c && c.view; return !!(v && ({test})); }}",
        timeout=timeout,
    )


def type_dice(page: Any, values: list[int]) -> None:
    inputs = page.locator(".dice-entry input")
    for i in range(inputs.count()):
        inputs.nth(i).fill(str(values[i % len(values)]))
    page.locator(".dice-entry button[type=submit]").click()


def news(page: Any) -> str:
    return str(page.locator(".cdc-news").inner_text())


class Script:
    """What the two humans type, turn by turn; anything unscripted gets a Néant."""

    def __init__(self) -> None:
        self.race_done = False
        self.bevue_done = False

    def dice_for(self, seat: int, v: dict[str, Any]) -> list[int]:
        if v["tiebreak"] is not None:
            return [1] if seat == A else [6]
        if seat == A and v["roller"] == A and v["step"] in ("debut", "achat", "cul"):
            if v["step"] == "debut":
                return [2, 2] if not self.race_done else [6, 6]
            return [4] if not self.race_done else [6]
        return [1, 3, 6]


def step(page: Any, seat: int, script: Script) -> None:
    """Play whatever this page must decide now (dice, dialogs, Suite shouts)."""
    entry = page.locator(".dice-entry").count()  # the page first, then its state: never older
    c = current(page)
    if not c or c["status"] != "live":
        return
    v = c["view"]
    bevue_next = script.race_done and not script.bevue_done
    if seat == A and bevue_next and v["roller"] == A and v["step"] == "debut":
        return  # Perceval waits: Karadoc's −10 comes first at the start of this turn
    race = v.get("race")
    if (
        race
        and race["kind"] == "suite"
        and seat not in race["order"]
        and page.locator(".shout-bar.race-open").count()
    ):
        page.locator(f'.shout[data-cry="{race["cry"]}"]').click()
        return
    if entry:
        type_dice(page, script.dice_for(seat, v))
    elif page.locator("[data-dialog=siroter]").count():
        page.locator("[data-dialog=siroter] button").last.click()
    elif page.locator("[data-dialog=soufflette]").count():
        page.locator("[data-dialog=soufflette] button").first.click()
    elif page.locator("[data-dialog=annonce]").count():
        page.locator("[data-dialog=annonce] button", has_text="10").first.click()


def late_press(page: Any, selector: str) -> None:
    """A press that lands just after the race ended: by then the page may have folded the
    shouts away (outside a race they are tucked in the dock), so press the button the finger
    was on, whatever the page drew since."""
    page.evaluate(
        "(sel) => document.querySelector(sel).dispatchEvent("
        "new PointerEvent('pointerdown', {button: 0, bubbles: true}))",
        selector,
    )


def race(pa: Any, pb: Any, script: Script) -> None:
    """Perceval's Chouette Velute: Karadoc shouts wrong, then both shout right; first wins."""
    wait_view(pa, "v.step === 'chouette_velute'")
    shoot(pa, "cdc-race-open-desktop")
    shoot(pb, "cdc-race-open-phone")
    score_b = view(pb)["sheets"][B]["score"]
    pb.locator('.shout[data-cry="Pélican !"]').click()  # wrong cry: a Bévue for Karadoc
    wait_view(pb, f"v.race && v.race.wrong.includes({B})")
    assert view(pb)["sheets"][B]["score"] == max(0, score_b - 10)
    assert "Bévue" in pb.locator("#log").inner_text()
    pa.locator('.shout[data-cry="Pas mou le caillou !"]').click()
    late_press(pb, '.shout[data-cry="Pas mou le caillou !"]')
    for page in (pa, pb):
        page.wait_for_function(
            "() => document.querySelector('.cdc-news').textContent.includes('crie le premier')"
        )
        assert "Perceval crie le premier" in news(page)
        assert "+32" in news(page)
    # Karadoc's press came second, once the race was over: the right cry for the dice still
    # on the table lost the race, it is « trop tard » (no points, no Bévue), whatever the lag
    pb.wait_for_function("() => document.querySelector('#log').textContent.includes('trop tard')")
    assert "hors de propos" not in pb.locator("#log").inner_text()
    assert view(pb)["sheets"][B]["score"] == max(0, score_b - 10)  # the wrong cry only
    assert "crié ✓" in pa.locator('.shout[data-cry="Pas mou le caillou !"]').inner_text()
    shoot(pa, "cdc-race-won-desktop")
    shoot(pb, "cdc-race-won-phone")
    script.race_done = True


def bevue(pa: Any, pb: Any, script: Script) -> None:
    """At the start of Perceval's next turn Karadoc presses −10 under Perceval's sheet."""
    before = view(pa)["sheets"][A]["score"]
    button = pb.locator(f'.sheet[data-seat="{A}"] .bevue-button')
    button.wait_for(state="visible")
    pb.wait_for_function(
        f"() => !document.querySelector('.sheet[data-seat=\"{A}\"] .bevue-button').disabled"
    )
    button.click()
    wait_view(pa, f"v.sheets[{A}].score === {max(0, before - 10)}")
    assert "signale une bévue de Perceval" in pa.locator("#log").inner_text()
    script.bevue_done = True


def test_cul_de_chouette_whole_game_in_two_browsers(tmp_path: Path) -> None:
    started = time.monotonic()
    with live_server(tmp_path, deadline_scale=0.5, bot_pace=0.1) as server, chromium() as browser:
        pa, pb, errors = desktop_and_phone(browser)
        invite = create_table(
            pa,
            server.url,
            "cul-de-chouette",
            "Perceval",
            3,
            {A: "human", B: "human", C: "bot:easy"},
            {"des": '"reels"', "objectif": "100"},
        )
        shoot(pa, "cdc-waiting-desktop")
        # until the scripted race is over, windows last long and the bot is slow: the race's
        # two screenshots and three presses come before the bot's right shout (which would
        # end the race) even on a loaded machine
        server.service.settings.deadline_scale = 2.0
        quicken_bots(server, invite, 5.0)
        join(pb, invite, EVIL, B)
        # the pseudonym is shown as text everywhere, never interpreted
        wait_view(pa, "true")
        pa.wait_for_function(
            "() => document.querySelector('#seats').textContent.includes('<script>')"
        )
        assert pa.locator("#seats script, .cdc script, #seats b").count() == 0
        assert EVIL in pb.locator(".cdc-sheets").inner_text()

        # bad input: a die outside 1..6 is refused in French, nothing changes
        wait_view(pa, "v.tiebreak && v.tiebreak.pending.includes(0)")
        shoot(pa, "cdc-opening-desktop")
        shoot(pb, "cdc-opening-phone")
        type_dice(pa, [7])
        pa.wait_for_selector("#notice:not([hidden])")
        assert "1 à 6" in pa.locator("#notice").inner_text()
        assert 0 in view(pa)["tiebreak"]["pending"]  # Perceval's opening die is still to come

        script = Script()
        deadline = time.monotonic() + 70
        while time.monotonic() < deadline:
            c = current(pa)
            if c["status"] == "over":
                break
            v = c["view"]
            if not script.race_done and v["step"] == "achat" and v["roller"] == A:
                shoot(pa, "cdc-chouettes-desktop")
            if not script.race_done and v["step"] == "chouette_velute":
                race(pa, pb, script)
                server.service.settings.deadline_scale = 0.5  # the rest of the game, quickly
                quicken_bots(server, invite, 1.0)
                continue
            if (
                script.race_done
                and not script.bevue_done
                and v["roller"] == A
                and v["step"] == "debut"
            ):
                bevue(pa, pb, script)
                continue
            step(pa, A, script)
            step(pb, B, script)
            pa.wait_for_timeout(120)
        assert script.race_done and script.bevue_done, "the scripted race and Bévue happened"
        for page in (pa, pb):
            page.wait_for_selector("#result:not([hidden])", timeout=10_000)
        assert "Perceval" in pa.locator("#result-list li.winner").inner_text()
        assert "atteint" in pb.locator("#log").inner_text()
        shoot(pa, "cdc-over-desktop", full_page=True)
        shoot(pb, "cdc-over-phone", full_page=True)
        # the replay draws the same interface, move by move
        pa.locator("#replay-link").click()
        pa.wait_for_selector(".cdc-sheets")
        pa.click("#last")
        pa.wait_for_selector(".sheet.winner")
        shoot(pa, "cdc-replay-desktop")
        assert not errors, errors
    assert time.monotonic() - started < 90


# --------------------------------------------------------------------------- dialogs gallery


def test_cul_de_chouette_dialogs_show_their_maximum_and_refuse_bad_stakes(tmp_path: Path) -> None:
    """Bets and challenges as non-blocking dialogs, at phone and desktop sizes."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 3, {"des": '"reels"'})

        # Néant of the roller: Perceval holds a Grelottine; max = min(120, 90) x 33 % = 29
        state = arrange(3, scores=[120, 90, 60], roller=B, grelottine=[True, False, False])
        dice(state, 1, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 6)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=grelottine]")
        assert "Chouette (max 29)" in page.locator("[data-dialog=grelottine] select").inner_text()
        assert "maximum : 29 points" in page.locator("[data-dialog=grelottine]").inner_text()
        shoot_sizes(page, "cdc-dialog-grelottine")
        page.fill("[data-dialog=grelottine] input[name=stake]", "40")
        page.click("[data-dialog=grelottine] button[type=submit]")
        page.wait_for_selector("#notice:not([hidden])")
        assert "29 au plus" in page.locator("#notice").inner_text()
        # the refusal shows just above the dock, where the player is looking
        notice = page.locator("#notice").bounding_box()
        dock = page.locator("#actions").bounding_box()
        assert notice and dock and notice["y"] + notice["height"] <= dock["y"] <= DESKTOP["height"]
        assert notice["height"] < 120, notice  # a toast, not a panel pinned at both ends
        assert notice["x"] >= 0 and notice["x"] + notice["width"] <= DESKTOP["width"], notice
        page.set_viewport_size(PHONE)  # on a phone it began 214 px off the screen
        page.wait_for_timeout(60)
        small = page.locator("#notice").bounding_box()
        assert small and small["x"] >= 0 and small["x"] + small["width"] <= PHONE["width"], small
        page.set_viewport_size(DESKTOP)
        shoot_sizes(page, "cdc-dialog-grelottine-refused")
        assert view(page)["step"] == "grelottine"  # nothing changed
        page.fill("[data-dialog=grelottine] input[name=stake]", "29")
        page.click("[data-dialog=grelottine] button[type=submit]")
        wait_view(page, "v.step === 'annonce' && v.challenge && v.challenge.stake === 29")
        shoot_sizes(page, "cdc-challenge-announced")

        # the Cul bought by C, who rolls a Néant: the challenge is against C, the buyer
        # (the dialog named the roller B, and its maximum was C's: an evening's audit)
        state = arrange(3, scores=[120, 90, 100], roller=B, grelottine=[True, False, False])
        dice(state, 1, 3)
        state.apply(C, BuyCul())
        others_pass(state)
        dice(state, 6)
        assert state.step == "grelottine" and state.scorer == C
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=grelottine]")
        names = [seat["name"] for seat in current(page)["seats"]]
        title = page.locator("[data-dialog=grelottine]").inner_text()
        assert f"contre {names[C]}" in title and f"contre {names[B]}" not in title, title

        # a Chouette of 3, the roller sips: Perceval bets on a face
        state = arrange(3, scores=[40, 50, 60], roller=B)
        dice(state, 3, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 5)
        state.apply(B, Sip(True))
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=paris]")
        assert page.locator("[data-dialog=paris] button").count() == 6
        shoot_sizes(page, "cdc-dialog-sirotage-bets")

        # the Cul is for sale
        state = arrange(3, scores=[40, 50, 60], roller=B)
        dice(state, 2, 5)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=achat]")
        shoot_sizes(page, "cdc-dialog-achat")

        # Perceval's own turn with a Civet: stake 1 to 102, whatever the score
        state = arrange(3, scores=[80, 50, 60], roller=A, civet=[True, False, False])
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=civet]")
        assert "maximum : 102 points" in page.locator("[data-dialog=civet]").inner_text()
        assert page.locator("[data-dialog=des]").count() == 1  # or type the dice without betting
        shoot_sizes(page, "cdc-dialog-civet-and-dice")

        # Bleu-Rouge: Perceval announces totals
        state = arrange(3, scores=[80, 50, 60], roller=A)
        dice(state, 3, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 4)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=annonce]")
        shoot_sizes(page, "cdc-dialog-bleu-rouge")

        # Soufflette: Perceval names the challenged player
        state = arrange(3, scores=[80, 50, 60], roller=A)
        dice(state, 1, 2)
        others_pass(state)  # nobody buys the Cul
        dice(state, 4)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=soufflette]")
        shoot_sizes(page, "cdc-dialog-soufflette")
        assert not errors, errors


# --------------------------------------------------------------------------- five players


SCORES5 = [120, 90, 60, 70, 80]


def five_seat_states() -> list[tuple[str, Any]]:
    """Each decision Perceval (seat 0) may face at a table of five."""
    flags = [True, False, False, False, False]
    states: list[tuple[str, Any]] = []
    state = arrange(5, scores=SCORES5, roller=B, grelottine=flags)
    dice(state, 1, 3)
    others_pass(state)  # nobody buys the Cul
    dice(state, 6)
    states.append(("grelottine", state))
    state = arrange(5, scores=SCORES5, roller=B)
    dice(state, 3, 3)
    others_pass(state)  # nobody buys the Cul
    dice(state, 5)
    state.apply(B, Sip(True))
    states.append(("paris", state))
    state = arrange(5, scores=SCORES5, roller=B)
    dice(state, 3, 3)
    others_pass(state)  # nobody buys the Cul
    dice(state, 4)
    for total in (10, 11, 12):
        state.apply(B, AnnounceTotal(total))
    states.append(("pari-total", state))
    state = arrange(5, scores=SCORES5, roller=A)
    dice(state, 3, 3)
    others_pass(state)  # nobody buys the Cul
    dice(state, 4)
    states.append(("annonce", state))
    state = arrange(5, scores=SCORES5, roller=A, civet=flags)
    states.append(("civet", state))
    state = arrange(5, scores=SCORES5, roller=A)
    dice(state, 1, 2)
    others_pass(state)  # nobody buys the Cul
    dice(state, 4)
    states.append(("soufflette", state))
    state = arrange(5, scores=SCORES5, roller=B)
    dice(state, 2, 5)
    states.append(("achat", state))
    return states


RECT = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.getClientRects().length > 0)
    .map((n) => { const r = n.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,
                height: r.height, text: (n.textContent || n.name || "").trim().slice(0, 30)}; })"""


def rects(page: Any, selector: str) -> list[dict[str, Any]]:
    return list(page.evaluate(RECT, selector))


def no_emoji(page: Any) -> None:
    """Debian's Chromium has no emoji font: ⏱ or 🛡 showed as empty boxes. The clocks carry
    a CSS-drawn stopwatch and a spoken « temps restant » instead."""
    text = page.evaluate(
        """() => document.body.innerText + [...document.querySelectorAll('[title], [aria-label]')]
            .map((n) => `${n.title || ''} ${n.getAttribute('aria-label') || ''}`).join(' ')"""
    )
    assert not re.search("[\u2300-\u23ff\u2b00-\u2bff\U0001f000-\U0001ffff]", text), text
    # one clock per window: the board's; the status line's whole seconds would disagree
    assert page.locator(".cdc-head .game-countdown .clock-icon").is_visible()
    assert not page.locator("#status-line .countdown").is_visible()


def test_five_players_decisions_on_screen_and_large_enough_to_tap(tmp_path: Path) -> None:
    """At a table of five, the sheets filled the screen: a bet or a challenge sat below the
    fold on a laptop (1280x800) and on a phone (390x844). The viewer's decision is now on
    screen at once, above the shout bar (never under it), and every control of the table is
    at least 44x44 px on a phone (the −10 Bévue buttons were 32 px tall)."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 5, {"des": '"reels"'})
        for name, state in five_seat_states():
            put_state(server, code, state)
            page.wait_for_selector(f"[data-dialog={name}]")
            for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(size)
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(80)
                (bar,) = rects(page, ".shout-bar")
                assert bar["bottom"] <= size["height"] + 1, (label, bar)
                for box in rects(page, f"[data-dialog={name}]"):
                    where = (name, label, box, bar)
                    assert box["top"] >= 0 and box["bottom"] <= size["height"], where
                    assert box["bottom"] <= bar["top"] + 1, where  # not under the shouts
                    assert box["left"] >= 0 and box["right"] <= size["width"], where
                if label == "phone":
                    controls = ".bevue-button, .shout, .cdc-dialog button, .cdc-dialog input, .cdc-dialog select"
                    found = rects(page, controls)
                    # four Bévue buttons (not on oneself), the shouts (folded into one row
                    # outside a race, unless a call is ready), a choice
                    assert len(found) >= 4 + 1 + 1, found
                    small = [c for c in found if c["width"] < 44 or c["height"] < 44]
                    assert not small, (name, small)
                shoot(page, f"cdc-five-{name}-{label}")
                if name == "grelottine" and label == "desktop":
                    no_emoji(page)
                if name == "grelottine":
                    # scrolled to the end, the last sheets clear the dock: the page keeps room
                    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
                    page.wait_for_timeout(80)
                    last = rects(page, ".cdc-target")[0]
                    assert last["bottom"] <= rects(page, "#actions")[0]["top"], last
                    shoot(page, f"cdc-five-sheets-{label}")
        assert not errors, errors


# --------------------------------------------------------------------------- shared screen


def type_dice_for(page: Any, seat: int, values: list[int]) -> None:
    form = page.locator(f'[data-dialog=des][data-seat="{seat}"]')
    inputs = form.locator("input")
    for i in range(inputs.count()):
        inputs.nth(i).fill(str(values[i % len(values)]))
    form.locator("button[type=submit]").click()


def dice_wanted(seat: int, v: dict[str, Any], raced: bool) -> list[int]:
    if v["tiebreak"] is not None:
        return [1] if seat == A else [6]
    if seat == A and v["roller"] == A and v["step"] in ("debut", "achat", "cul"):
        if v["step"] == "debut":
            return [6, 6] if raced else [2, 2]
        return [6] if raced else [4]
    return [1, 3, 6]


def test_shared_screen_two_players_on_one_tablet_and_a_phone(tmp_path: Path) -> None:
    """A tablet seats Perceval and Karadoc, each with their own shouts and −10 buttons;
    Léodagan plays on his phone. Karadoc presses first on the tablet and wins the race."""
    with live_server(tmp_path, deadline_scale=0.5, bot_pace=0.1) as server, chromium() as browser:
        tablet, errors = watched_page(browser, {"width": 1024, "height": 768})
        phone, _ = watched_page(browser, PHONE, errors)
        invite = create_table(
            tablet,
            server.url,
            "cul-de-chouette",
            "Perceval",
            3,
            {A: "human", B: "human", C: "human"},
            {"des": '"reels"', "objectif": "100"},
        )
        tablet.locator(".shared-panel summary").click()
        tablet.fill(".shared-panel input[name=pseudo]", "Karadoc")
        tablet.select_option(".shared-panel select[name=place]", str(B))
        tablet.click(".shared-panel button[type=submit]")
        tablet.wait_for_function(
            "() => JSON.parse(document.querySelector('#table').dataset.shared).includes(1)"
        )
        join(phone, invite, "Léodagan", C)
        tablet.wait_for_selector(f'.sheet[data-seat="{B}"] .sheet-shouts')
        tablet.wait_for_selector(f'.sheet[data-seat="{A}"] .sheet-shouts')
        shoot(tablet, "cdc-shared-tablet")
        # the phone cannot borrow a seat of the tablet: its ?seat=0 socket is a spectator's
        borrowed = phone.evaluate(
            """() => new Promise((resolve) => {
                const ws = new WebSocket(`ws://${location.host}${location.pathname}/ws?seat=0`);
                ws.onmessage = (e) => { const m = JSON.parse(e.data);
                    if (m.type === "state") { ws.close(); resolve([m.seat, m.view.legal.length]); } };
            })"""
        )
        assert borrowed == [None, 0]
        raced = bevue_done = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and current(tablet)["status"] != "over":
            v = view(tablet)
            if not raced and v["step"] == "chouette_velute":
                shoot(tablet, "cdc-shared-race-open")
                tablet.locator(
                    f'.sheet[data-seat="{B}"] .shout[data-cry="Pas mou le caillou !"]'
                ).click()
                tablet.locator(
                    f'.sheet[data-seat="{A}"] .shout[data-cry="Pas mou le caillou !"]'
                ).click()
                late_press(phone, '.shout[data-cry="Pas mou le caillou !"]')
                for page in (tablet, phone):
                    page.wait_for_function(
                        "() => document.querySelector('.cdc-news').textContent.includes('crie le premier')"
                    )
                    assert "Karadoc crie le premier" in news(page)
                shoot(tablet, "cdc-shared-race-won")
                raced = True
                continue
            if raced and not bevue_done and v["roller"] == A and v["step"] == "debut":
                # the tablet presses −10 under Léodagan's sheet (for one of its players)
                button = tablet.locator(f'.sheet[data-seat="{C}"] .bevue-button')
                tablet.wait_for_function(
                    f"() => !document.querySelector('.sheet[data-seat=\"{C}\"] .bevue-button').disabled"
                )
                button.click()
                tablet.wait_for_function(
                    "() => document.querySelector('#log').textContent.includes('signale une bévue de Léodagan')"
                )
                bevue_done = True
                continue
            for seat in (A, B):
                if tablet.locator(f'[data-dialog=des][data-seat="{seat}"]').count():
                    type_dice_for(tablet, seat, dice_wanted(seat, v, raced))
            race_now = v.get("race")
            if race_now and race_now["kind"] == "suite":
                for seat in (A, B):
                    if seat not in race_now["order"]:
                        tablet.locator(
                            f'.sheet[data-seat="{seat}"] .shout[data-cry="{race_now["cry"]}"]'
                        ).click()
            pv = view(phone)
            if phone.locator(".dice-entry").count():
                type_dice(phone, dice_wanted(C, pv, raced))
            elif pv.get("race") and pv["race"]["kind"] == "suite" and C not in pv["race"]["order"]:
                phone.locator(f'.shout[data-cry="{pv["race"]["cry"]}"]').click()
            for page in (tablet, phone):
                for name in ("siroter", "soufflette"):
                    if page.locator(f"[data-dialog={name}] button").count():
                        page.locator(f"[data-dialog={name}] button").last.click()
            tablet.wait_for_timeout(120)
        assert raced and bevue_done
        tablet.wait_for_selector("#result:not([hidden])", timeout=10_000)
        phone.wait_for_selector("#result:not([hidden])", timeout=10_000)
        shoot(tablet, "cdc-shared-over", full_page=True)
        assert not errors, errors


# --------------------------------------------------------------------------- phone dock


def sheets_clear_of_the_dock(page: Any) -> list[dict[str, Any]]:
    """With the sheets scrolled to the top of the screen, those the dock covers, even in
    part (all of a table of eight must fit above it)."""
    page.evaluate("document.querySelector('.cdc-sheets').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(80)  # the dock's room is set on the next frame
    (dock,) = rects(page, "#actions")
    return [s for s in rects(page, ".cdc-sheets .sheet") if s["bottom"] > dock["top"] + 1]


def test_phone_dock_leaves_the_score_sheets_visible_and_idle_shouts_look_idle(
    tmp_path: Path,
) -> None:
    """On a phone (390x844) the fixed bar (« Lancer » + seven shouts) covered a third of the
    screen and hid the sheets, and the shouts looked active with no race open. Outside a race
    the dock now folds the shouts into one row, and the shouts look idle (still clickable:
    a shout out of place is a Bévue); in a race they unfold, gold. The eight sheets of a full
    table fit above the dock."""
    scores = [120, 90, 60, 40, 30, 20, 10, 0]
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 8)
        # the start of Karadoc's turn: Perceval has nothing to decide
        state = arrange(8, scores=scores, roller=B, options={"des": "site"})
        put_state(server, code, state)
        page.wait_for_selector(".shout-bar.folded .shout-toggle")
        (dock,) = rects(page, "#actions")
        assert dock["height"] <= 0.08 * PHONE["height"], dock
        assert sheets_clear_of_the_dock(page) == []
        assert rects(page, ".shout-bar .cry") == []  # folded away
        shoot(page, "cdc-phone-dock-folded")
        page.click(".shout-toggle")
        page.wait_for_selector(".shout-bar:not(.folded) .cry")
        cries = page.locator(".shout-bar .cry")
        assert cries.count() == 4
        for i in range(4):
            cry = cries.nth(i)
            assert "idle" in (cry.get_attribute("class") or "") and cry.is_enabled()
        style = page.evaluate(
            "() => getComputedStyle(document.querySelector('.shout-bar .cry')).borderStyle"
        )
        assert style == "dashed", style
        shoot(page, "cdc-phone-dock-unfolded")
        # a shout out of place is still sent, and costs a Bévue
        page.locator(".shout-bar .cry").first.click()
        wait_view(page, "v.sheets[0].score === 110")

        # Karadoc's Chouette Velute: a race, the shouts unfold and are live
        state = arrange(8, scores=scores, roller=B, options={"des": "site"})
        state.chouettes, state.dice = [2, 2], [2, 2, 4]
        races.open_race(state, "chouette_velute", 32, state.seated)
        put_state(server, code, state)
        page.wait_for_selector(".shout-bar.race-open .cry")
        assert page.locator(".shout-bar .shout-toggle").count() == 0
        assert page.locator(".shout-bar .cry.idle").count() == 0
        (dock,) = rects(page, "#actions")
        assert dock["height"] <= 0.3 * PHONE["height"], dock
        shoot(page, "cdc-phone-dock-race")

        # Perceval's own turn: « Lancer » and the folded shouts leave the sheets in sight
        state = arrange(8, scores=scores, roller=A, options={"des": "site"})
        put_state(server, code, state)
        page.wait_for_selector(".roll-button")
        shoot(page, "cdc-phone-dock-roll")
        (dock,) = rects(page, "#actions")
        assert dock["height"] <= 0.15 * PHONE["height"], dock
        assert sheets_clear_of_the_dock(page) == []

        # Karadoc sips a Chouette: Perceval may bet on the die, or say « Je passe »
        state = arrange(8, scores=scores, roller=B)
        dice(state, 3, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 5)
        state.apply(B, Sip(True))
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=paris]")
        shoot(page, "cdc-phone-sirotage-bets-or-pass")
        page.click(".pass-button")
        wait_view(page, f"v.passed.includes({A})")
        assert page.locator("[data-dialog=paris]").count() == 0

        # Perceval's own Sirotage misses: the Contre-Sirop is the others' race. His shouts
        # stay folded and idle, and the head says so (they were gold, « criez le bon cri ! »,
        # and his cry cost a Bévue: an audit)
        state = arrange(8, scores=scores, roller=A)
        dice(state, 3, 3)
        others_pass(state)
        dice(state, 5)
        state.apply(A, Sip(True))
        others_pass(state)  # no bets
        dice(state, 2)
        assert state.step == "contre_sirop"
        put_state(server, code, state)
        wait_view(page, "v.step === 'contre_sirop'")
        head = page.locator(".cdc-step").inner_text()
        assert head.startswith("Course ouverte pour les autres joueurs"), head
        assert page.locator(".shout-bar.race-open").count() == 0
        assert page.locator(".shout-bar.folded .shout-toggle").count() == 1
        shoot(page, "cdc-phone-contre-sirop-of-own-sirotage")
        assert not errors, errors


def test_the_situation_box_leaves_with_the_turn_that_ended_the_game(tmp_path: Path) -> None:
    """A game won on a Sirotage: the final view still holds the sip (the engine keeps the
    last turn's parts), but the board no longer says « Sirotage sur un 6 » as if it ran on."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 3, {"des": '"reels"'})
        state = arrange(3, scores=[300, 0, 0], roller=A)
        dice(state, 6, 6)
        others_pass(state)  # nobody buys the Cul
        dice(state, 1)
        state.apply(A, Sip(True))
        put_state(server, code, state)
        wait_view(page, "v.step === 'sirotage'")
        assert "Sirotage sur un 6" in page.locator(".cdc-situation").inner_text()
        others_pass(state)  # no bets
        dice(state, 6)  # Cul de Chouette of 6: 400 points, the game is won
        assert state.over and state.view(None)["sirotage"] is not None
        put_state(server, code, state)
        wait_view(page, "v.over")
        page.wait_for_selector(".sheet.winner")
        assert page.locator(".cdc-situation").count() == 0
        assert not errors, errors


def test_the_banque_option_is_played_from_the_page(tmp_path: Path) -> None:
    """The Banque's balances and moves are on the page (an audit found the option offered on
    the form with no button for any of its moves)."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        table = prepared_table(
            page, server, "cul-de-chouette", "Gisèle", 2, {"banque": "on", "des": '"reels"'}
        )
        put_state(
            server, table, arrange(2, scores=[100, 100], options={"banque": True, "des": "reels"})
        )
        page.wait_for_selector(".option-moves .bank-line")
        assert "Banque" in page.locator(".option-moves .bank-line").inner_text()
        deposit = page.locator(".option-moves [data-action=deposer]").first
        assert "Déposer 16 points à la Banque" in deposit.inner_text()
        deposit.click()
        page.wait_for_function("() => window.chouxTable.current.view.banque.balances[0] === 16")
        assert "16 points" in page.locator(".option-moves .bank-line").inner_text()
        assert not errors, errors


def test_a_scribe_is_told_whose_opening_die_and_teams_are_shown(tmp_path: Path) -> None:
    """The scribe typed four opening dice under « Saisir votre dé d'ouverture », guessing
    the order; a Doublette's teams were shown nowhere (an evening's audit)."""
    from choux.games.cul_de_chouette.actions import EnterDice
    from choux.games.cul_de_chouette.state import CulDeChouetteState

    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        options = {"des": '"reels"', "scribe": "0"}
        table = prepared_table(page, server, "cul-de-chouette", "Gisèle", 3, options)
        state = CulDeChouetteState(3, 1, {"des": "reels", "scribe": 0})
        state.apply(0, EnterDice((3,)))  # the scribe typed her own die: Place 2's comes next
        put_state(server, table, state)
        page.wait_for_function(
            "() => (window.chouxTable.current.view.tiebreak || {}).pending?.[0] === 1"
        )
        dialog = " ".join(page.locator(".cdc-dialogs").inner_text().split())
        assert "Saisir le dé d'ouverture de Place 2" in dialog, dialog
        status = page.locator("#status-line").inner_text().strip()
        assert status == "À vous : saisissez les dés d'ouverture, un par joueur !", status
        assert not errors, errors
    (tmp_path / "eight").mkdir()
    with (
        live_server(tmp_path / "eight", deadline_scale=50, bot_pace=0.1) as server,
        chromium() as browser,
    ):
        page, errors = watched_page(browser, DESKTOP)
        table = prepared_table(page, server, "cul-de-chouette", "Gisèle", 8, {"doublette": "on"})
        put_state(server, table, arrange(8, options={"doublette": True}))
        page.wait_for_selector(".sheet-partner")
        mine = page.locator(".sheet-partner").first.inner_text()
        partner = current(page)["view"]["sheets"][0]["partner"]
        assert mine.strip() == f"· équipe avec Place {partner + 1}", mine
        assert not errors, errors


def test_a_chouette_s_points_are_not_shown_while_its_sirotage_is_pending(tmp_path: Path) -> None:
    """« fait une Chouette : +36 » read as won while the Sirotage could still lose them, and
    stayed after a missed one (an evening's audit)."""
    state = arrange(3, scores=[10, 0, 0], options={"des": "reels"})
    dice(state, 2, 2)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 5)
    assert state.step == "siroter"
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        table = prepared_table(page, server, "cul-de-chouette", "Gisèle", 3, {"des": '"reels"'})
        put_state(server, table, state)
        page.wait_for_function("() => window.chouxTable.current.view.step === 'siroter'")
        caption = " ".join(page.locator(".reading").first.inner_text().split())
        assert "Chouette" in caption and "+" not in caption, caption
        assert not errors, errors


def test_a_table_without_the_bevue_button_shows_none(tmp_path: Path) -> None:
    """Greyed « −10 Bévue » buttons stayed under every sheet with the option off (an audit)."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        options = {"des": '"reels"', "bouton_bevue": "off"}
        table = prepared_table(page, server, "cul-de-chouette", "Gisèle", 3, options)
        state = arrange(3, options={"des": "reels", "bouton_bevue": False})
        put_state(server, table, state)
        page.wait_for_function("() => window.chouxTable.current.view.bevue_button === false")
        page.wait_for_selector(".sheet")
        assert page.locator(".bevue-button").count() == 0
        put_state(server, table, arrange(3, options={"des": "reels"}))  # with it: shown
        page.wait_for_selector(".bevue-button")
        assert not errors, errors
