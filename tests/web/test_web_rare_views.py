"""La parlote's large, seldom changing view parts (the recap, the « mémo ») are sent to a
socket only when they changed since its last message: every page still ends up with exactly
the view the server would send in full, whatever messages it skipped."""

from __future__ import annotations

import json
import random
from typing import Any

from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import settings

from choux.engine.playout import random_step
from choux.games.parlote.state import ParloteState
from choux.play.service import SeatSpec, TableService
from choux.play.store import Store
from choux.play.tables import LiveTable, Subscriber

RARE = ("recap", "results", "colours", "memo")


class Page:
    """What net.js's SeatChannel keeps: the last message, rare parts merged back in."""

    def __init__(self, table: LiveTable, seat: int | None) -> None:
        self.table, self.sub = table, Subscriber(seat)
        self.current: dict[str, Any] = json.loads(table.message_text(self.sub, full=True))
        self.left_out: list[int] = []  # bytes saved, message by message

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.table.message_text(self.sub))
        kept = message.get("kept", [])
        if kept:
            assert message["kept_from"] == self.current["build"]
            assert not set(kept) & set(message["view"])
            for key in kept:
                message["view"][key] = self.current["view"][key]
            self.left_out.append(sum(len(json.dumps(message["view"][k])) for k in kept))
        self.current = message
        return message


def step(table: LiveTable, policy: random.Random) -> None:
    """One random move, as the server makes it: the state changes, the version goes up."""
    assert random_step(table.state, policy)
    table.version += 1


def expected_view(table: LiveTable, seat: int | None) -> dict[str, Any]:
    return json.loads(json.dumps(table.state.view(table.viewer(seat))))


async def test_rare_parts_are_sent_once_and_every_page_keeps_the_full_view(
    sqlite_url: str,
) -> None:
    store = Store(sqlite_url)
    await store.open()
    try:
        service = TableService(settings(sqlite_url), store)
        table, _ = await service.create("parlote", 4, {}, [SeatSpec("bot", "random")] * 4)
        assert isinstance(table.state, ParloteState)
        pages = [Page(table, seat) for seat in (0, 1, None)]
        lagging = Page(table, 2)  # a slow phone: reads one version in five
        assert all(set(RARE) <= set(p.current["view"]) for p in pages)  # full: everything
        policy = random.Random(5)
        deals = 0
        sent_again = 0
        for version in range(1, 400):
            before = table.state.recap
            step(table, policy)
            recap_changed = table.state.recap != before
            deals += recap_changed
            readers = [*pages, lagging] if version % 5 == 0 else pages
            for page in readers:
                message = page.receive()
                assert message["view"] == expected_view(table, page.sub.seat), version
                if recap_changed and page is not lagging:
                    assert "recap" not in message.get("kept", []), version
                    sent_again += 1
            if deals >= 2 or table.state.is_over():
                break
        assert deals >= 2 and sent_again >= 2 * len(pages)
        # most messages left the rare parts out, and they are most of a message
        assert sum(1 for n in pages[0].left_out if n > 8000) > 0.9 * version
        # a state replaced at the same version (a resync, a test's prepared state) is sent
        table.state = table.game.create(4, 99, table.row.options)
        table.meta += 1
        for page in pages:
            message = page.receive()
            assert message["view"] == expected_view(table, page.sub.seat)
        # a page that skipped a message is told where the rare parts come from, and a page
        # whose held message is not that one asks for everything again (net.js)
        step(table, policy)
        message = json.loads(table.message_text(lagging.sub))
        assert message.get("kept_from") == lagging.current["build"]
        await service.stop()
    finally:
        await store.close()
