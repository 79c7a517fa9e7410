"""The cookie and rate-limit middlewares leave no reference cycles behind a request.

A server that freezes its live set keeps cyclic garbage until its next full collection,
whose pause grows with it (issue 17): a request must be freed by reference counts alone.
"""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from webhelpers import settings

from choux.web.app import create_app
from choux.web.middleware import TRANSPORT
from choux.web.ws import cut_if_unread

#: what a cancelled task group leaves in a cycle (the former `@app.middleware` functions)
TASK_LEFTOVERS = {"CancelScope", "TaskGroup", "TaskState", "CancelledError", "Task"}


@pytest.fixture
def saved_garbage() -> Iterator[list[object]]:
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()


async def test_pages_and_forms_leave_no_task_cycles(
    tmp_path: Path, saved_garbage: list[object]
) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    app = create_app(settings(url, max_open_tables_per_client=0))  # ten tables wait here
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            page = await client.get("/nouvelle?jeu=chouine")
            match = re.search(r'name="csrf-token" content="([^"]+)"', page.text)
            assert match is not None
            form = {"csrf": match.group(1), "jeu": "chouine", "joueurs": "2", "pseudo": "Zoé"}
            form |= {"pendule": "0", "place_0": "human", "place_1": "human"}
            gc.collect()
            saved_garbage.clear()
            for _ in range(10):
                assert (await client.get("/nouvelle?jeu=chouine")).status_code == 200
                created = await client.post("/tables", data=form)
                assert created.status_code == 303, created.text[:300]
            gc.collect()
    kinds = Counter(type(o).__name__ for o in saved_garbage)
    assert not {kind: n for kind, n in kinds.items() if kind in TASK_LEFTOVERS}


def test_a_seats_answers_are_private_to_its_browser_and_static_files_are_shared(
    tmp_path: Path,
) -> None:
    """`/t/<code>` and its `etat.json` hold the seat's hand: a cache an operator puts in
    front of the server must never keep them for someone else (found by an audit)."""
    from webhelpers import client, create_table

    with client(f"sqlite:///{tmp_path / 'db.sqlite3'}") as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice")
        answers = [c.get(f"/t/{code}"), c.get(f"/t/{code}/etat.json"), c.get("/")]
        static = c.get("/static/css/choux.css")
    for answer in answers:
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "private, no-cache"
        assert "cookie" in answer.headers["vary"].lower()
    assert answers[1].json()["view"]["hand"]  # the answer kept private does hold a hand
    assert static.headers["cache-control"].startswith("public, max-age=")


class FakeTransport:
    """What `ws.cut_if_unread` reads of a transport: its unsent bytes, and abort."""

    def __init__(self, unsent: int) -> None:
        self.unsent = unsent
        self.aborted = False

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def abort(self) -> None:
        self.aborted = True


class FakeSocket:
    def __init__(self, transport: FakeTransport | None) -> None:
        self.scope = {} if transport is None else {TRANSPORT: transport}


def test_a_closed_socket_is_cut_only_if_its_client_left_bytes_unread() -> None:
    """After a close, uvicorn's transport close waits for the buffer to be taken: against a
    client that reads nothing, for ever. `cut_if_unread` aborts only such a connection."""
    stuck, clean = FakeTransport(5), FakeTransport(0)
    cut_if_unread(FakeSocket(stuck))  # type: ignore[arg-type]
    cut_if_unread(FakeSocket(clean))  # type: ignore[arg-type]
    cut_if_unread(FakeSocket(None))  # type: ignore[arg-type]  # the test client: nothing
    assert stuck.aborted and not clean.aborted
