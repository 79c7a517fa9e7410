"""Table chat in two browsers: quick reactions, text only, hiding someone, the host's mute."""

from __future__ import annotations

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import create_table, join
from e2e_server import shoot

pytestmark = [pytest.mark.e2e]


def test_two_players_chat_hide_and_the_host_mutes(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice, bob = players(), players(phone=True)
    link = create_table(alice.page, live_server.url, "chouine", "Alice", ["human", "human"])
    join(bob.page, link, "Bob")
    for page in (alice.page, bob.page):
        page.wait_for_selector(".cq-hand .card")

    alice.page.fill("#chat-input", "<b>Salut</b> Bob")
    alice.page.click("#chat-form button[type=submit]")
    bob.page.wait_for_selector("#chat-log .chat-text >> text=<b>Salut</b> Bob")
    assert bob.page.locator("#chat-log b").count() == 0  # shown as text, never as HTML

    bob.page.click(".chat-reaction >> text=Bien joué !")
    alice.page.wait_for_selector("#chat-log .chat-line[data-who=s1] >> text=Bien joué !")
    shoot(bob.page, "table-chat")

    # Alice hides Bob for herself: gone from her page, still there after a reload
    alice.page.click(".chat-line[data-who=s1] .chat-hide")
    alice.page.wait_for_selector(".chat-line[data-who=s1]", state="detached")
    alice.page.reload()
    alice.page.wait_for_selector("#chat-log .chat-line[data-who=s0]")
    assert alice.page.locator(".chat-line[data-who=s1]").count() == 0
    alice.page.click("#chat-hidden .chat-unhide")
    alice.page.wait_for_selector(".chat-line[data-who=s1]")

    # the host takes the word from Bob: his field is disabled and the server refuses him
    alice.page.click(".chat-line[data-who=s1] .chat-silence")
    bob.page.wait_for_selector("#chat-input[disabled]")
    bob.page.evaluate("document.querySelector('.chat-reaction').click()")
    bob.page.wait_for_selector("#chat-note >> text=retiré la parole")
    assert alice.page.locator(".chat-line[data-who=s1]").count() == 1
    assert not alice.errors and not bob.errors
