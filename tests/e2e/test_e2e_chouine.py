"""Two people play a whole Chouine game in real browsers, through a reconnect and a restart."""

from __future__ import annotations

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import chouine_move, create_table, hand_codes, join, over, play_until, version
from e2e_server import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_two_people_and_a_bot_play_chouine_to_the_result(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players(phone=True), players()
    base = live_server.url
    link = create_table(
        alice.page,
        base,
        "chouine",
        "Alice",
        ["human", "human", "bot:random"],
        {"manches": "1"},
    )
    assert "/t/" in link
    alice.page.wait_for_selector("text=En attente des autres joueurs")
    shoot(alice.page, "table-chouine-waiting")

    join(bob.page, link, "Bob")
    for person in (alice, bob):
        person.page.wait_for_selector(".cq-hand .card")
    assert "Bob" in bob.page.inner_text(".seat-chip.me")
    pages = [alice.page, bob.page]

    # play a few moves, then take screenshots of a game in progress
    play_until(pages, chouine_move, lambda: version(alice.page) >= 6)
    shoot(bob.page, "table-chouine-playing")

    # reconnect: Bob closes his page and opens the link again: same seat, same hand
    bob.page.wait_for_timeout(300)
    before = sorted(hand_codes(bob.page))
    bob.reopen(link)
    bob.page.wait_for_selector(".cq-hand .card")
    assert "Bob" in bob.page.inner_text(".seat-chip.me")
    after = sorted(hand_codes(bob.page))
    assert after == before or version(bob.page) > 6
    pages = [alice.page, bob.page]

    # server restart mid-game: the pages show the banner, reconnect, and the game goes on
    at = version(alice.page)
    live_server.restart()
    alice.page.wait_for_selector("#banner", state="hidden", timeout=20_000)
    play_until(pages, chouine_move, lambda: version(alice.page) > at + 3)

    play_until(pages, chouine_move, lambda: over(alice.page) and over(bob.page), timeout=150)
    assert "gagnée" in alice.page.inner_text("#result-list")
    shoot(alice.page, "table-chouine-result")
    alice.page.wait_for_selector("#replay-link:not([hidden])")
    alice.page.click("#replay-link")
    alice.page.wait_for_selector("#step-label")
    alice.page.click("#last")
    shoot(alice.page, "replay-chouine")
    # the finished game is on the ladder: both people and the bot, one game each
    bob.page.click("#ladder-link")
    bob.page.wait_for_selector("table.ladder")
    rows = bob.page.locator("table.ladder tbody tr")
    assert rows.count() == 3
    text = bob.page.inner_text("table.ladder")
    assert "Alice" in text and "Bob" in text and "Robot au hasard" in text
    assert "Bob" in bob.page.inner_text("table.ladder tr.me")  # his own row, marked
    shoot(bob.page, "ladder-chouine")
    assert not alice.errors and not bob.errors, alice.errors + bob.errors


def test_spectator_sees_the_public_view_only(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice, carol = players(), players(phone=True)
    link = create_table(alice.page, live_server.url, "chouine", "Alice", ["human", "bot:random"])
    alice.page.wait_for_selector(".cq-hand .card")
    carol.page.goto(link)
    carol.page.wait_for_selector(".cq")
    assert "Vous regardez" in carol.page.inner_text("#status-line")
    assert carol.page.locator(".cq-hand").count() == 0
    assert carol.page.locator("#rematch-form").count() == 0
    shoot(carol.page, "table-chouine-spectator")
