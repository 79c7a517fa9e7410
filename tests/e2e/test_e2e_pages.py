"""Every page at phone and desktop sizes, written to screenshots/ for a human to look at."""

from __future__ import annotations

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_server import shoot

from choux import games

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def test_screenshots_of_every_page(live_server, players) -> None:  # type: ignore[no-untyped-def]
    visitor = players()
    page = visitor.page
    page.goto(live_server.url + "/")
    assert page.locator(".game-tile").count() == 4
    shoot(page, "lobby")
    for name in games.names():
        page.goto(f"{live_server.url}/nouvelle?jeu={name}")
        shoot(page, f"new-table-{name}")
    for name in games.MODULES:
        response = page.goto(f"{live_server.url}/regles/{name}")
        if response is not None and response.status == 200:
            assert page.locator(".rule-card").count() >= 8
            shoot(page, f"rules-{name}")
            page.click("[data-mode=text]")
            assert page.locator(".rules.mode-text").count() == 1
            shoot(page, f"rules-{name}-text")
            page.click("[data-mode=cards]")
    page.goto(f"{live_server.url}/t/inconnue")
    assert "existe pas" in page.inner_text("main")
    shoot(page, "error-404")
    assert not visitor.errors, visitor.errors


def test_create_form_shows_only_the_chosen_number_of_seats(live_server, players) -> None:  # type: ignore[no-untyped-def]
    if "chouine" not in games.names():
        pytest.skip("chouine not registered")
    page = players(phone=True).page
    page.goto(f"{live_server.url}/nouvelle?jeu=chouine")
    page.select_option("select[name=joueurs]", "2")
    assert page.is_visible("[data-seat='1']") and not page.is_visible("[data-seat='2']")
    page.select_option("select[name=joueurs]", "4")
    assert page.is_visible("[data-seat='3']")
