"""La parlote coinchée, a player's-eye polish, in Debian's Chromium.

- The status line said « À vous d'annoncer ! » while someone else bid and the player could
  only coinche: it now says what is asked.
- While bidding or coinching, the dock at the bottom of the screen hid the hand (laptop) or
  the hand was far below it (phone): the dock now shows the hand, small.
- Up to three countdowns of one decision showed at once, a second apart: one shows.
- « Vous avez voté… » was pale green on the peach vote banner (1.04:1): now 4.5:1 or more.
- Card names were cut mid-word (« Renversemen / t »), team names letter by letter; seat chips
  showed a team's score on one member only; the trick and the recap said « 0 – 0 » without
  saying which team was which; the recap named a depth-1 card twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_tables import (
    DESKTOP,
    PHONE,
    chromium,
    create_table,
    current,
    live_server,
    plain,
    prepared_table,
    put_state,
    shoot,
    watched_page,
)

from choux.games.parlote import data
from choux.games.parlote.actions import Bid, Pass, Play, Vote
from choux.games.parlote.content import content
from choux.games.parlote.testing import (
    argument_under_vote,
    arrange,
    code,
    contract_for,
    standard_hands,
)

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

TRUMPS = ("insuffisance", "influence")
ARGUMENT = "Tout le monde le sait : les anciens l'ont toujours dit, c'est donc vrai."


def long_named_hands() -> list[list[str]]:
    """`standard_hands`, seat 0 holding « Renversement de la charge de la preuve »."""
    hands = standard_hands()
    long_card = code("tricherie", 2)
    for seat in range(1, 4):
        if long_card in hands[seat]:
            index = hands[seat].index(long_card)
            hands[seat][index], hands[0][0] = hands[0][0], hands[seat][index]
    return hands


VISIBLE_CLOCKS = """() => [...document.querySelectorAll('.game-countdown, #status-line .countdown')]
    .filter(n => n.getClientRects().length > 0).length"""


def visible_clocks(page: Any) -> int:
    return int(page.evaluate(VISIBLE_CLOCKS))


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: tuple[float, float, float], bg: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def colours_of(page: Any, selector: str, ancestor: str) -> tuple[Any, Any]:
    """The computed text colour of `selector` and the background of its `ancestor`."""
    found: tuple[Any, Any] = page.evaluate(
        """([sel, anc]) => {
            const n = document.querySelector(sel);
            const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
            return [rgb(getComputedStyle(n).color),
                    rgb(getComputedStyle(n.closest(anc)).backgroundColor)];
        }""",
        [selector, ancestor],
    )
    return found


def test_parlote_bidding_shows_the_hand_one_clock_and_the_right_words(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=1.0, bot_pace=0.1) as server, chromium() as browser:
        for viewport in (DESKTOP, PHONE):
            label = "phone" if viewport == PHONE else "desktop"
            page, errors = watched_page(browser, viewport)
            table = prepared_table(page, server, "parlote", "Gisèle", 4)

            # Gisèle opens the bidding: her seven cards are in the dock, on screen
            state = arrange(4, reader=3, hands=long_named_hands())
            state.scores = [778, 1006]
            put_state(server, table, state)
            page.wait_for_selector(".parlote-dock .bid-form")
            assert page.locator("#status-line").inner_text().strip() == "À vous d'annoncer !"
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(100)
            cards = page.locator(".parlote-dock .dock-hand .mini-card")
            assert cards.count() == 7
            top = page.evaluate(
                "document.querySelector('.parlote-dock .dock-hand').getBoundingClientRect().top"
            )
            assert 0 <= top < viewport["height"] - 60, top
            first = cards.first.bounding_box()
            assert first and first["y"] + first["height"] <= viewport["height"]
            assert page.locator(".hand-preview").count() == 0  # not twice
            assert visible_clocks(page) == 1
            # seat chips carry no team score: the team box shows it
            assert page.locator(".seat-score").evaluate_all(
                "ns => ns.every(n => getComputedStyle(n).display === 'none')"
            )
            # a four-digit score: the team's names are never cut inside a word
            assert page.locator(".team-names").evaluate_all(
                "ns => ns.every(n => getComputedStyle(n).overflowWrap !== 'anywhere')"
            )
            assert_no_word_broken(page, ".team-names")
            assert_no_word_broken(page, ".mini-name")
            shoot(page, f"parlote-polish-bidding-{label}")

            # Odette bid 80, Marcel thinks: Gisèle may only coinche
            state = arrange(4, reader=3, hands=long_named_hands())
            state.apply(0, Pass())
            state.apply(1, Bid(80, TRUMPS))
            put_state(server, table, state)
            page.wait_for_selector(".parlote-dock [data-action=coincher]")
            # whose bid it is, then what Gisèle may do meanwhile (she is not waited for)
            status = page.locator("#status-line").inner_text().strip()
            assert status == "À Place 3 d'annoncer. Vous pouvez coincher !", status
            assert "acting" not in (page.locator(".seat-chip.me").get_attribute("class") or "")
            assert page.locator(".parlote-dock .dock-hand .mini-card").count() == 7
            assert visible_clocks(page) == 1
            shoot(page, f"parlote-polish-coinche-{label}")

            # Marcel (other team) bid a capot: nothing beats it, Gisèle passes or coinches
            state = arrange(4, reader=2, hands=long_named_hands())
            state.apply(3, Bid(data.CAPOT, TRUMPS))
            put_state(server, table, state)
            page.wait_for_function(
                "() => { const b = window.chouxTable.current.view.bidding; return b && b.high; }"
            )
            page.wait_for_selector(".parlote-dock [data-action=coincher]")
            assert (
                page.locator("#status-line").inner_text().strip() == "À vous : passer ou coincher ?"
            )
            dock = plain(page.locator(".parlote-dock").inner_text())
            assert "Rien ne bat un capot : passez, ou coinchez (×2)." in dock, dock
            assert "À vous d'annoncer" not in dock
            assert "À vous d'annoncer" not in plain(page.locator(".bidding").inner_text())

            # Gisèle passed and may not coinche her partner: the header keeps the one clock
            state = arrange(4, reader=1, hands=long_named_hands())
            state.apply(2, Bid(80, TRUMPS))
            put_state(server, table, state)
            page.wait_for_function(
                "() => { const b = window.chouxTable.current.view.bidding; return b && b.high; }"
            )
            page.wait_for_timeout(150)
            assert page.locator(".parlote-dock").count() == 0
            assert page.locator(".hand-preview .pcard").count() == 7
            assert visible_clocks(page) == 1
            assert page.locator(".parlote-head .game-countdown").is_visible()
            assert not errors, errors
            page.context.close()


def assert_no_word_broken(page: Any, selector: str) -> None:
    """Each word of every `selector` lies on one line: none is cut mid-word."""
    broken = page.evaluate(
        """sel => {
            const out = [];
            for (const node of document.querySelectorAll(sel)) {
                const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
                for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                    for (const m of t.data.matchAll(/[^\\s]+/g)) {
                        const r = document.createRange();
                        r.setStart(t, m.index);
                        r.setEnd(t, m.index + m[0].length);
                        const tops = new Set([...r.getClientRects()]
                            .filter(q => q.width > 0).map(q => Math.round(q.top)));
                        if (tops.size > 1) out.push(m[0]);
                    }
                }
            }
            return out;
        }""",
        selector,
    )
    assert not broken, (selector, broken)


def test_parlote_card_names_wrap_between_words(tmp_path: Path) -> None:
    """Every card name of the game, drawn as a card of the hand at the laptop's and the
    phone's widths: no word is cut (a long word takes a smaller size)."""
    names = sorted({card.name for card in content().cards}, key=len, reverse=True)
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        for viewport in (DESKTOP, PHONE):
            page, errors = watched_page(browser, viewport)
            table = prepared_table(page, server, "parlote", "Gisèle", 4)
            put_state(server, table, arrange(4, reader=3, contract=contract_for(seat=1)))
            page.wait_for_selector("#parlote-hand .hand .pcard")
            rule = page.locator(".pcard-name").first.evaluate(
                "n => [getComputedStyle(n).overflowWrap, getComputedStyle(n).hyphens]"
            )
            assert rule == ["normal", "manual"], rule
            # the hand, refilled with every name of the game (as the renderer sizes them)
            page.evaluate(
                """async names => {
                    const url = document.querySelector('#table').dataset.renderer;
                    const { nameSize } = await import(url);
                    const hand = document.querySelector('#parlote-hand .hand');
                    const model = hand.querySelector('.pcard');
                    hand.replaceChildren(...names.map(name => {
                        const card = model.cloneNode(true);
                        const span = card.querySelector('.pcard-name');
                        span.className = 'pcard-name' + nameSize(name);
                        span.textContent = name;
                        return card;
                    }));
                }""",
                names,
            )
            assert_no_word_broken(page, "#parlote-hand .pcard-name")
            # nor does a long word stick out of its card (which would clip it)
            wide = page.locator("#parlote-hand .pcard-name").evaluate_all(
                "ns => ns.filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)"
            )
            assert not wide, wide
            assert not errors, errors
            page.context.close()


def test_parlote_vote_one_clock_readable_note_and_named_teams(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=1.0, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        table = prepared_table(page, server, "parlote", "Gisèle", 4, {"mode": '"arbitre"'})

        # the reader's argument goes to a vote: Gisèle votes, one clock on her screen
        state = argument_under_vote(ARGUMENT)
        state.apply(2, Vote(False))
        put_state(server, table, state)
        page.wait_for_selector("[data-action=voter]")
        assert page.locator("#status-line").inner_text().strip() == "À vous de voter !"
        assert visible_clocks(page) == 1
        assert page.locator(".parlote-dock .game-countdown").is_visible()

        # voted: the note on the peach banner is readable
        page.click("[data-action=voter][data-counts=true]")
        page.wait_for_selector(".voted-note")
        # the others vote: said so, not « de jouer » (no card is awaited)
        status = " ".join(page.locator("#status-line").inner_text().split())
        assert status.startswith("À ") and status.endswith("de voter."), status
        fg, bg = colours_of(page, ".voted-note", ".window-banner")
        assert contrast(tuple(fg), tuple(bg)) >= 4.5, (fg, bg)
        assert visible_clocks(page) == 1  # the header's, now that nothing is asked

        # the trick's summary names each team, as the score box does
        names = [s["name"] for s in current(page)["seats"]]
        info = " ".join(page.locator(".trick-info").inner_text().split())
        assert f"{names[0]} & {names[2]}" in info and f"{names[1]} & {names[3]}" in info, info
        assert "0 – 0" not in info
        assert not errors, errors


def test_parlote_recap_names_a_depth_one_card_once(tmp_path: Path) -> None:
    """« joue [Obstruction] Obstruction »: a colour's own card is named by its chip only."""
    state = arrange(4, reader=3, contract=contract_for(seat=1))
    while state.recap is None:  # the first card of each hand is a depth-1 card
        seat = state.actors()[0]
        state.apply(seat, Play(state.hands[seat][0], ""))
    first = state.recap["tricks"][0]["plays"][0]
    first["contester"] = (first["seat"] + 1) % 4  # as a contested argument's play reads
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        table = prepared_table(page, server, "parlote", "Gisèle", 4)
        put_state(server, table, state)
        page.wait_for_selector(".recap .recap-line")
        page.locator(".recap").evaluate("d => { d.open = true; }")
        lines = [" ".join(t.split()) for t in page.locator(".recap-line").all_inner_texts()]
        recap = current(page)["view"]["recap"]
        cards = [p["card"] for t in recap["tricks"] for p in t["plays"]]
        assert len(cards) == len(lines) == 28
        own = 0
        for card, line in zip(cards, lines, strict=True):
            named = line.split(" joue ", 1)[1].split(" (niveau")[0]
            # a colour's own card: the chip alone, not « Obstruction Obstruction »
            if card["name"] == card["colour_name"]:
                own += 1
                assert named == card["name"], line
            else:
                assert named == f"{card['colour_name']} {card['name']}", line
        assert own, lines
        teams = page.locator(".recap-teams").inner_text()
        assert "&" in teams and "total" in teams
        # who contested an argument is told after the deal as during it
        contester = current(page)["seats"][first["contester"]]["name"]
        status = page.locator(".recap-status").first.inner_text()
        assert f"contesté par {contester}" in status, status
        assert not errors, errors


def test_parlote_a_pasted_article_is_refused_on_the_page_with_the_draft_kept(
    tmp_path: Path,
) -> None:
    """An argument of 10,000 characters went over the socket's message limit: the server
    closed the socket and the page sent the same move on every reconnection, for ever,
    greyed out under « Connexion perdue » (an audit). The page now refuses it as the engine
    would, the draft kept and the socket open; and it counts characters as the server does
    (150 emoji read « 300 / 280 » in red, and the server took them)."""
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        table = prepared_table(page, server, "parlote", "Gisèle", 4)
        put_state(server, table, arrange(4, reader=3, contract=contract_for(seat=1)))
        page.locator("button.pcard.playable").first.click()
        area = page.locator("textarea[name=argument]")
        area.fill("\U0001f921" * 150)
        counter = page.locator(".argument-form .counter")
        assert counter.inner_text() == "150 / 280"
        assert "over" not in (counter.get_attribute("class") or "")
        article = "Un article collé là, tout entier, pour avoir raison. " * 200
        area.fill(article)
        version = current(page)["version"]
        page.click(".argument-form button[type=submit]")
        page.wait_for_selector("#notice:not([hidden])")
        length = len(article.strip())
        assert page.locator("#notice").inner_text() == (
            f"Argument trop long : {length} caractères, 280 au plus."
        )
        page.wait_for_timeout(1500)  # long enough for a closed socket to show its banner
        assert page.locator("#banner").is_hidden()
        assert area.input_value() == article
        assert current(page)["version"] == version
        # trimmed to a real argument, it goes
        area.fill("Tout le monde le sait, et depuis toujours !")
        page.click(".argument-form button[type=submit]")
        page.wait_for_function(f"() => window.chouxTable.current.version > {version}")
        assert not errors, errors


def test_parlote_join_form_says_with_whom_each_place_plays(tmp_path: Path) -> None:
    """« Place 2 / 3 / 4 »: a newcomer could not tell which team they would join (an audit)."""
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, DESKTOP)
        invite = create_table(
            page, server.url, "parlote", "Gisèle", 4, {seat: "human" for seat in range(4)}
        )
        visitor, _ = watched_page(browser, PHONE, errors)
        visitor.goto(invite)
        options = visitor.locator(".join-form select[name=place] option")
        visitor.wait_for_function(
            "() => [...document.querySelectorAll('.join-form select[name=place] option')]"
            ".some((o) => o.textContent.includes('avec'))"
        )
        assert options.all_inner_texts() == [
            "Place 2 · équipe 2",
            "Place 3 · avec Gisèle",
            "Place 4 · équipe 2",
        ]
        assert not errors, errors
