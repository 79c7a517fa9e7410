"""Every 4xx/5xx is French (HTML for pages, JSON for the API), never a 500 for bad input,
and every response carries the security headers: pages, static files and errors."""

from __future__ import annotations

import html
from typing import Any

import pytest
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client

from choux.web.headers import CSP


def assert_secure(response: Any) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["content-security-policy"] == CSP


def test_the_site_connects_only_to_itself() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["connect-src"] == "'self'"


@pytest.mark.parametrize(
    "path",
    [
        "/parties/99999999999999999999999999",
        "/parties/4294967296",
        "/parties/abc",
        "/t/" + "x" * 300,
        "/parties/-1",
        "/classement/nimporte",
        "/nulle/part",
    ],
)
def test_bad_addresses_give_a_french_html_page_never_500(sqlite_url: str, path: str) -> None:
    with client(sqlite_url) as c:
        response = c.get(path)
    assert 400 <= response.status_code < 500, (path, response.status_code)
    assert response.headers["content-type"].startswith("text/html")
    assert "existe pas" in response.text or "invalide" in response.text
    assert "Field required" not in response.text and "detail" not in response.text
    assert_secure(response)


@pytest.mark.parametrize(
    "path", ["/parties/abc.json", "/parties/99999999999999999999.json", "/t/zzzz/etat.json"]
)
def test_bad_api_addresses_give_french_json(sqlite_url: str, path: str) -> None:
    with client(sqlite_url) as c:
        response = c.get(path)
    assert 400 <= response.status_code < 500
    body = response.json()
    assert set(body) == {"error"} and "existe pas" in body["error"]
    assert_secure(response)


def test_a_bad_place_in_the_replay_api_is_french_json(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        response = c.get("/parties/1/etapes.json?place=abc")
    assert response.status_code in (404, 422)
    assert "error" in response.json() and "detail" not in response.json()


def test_a_server_error_is_a_french_500_with_security_headers(sqlite_url: str) -> None:
    with client(sqlite_url, raise_server_exceptions=False) as c:

        async def broken(limit: int = 10) -> list[Any]:
            raise RuntimeError("boom")

        c.app.state.service.store.recent_records = broken
        response = c.get("/")
    assert response.status_code == 500
    assert "Erreur du serveur" in response.text and "boom" not in response.text
    assert_secure(response)


def test_static_files_and_error_pages_carry_security_headers(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        static = c.get("/static/js/table.js")
        missing = c.get("/static/nimporte.js")
        wrong_method = c.delete("/")
    assert static.status_code == 200
    assert_secure(static)
    assert missing.status_code == 404 and "existe pas" in missing.text
    assert_secure(missing)
    assert wrong_method.status_code == 405 and "ne s'ouvre pas directement" in html.unescape(
        wrong_method.text
    )
    assert_secure(wrong_method)


def test_a_database_away_is_a_french_503(sqlite_url: str) -> None:
    """And the answer ends the request: the error does not leave the app (the test client
    raises it if it does; uvicorn logged a traceback and cut the connection)."""
    from sqlalchemy.exc import OperationalError

    with client(sqlite_url) as c:

        async def away(limit: int = 10) -> list[Any]:
            raise OperationalError("select", {}, Exception("connection refused"))

        c.app.state.service.store.recent_records = away
        response = c.get("/")
    assert response.status_code == 503
    assert "momentanément indisponible" in response.text
    assert_secure(response)


async def test_a_client_that_hangs_up_mid_form_is_no_server_failure(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A form whose sender leaves before its body is read was logged as « failed » with two
    tracebacks (uvicorn's too, as the exception left the app): anyone could fill the log."""
    from webhelpers import settings

    from choux.web.app import create_app

    app = create_app(settings(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    async with app.router.lifespan_context(app):
        for path in ("/connexion", "/tables", "/compte/creer"):
            parts = [
                {"type": "http.request", "body": b"csrf=abc", "more_body": True},
                {"type": "http.disconnect"},
            ]

            sent: list[dict[str, Any]] = []

            async def receive(parts: list[dict[str, Any]] = parts) -> dict[str, Any]:
                return parts.pop(0) if parts else {"type": "http.disconnect"}

            async def send(message: dict[str, Any], sent: list[dict[str, Any]] = sent) -> None:
                sent.append(message)

            scope = {
                "type": "http",
                "asgi": {"version": "3.0"},
                "http_version": "1.1",
                "method": "POST",
                "scheme": "http",
                "path": path,
                "raw_path": path.encode(),
                "query_string": b"",
                "root_path": "",
                "headers": [
                    (b"host", b"t"),
                    (b"content-type", b"application/x-www-form-urlencoded"),
                    (b"content-length", b"500"),
                ],
                "client": ("127.0.0.1", 5000),
                "server": ("t", 80),
            }
            with caplog.at_level("INFO"):
                await app(scope, receive, send)  # raises nothing
            starts = [m for m in sent if m["type"] == "http.response.start"]
            assert starts and starts[0]["status"] != 500, (path, starts)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not any(r.exc_info for r in caplog.records)
