"""Steps shared by the end-to-end tests: create a table, join it, click through a game."""

from __future__ import annotations

import time
from typing import Any


def create_table(
    page: Any,
    base: str,
    game: str,
    name: str,
    seats: list[str],
    options: dict[str, str] | None = None,
) -> str:
    """Fill the creation form; returns the invite link shown on the table page."""
    page.goto(f"{base}/nouvelle?jeu={game}")
    page.fill("input[name=pseudo]", name)
    page.select_option("select[name=joueurs]", str(len(seats)))
    for index, seat in enumerate(seats):
        page.select_option(f"select[name=place_{index}]", seat)
    for key, value in (options or {}).items():
        page.select_option(f"select[name=opt_{key}]", value)
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#invite-link", state="attached")  # folded under « Inviter » once live
    return str(page.input_value("#invite-link"))


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.fill(".join-form input[name=pseudo]", name)
    page.click(".join-form button[type=submit]")
    page.wait_for_selector("#status-line")


def over(page: Any) -> bool:
    try:
        return bool(page.is_visible("#result"))
    except Exception:
        return False


def click_first(page: Any, selector: str) -> bool:
    locator = page.locator(selector)
    try:
        if locator.count() == 0:
            return False
        locator.first.click(timeout=1500)
        return True
    except Exception:  # re-rendered under our feet: try again next round
        return False


def chouine_move(page: Any) -> bool:
    """Play one move if it is our turn: sometimes a declaration, else the first card."""
    if click_first(page, "#actions .button.action"):
        return True
    return click_first(page, ".cq-hand button.card.playable")


def chouineurs_move(page: Any) -> bool:
    if page.locator(".cx-confirm").count():
        click_first(page, ".cx-betcard")
        return click_first(page, ".cx-confirm:not([disabled])")
    if click_first(page, ".cx-hand button.dcard.playable"):
        return True
    return click_first(page, "#actions .button.action")


def play_until(pages: list[Any], move: Any, stop: Any, timeout: float = 120.0) -> None:
    """Each page plays whenever it can until `stop()` is true."""
    deadline = time.monotonic() + timeout
    while not stop():
        if time.monotonic() > deadline:
            raise AssertionError("the game did not reach the expected point in time")
        moved = False
        for page in pages:
            moved = move(page) or moved
        if not moved:
            pages[0].wait_for_timeout(60)


def hand_codes(page: Any, selector: str = ".cq-hand .card") -> list[str]:
    return [
        str(c) for c in page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")
    ]


def version(page: Any) -> int:
    return int(page.evaluate("window.chouxTable.current.version"))
