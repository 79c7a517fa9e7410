"""Two people and a bot play a whole game of Chouineurs in real browsers."""

from __future__ import annotations

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import chouineurs_move, create_table, join, over, play_until, version
from e2e_server import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_two_people_and_a_bot_play_chouineurs_to_the_result(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players(), players(phone=True)
    link = create_table(
        alice.page, live_server.url, "chouineurs", "Alice", ["human", "human", "bot:random"]
    )
    join(bob.page, link, "Bob")
    bob.page.wait_for_selector(".cx-chooser")
    bob.page.click("[data-orientation=envers]")
    bob.page.click(".cx-betcard >> nth=2")
    shoot(bob.page, "table-chouineurs-choice")
    pages = [alice.page, bob.page]
    play_until(pages, chouineurs_move, lambda: version(alice.page) >= 12)
    shoot(alice.page, "table-chouineurs-playing")
    play_until(pages, chouineurs_move, lambda: over(alice.page) and over(bob.page), timeout=150)
    assert bob.page.locator(".cx-sheet").count() == 1
    shoot(bob.page, "table-chouineurs-result")
    assert not alice.errors and not bob.errors, alice.errors + bob.errors
