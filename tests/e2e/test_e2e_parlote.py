"""La parlote coinchée in Debian's Chromium: Gustave (desktop) and Berthe (phone), opponents,
with two bots, play a whole short game (one deal to 100 points) through the pages.

Gustave bids, Berthe coinches; Gustave types an argument full of HTML that is off topic:
Berthe contests it and the vote rejects it; an argument over 280 characters is refused. On
Berthe's phone the bidding, contest and vote buttons are on screen without scrolling (dock).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest
from e2e_tables import (
    chromium,
    code_of,
    create_table,
    current,
    desktop_and_phone,
    join,
    live_server,
    on_screen_at_top,
    quicken_bots,
    shoot,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from choux.games.parlote.actions import Pass

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

A, B = 0, 1  # opponents: teams are [0, 2] and [1, 3]
EVIL_NAME = "<i>Berthe</i>"
EVIL_ARGUMENT = '<img src=x onerror="alert(1)"> Hop, coucou !'


class PassiveBidder:
    """The test's bots always pass in the bidding, so Gustave's bid stands and Berthe can
    coinche whatever the deal (a bot outbidding him made the coinche depend on luck)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, state: Any, seat: int) -> Any:
        move = self.bot.choose(state, seat)
        if move is not None and state.view(seat)["phase"] == "bidding":
            for action in state.legal_actions(seat):
                if isinstance(action, Pass):
                    return dataclasses.replace(move, action=action)
        return move


def make_bots_pass_in_bidding(server: Any, invite: str) -> None:
    code = code_of(invite)

    async def wrap() -> None:
        table = server.service.tables[code]
        for seat, bot in list(table.bots.items()):
            table.bots[seat] = PassiveBidder(bot)

    server.call(wrap())


class Script:
    def __init__(self) -> None:
        self.coinched = False
        self.contested = False
        self.too_long_tried = False
        self.evil_played = False
        self.shots: set[str] = set()
        self.on_screen: set[str] = set()  # decisions seen on the phone's screen, unscrolled

    def shot(self, page: Any, name: str) -> None:
        if name not in self.shots:
            self.shots.add(name)
            page.evaluate("window.scrollTo(0, 0)")
            shoot(page, name)


def click(page: Any, selector: str) -> None:
    """Click if the button is still there: bots may close a window first."""
    with contextlib.suppress(PlaywrightTimeout):
        page.click(selector, timeout=1500)


def visible(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).count())


def play_card(page: Any, text: str | None) -> bool:
    """Pick the first playable card and send it with `text`; False if the play clock played
    for us first (the form went away), which a loaded machine may cause."""
    try:
        page.locator("button.pcard.playable").first.click(timeout=3000)
        page.wait_for_selector("textarea[name=argument]", timeout=3000)
        if text is None:
            page.locator(".argument-form button", has_text="sans argument").click(timeout=3000)
            return True
        page.fill("textarea[name=argument]", text, timeout=3000)
        page.click(".argument-form button[type=submit]", timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


def step(page: Any, seat: int, script: Script, size: str) -> None:
    c = current(page)
    if not c or c["status"] != "live":
        return
    v = c["view"]
    phase = v["phase"]
    high = v["bidding"]["high"]
    window = v.get("window")
    if phase in ("draw", "bidding", "play"):
        script.shot(page, f"parlote-{phase}{'-' + window['kind'] if window else ''}-{size}")
    if size == "phone":
        # on a phone the decision sits in the dock: on screen with the page at its top
        for kind, selector in (
            ("bidding", ".parlote-dock [data-action=passer], .parlote-dock [data-action=coincher]"),
            ("contest", "[data-action=contester], [data-action=laisser]"),
            ("vote", "[data-action=voter]"),
        ):
            if kind not in script.on_screen and visible(page, selector):
                if on_screen_at_top(page, selector, gone_ok=True):
                    script.on_screen.add(kind)
    if visible(page, "[data-action=moi]"):
        click(page, "[data-action=moi]")
    elif visible(page, ".pile.drawable"):
        click(page, ".pile.drawable")
    elif phase == "bidding":
        # decide from the state's legal actions, never from what the page shows: the page
        # may still draw the state before Gustave's bid, and Berthe would pass, not coinche
        legal = {item["action"]["type"] for item in v.get("legal") or []}
        high_team = None if high is None else high["seat"] % 2
        if seat == B and "coincher" in legal and high_team == 0:
            click(page, "[data-action=coincher]")
            script.coinched = True
        elif seat == A and "encherir" in legal and high_team != 0:
            click(page, ".bid-form button[type=submit]")
        elif "passer" in legal and not (seat == B and high_team == 0):
            click(page, "[data-action=passer]")
    elif window and window["kind"] == "contest" and visible(page, "[data-action=contester]"):
        if seat == B and window["author"] == A and window["play"]["argument"].startswith("<img"):
            click(page, "[data-action=contester]")
            script.contested = True
        else:
            click(page, "[data-action=laisser]")
    elif window and window["kind"] == "vote" and visible(page, "[data-action=voter]"):
        against = window["author"] == A and window["play"]["argument"].startswith("<img")
        click(page, f"[data-action=voter][data-counts={'false' if against else 'true'}]")
    elif visible(page, "button.pcard.playable"):
        if seat == A and not script.too_long_tried:
            if play_card(page, "Trop bavard ! " * 25):  # 350 characters: refused, not played
                page.wait_for_selector("#notice:not([hidden])")
                assert "trop long" in page.locator("#notice").inner_text()
                script.too_long_tried = True
                shoot(page, f"parlote-argument-refused-{size}")
        elif seat == A and not script.evil_played:
            script.evil_played = play_card(page, EVIL_ARGUMENT)
        else:
            play_card(page, None if seat == B else "Tout le monde le sait, et depuis toujours !")


def test_parlote_whole_game_in_two_browsers(tmp_path: Path) -> None:
    started = time.monotonic()
    with live_server(tmp_path, deadline_scale=0.3, bot_pace=0.05) as server, chromium() as browser:
        pa, pb, errors = desktop_and_phone(browser)
        invite = create_table(
            pa,
            server.url,
            "parlote",
            "Gustave",
            4,
            {A: "human", B: "human", 2: "bot:greedy", 3: "bot:random"},
            {"target": "100", "play_seconds": "30", "mode": '"jury"'},
        )
        quicken_bots(server, invite, 0.4)  # bots think for 0.4 of a person's time
        make_bots_pass_in_bidding(server, invite)
        join(pb, invite, EVIL_NAME, B)
        script = Script()
        rejected_seen = False
        deadline = time.monotonic() + 75
        while time.monotonic() < deadline:
            if current(pa)["status"] == "over":
                break
            step(pa, A, script, "desktop")
            step(pb, B, script, "phone")
            if (
                not rejected_seen
                and "L'argument de Gustave est rejeté" in pb.locator("#log").inner_text()
            ):
                rejected_seen = True
                assert current(pb)["view"]["contests_left"][1] == 1  # one of two contests spent
                for page, size in ((pa, "desktop"), (pb, "phone")):
                    shoot(page, f"parlote-rejected-{size}")
                    # the HTML of the argument is only ever text, never an element
                    assert page.locator(".parlote img, .parlote script").count() == 0
            pa.wait_for_timeout(40)
        assert current(pa)["status"] == "over", "the game reached its end"
        log = pa.locator("#log").inner_text()
        assert script.coinched and "coinche" in log.lower()
        assert script.contested and rejected_seen, "Berthe contested and the vote rejected"
        assert script.on_screen == {"bidding", "contest", "vote"}, script.on_screen
        assert EVIL_NAME in pa.locator("#seats").inner_text()
        for page, size in ((pa, "desktop"), (pb, "phone")):
            page.wait_for_selector("#result:not([hidden])")
            page.wait_for_selector(".recap[open]")
            assert EVIL_ARGUMENT in page.locator(".recap").inner_text()
            assert "argument rejeté" in page.locator(".recap").inner_text()
            assert page.locator(".recap img, .recap script").count() == 0
            shoot(page, f"parlote-over-{size}", full_page=True)
        pb.locator(".memo summary").click()
        shoot(pb, "parlote-memo-phone")
        pa.locator("#replay-link").click()
        pa.wait_for_selector(".parlote .parlote-head")
        pa.click("#last")
        pa.wait_for_selector(".parlote .recap")
        shoot(pa, "parlote-replay-desktop")
        assert not errors, errors
    assert time.monotonic() - started < 90
