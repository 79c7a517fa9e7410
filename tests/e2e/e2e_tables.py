"""Helpers of the Cul de Chouette and Parlote browser tests: a live server in a thread,
Debian's Chromium, tables created and joined through the pages, screenshots.

Kept apart from the platform's own e2e fixtures so that both can evolve independently.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from choux.games.chouine import ChouineState
from choux.games.chouine.testing import arrange as arrange_chouine
from choux.play.settings import Settings
from choux.web.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def need_chromium() -> None:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("Chromium absent: apt-get install chromium")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    app: Any
    loop: asyncio.AbstractEventLoop

    @property
    def service(self) -> Any:
        return self.app.state.service

    def call(self, coro: Any, timeout: float = 10) -> Any:
        """Run a coroutine on the server's event loop (to peek at or steer a table)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)


@contextmanager
def live_server(tmp: Path, **overrides: Any) -> Iterator[LiveServer]:
    """Uvicorn on a free port in a background thread, with fast bots and short windows."""
    import uvicorn

    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp / 'e2e.sqlite3'}",
        "secret_key": "e2e-secret",
        "bot_pace": 0.15,
        "grace_seconds": 0.0,
        "heartbeat_seconds": 15.0,
        "limit_create": "",  # browser tests create many tables at once
        "max_open_tables_per_client": 0,  # and leave many waiting, all from 127.0.0.1
        "limit_join": "",
        "limit_messages": "",
        "restore_quiet_seconds": 1.0,  # bots wait a moment after a restart
        "deadline_scale": 0.3,
    }
    values.update(overrides)
    app = create_app(Settings(**values))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="auto")
    server = uvicorn.Server(config)
    holder: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        holder["loop"] = loop
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.serve())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.time() + 15
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app, holder["loop"])
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class QuickBot:
    """A table's bot whose human-like delays are shortened (tests only)."""

    def __init__(self, bot: Any, factor: float) -> None:
        self.bot = bot
        self.factor = factor

    def choose(self, state: Any, seat: int) -> Any:
        import dataclasses

        move = self.bot.choose(state, seat)
        return None if move is None else dataclasses.replace(move, delay=move.delay * self.factor)


def quicken_bots(server: LiveServer, invite: str, factor: float) -> None:
    """Scale the bots' delays at the table of `invite` by `factor` (below 1: a short game for
    the tests; above 1: slower bots); a second call replaces the first factor."""
    code = code_of(invite)

    async def wrap() -> None:
        table = server.service.tables[code]
        for seat, bot in list(table.bots.items()):
            if isinstance(bot, QuickBot):
                bot.factor = factor
            else:
                table.bots[seat] = QuickBot(bot, factor)

    server.call(wrap())


def create_table(
    page: Any,
    base: str,
    game: str,
    pseudo: str,
    players: int,
    seats: dict[int, str],
    options: dict[str, str] | None = None,
) -> str:
    """Fill the « créer une table » form; seats: {seat: "human" | "bot:<level>"}.
    Returns the invite link."""
    page.goto(f"{base}/nouvelle?jeu={game}")
    page.fill("input[name=pseudo]", pseudo)
    page.select_option("select[name=joueurs]", str(players))
    for name, value in (options or {}).items():
        field = page.locator(f"[name=opt_{name}]")
        tag = field.evaluate("n => n.tagName + ':' + (n.type || '')")
        if tag.startswith("SELECT"):
            field.select_option(value)
        elif tag.endswith("checkbox"):
            field.set_checked(value in ("on", "true", "1"))
        else:
            field.fill(value)
    for seat, value in seats.items():
        page.select_option(f"select[name=place_{seat}]", value)
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/t/*")
    return str(page.locator("#invite-link").input_value())


def join(page: Any, invite: str, pseudo: str, place: int | None = None) -> None:
    page.goto(invite)
    page.fill(".join-form input[name=pseudo]", pseudo)
    if place is not None:
        page.select_option(".join-form select[name=place]", str(place))
    page.click(".join-form button[type=submit]")
    page.wait_for_function("() => (document.querySelector('#table')?.dataset.seat ?? '') !== ''")


def plain(text: str) -> str:
    """Text as the tests write it: the pages set the space before « ; ! ? : » and inside
    guillemets non-breaking (dom.js `french`), the tests with an ordinary one."""
    return text.replace("\u202f", " ").replace("\u00a0", " ")


def current(page: Any) -> dict[str, Any]:
    """The table message the page last drew (its view, version, result...)."""
    return page.evaluate("() => window.chouxTable && window.chouxTable.current")  # type: ignore[no-any-return]


def shoot(page: Any, name: str, full_page: bool = False) -> None:
    """Screenshot of the page at its current size into screenshots/ (gitignored)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page, animations="disabled")


def shoot_sizes(page: Any, name: str) -> None:
    """The same state at phone and desktop sizes, then back to the page's own size."""
    size = page.viewport_size
    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(60)
        shoot(page, f"{name}-{label}")
    if size:
        page.set_viewport_size(size)


def code_of(link: str) -> str:
    """The table code in an invite link or a table page's address (a private table's link
    carries its key after `?cle=`)."""
    return link.split("?")[0].rstrip("/").rsplit("/", 1)[1]


def prepared_table(
    page: Any,
    server: Any,
    game: str,
    pseudo: str,
    players: int,
    options: dict[str, str] | None = None,
) -> str:
    """A table whose seats are all for people (the creator's taken, the others left free),
    to be steered with `put_state`; returns its code."""
    seats = {seat: "human" for seat in range(players)}
    invite = create_table(page, server.url, game, pseudo, players, seats, options)
    return code_of(invite)


def put_state(server: Any, code: str, state: Any) -> None:
    """Steer a live table to a prepared state (tests only) and push it to the pages."""

    async def swap() -> None:
        table = server.service.tables[code]
        async with table.lock:
            table.row.status = "live"
            table.state = state
            server.service._after_change(table)
            table.meta += 1
            table.wake_all()

    server.call(swap())


def watched_page(
    browser: Any, viewport: dict[str, int], errors: list[str] | None = None
) -> tuple[Any, list[str]]:
    """A page in its own context (a touch phone's when `viewport` is PHONE) whose script
    errors are collected into `errors` (a new list unless one is given)."""
    if viewport == PHONE:
        context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    else:
        context = browser.new_context(viewport=viewport)
    page = context.new_page()
    found: list[str] = [] if errors is None else errors
    page.on("pageerror", lambda e: found.append(str(e)))
    return page, found


def desktop_and_phone(browser: Any) -> tuple[Any, Any, list[str]]:
    """Two people: one on a laptop, one on a phone; page errors and dialogs are collected."""
    pa, errors = watched_page(browser, DESKTOP)
    pb, _ = watched_page(browser, PHONE, errors)
    for page in (pa, pb):  # a listener stops Playwright's auto-dismiss: none is expected
        page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    return pa, pb, errors


def on_screen_at_top(page: Any, selector: str, gone_ok: bool = False) -> list[list[float]]:
    """With the page scrolled to its top, every `selector` is inside the viewport, not covered
    by anything else (the tap lands on it), and at least 44 px tall and wide. `gone_ok`: in a
    live game the window may close first; then nothing is checked and [] is returned."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(80)  # the dock's room is set on the next frame
    size = page.viewport_size
    # one evaluation: a locator's nodes could be redrawn (detached) between two round trips
    boxes: list[list[float]] = page.evaluate(
        """selector => [...document.querySelectorAll(selector)].map(n => {
            const r = n.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return [r.left, r.top, r.width, r.height, hit && (hit === n || n.contains(hit)) ? 1 : 0];
        })""",
        selector,
    )
    if gone_ok and not boxes:
        return []
    assert boxes, selector
    for left, top, width, height, hit in boxes:
        assert left >= 0 and top >= 0, (selector, left, top)
        assert left + width <= size["width"] and top + height <= size["height"], (
            selector,
            size,
            boxes,
        )
        assert height >= 44 and width >= 44, (selector, width, height)
        assert hit, f"{selector} is covered"
    assert page.evaluate("window.scrollY") == 0
    return boxes


def chouine_in_hand() -> ChouineState:
    """The second partie of a one-manche match, Alice (seat 0) ahead 1–0 and leading with
    the king, queen, jack and ten of hearts in hand: declaring the Chouine ends the match."""
    state = arrange_chouine(2, hands=["KH QH JH TH 7C", "AS 8D 9D 8C 9C"], turned_up="7S", leader=0)
    state.partie_wins = [1, 0]
    state.total_partie_wins = [1, 0]
    state.decided = 1
    return state
