"""Clients that hang up while their socket opens (a page left while it connected, a
script): the server says nothing about them. Each one logged uvicorn's « Exception in ASGI
application » traceback (5 KB: anyone could fill the log), mislabelled « database
unavailable »."""

from __future__ import annotations

import base64
import logging
import os
import socket
import time

import pytest
from e2e_fixtures import live_server_fixture  # noqa: F401 (fixture)
from e2e_server import LiveServer

pytestmark = [pytest.mark.e2e]


def hang_up(port: int, path: str) -> None:
    """Ask for a WebSocket on `path`, then close the connection without reading."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.sendall(request.encode())


def test_a_client_that_hangs_up_while_its_socket_opens_leaves_no_traceback(
    live_server: LiveServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for _ in range(20):
        hang_up(live_server.port, "/t/nexistepas/ws")
    time.sleep(1.0)
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud][:3]
