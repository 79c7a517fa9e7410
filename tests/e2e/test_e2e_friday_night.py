"""A Friday night among friends (Debian's Chromium): what a whole evening of play showed.

- When a friend has opened the rematch, the others are offered one way in, « Rejoindre la
  revanche », not « Rejouer » beside « La revanche vous attend » (both led to the same table);
  a spectator is offered « Regarder la revanche », where they watch and cannot sit.
- The replay page's « · enregistrement n° 4 » never starts a line with its dot on a phone.
- Chouineurs at five on a phone: the score sheet fits the screen, the winner's column too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from e2e_flow import chouine_move, play_until, version
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
    quicken_bots,
    shoot,
    watched_page,
)

from choux.games.chouineurs.state import ChouineursState

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_the_rematch_a_friend_opened_is_one_button(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        alice, errors = watched_page(browser, PHONE)
        bob, _ = watched_page(browser, DESKTOP, errors)
        denise, _ = watched_page(browser, PHONE, errors)
        invite = create_table(alice, server.url, "chouine", "Alice", 2, {0: "human", 1: "human"})
        join(bob, invite, "Bob")
        denise.goto(invite)  # a spectator
        put_state(server, code_of(invite), chouine_in_hand())
        alice.click("button.action[data-action*='chouine']")
        bob.wait_for_selector(".cq-hand .card:not([disabled])")
        bob.click(".cq-hand .card:not([disabled])")
        for page in (alice, bob, denise):
            page.wait_for_selector("#result:not([hidden])")
        assert alice.locator("#rematch-form button").inner_text() == "Rejouer"
        assert alice.locator("#next-table").is_hidden()

        # Bob asks for the rematch: he goes to the new table...
        bob.click("#rematch-form button")
        bob.wait_for_url("**/t/*")
        assert code_of(bob.url) != code_of(invite)
        # ...and Alice is offered one way in, the primary button: no « Rejouer » beside it
        alice.wait_for_selector("#next-table:not([hidden])")
        assert alice.locator("#rematch-form").is_hidden()
        offer = alice.locator("#next-table")
        assert offer.inner_text() == "Rejoindre la revanche"
        assert "primary" in (offer.get_attribute("class") or "")
        visible = alice.locator("#result .result-actions .button:visible").all_inner_texts()
        assert visible == [
            "Rejoindre la revanche",
            "Revoir la manche",  # a Chouine table plays one manche (classic rules)
            "Classement",
            "Retour au salon",
        ]
        shoot(alice, "friday-rematch-offer-phone")
        # the spectator follows as a spectator: the rematch's seats wait for the players,
        # and a stranger does not find it in the lobby
        denise.wait_for_selector("#next-table:not([hidden])")
        assert denise.locator("#next-table").inner_text() == "Regarder la revanche"
        denise.click("#next-table")
        denise.wait_for_url("**/t/*")
        assert code_of(denise.url) == code_of(bob.url)
        denise.wait_for_function("() => document.querySelector('#table').dataset.seat === ''")
        assert denise.locator(".join-panel").count() == 0
        assert denise.locator("#status-line").inner_text().endswith("La table attend ses joueurs.")
        shoot(denise, "friday-rematch-spectator-phone")
        denise.goto(server.url)
        assert code_of(bob.url) not in denise.content()

        # Alice takes her seat at the rematch through the offer
        alice.click("#next-table")
        alice.wait_for_url("**/t/*")
        assert code_of(alice.url) == code_of(bob.url)
        alice.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
        assert not errors, errors


def test_the_replay_title_of_a_long_game_name_wraps_without_a_leading_dot_on_a_phone(
    tmp_path: Path,
) -> None:
    """« La parlote coinchée · enregistrement n° 1 » is too long for a phone's line: the
    number went to the next line, which began with « · »."""
    with live_server(tmp_path, deadline_scale=0.05) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        seats = {0: "human", 1: "bot:random", 2: "bot:random", 3: "bot:random"}
        invite = create_table(page, server.url, "parlote", "Alice", 4, seats, {"target": "100"})
        quicken_bots(server, invite, 0.02)
        table = server.call(server.service.get(code_of(invite)))

        async def play_out() -> None:  # Alice's moves, the first legal one (not the subject)
            while table.status != "over":
                if 0 in table.state.actors():
                    action = table.state.legal_actions(0)[0].to_json()
                    await server.service.act(table, 0, action)
                else:
                    await asyncio.sleep(0.02)

        server.call(play_out(), timeout=90)
        assert table.record_id is not None
        page.goto(f"{server.url}/parties/{table.record_id}")
        page.wait_for_selector(".replay-controls")
        kicker = page.locator(".replay-kicker")
        assert kicker.inner_text().startswith("enregistrement n°"), kicker.inner_text()
        title_bottom = page.evaluate(
            "() => { const r = document.createRange();"
            " r.selectNodeContents(document.querySelector('.table-head h1').firstChild);"
            " return r.getBoundingClientRect().bottom; }"
        )
        box = kicker.bounding_box()
        assert box is not None and box["y"] >= title_bottom - 1  # its own line, under the title
        shoot(page, "friday-replay-title-phone")
        page.set_viewport_size(DESKTOP)  # on a laptop, one line: « … coinchée · enregistrement »
        assert kicker.inner_text().startswith("· enregistrement n°"), kicker.inner_text()
        assert not errors, errors


def three_rounds_scored() -> ChouineursState:
    """Five players at the fourth round's choice, three rounds on the score sheet, with
    the widest cells: « Orange · 1 pli » and « 8 + 3 = 11 »."""
    from choux.games.chouineurs import GAME

    state = GAME.new(5, 3, None)
    assert isinstance(state, ChouineursState)
    row = (0, 1, 8, 3, 11)  # orange bet, 1 trick: 8 points, 3 tokens of the crybaby: 11
    state.sheet = [[row] * 5 for _ in range(3)]
    state.scores = [33] * 5
    state.round = 4
    return state


def test_chouineurs_score_sheet_at_five_fits_a_phone(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        seats = {0: "human", **dict.fromkeys(range(1, 5), "bot:random")}
        name = "Marie-Christine"  # a long name: cut in the sheet's head, whole in its title
        invite = create_table(page, server.url, "chouineurs", name, 5, seats)
        quicken_bots(server, invite, 40)  # the bots stay out of the way
        put_state(server, code_of(invite), three_rounds_scored())
        page.wait_for_selector(".cx-sheet tbody tr:nth-child(3)")
        # one evaluation: the board is redrawn at every message
        sheet = page.evaluate(
            """() => {
                const box = document.querySelector('.cx-sheet-box');
                const heads = [...box.querySelectorAll('thead th')];
                const last = heads[heads.length - 1].getBoundingClientRect();
                return {scroll: box.scrollWidth, width: box.clientWidth, right: last.right,
                        long: (heads[0].querySelector('.cx-round-long') || heads[0]).getBoundingClientRect().width,
                        first: heads[0].textContent, titles: heads.map((th) => th.title)};
            }"""
        )
        assert sheet["scroll"] <= sheet["width"], f"the sheet scrolls sideways: {sheet}"
        assert sheet["right"] <= PHONE["width"], sheet
        assert sheet["titles"][1] == name, sheet  # the cut name, whole in its title
        # « Manche » reads « n° » on the screen, « Manche » to a screen reader
        assert sheet["first"].startswith("Manche") and sheet["long"] <= 1, sheet
        shoot(page, "friday-chouineurs-sheet-phone", full_page=True)
        assert not errors, errors


def test_before_the_start_the_board_says_when_the_game_starts(tmp_path: Path) -> None:
    """While places are free the first deal is on the board: « La main est à Place 2 » and
    that free place's chip in gold read as if the game waited for it. The board is greyed
    under a line that says when the game starts; no chip is « acting »."""
    with live_server(tmp_path) as server, chromium() as browser:
        alice, errors = watched_page(browser, DESKTOP)
        bruno, _ = watched_page(browser, PHONE, errors)
        chloe, _ = watched_page(browser, PHONE, errors)
        seats = {0: "human", 1: "human", 2: "human", 3: "bot:easy"}
        invite = create_table(alice, server.url, "cul-de-chouette", "Alice", 4, seats)
        alice.wait_for_selector("#board.before-start .start-note")
        note = alice.locator(".start-note").inner_text()
        assert note == "La partie commence dès que les 2 places libres sont prises.", note
        assert alice.locator(".seat-chip.acting").count() == 0
        bruno.goto(invite)  # an invited friend, not seated yet
        bruno.wait_for_selector(".start-note")
        assert bruno.locator("#status-line").inner_text() == (
            "Vous regardez la partie. La table attend ses joueurs : prenez une place libre pour jouer."
        )
        shoot(bruno, "friday-before-start-visitor-phone")
        join(bruno, invite, "Bruno")
        alice.wait_for_function(
            "() => document.querySelector('.start-note')?.textContent.includes('dernière')"
        )
        shoot(alice, "friday-before-start-host-desktop")
        join(chloe, invite, "Chloé")
        for page in (alice, bruno, chloe):  # the game starts: the board as it is
            page.wait_for_selector("#board:not(.before-start) .cdc")
            assert page.locator(".start-note").count() == 0
        alice.wait_for_selector(".seat-chip.acting")
        assert not errors, errors


def test_the_rules_link_of_a_table_is_a_finger_wide_on_a_phone(tmp_path: Path) -> None:
    """« règles » beside the game's title was a 16 px tall link: tapped on a phone, a
    44 px target now, the head's layout unchanged."""
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        create_table(page, server.url, "chouine", "Alice", 2, {0: "human", 1: "bot:random"})
        link = page.locator(".table-head .rules-link")
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
        hit = page.evaluate(
            """() => { const r = document.querySelector('.rules-link').getBoundingClientRect();
                const at = document.elementFromPoint(r.left + r.width / 2, r.top + 4);
                return at && at.classList.contains('rules-link'); }"""
        )
        assert hit, "the top of the target is the link's"
        # the title's line is as high as before: the room is taken from the margins
        title = page.locator(".table-head h1").bounding_box()
        assert title is not None and title["height"] < 44, title
        assert link.get_attribute("href") == "/regles/chouine"
        assert not errors, errors


def test_the_new_table_forms_help_keeps_its_french_spaces_when_the_choice_changes(
    tmp_path: Path,
) -> None:
    """The server sets « jours : personne » with a non-breaking space; the sentence the
    script puts there when the correspondence time changes is set the same way."""
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.goto(f"{server.url}/nouvelle?jeu=chouine")
        raw = "() => document.getElementById('correspondence-hint').textContent"
        assert "direct\u00a0: tout" in page.evaluate(raw)  # as the server rendered it
        page.select_option("#correspondence-time", "86400")
        assert "jours\u00a0: personne" in page.evaluate(raw), page.evaluate(raw)
        page.select_option("#correspondence-time", "")
        assert "direct\u00a0: tout" in page.evaluate(raw), page.evaluate(raw)
        assert not errors, errors


def test_the_join_form_follows_the_free_seats(tmp_path: Path) -> None:
    """Denise opened the invite while seats were free, then watched: her « Rejoindre la
    partie » form stayed the whole game, and « S'asseoir » answered « Cette table est
    complète » (an audit). It now lists only the free seats and goes when the table is full."""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        alice, errors = watched_page(browser, DESKTOP)
        bob, _ = watched_page(browser, PHONE, errors)
        denise, _ = watched_page(browser, PHONE, errors)
        invite = create_table(
            alice, server.url, "chouine", "Alice", 3, {0: "human", 1: "human", 2: "human"}
        )
        denise.goto(invite)
        places = denise.locator(".join-form select[name=place] option")
        assert places.all_inner_texts() == ["Place 2", "Place 3"]
        join(bob, invite, "Bob", 1)
        denise.wait_for_function(
            "() => document.querySelectorAll('.join-form select[name=place] option').length === 1"
        )
        assert places.all_inner_texts() == ["Place 3"]
        assert denise.locator(".join-panel").is_visible()
        third, _ = watched_page(browser, PHONE, errors)
        join(third, invite, "Chloé")
        denise.wait_for_selector(".join-panel", state="hidden")
        assert not errors, errors


def test_the_others_read_how_long_before_a_robot_takes_an_absent_seat(tmp_path: Path) -> None:
    """Bob closed his tab: Alice's page said « absent » and nothing of how long she would
    wait (an audit). The chip now counts down to the robot."""
    with (
        live_server(tmp_path, deadline_scale=50, grace_seconds=150) as server,
        chromium() as browser,
    ):
        alice, errors = watched_page(browser, PHONE)
        bob, _ = watched_page(browser, PHONE, errors)
        invite = create_table(alice, server.url, "chouine", "Alice", 2, {0: "human", 1: "human"})
        join(bob, invite, "Bob")
        alice.wait_for_selector(".seat-chip[data-seat='1']:not(.away)")
        bob.context.close()
        tag = alice.locator(".seat-chip[data-seat='1'] .seat-tag.bot-soon")
        tag.wait_for()
        assert tag.text_content() in ("absent · robot dans 3 min", "absent · robot dans 2 min")
        shoot(alice, "friday-absent-countdown-phone")
        assert not errors, errors


def test_a_phone_that_loses_the_network_says_so_at_once_and_comes_back(tmp_path: Path) -> None:
    """Offline, a phone showed nothing for 45 s: « À vous de jouer » still, and a card tapped
    only stayed raised (an audit). The browser's own « offline » now shows the banner at
    once; back online, the page connects afresh and the banner goes."""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        alice, errors = watched_page(browser, PHONE)
        create_table(alice, server.url, "chouine", "Alice", 2, {0: "human", 1: "bot:random"})
        alice.wait_for_function("() => window.chouxTable.current.status === 'live'")
        assert alice.locator("#banner").is_hidden()
        alice.context.set_offline(True)
        alice.wait_for_selector("#banner:not([hidden])", timeout=2000)
        assert alice.locator("#banner").inner_text().startswith("Hors ligne")
        alice.context.set_offline(False)
        alice.wait_for_selector("#banner", state="hidden", timeout=10000)
        # the fresh socket plays: moves are acknowledged again
        at = version(alice)
        play_until([alice], chouine_move, lambda: version(alice) >= at + 4)
        assert not errors, errors


def test_a_chouineurs_table_still_filling_shows_nobody_thinking(tmp_path: Path) -> None:
    """Before the start (a rematch waiting for its players), the empty places read
    « réfléchit… » and « 7 cartes » as if they were playing (an audit)."""
    with live_server(tmp_path, deadline_scale=50) as server, chromium() as browser:
        alice, errors = watched_page(browser, PHONE)
        create_table(
            alice, server.url, "chouineurs", "Alice", 3, {0: "human", 1: "human", 2: "bot:greedy"}
        )
        seat = alice.locator(".cx-seat[data-seat='1']")
        seat.wait_for()
        text = seat.inner_text()
        assert "place libre : en attente" in text, text
        assert "réfléchit" not in text and "cartes" not in text, text
        assert "en attente du début" in alice.locator(".cx-seat[data-seat='2']").inner_text()
        assert not errors, errors
