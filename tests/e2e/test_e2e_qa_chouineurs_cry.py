"""QA regression: when you must cry (Chouineurs), the trick that made you cry stays on the
felt and the prompt speaks to you; the token reserve is named."""

from __future__ import annotations

import time

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import create_table, over

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def my_cry(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(
        page.evaluate(
            "(() => { const v = window.chouxTable.current.view;"
            " return !!v.crybaby && v.crybaby.seat === 0 && v.legal.length > 0; })()"
        )
    )


def safe_move(page) -> bool:  # type: ignore[no-untyped-def]
    """Choose, or play the first legal card, straight through the table's `act`: a click
    racing a redraw could land on a card to turn and answer the crying prompt itself."""
    return bool(
        page.evaluate(
            "(() => { const t = window.chouxTable; const v = t.current.view;"
            " if (document.getElementById('table').classList.contains('busy')) return false;"
            " const a = (v.legal || []).find(l => l.action.type === 'prepare' || l.action.type === 'play');"
            " if (!a) return false; t.act(a.action); return true; })()"
        )
    )


def test_the_crybaby_sees_the_trick_that_made_them_cry(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice = players(phone=True)
    page = alice.page
    create_table(
        page, live_server.url, "chouineurs", "Alice", ["human", "bot:greedy", "bot:greedy"]
    )
    page.wait_for_selector(".cx-hand .dcard")
    assert "jetons en réserve" in page.inner_text(".cx-info")
    deadline = time.monotonic() + 45
    while not my_cry(page):
        if over(page) or time.monotonic() > deadline:
            pytest.skip("Alice never had to cry in this deal")
        if not safe_move(page):
            page.wait_for_timeout(60)
    page.wait_for_selector(".cx-cry", state="attached")
    assert not alice.errors, alice.errors
    assert "Vous pleurez" in page.inner_text(".cx-cry")
    assert "Dernier pli" in page.inner_text(".cx-felt")
    assert page.locator(".cx-felt .cx-played").count() == 3
    assert page.locator(".cx-felt .cx-played.cry").count() >= 1
    assert "Le pli est vide" not in page.inner_text(".cx-felt")
    assert not alice.errors, alice.errors
