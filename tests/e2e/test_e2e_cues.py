"""Sound and motion cues in two browsers: silent until the person touches the page, a turn
chime and card sounds after, a mute switch kept on the device, cards that slide (unless the
person prefers reduced motion)."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import chouine_move, create_table, join, play_until, version

pytestmark = [pytest.mark.e2e]


def played(page: Any) -> list[str]:
    return list(page.evaluate("window.chouxCues.played"))


def test_cues_wait_for_a_gesture_can_be_muted_and_respect_reduced_motion(  # type: ignore[no-untyped-def]
    live_server, players
) -> None:
    alice, bob = players(), players()
    bob.page.emulate_media(reduced_motion="reduce")
    link = create_table(alice.page, live_server.url, "chouine", "Alice", ["human", "human"])
    join(bob.page, link, "Bob")
    for page in (alice.page, bob.page):
        page.wait_for_selector(".cq-hand .card")
    pages = [alice.page, bob.page]
    # nobody has touched the table pages yet (the form was another page): no sound at all;
    # the cards are clicked by script (a click event, no pointer: not a gesture)
    at = version(alice.page)
    play_until(
        pages,
        lambda p: p.evaluate("""() => {
        const b = document.querySelector('.cq-hand button.card.playable');
        if (!b) return false; b.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;
    }"""),
        lambda: version(alice.page) >= at + 2,
        timeout=30,
    )
    assert played(alice.page) == [] and played(bob.page) == []

    # once they have touched the page, sounds come: a chime for one's turn, cards otherwise
    play_until(
        pages,
        chouine_move,
        lambda: "turn" in played(alice.page) and "turn" in played(bob.page),
        timeout=60,
    )
    assert set(played(alice.page)) <= {"turn", "card"}
    assert "card" in played(alice.page) + played(bob.page)

    # cards slid for Alice; Bob prefers reduced motion: nothing moved on his board
    assert alice.page.evaluate("window.chouxCues.moved") > 0
    assert bob.page.evaluate("window.chouxCues.moved") == 0

    # Bob mutes: remembered after a reload, and nothing more is played for him
    bob.page.click("#sound-switch")
    assert bob.page.get_attribute("#sound-switch", "aria-pressed") == "false"
    bob.page.reload()
    bob.page.wait_for_selector(".cq-hand .card")
    assert bob.page.inner_text("#sound-switch") == "Son coupé"
    at = version(alice.page)
    play_until(pages, chouine_move, lambda: version(alice.page) >= at + 4, timeout=30)
    assert played(bob.page) == []
    assert not alice.errors and not bob.errors
