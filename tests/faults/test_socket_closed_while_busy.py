"""A socket the server closes while its receive loop is busy must not wedge the server.

Seen in a probe with two processes and Redis stopped for 12 s: when Redis answered again,
grace timers gave seats to bots; the pushers closed those seats' sockets (4409) while their
receive loops were busy with an action, and from then on `receive_text` raised Starlette's
`WebSocketDisconnected` (a `RuntimeError`) at once. The loop took it for a binary frame,
« refused » it on the closed socket (a silent no-op) and asked again: a loop that never
awaits anything, the process at 100 % CPU, every table and page on it frozen for good.

Here the receive loop is made busy for real by the message limit (a refused flood is not
read for a second) while the host gives the seat to a bot."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
from serverhelpers import Player, Server, csrf_of
from websockets.exceptions import ConnectionClosed


def test_a_socket_closed_during_a_busy_receive_does_not_freeze_the_server(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'choux.sqlite3'}",
        tmp_path / "server.log",
        CHOUX_LIMIT_MESSAGES="1 per second",
    )
    server.start()
    try:
        alice = Player(server)
        alice.create(opponent="human")
        bob = Player(server, code=alice.code)
        page = bob.http.get(f"{server.url}/t/{alice.code}")
        joined = bob.http.post(
            f"{server.url}/t/{alice.code}/rejoindre",
            data={"csrf": csrf_of(page.text), "pseudo": "Bob"},
        )
        assert joined.status_code == 303, joined.text
        with bob.socket() as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            ws.send('{"type":"ping"}')
            ws.send('{"type":"ping"}')  # over the limit: this socket is not read for 1 s
            host_page = alice.http.get(f"{server.url}/t/{alice.code}")
            given = alice.http.post(
                f"{server.url}/t/{alice.code}/remplacer",
                data={"csrf": csrf_of(host_page.text), "place": "1"},
            )
            assert given.status_code == 303, given.text
            closed = None
            try:
                while True:
                    ws.recv(timeout=10)
            except ConnectionClosed as error:
                closed = error.rcvd.code if error.rcvd else None
            assert closed == 4409
        time.sleep(1.5)  # the flood pause is over: the receive loop reads again
        try:
            answered = httpx.get(f"{server.url}/healthz", timeout=3).status_code
        except httpx.TimeoutException:
            answered = None
        assert answered == 200, "the server no longer answers (its event loop is spinning)"
        assert alice.state()["seats"][1]["kind"] == "bot"
    finally:
        server.stop()
