"""QA regressions found by playing Cul de Chouette and Parlote on phones (Debian's Chromium).

- The side bets on a Grelottine challenge said « défi réussi / raté »: réussi for whom? The
  buttons now name who must make which combination.
- The Civet's combination list (« Cul de Chouette (avec Sirotage) ») made the phone's page
  wider than the screen, cutting the shout buttons at the right edge.
- Real dice: the values being typed (and a Grelottine stake) were wiped by every redraw, i.e.
  whenever anyone else at the table did anything.
- A phone player scrolled down to the bet dialogs could not see the window's clock (it sits
  in the header): the dialogs, and the shout bar in a race, now carry their own countdown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    current,
    live_server,
    on_screen_at_top,
    prepared_table,
    put_state,
    shoot,
    watched_page,
)

from choux.games.cul_de_chouette.actions import ChallengeGrelottine
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

A, B, C = 0, 1, 2


def test_cdc_challenge_bets_name_the_challenged_and_show_the_clock(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 3, {"des": '"reels"'})
        # Karadoc's Néant; Léodagan challenges him to a Chouette: Perceval may bet on it
        state = arrange(3, scores=[120, 90, 60], roller=B, grelottine=[False, False, True])
        dice(state, 1, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 6)
        state.apply(C, ChallengeGrelottine("Chouette", 10))
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=pari-defi]")
        assert current(page)["view"]["challenge"]["target"] == B
        bets = page.locator("[data-dialog=pari-defi] button").all_inner_texts()
        assert any("fait une Chouette" in b and b.startswith("Réussi") for b in bets), bets
        assert any("ne fait pas de Chouette" in b and b.startswith("Raté") for b in bets), bets
        assert "défi réussi" not in " ".join(bets)
        clock = page.locator(".cdc-dialogs .game-countdown")
        assert clock.count() == 1
        assert "Temps pour décider" in clock.inner_text()
        page.locator("[data-dialog=pari-defi]").scroll_into_view_if_needed()
        shoot(page, "qa-cdc-challenge-bets-phone")

        # the roller's own decision (no window): no clock among the dialogs
        state = arrange(3, scores=[80, 50, 60], roller=A)
        dice(state, 1, 2)
        others_pass(state)  # nobody buys the Cul
        dice(state, 4)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=soufflette]")
        assert page.locator(".cdc-dialogs .game-countdown").count() == 0

        # a race (Karadoc's Chouette Velute): the shout bar at the bottom carries the clock
        state = arrange(3, scores=[80, 50, 60], roller=B)
        dice(state, 2, 2)
        others_pass(state)  # nobody buys the Cul
        dice(state, 4)
        put_state(server, code, state)
        page.wait_for_selector(".shout-bar.race-open .game-countdown")
        assert "Temps pour crier" in page.locator(".shout-bar .game-countdown").inner_text()
        shoot(page, "qa-cdc-race-clock-phone")

        # a Civet on a phone: the long combination names do not widen the page
        state = arrange(3, scores=[80, 50, 60], roller=A, civet=[True, False, False])
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=civet]")
        page.select_option("[data-dialog=civet] select", "Cul de Chouette (avec Sirotage)")
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], wide
        page.locator("[data-dialog=civet]").scroll_into_view_if_needed()
        shoot(page, "qa-cdc-civet-phone")
        assert not errors, errors


def redrawn(page: Any, server: Any, code: str, state: Any, selector: str) -> None:
    """Push the state again and wait until the page has replaced the field `selector`."""
    page.evaluate(f"() => {{ document.querySelector('{selector}').dataset.old = '1'; }}")
    put_state(server, code, state)
    page.wait_for_function(
        f"() => {{ const n = document.querySelector('{selector}'); return n && !n.dataset.old; }}",
        timeout=5000,
    )
    page.wait_for_timeout(50)  # the focus comes back on the next frame


def test_cdc_typed_dice_and_stakes_survive_a_redraw(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "cul-de-chouette", "Perceval", 3, {"des": '"reels"'})
        invite = page.locator("#invite-link").input_value()  # private: the link has the key
        # two seats are free: the page offers to seat someone else on this device
        assert page.locator(".shared-panel").is_visible()
        state = arrange(3, scores=[80, 50, 60], roller=A)
        put_state(server, code, state)
        page.wait_for_selector(".dice-entry input")
        first = page.locator(".dice-entry input").first
        first.click()
        page.keyboard.type("5")
        # a message arrives (someone else acted): the page draws new fields
        redrawn(page, server, code, state, ".dice-entry input")
        assert page.locator(".dice-entry input").first.input_value() == "5"
        assert page.evaluate("() => document.activeElement.classList.contains('die-input')")
        page.keyboard.press("Tab")
        page.keyboard.type("3")
        assert page.locator(".dice-entry input").nth(1).input_value() == "3"

        # a Grelottine stake being typed survives too
        state = arrange(3, scores=[120, 90, 60], roller=B, grelottine=[True, False, False])
        dice(state, 1, 3)
        others_pass(state)  # nobody buys the Cul
        dice(state, 6)
        put_state(server, code, state)
        page.wait_for_selector("[data-dialog=grelottine]")
        page.select_option("[data-dialog=grelottine] select", "Velute")
        page.fill("[data-dialog=grelottine] input[name=stake]", "7")
        redrawn(page, server, code, state, "[data-dialog=grelottine] select")
        assert page.locator("[data-dialog=grelottine] select").input_value() == "Velute"
        assert page.locator("[data-dialog=grelottine] input[name=stake]").input_value() == "7"

        # once everybody is seated, the « Écran partagé » form drawn at load goes away
        join_context = browser.new_context(viewport=PHONE)
        for seat, name in ((B, "Karadoc"), (C, "Léodagan")):
            other = join_context.new_page() if seat == B else browser.new_context().new_page()
            other.goto(invite)
            other.fill(".join-form input[name=pseudo]", name)
            other.select_option(".join-form select[name=place]", str(seat))
            other.click(".join-form button[type=submit]")
        page.wait_for_selector(".shared-panel", state="hidden", timeout=10_000)
        assert not errors, errors


def test_parlote_play_clock_does_not_restart_when_a_card_is_picked(tmp_path: Path) -> None:
    """Picking a card redraws the hand with its argument form: the form's « Temps pour jouer »
    used to start again from the full 90 s, though the table's clock kept running."""
    from choux.games.parlote.testing import arrange, contract_for

    with live_server(tmp_path, deadline_scale=1.0, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)
        put_state(
            server, code, arrange(4, reader=3, contract=contract_for(seat=1))
        )  # Gustave leads
        page.wait_for_selector("button.pcard.playable")
        full = float(current(page)["deadline"])
        page.wait_for_timeout(2500)
        page.locator("button.pcard.playable").first.click()
        page.wait_for_selector(".argument-form .cd-figure")
        shown = float(page.locator(".argument-form .cd-figure").inner_text().split()[0])
        assert shown <= full - 2, (shown, full)
        header = float(page.locator(".parlote-head .cd-figure").inner_text().split()[0])
        assert abs(header - shown) < 1.5, (header, shown)
        assert not errors, errors


def test_parlote_warns_before_the_clock_takes_a_card_without_its_typed_argument(
    tmp_path: Path,
) -> None:
    """An argument typed and not sent was silently lost when the play clock ran out (the
    card goes without it): the form says so in time, and only when there is text to lose."""
    from choux.games.parlote.testing import arrange, contract_for

    # 90 s a card, scaled to about 11 s: the warning comes at 10 s
    with live_server(tmp_path, deadline_scale=0.12, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)
        put_state(server, code, arrange(4, reader=3, contract=contract_for(seat=1)))
        page.locator("button.pcard.playable").first.click()
        page.wait_for_selector("textarea[name=argument]")
        page.wait_for_timeout(1500)
        assert page.locator(".argument-form .hurry").is_hidden()  # nothing typed: no warning
        page.locator("textarea[name=argument]").type("Tout le monde le sait")
        page.wait_for_selector(".argument-form .hurry", state="visible", timeout=5000)
        assert "envoyez votre argument" in page.inner_text(".argument-form .hurry")
        shoot(page, "parlote-hurry-phone")
        assert not errors, errors


def test_parlote_second_trump_excludes_the_first(tmp_path: Path) -> None:
    """The bid form offered all seven colours twice: picking the same one twice was only
    refused by the table. The second list now leaves out the first colour (the table still
    refuses a pair of identical colours, in French)."""
    from choux.games.parlote.testing import arrange

    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)
        put_state(server, code, arrange(4, reader=3))  # Gustave bids first
        page.wait_for_selector(".bid-form")
        colours = [c["id"] for c in current(page)["view"]["colours"]]
        first = page.locator(".bid-form select[name=first]")
        second = page.locator(".bid-form select[name=second]")

        def offered() -> list[str]:
            return list(second.locator("option").evaluate_all("os => os.map(o => o.value)"))

        for colour in (colours[0], colours[3], colours[6]):
            first.select_option(colour)
            assert colour not in offered(), (colour, offered())
            assert sorted([*offered(), colour]) == sorted(colours)
            assert second.input_value() != colour
        # choosing as first the colour that was the second: the second moves to another one
        chosen = second.input_value()
        first.select_option(chosen)
        assert second.input_value() != chosen
        assert chosen not in offered()
        page.locator(".bid-form").scroll_into_view_if_needed()
        shoot(page, "qa-parlote-bid-colours-phone")
        first.select_option(colours[2])
        second.select_option(colours[5])
        page.click(".bid-form button[type=submit]")
        page.wait_for_function(
            "() => { const b = window.chouxTable.current.view.bidding; return b && b.high; }"
        )
        assert sorted(current(page)["view"]["bidding"]["high"]["colours"]) == sorted(
            [colours[2], colours[5]]
        )

        # the table keeps its own check: the same colour twice is refused in French
        put_state(server, code, arrange(4, reader=3))
        page.wait_for_function(
            "() => !window.chouxTable.current.view.bidding.high && !!document.querySelector('.bid-form')"
        )
        amount = int(page.locator(".bid-form select[name=amount]").input_value())
        page.evaluate(
            f"() => window.chouxTable.act({{type: 'encherir', amount: {amount}, colours: ['{colours[1]}', '{colours[1]}']}})"
        )
        page.wait_for_selector("#notice:not([hidden])")
        assert "différentes" in page.locator("#notice").inner_text()
        assert not errors, errors


def both_sizes(page: Any, selector: str, name: str) -> None:
    """The decision is on screen without scrolling on a phone and on a laptop (screenshots)."""
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        on_screen_at_top(page, selector)
        shoot(page, f"{name}-{label}")


def test_parlote_decisions_sit_in_a_dock_on_screen(tmp_path: Path) -> None:
    """On a phone the viewer's decisions (bid, pass, coinche, contest, vote) sat below the
    scenario and the trick, out of sight, behind a « À vous : contester ? ↓ » pill, while a
    15 s window ran. They now sit in a dock at the bottom of the screen with their clock; the
    argument to judge is read there too. Playing a card is not docked (a phone's keyboard would
    hide it): the chosen card's argument form is scrolled into view, and a typed argument
    survives a redraw."""
    from choux.games.parlote.actions import Bid, Contest, Pass, Play
    from choux.games.parlote.state import ParloteState
    from choux.games.parlote.testing import arrange, contract_for

    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        code = prepared_table(page, server, "parlote", "Gustave", 4)

        # « Qui a menti en dernier ? »: the « Moi ! » button and its clock
        put_state(server, code, ParloteState(1))
        page.wait_for_selector(".parlote-dock [data-action=moi]")
        assert "Moi" in page.locator(".parlote-dock .game-countdown").inner_text()
        # « Moi ! » is optional: nobody is waited for (all four chips were « acting »)
        assert page.locator(".seat-chip.acting").count() == 0
        assert "Qui a menti en dernier" in page.locator("#status-line").inner_text()
        both_sizes(page, "[data-action=moi]", "parlote-dock-liar")

        # Gustave opens the bidding: amount, trumps, « Annoncer » and « Passer » on screen
        put_state(server, code, arrange(4, reader=3))
        page.wait_for_selector(".parlote-dock .bid-form")
        assert page.locator(".jump-to-decisions").count() == 0
        assert "Enchère" in page.locator(".parlote-dock .game-countdown").inner_text()
        both_sizes(
            page, ".bid-form select, .bid-form button, [data-action=passer]", "parlote-dock-bid"
        )
        # nothing is hidden for good: the page keeps room below the table for the dock
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        reading = page.locator(".parlote-reading").bounding_box()
        dock = page.locator(".parlote-dock").bounding_box()
        assert reading and dock and reading["y"] + reading["height"] <= dock["y"] + 1

        # four passes: the cards are dealt again, and a toast says so (only the log did)
        passes = arrange(4, reader=3)
        while passes.redeals == 0:
            passes.apply(passes.turn, Pass())
        put_state(server, code, passes)
        page.wait_for_selector("#notice.info:not([hidden])")
        assert "Quatre passes" in page.locator("#notice").inner_text()

        # Berthe bids 80 while Marcel thinks: Gustave may coinche, the bid to beat is shown
        colours = ("insuffisance", "influence")
        state = arrange(4, reader=3)
        state.apply(0, Pass())
        state.apply(1, Bid(80, colours))
        put_state(server, code, state)
        page.wait_for_selector("[data-action=coincher]")
        assert "À battre : 80" in " ".join(page.locator(".parlote-dock").inner_text().split())
        assert page.locator(".parlote-dock .bid-form").count() == 0
        both_sizes(page, "[data-action=coincher]", "parlote-dock-coinche")

        # Gustave's turn after Berthe's 80: he may bid higher, pass or coinche
        state = arrange(4, reader=0)
        state.apply(1, Bid(80, colours))
        state.apply(2, Pass())
        state.apply(3, Pass())
        put_state(server, code, state)
        page.wait_for_selector(".bid-form [data-action=coincher]")
        both_sizes(
            page,
            ".bid-form select, .bid-form button, .bid-form .button",
            "parlote-dock-bid-coinche",
        )

        # Berthe plays with an argument: Gustave may contest it within the window
        state = arrange(4, reader=0, contract=contract_for(seat=1))  # Berthe leads
        argument = (
            "Tout le monde sait que les pyramides ont été construites pour la croisière. " * 3
        )
        state.apply(1, Play(state.hands[1][0], argument.strip()))
        put_state(server, code, state)
        page.wait_for_selector("[data-action=contester]")
        dock_text = page.locator(".parlote-dock").inner_text()
        assert "Contestation" in dock_text and "pyramides" in dock_text  # clock and argument
        assert page.locator(".window-banner").count() == 1  # read in the dock, not twice
        both_sizes(page, "[data-action=contester], [data-action=laisser]", "parlote-dock-contest")
        # on the phone this long argument overflows the dock: its end fades until read
        reading = ".parlote-dock .dock-reading"
        has_more = f"document.querySelector('{reading}').classList.contains('has-more')"
        page.wait_for_function(f"() => {has_more}")
        page.locator(reading).evaluate("r => { r.scrollTop = r.scrollHeight; }")
        page.wait_for_function(f"() => !{has_more}")

        # Gustave contested: the three others vote (a new state: the table caches its views)
        state = arrange(4, reader=0, contract=contract_for(seat=1))
        state.apply(1, Play(state.hands[1][0], argument.strip()))
        state.apply(0, Contest())
        put_state(server, code, state)
        page.wait_for_selector("[data-action=voter]")
        assert "Vote" in page.locator(".parlote-dock .game-countdown").inner_text()
        both_sizes(page, "[data-action=voter]", "parlote-dock-vote")
        assert page.locator("[data-action=voter][data-counts=false]").count() == 1

        # Gustave leads a trick: a slim dock keeps the clock, the chosen card's form shows
        put_state(server, code, arrange(4, reader=3, contract=contract_for(seat=1)))
        page.wait_for_selector(".parlote-dock[data-dock=play]")
        assert page.locator(".parlote-dock[data-dock=window], .parlote-dock .bid-form").count() == 0
        both_sizes(page, "[data-action=voir-main]", "parlote-dock-play")
        page.click("[data-action=voir-main]")
        page.wait_for_function("() => window.scrollY > 0")
        page.locator("button.pcard.playable").nth(2).click()
        page.wait_for_selector("textarea[name=argument]")
        assert page.locator(".parlote-dock").count() == 0  # nothing fixed over the keyboard
        page.wait_for_timeout(300)
        size = page.viewport_size
        for selector in ("textarea[name=argument]", ".argument-form button[type=submit]"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
                selector,
                box,
            )
        assert page.locator(".argument-form button[type=submit]").bounding_box()["height"] >= 44  # type: ignore[index]
        page.keyboard.type("Parce que je le dis")
        state = arrange(4, reader=3, contract=contract_for(seat=1))
        redrawn(page, server, code, state, "textarea[name=argument]")
        assert page.locator("textarea[name=argument]").input_value() == "Parce que je le dis"
        assert page.locator("button.pcard.selected").count() == 1
        shoot(page, "parlote-dock-argument-phone")
        # a refused argument (too long): the refusal is on screen, the text is kept
        page.fill("textarea[name=argument]", "Bla bla. " * 40)
        page.click(".argument-form button[type=submit]")
        page.wait_for_selector("#notice:not([hidden])")
        assert "trop long" in page.locator("#notice").inner_text()
        box = page.locator("#notice").bounding_box()
        size = page.viewport_size
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        assert box["height"] < 120, box  # a toast, not a panel pinned at both ends
        assert page.locator("textarea[name=argument]").input_value() == "Bla bla. " * 40
        shoot(page, "parlote-argument-refused-phone")
        page.set_viewport_size(DESKTOP)
        shoot(page, "parlote-dock-argument-desktop")
        assert not errors, errors
