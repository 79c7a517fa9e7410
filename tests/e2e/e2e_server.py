"""End-to-end helpers: a real server in a thread on a free port, browser players, shots.

Never `playwright install`: the tests drive /usr/bin/chromium and are skipped (with the
reason) when it is missing. Screenshots go to `screenshots/` (gitignored).
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from choux.play.settings import Settings
from choux.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveServer:
    """Uvicorn in a background thread; `restart()` stops it and starts a fresh process
    state (new app, same database, same port), like a server restart."""

    def __init__(self, database_url: str, **settings: Any) -> None:
        self.database_url = database_url
        self.settings = settings
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        values: dict[str, Any] = {
            "database_url": self.database_url,
            "bot_pace": 0.05,
            "grace_seconds": 0.0,
            "deadline_scale": 0.1,
            "heartbeat_seconds": 5.0,
            "limit_create": "",  # browser tests create many tables at once
            "limit_join": "",
            "limit_messages": "",
            "restore_quiet_seconds": 1.0,  # bots wait a moment after a restart
        }
        values.update(self.settings)
        self.app = create_app(Settings(**values))
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=65536
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(timeout=15)
            self.server = None

    def restart(self) -> None:
        self.stop()
        self.start()


class Player:
    """One person in their own browser context; page errors are collected."""

    def __init__(self, browser: Any, phone: bool = False) -> None:
        self.context = browser.new_context(viewport=PHONE if phone else DESKTOP)
        self.errors: list[str] = []
        self.page = self.open()

    def open(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(10_000)
        return page

    def reopen(self, url: str) -> Any:
        self.page.close()
        self.page = self.open()
        self.page.goto(url)
        return self.page

    def close(self) -> None:
        self.context.close()


def shoot(page: Any, name: str) -> None:
    """Screenshots of the current page at phone and desktop sizes."""
    SCREENSHOTS.mkdir(exist_ok=True)
    original = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.wait_for_timeout(120)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"), full_page=True)
    if original:
        page.set_viewport_size(original)
