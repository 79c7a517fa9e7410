"""Messages are serialized once per version and shared only by sockets that see the same."""

from __future__ import annotations

import json

from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import settings

from choux.play.service import SeatSpec, TableService
from choux.play.store import Store
from choux.play.tables import Subscriber


async def test_spectators_share_one_text_and_each_seat_gets_its_own(
    sqlite_url: str, course: str
) -> None:
    store = Store(sqlite_url)
    await store.open()
    try:
        service = TableService(settings(sqlite_url), store)
        table, _ = await service.create(
            course, 2, {}, [SeatSpec("human"), SeatSpec("human")], creator="Alice"
        )
        await service.join(table, None, "Bob")  # the game starts: each seat sees its card
        assert table.status == "live"
        watchers = [Subscriber(None), Subscriber(None)]
        seats = [Subscriber(0), Subscriber(1)]
        first, second = (table.message_text(w, full=True) for w in watchers)
        assert first is second  # built and serialized once
        assert json.loads(first) == table.message(Subscriber(None), full=True)
        assert all(w.sent_version == table.version for w in watchers)
        assert all(w.sent_log == len(table.log) for w in watchers)
        texts = [json.loads(table.message_text(s, full=True)) for s in seats]
        assert [t["seat"] for t in texts] == [0, 1]
        assert texts[0]["view"] == table.state.view(0)
        assert texts[1]["view"] == table.state.view(1)
        table.meta += 1  # a join, a presence change: the cached texts are stale
        table.row.seats[1].name = "Zoé"
        again = json.loads(table.message_text(watchers[0], full=True))
        assert again["seats"][1]["name"] == "Zoé"
        await service.stop()
    finally:
        await store.close()
