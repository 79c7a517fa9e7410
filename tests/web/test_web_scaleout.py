"""Several server processes on one PostgreSQL database, told of changes through Redis."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from scaleout_helpers import redis_server
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import (
    client,
    create_table,
    join,
    other,
    postgres_problem,
    postgres_schema,
    receive_state,
    wait_for,
)

from choux.engine.base import NotYourTurn


@contextlib.contextmanager
def two_processes() -> Iterator[tuple[Any, Any]]:
    """Two servers on one PostgreSQL schema, told of each other's changes by a private
    Redis (skipped without PostgreSQL)."""
    problem = postgres_problem()
    if problem:
        pytest.skip(problem)
    with (
        redis_server() as redis_url,
        postgres_schema() as db,
        client(db, redis_url=redis_url) as a,
        client(db, redis_url=redis_url) as b,
    ):
        yield a, b


@pytest.mark.postgres
def test_two_processes_serve_the_same_table(course: str) -> None:
    with two_processes() as (a, b):
        code = create_table(a, course, ["human", "human"], "Alice")
        assert join(b, code, "Bob").status_code == 303  # on the other process
        table_a = a.app.state.service.tables[code]
        table_b = b.app.state.service.tables[code]
        wait_for(lambda: table_a.status == "live")
        service_a, service_b = a.app.state.service, b.app.state.service
        a.portal.call(service_a.act, table_a, 0, {"type": "add", "n": 2}, "a1")
        wait_for(lambda: table_b.version == 1)
        b.portal.call(service_b.act, table_b, 1, {"type": "add", "n": 1}, "b1")
        wait_for(lambda: table_a.version == 2)
        assert table_a.state.total == table_b.state.total == 3
        assert [s.name for s in table_a.seats] == ["Alice", "Bob"]


def test_a_write_by_another_process_is_caught_up_then_the_action_rechecked(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        join(other(c), code, "Bob")
        service = c.app.state.service
        table = service.tables[code]
        store = service.store
        # "another process" appends Alice's move behind this one's back
        c.portal.call(store.append_action, table.row.id, 1, 0, {"type": "add", "n": 1}, "x")
        assert table.version == 0
        with pytest.raises(NotYourTurn):  # checked again against the newer state
            c.portal.call(service.act, table, 0, {"type": "add", "n": 2}, "y")
        assert table.version == 1 and table.state.total == 1
        c.portal.call(service.act, table, 1, {"type": "add", "n": 2}, "z")
        assert table.version == 2 and table.state.total == 3


@pytest.mark.postgres
def test_an_open_table_made_on_one_process_is_in_the_lobby_of_the_other(course: str) -> None:
    """Each process loads the open tables at start; one made elsewhere afterwards was
    missing from its lobby (half the visitors behind the proxy never saw it) until it
    restarted."""
    with two_processes() as (a, b):
        code = create_table(a, course, ["human", "human"], "Alice")
        assert f"/t/{code}" in a.get("/").text
        assert f"/t/{code}" in b.get("/").text
        assert join(b, code, "Bob").status_code == 303  # and it can be joined from there
        wait_for(lambda: a.app.state.service.tables[code].status == "live")


@pytest.mark.postgres
@pytest.mark.parametrize("how", ["partout", "ici"])
def test_a_session_closed_on_one_process_closes_its_socket_on_the_other(
    course: str, how: str
) -> None:
    """The phone's socket was held by the other process: closing its session (« déconnecter
    tous mes appareils » on the laptop, or « se déconnecter » on the phone, answered by the
    first process) left it playing the seat until it reconnected. The closing process now
    tells the others through Redis."""
    from starlette.websockets import WebSocketDisconnect
    from test_web_accounts import login, post, signup

    with two_processes() as (a, b):
        assert signup(a, "Germaine").status_code == 303
        code = create_table(a, course, ["human", "human"], "Germaine")
        phone_on_a = other(a)
        assert login(phone_on_a, "Germaine").status_code == 303
        phone_on_b = other(b)
        phone_on_b.cookies = phone_on_a.cookies  # one device, its requests on either process
        with phone_on_b.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] == 0
            (held,) = b.app.state.session_sockets.by_player.values()
            (conn,) = held
            closer = a if how == "partout" else phone_on_a
            path = "/deconnexion-partout" if how == "partout" else "/deconnexion"
            assert post(closer, path).status_code == 303
            wait_for(lambda: conn.closed)  # closed there (the test fails here, not hangs)
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 4401
