"""`choux serve` checks its database before saying « servi »: a corrupt or read-only
file gives one clear French line and a non-zero exit code, never a traceback."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "choux",
            "serve",
            "--port",
            str(free_port()),
            "--db",
            f"sqlite:///{path}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_refused(result: subprocess.CompletedProcess[str], reason: str) -> None:
    assert result.returncode != 0
    assert "servi" not in result.stdout
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "La base de données" in lines[0] and reason in lines[0]


def test_a_corrupt_database_file_stops_the_start_with_one_french_line(tmp_path: Path) -> None:
    path = tmp_path / "choux.sqlite3"
    path.write_bytes(b"this is not a SQLite database at all\n" * 200)
    assert_refused(serve(path), "corrompu")


def test_a_read_only_database_stops_the_start_with_one_french_line(tmp_path: Path) -> None:
    disk = tmp_path / "ro"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs to make a read-only filesystem here")
    try:
        path = disk / "choux.sqlite3"
        sqlite3.connect(path).close()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        assert_refused(serve(path), "lecture seule")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_bad_rate_limit_setting_stops_the_start_with_one_french_line(tmp_path: Path) -> None:
    import os

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "choux",
            "serve",
            "--port",
            str(free_port()),
            "--db",
            f"sqlite:///{tmp_path / 'choux.sqlite3'}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CHOUX_LIMIT_CREATE": "beaucoup"},
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "CHOUX_LIMIT_CREATE invalide" in result.stderr


def test_a_second_server_on_the_same_sqlite_file_is_refused_until_the_first_dies(
    tmp_path: Path,
) -> None:
    """Two servers on one SQLite file (a copy-pasted unit file, a second terminal) would
    each keep their own copy of the tables: the pages served by one showed an old game for
    ever, and the bots of a table played in both. The second one now refuses to start; a
    first one killed with SIGKILL leaves no lock behind."""
    import fcntl
    import os
    import signal
    import time

    import httpx

    path = tmp_path / "choux.sqlite3"
    port = free_port()
    first = subprocess.Popen(
        [sys.executable, "-m", "choux", "serve", "--port", str(port), "--db", f"sqlite:///{path}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert first.poll() is None and time.monotonic() < deadline, "no first server"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert_refused(serve(path), "déjà utilisée par un autre serveur Choux")
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    with open(f"{path}-lock", "ab") as lock:  # the killed server's lock went with it
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_e_mails_without_the_site_s_address_stop_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their link to the table would be a bare « /t/abcd »: one line says what to set."""
    monkeypatch.setenv("CHOUX_SMTP_URL", "smtp://127.0.0.1:1")
    monkeypatch.delenv("CHOUX_PUBLIC_URL", raising=False)
    result = serve(tmp_path / "choux.sqlite3")
    assert result.returncode != 0 and "servi" not in result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "CHOUX_PUBLIC_URL" in lines[0], result.stderr


def test_bad_settings_stop_the_start_with_one_french_line_each(tmp_path: Path) -> None:
    """A value that is not a number fell back to its default without a word; « yes » for
    secure cookies meant « never »; a heartbeat of 0 flooded every socket with pings; a
    malformed Redis URL gave a traceback with its password in it (an operator's audit)."""
    import os

    bad = {
        "CHOUX_GRACE_SECONDS": "3m",
        "CHOUX_SECURE_COOKIES": "yes",
        "CHOUX_HEARTBEAT": "0",
        "CHOUX_CORRESPONDENCE_POLL_SECONDS": "0",
        "CHOUX_MAX_BOT_TABLES": "-1",
        "CHOUX_BOT_PACE": "nan",
        "CHOUX_REDIS_URL": "redis+tls://:S3cretPW@127.0.0.1:6379/0",
        # a typo trusted no proxy at all: every player counted as the proxy's address
        "CHOUX_FORWARDED_ALLOW_IPS": "127.0.0.1;10.0.0.1",
        # accepted, then never matched: every WebSocket behind the proxy refused; the
        # collector's freeze left on; one letter signing the cookies (an operator's audit)
        "CHOUX_ALLOWED_ORIGINS": "choux.example.org/",
        "CHOUX_GC_FREEZE": "no",
        "CHOUX_SECRET_KEY": "x",
        "CHOUX_PUBLIC_URL": "choux.example.org",
    }
    result = subprocess.run(
        [sys.executable, "-m", "choux", "serve", "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, **bad},
    )
    assert result.returncode == 1 and "servi" not in result.stdout
    assert "Traceback" not in result.stderr and "S3cretPW" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == len(bad), lines
    for name in bad:
        assert any(line.startswith(name) for line in lines), (name, lines)
    assert not (tmp_path / "choux.sqlite3").exists()  # nothing was created


def test_a_malformed_or_unknown_database_url_stops_the_start(tmp_path: Path) -> None:
    for url, reason in (
        ("nonsense", "mal formée"),
        ("postgresql://u:pw@h:5432:x/db", "mal formée"),
        ("mysql://u:pw@h/db", "inconnue"),
        # said in English, from the lock file opened first (an operator's audit)
        (f"sqlite:///{tmp_path}/absent/choux.sqlite3", "son dossier n'existe pas"),
    ):
        result = subprocess.run(
            [sys.executable, "-m", "choux", "serve", "--port", str(free_port()), "--db", url],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert reason in result.stderr and "pw@" not in result.stderr
