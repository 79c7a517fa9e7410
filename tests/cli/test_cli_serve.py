"""`choux serve` and `make run`: listen where asked, print the exact address to open."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from choux.web.server import address_to_open, banner

ROOT = Path(__file__).resolve().parents[2]


async def close_codes(address: str, paths: list[str]) -> list[tuple[int, str]]:
    """The close code and reason the server gives a socket on each of `paths`."""
    import websockets

    found = []
    origin = address.rstrip("/")
    for path in paths:
        url = origin.replace("http://", "ws://") + path
        try:
            async with websockets.connect(url, origin=origin) as ws:  # type: ignore[arg-type]
                await ws.recv()
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None, closed
            found.append((closed.rcvd.code, closed.rcvd.reason))
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", "http://127.0.0.1:8000/"),
        ("0.0.0.0", "http://127.0.0.1:8000/"),
        ("", "http://127.0.0.1:8000/"),
        ("192.168.1.20", "http://192.168.1.20:8000/"),
        ("choux.example.org", "http://choux.example.org:8000/"),
        ("::", "http://[::1]:8000/"),
        ("::1", "http://[::1]:8000/"),
    ],
)
def test_address_to_open_is_the_host_or_the_loopback_for_every_interface(
    host: str, expected: str
) -> None:
    assert address_to_open(host, 8000) == expected


def test_banner_names_the_address_and_warns_about_every_interface() -> None:
    local = banner("127.0.0.1", 9000, "sqlite:///choux.sqlite3")
    assert local.startswith("Choux est servi sur http://127.0.0.1:9000/")
    assert "localhost" not in local and "\n" not in local
    everywhere = banner("0.0.0.0", 9000, "sqlite:///choux.sqlite3")
    assert everywhere.startswith("Choux est servi sur http://127.0.0.1:9000/")
    assert "toutes les interfaces" in everywhere


def test_make_run_passes_port_and_host_to_choux_serve() -> None:
    def dry(*args: str) -> str:
        done = subprocess.run(
            ["make", "--no-print-directory", "-n", "run", *args],  # run from `make test` too
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1]

    assert dry().endswith("choux serve --host 127.0.0.1 --port 8000")
    assert dry("PORT=9001", "HOST=0.0.0.0").endswith("choux serve --host 0.0.0.0 --port 9001")


def test_choux_serve_prints_the_address_that_answers(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "choux", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith(f"Choux est servi sur http://127.0.0.1:{port}/"), line
        address = line.split()[4]
        # said once it listens: the address answers at once (it was said before Uvicorn
        # bound the port, and said too when the port was taken)
        with urllib.request.urlopen(address, timeout=5) as answer:
            assert answer.status == 200
        # a socket refused by the server says why with its close code (before it was
        # accepted it reached the page as a bare 403, and the page tried again for ever)
        codes = asyncio.run(close_codes(address, ["/t/nope/ws"]))
        assert codes == [(4404, "table inconnue")], codes
    finally:
        server.terminate()
        server.wait(10)


def test_a_port_already_taken_stops_the_start_with_one_french_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "choux", "serve", "--port", str(port)]
        command += ["--db", f"sqlite:///{tmp_path / 'serve.sqlite3'}"]
        result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 1 and "servi" not in result.stdout
    assert result.stderr.strip() == (
        f"Le port {port} est déjà pris sur 127.0.0.1 : choisissez-en un autre (--port)."
    )
