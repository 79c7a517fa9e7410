"""Cul de Chouette pages in Debian's Chromium: what the forms start with, and what they say.

- The Civet's stake started at the largest bet (102): one tap on « Valider » staked it all.
  It now starts at the smallest legal stake; the player raises it on purpose.
- A long name (24 characters, the most a pseudonym has) broke in the middle of its word on
  a player's sheet of a 360 px phone (« Bartholome / w_Featherst / one »), and one of wide
  letters widened the page beyond the screen (the roll's caption). A name now wraps between
  its words only, a word too long for its box ends in « … », the full name in its title.
- A scribe typing the ordinary dice of a turn was not told whose they were (« Saisir les deux
  Chouettes », « À vous de saisir les dés ! »), as she now is of an opening die: the view
  names the dice's owner, the dialog, the status and the caption say it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import (
    PHONE,
    chromium,
    current,
    join,
    live_server,
    prepared_table,
    put_state,
    shoot,
    watched_page,
)

from choux.games.cul_de_chouette.testing import arrange, dice, others_pass

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


#: the narrowest phone the pages are made for
NARROW = {"width": 360, "height": 740}

#: each word's line boxes (one per line it spans) and the right edges of the word's own
#: element and of the sheet or caption holding it
LAYOUT = """([selector, word]) => [...document.querySelectorAll(selector)].map(n => {
    const text = [...n.childNodes].find(c => c.nodeType === 3 && c.textContent.includes(word));
    const range = document.createRange();
    const at = text ? text.textContent.indexOf(word) : 0;
    if (text) { range.setStart(text, at); range.setEnd(text, at + word.length); }
    const box = n.closest('.sheet, .reading') || document.body;
    return {
        title: n.title,
        lines: text ? new Set([...range.getClientRects()].map(r => Math.round(r.top))).size : 0,
        right: n.getBoundingClientRect().right,
        boxRight: box.getBoundingClientRect().right,
    };
})"""


@pytest.mark.parametrize("name", ["Bartholomew_Featherstone", "MMMMMMMMMMMMMMMMMMMMMMMM"])
def test_cdc_long_names_fit_a_360_px_phone(tmp_path: Path, name: str) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        code = prepared_table(page, server, "cul-de-chouette", name, 3, {"des": '"reels"'})
        invite = page.locator("#invite-link").input_value()
        for seat, other in ((B, "Marie Charlotte Duplessis"[:24]), (C, "Zoé")):
            join(browser.new_context().new_page(), invite, other, seat)
        # the long name's Chouette Velute: its name in the caption and on its sheet
        state = arrange(3, scores=[80, 50, 60], roller=A)
        dice(state, 2, 2)
        others_pass(state)  # nobody buys the Cul
        dice(state, 4)
        put_state(server, code, state)
        page.wait_for_selector(".reading .who")
        page.wait_for_selector(f'.sheet[data-seat="{A}"] .sheet-name')
        page.wait_for_timeout(300)  # the dice's animation, the dock's room
        width = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")
        assert width == [NARROW["width"], NARROW["width"]], width
        for selector in (f'.sheet[data-seat="{A}"] .sheet-name', ".reading .who"):
            (found,) = page.evaluate(LAYOUT, [selector, name])
            assert found["lines"] == 1, (selector, found)  # never cut mid-word
            assert found["right"] <= found["boxRight"] + 0.5, (selector, found)
            assert found["title"] == name, (selector, found)
        # a name of several words still wraps between them
        (other,) = page.evaluate(LAYOUT, [f'.sheet[data-seat="{B}"] .sheet-name', "Duplessi"])
        assert other["lines"] == 1 and other["right"] <= other["boxRight"] + 0.5, other
        page.locator(".cdc-sheets").scroll_into_view_if_needed()
        shoot(page, f"qa-cdc-long-name-360-{name[:4]}")
        assert not errors, errors


def test_cdc_scribe_is_told_whose_dice_she_types(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        options = {"des": '"reels"', "scribe": "0"}
        code = prepared_table(page, server, "cul-de-chouette", "Gisèle", 3, options)
        # Place 2's turn: Gisèle, the scribe, types his two Chouettes
        state = arrange(3, roller=B, options={"des": "reels", "scribe": A})
        put_state(server, code, state)
        page.wait_for_selector(".dice-entry input")
        awaiting = current(page)["view"]["awaiting"]
        assert awaiting == {"seat": A, "owner": B, "count": 2}, awaiting
        dialog = " ".join(page.locator(".cdc-dialogs").inner_text().split())
        assert "Saisir les deux Chouettes de Place 2" in dialog, dialog
        status = page.locator("#status-line").inner_text().strip()
        assert status == "À vous : saisissez les dés de Place 2 !", status
        caption = " ".join(page.locator(".reading.waiting").inner_text().split())
        assert caption == "Vous saisissez 2 dés de Place 2…", caption
        shoot(page, "qa-cdc-scribe-whose-dice-phone")
        # his Cul, then her own turn: her own dice, said as before
        dice(state, 2, 5)
        others_pass(state)  # nobody buys the Cul
        put_state(server, code, state)
        page.wait_for_function("() => window.chouxTable.current.view.step === 'cul'")
        dialog = " ".join(page.locator(".cdc-dialogs").inner_text().split())
        assert "Saisir le dé de Place 2" in dialog, dialog
        put_state(server, code, arrange(3, roller=A, options={"des": "reels", "scribe": A}))
        page.wait_for_function("() => window.chouxTable.current.view.awaiting.owner === 0")
        dialog = " ".join(page.locator(".cdc-dialogs").inner_text().split())
        assert "Saisir les deux Chouettes" in dialog and "Place" not in dialog, dialog
        status = page.locator("#status-line").inner_text().strip()
        assert status == "À vous de saisir les dés !", status
        # Place 2 is the scribe of Gisèle's dice: her page says so
        put_state(server, code, arrange(3, roller=A, options={"des": "reels", "scribe": B}))
        page.wait_for_function("() => window.chouxTable.current.view.awaiting.seat === 1")
        caption = " ".join(page.locator(".reading.waiting").inner_text().split())
        assert caption == "Place 2 saisit vos 2 dés…", caption
        assert page.locator(".dice-entry").count() == 0
        assert not errors, errors
