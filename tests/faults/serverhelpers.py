"""A real `choux serve` process for the fault tests, and players that talk to it."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`python -m choux serve` on a free port; `kill()` is a real SIGKILL."""

    def __init__(self, database_url: str, log: Path, **env: str) -> None:
        self.database_url = database_url
        self.env = env  # settings of this server (CHOUX_...), over the defaults below
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "CHOUX_SECRET_KEY": "fault-secret-key-of-the-tests",
            "CHOUX_BOT_PACE": "0.02",
            "CHOUX_DEADLINE_SCALE": "0.02",
            "CHOUX_GRACE_SECONDS": "0",
            "CHOUX_RESTORE_QUIET_SECONDS": "0.3",
            "CHOUX_LIMIT_CREATE": "",
            "CHOUX_LIMIT_JOIN": "",
            "CHOUX_LIMIT_MESSAGES": "",
            **self.env,
        }
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "choux",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.database_url,
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


@dataclass
class Player:
    """One person at a table against a bot, playing over a real WebSocket."""

    server: Server
    code: str = ""
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=10))
    #: version -> action, for every move the server acknowledged
    acks: dict[int, dict[str, Any]] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)
    errors: list[str] = field(default_factory=list)

    def create(self, game: str = "chouine", opponent: str = "bot:random") -> None:
        page = self.http.get(f"{self.server.url}/nouvelle?jeu={game}")
        data = {
            "csrf": csrf_of(page.text),
            "jeu": game,
            "joueurs": "2",
            "pendule": "0",
            "pseudo": "Alice",
            "place_0": "human",
            "place_1": opponent,
        }
        response = self.http.post(f"{self.server.url}/tables", data=data)
        assert response.status_code == 303, response.text
        self.code = response.headers["location"].rsplit("/", 1)[1]

    def socket(self) -> Any:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws_url = self.server.url.replace("http", "ws") + f"/t/{self.code}/ws"
        return connect(ws_url, additional_headers={"Cookie": cookie}, open_timeout=10)

    def play(self, moves: int | None = None) -> None:
        """Play until `moves` acks (None: until stopped or the socket closes)."""
        sent: dict[str, dict[str, Any]] = {}
        count = 0
        try:
            with self.socket() as ws:
                while not self.stop.is_set() and (moves is None or count < moves):
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] == "ack":
                        self.acks[message["version"]] = sent[message["id"]]
                        count += 1
                    elif message["type"] == "state":
                        if message["result"] is not None:
                            return
                        legal = message["view"].get("legal") or []
                        if legal and message["status"] == "live":
                            action_id = uuid.uuid4().hex
                            sent[action_id] = legal[0]["action"]
                            ws.send(
                                json.dumps(
                                    {
                                        "type": "action",
                                        "id": action_id,
                                        "action": legal[0]["action"],
                                    }
                                )
                            )
        except Exception as error:  # the server was killed: the socket drops
            self.errors.append(repr(error))

    def state(self) -> dict[str, Any]:
        response = self.http.get(f"{self.server.url}/t/{self.code}/etat.json")
        assert response.status_code == 200, response.text
        return dict(response.json())


def play_under_load(
    server: Server, tables: int, acks: int
) -> tuple[list[Player], list[threading.Thread]]:
    """`tables` people each at a table against a bot, playing in threads, once at least
    `acks` moves were acknowledged in all (or 30 s went by)."""
    players = [Player(server) for _ in range(tables)]
    for player in players:
        player.create()
    threads = [threading.Thread(target=p.play, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while sum(len(p.acks) for p in players) < acks and time.monotonic() < deadline:
        time.sleep(0.05)
    return players, threads
