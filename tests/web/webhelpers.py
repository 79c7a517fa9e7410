"""Helpers shared by the web tests: databases, clients, forms."""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from choux.play.settings import Settings
from choux.web.app import create_app

PG_BASE = os.environ.get("CHOUX_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def wait_for(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    """Poll `predicate` until it holds (AssertionError after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError("condition never became true")


def postgres_problem() -> str | None:
    """None if PostgreSQL answers, else why the PostgreSQL tests are skipped."""
    try:
        import psycopg

        with psycopg.connect(PG_BASE, connect_timeout=2) as conn:
            conn.execute("select 1")
    except Exception as error:
        return f"PostgreSQL unreachable at {PG_BASE} ({error.__class__.__name__}): skipped"
    return None


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema for one test, dropped afterwards; yields the database URL."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_BASE, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_BASE, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")


@contextlib.contextmanager
def postgres_or_skip() -> Iterator[str]:
    """A fresh PostgreSQL schema for one test, or skip it with the reason."""
    problem = postgres_problem()
    if problem:
        import pytest

        pytest.skip(problem)
    with postgres_schema() as url:
        yield url


def settings(url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": url,
        "secret_key": "test-secret",
        "bot_pace": 0.0,
        "grace_seconds": 0.0,
        "heartbeat_seconds": 15.0,
        "deadline_scale": 0.02,
        # tests play as fast as they can: no rate limits unless a test sets them
        "limit_create": "",
        "limit_join": "",
        "limit_messages": "",
        "limit_replay": "",
        "restore_quiet_seconds": 0.0,
        "turn_mail_grace_seconds": 0.0,
    }
    values.update(overrides)
    return Settings(**values)


def client(url: str, raise_server_exceptions: bool = True, **overrides: Any) -> TestClient:
    app = create_app(settings(url, **overrides))
    return TestClient(app, raise_server_exceptions=raise_server_exceptions)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


def create_table(
    c: TestClient,
    game: str,
    seats: list[str],
    name: str | None = "Alice",
    options: dict[str, str] | None = None,
    clock: int = 0,
) -> str:
    """Create a table through the form; returns its code."""
    page = c.get(f"/nouvelle?jeu={game}")
    assert page.status_code == 200
    data = {
        "csrf": csrf_of(page.text),
        "jeu": game,
        "joueurs": str(len(seats)),
        "pendule": str(clock),
    }
    if name is not None:
        data["pseudo"] = name
    for index, seat in enumerate(seats):
        data[f"place_{index}"] = seat
    for key, value in (options or {}).items():
        data[f"opt_{key}"] = value
    response = c.post("/tables", data=data, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"]).rsplit("/", 1)[1]


def join(c: TestClient, code: str, name: str, seat: int | None = None) -> Any:
    page = c.get(f"/t/{code}")
    data = {"csrf": csrf_of(page.text), "pseudo": name}
    if seat is not None:
        data["place"] = str(seat)
    return c.post(f"/t/{code}/rejoindre", data=data, follow_redirects=False)


def receive_state(ws: Any, limit: int = 200) -> dict[str, Any]:
    """The next "state" message (skipping acks and pings)."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "state":
            return dict(message)
    raise AssertionError("no state message")


def play_to_end(ws: Any, seat_message: dict[str, Any] | None = None, limit: int = 5000) -> dict:
    """Answer every state with the first legal action until the result arrives."""
    message = seat_message or receive_state(ws)
    sent = 0
    for _ in range(limit):
        if message.get("type") == "state":
            if message["result"] is not None:
                return message
            legal = message["view"].get("legal") or []
            if legal and message["status"] == "live":
                ws.send_json({"type": "action", "id": f"x{sent}", "action": legal[0]["action"]})
                sent += 1
        message = ws.receive_json()
    raise AssertionError("the game did not end")


def receive_version(ws: Any, version: int, limit: int = 200) -> dict[str, Any]:
    """The first state message at `version` or later (presence updates come in between)."""
    for _ in range(limit):
        message = receive_state(ws)
        if message["version"] >= version:
            return message
    raise AssertionError(f"version {version} never arrived")


def other(c: TestClient) -> TestClient:
    """A second visitor (own cookies) on the same running app and event loop."""
    visitor = TestClient(c.app)
    visitor.portal = c.portal
    return visitor


def alice_and_bob(alice: TestClient, course: str) -> tuple[str, TestClient]:
    """A two-person table (course `course`) created by Alice, Bob seated from his own client:
    the code and Bob's client."""
    code = create_table(alice, course, ["human", "human"], "Alice")
    bob = other(alice)
    join(bob, code, "Bob")
    return code, bob


def page_log(html_text: str) -> list[str]:
    """The journal lines a table page was rendered with (its initial state's log)."""
    blob = re.search(
        r'<script type="application/json" id="initial-state">(.*?)</script>', html_text
    )
    assert blob, "no initial state in the page"
    return [line["text"] for line in json.loads(blob.group(1))["log"]]
