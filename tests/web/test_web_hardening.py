"""Small attacks: nested JSON on the socket, `Secure` cookies behind HTTPS and a trusted
proxy, and a full disk refused in French on the socket itself."""

from __future__ import annotations

from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, receive_state, settings

from choux.web.app import create_app


def test_deeply_nested_json_is_refused_in_french_and_the_socket_kept(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            deep = "[" * 1500 + "]" * 1500
            for frame in (
                "[" * 2000 + "]" * 2000,
                '{"type":"action","id":"d","action":' + deep + "}",
            ):
                assert len(frame) < 4096
                ws.send_text(frame)
                reply = ws.receive_json()
                while reply["type"] != "refused":
                    reply = ws.receive_json()
                assert reply["message"] in ("Message illisible.", "Message inconnu.")
            nested = {"type": "action", "id": "n1", "action": {"x": [[[[[[[[1]]]]]]]]}}
            ws.send_json(nested)
            reply = ws.receive_json()
            while reply["type"] not in ("refused", "ack"):
                reply = ws.receive_json()
            assert reply["type"] == "refused"
            ws.send_json({"type": ["action"]})  # an unhashable type
            reply = ws.receive_json()
            while reply["type"] != "refused":
                reply = ws.receive_json()
            assert reply["message"] == "Message inconnu."
            ws.send_json({"type": "ping"})  # still open and answering
            reply = ws.receive_json()
            while reply["type"] != "pong":
                reply = ws.receive_json()


def cookie_of(response) -> str:  # type: ignore[no-untyped-def]
    return str(response.headers.get("set-cookie", ""))


def test_cookies_are_secure_over_https_only(sqlite_url: str) -> None:
    with TestClient(create_app(settings(sqlite_url)), base_url="https://testserver") as c:
        secure = cookie_of(c.get("/"))
    with client(sqlite_url) as c:
        plain = cookie_of(c.get("/"))
    assert "choux=" in secure and "Secure" in secure and "HttpOnly" in secure
    assert "choux=" in plain and "Secure" not in plain


def test_cookies_can_be_forced_secure(sqlite_url: str) -> None:
    with client(sqlite_url, secure_cookies="always") as c:
        assert "Secure" in cookie_of(c.get("/"))


def test_the_forwarded_protocol_is_believed_only_from_a_trusted_proxy(sqlite_url: str) -> None:
    app = create_app(settings(sqlite_url))
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="testclient")) as c:  # type: ignore[arg-type]
        trusted = c.get("/", headers=https)
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="127.0.0.1")) as c:  # type: ignore[arg-type]
        untrusted = c.get("/", headers=https)
    assert "Secure" in cookie_of(trusted)
    assert "strict-transport-security" in trusted.headers
    assert "Secure" not in cookie_of(untrusted)


def test_a_socket_the_store_cannot_serve_is_closed_with_a_code(sqlite_url: str) -> None:
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        service = c.app.state.service

        async def away(code: str) -> None:
            raise OSError("database away")

        service.get = away
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            c.websocket_connect(f"/t/{code}/ws") as ws,
        ):
            ws.receive_json()
    assert closed.value.code == 1011
