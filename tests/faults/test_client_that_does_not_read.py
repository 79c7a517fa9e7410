"""A client that stops reading is cut off, and its seat shown absent.

A phone that leaves the network without a word, or a hostile client that asks for views
and never reads them: once the server's buffers for it are full, every send to it waits.
Before, that wait had no end (TCP retries for a quarter of an hour, and for ever against a
zero window): the socket's close waited behind it too, the seat stayed « connected », no
robot took it, its buffers stayed held. Here a real server, a real TCP socket with a tiny
receive window, and full views asked for a hundred times a second."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from pathlib import Path

import httpx
from serverhelpers import Player, Server


def masked_text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (clients must mask)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def open_unread_socket(player: Player) -> socket.socket:
    """The seat's WebSocket, opened by hand over a socket that will never be read again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connect: the window
    sock.connect(("127.0.0.1", player.server.port))
    cookie = "; ".join(f"{k}={v}" for k, v in player.http.cookies.items())
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /t/{player.code}/ws HTTP/1.1\r\nHost: 127.0.0.1:{player.server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        ).encode()
    )
    answer = sock.recv(1024)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.settimeout(5)  # a server that stops reading it too fails the test, not hangs it
    return sock


def seat_connected(player: Player, seat: int) -> bool:
    seats = player.state()["seats"]
    return bool(seats[seat]["connected"])


def test_a_client_that_never_reads_is_cut_off_and_shown_absent(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'choux.sqlite3'}",
        tmp_path / "server.log",
        CHOUX_HEARTBEAT="2",
        CHOUX_LOG_LEVEL="info",
    )
    server.start()
    try:
        alice = Player(server)
        alice.create()
        sock = open_unread_socket(alice)
        sync = masked_text_frame('{"type":"sync"}')
        cut_after = None
        begin = time.monotonic()
        try:
            while time.monotonic() - begin < 30:
                sock.sendall(sync)  # a full view each, never read
                time.sleep(0.002)
        except (ConnectionResetError, BrokenPipeError):  # reset by the server
            cut_after = time.monotonic() - begin
        finally:
            sock.close()
        assert cut_after is not None, "the server kept the connection of a client that never reads"
        assert not seat_connected(alice, 0)
        # the server is well, and the same person comes back on a socket that reads
        assert httpx.get(f"{server.url}/healthz", timeout=3).status_code == 200
        with alice.socket() as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            assert seat_connected(alice, 0)
        assert "a client that does not read is cut off" in server.log.read_text()
    finally:
        server.stop()
