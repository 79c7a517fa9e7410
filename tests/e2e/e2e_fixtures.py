"""End-to-end fixtures: a real server in a thread on a free port, Debian's Chromium.

Never `playwright install`: the tests drive /usr/bin/chromium and are skipped (with the
reason) when it is missing. Screenshots go to `screenshots/` (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from e2e_server import CHROMIUM, LiveServer, Player


@contextmanager
def serving(database: Path, **settings: Any) -> Iterator[LiveServer]:
    """A `LiveServer` on the SQLite file `database`, with these settings, for a block."""
    server = LiveServer(f"sqlite:///{database}", **settings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(name="live_server")
def live_server_fixture(tmp_path: Path) -> Iterator[LiveServer]:
    with serving(tmp_path / "e2e.sqlite3") as server:
        yield server


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[Any]:
    """One Chromium per test module (other modules start their own sync Playwright)."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing: end-to-end browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(name="players")
def players_fixture(browser: Any) -> Iterator[list[Player]]:
    made: list[Player] = []

    def factory(phone: bool = False) -> Player:
        player = Player(browser, phone)
        made.append(player)
        return player

    yield factory  # type: ignore[misc]
    for player in made:
        player.close()
