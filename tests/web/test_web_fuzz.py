"""Fuzzing the public surface: more than 10,000 random and mutated WebSocket frames and
HTTP requests. No 5xx, no socket dropped without a close code, no traceback in the log.

Each hypothesis example sends a whole batch (many frames on one socket, many requests),
so the run stays short."""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, csrf_of, receive_state

WS_EXAMPLES, WS_FRAMES = 60, 120  # 7,200 frames
HTTP_EXAMPLES, HTTP_REQUESTS = 50, 60  # 3,000 requests

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, legal: list[dict[str, Any]]) -> str:
    """A valid-looking client message with some of its parts broken."""
    base: dict[str, Any] = draw(
        st.sampled_from(
            [
                {"type": "action", "id": "a", "action": legal[0] if legal else {"type": "play"}},
                {"type": "sync"},
                {"type": "ping"},
                {"type": "pong"},
            ]
        )
    )
    message = dict(base)
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(["type", "id", "action", "extra"]))
        if draw(st.booleans()):
            message[key] = draw(json_values)
        else:
            message.pop(key, None)
    if isinstance(message.get("action"), dict) and draw(st.booleans()):
        inner = dict(message["action"])
        inner[draw(st.sampled_from([*inner, "card", "seat", "n"]))] = draw(json_values)
        message["action"] = inner
    return json.dumps(message)


def frames(legal: list[dict[str, Any]]) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        mutated(legal),
        json_values.map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=64),
        st.integers(1, 1800).map(lambda n: "[" * n + "]" * n),
    )


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not bad, bad[0].getMessage()


def test_random_and_mutated_socket_frames_never_drop_the_socket(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    with client(sqlite_url, bot_pace=0.0) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        sent = 0

        @settings(
            max_examples=WS_EXAMPLES,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.data())
        def batch(data: st.DataObject) -> None:
            nonlocal sent
            with c.websocket_connect(f"/t/{code}/ws") as ws:
                state = receive_state(ws)
                legal = [entry["action"] for entry in state["view"].get("legal") or []]
                for _ in range(WS_FRAMES):
                    frame = data.draw(frames(legal))
                    if isinstance(frame, bytes):
                        ws.send_bytes(frame)
                    else:
                        ws.send_text(frame)
                    sent += 1
                ws.send_text('{"type":"ping"}')  # still there, answering in order
                try:
                    for _ in range(100 * WS_FRAMES):
                        if ws.receive_json()["type"] == "pong":
                            break
                    else:
                        raise AssertionError("no pong after the batch")
                except WebSocketDisconnect as closed:  # a close is fine only with a code
                    assert closed.code not in (1006, 1011), closed

        batch()
    assert sent >= WS_EXAMPLES * WS_FRAMES
    no_tracebacks(caplog)


paths = st.one_of(
    st.sampled_from(
        [
            "/",
            "/nouvelle",
            "/tables",
            "/t/{code}",
            "/t/{code}/etat.json",
            "/t/{code}/rejoindre",
            "/t/{code}/ajouter",
            "/t/{code}/rejouer",
            "/t/{code}/remplacer",
            "/regles/chouine",
            "/classement/chouine",
            "/parties/{n}",
            "/parties/{n}.json",
            "/parties/{n}/etapes.json",
            "/static/{s}",
            "/healthz",
        ]
    ),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=30).map(lambda t: "/" + t),
)


@st.composite
def requests(draw: st.DrawFn, code: str) -> tuple[str, str, dict[str, str], dict[str, str]]:
    template = draw(paths)
    noise = draw(st.text(max_size=30) | st.integers(-(2**80), 2**80).map(str))
    path = template.replace("{code}", draw(st.sampled_from([code, noise, "x" * 40])))
    path = path.replace("{n}", noise).replace("{s}", noise)
    method = draw(st.sampled_from(["GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE"]))
    keys = st.sampled_from(
        [
            "csrf",
            "jeu",
            "joueurs",
            "pendule",
            "pseudo",
            "place",
            "place_0",
            "place_1",
            "opt_manches",
            "jeu[]",
            "place_9",
        ]
    )
    form = draw(st.dictionaries(keys, st.text(max_size=20), max_size=6))
    query = draw(
        st.dictionaries(
            st.sampled_from(["jeu", "place", "seat", "x"]), st.text(max_size=10), max_size=2
        )
    )
    return method, path, form, query


def test_random_http_requests_never_give_a_5xx(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    with client(sqlite_url, raise_server_exceptions=False) as c:
        code = create_table(c, "chouine", ["human", "human"])
        token = csrf_of(c.get("/nouvelle").text)
        sent = 0

        @settings(
            max_examples=HTTP_EXAMPLES,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.data())
        def batch(data: st.DataObject) -> None:
            nonlocal sent
            for _ in range(HTTP_REQUESTS):
                method, path, form, query = data.draw(requests(code))
                if method == "POST" and data.draw(st.booleans()):  # with the right CSRF token
                    form["csrf"] = token
                path = quote(path, safe="/%?=&")
                response = c.request(
                    method, path, data=form or None, params=query, follow_redirects=False
                )
                sent += 1
                assert response.status_code < 500, (method, path, form, response.text[:200])

        batch()
    assert sent >= HTTP_EXAMPLES * HTTP_REQUESTS
    no_tracebacks(caplog)
