"""Helpers for the scale-out tests: a private Redis server, free ports."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_process(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A private redis-server on `port`, as a process a test may stop (SIGSTOP) or kill
    (skipped when Redis is not installed); it is resumed and ended afterwards."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: scale-out test skipped")
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            time.sleep(0.05)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGCONT)
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def redis_on(port: int) -> Iterator[str]:
    """A private redis-server on `port`: its URL (skipped when Redis is not installed)."""
    with redis_process(port):
        yield f"redis://127.0.0.1:{port}/0"


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A private redis-server on a free port."""
    with redis_on(free_port()) as url:
        yield url
