"""A stop while one of the service's writes waits for the database: the write is cancelled
and rolled back (nobody was told it happened), the stop waits until it has unwound, and the
next run does it again; nothing hangs, nothing is half written.

The write: a person absent past the grace period is replaced by a bot, while another
process holds SQLite's write lock (a backup, an operator's query). A stop that did not wait
for the cancelled write disposed of the database engine under it: the task never ended, and
a program closing its event loop afterwards (`asyncio.run`, the test client) hung for ever.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from serverhelpers import Player, Server, csrf_of
from web_fixtures import db_url_fixture  # noqa: F401 (fixture: SQLite and PostgreSQL)

GRACE_SECONDS = 2.0  # ample time to take the lock first, even on a loaded machine
LOCK_HELD_AFTER_STOP = 2.0


def seat_kinds(path: Path, code: str) -> list[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "select s.kind from seats s join tables t on t.id = s.table_id "
            "where t.code = ? order by s.seat",
            (code,),
        ).fetchall()
    return [str(kind) for (kind,) in rows]


def test_the_loop_closes_cleanly_after_a_stop_during_a_write_waiting_for_a_lock(
    db_url: str,
) -> None:
    script = Path(__file__).with_name("stop_in_process.py")
    try:
        done = subprocess.run(
            [sys.executable, str(script), db_url, str(LOCK_HELD_AFTER_STOP)],
            capture_output=True,
            text=True,
            timeout=40,
        )
    except subprocess.TimeoutExpired as error:  # SQLite, before: for ever
        raise AssertionError(f"the event loop never closed: {error.stdout!r}") from error
    assert done.returncode == 0, done.stderr
    stopped, closed = done.stdout.split("\n")[:2]
    assert closed == "closed"
    # no task left behind, no connection torn down mid-cancellation (PostgreSQL, before:
    # « query cancellation interrupted (CancelledError): closing connection »)
    warnings = [line for line in done.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert warnings == []
    if db_url.startswith("sqlite"):
        # a query waiting for SQLite's lock cannot be interrupted: the stop waited for it
        assert float(stopped.split()[2]) >= LOCK_HELD_AFTER_STOP - 0.5, stopped


def test_a_server_stopped_during_a_write_waiting_for_a_lock_exits_and_loses_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "choux.sqlite3"
    log = tmp_path / "server.log"
    server = Server(f"sqlite:///{path}", log, CHOUX_GRACE_SECONDS=str(GRACE_SECONDS))
    server.start()
    blocker = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
    release = threading.Timer(0, lambda: None)
    try:
        alice = Player(server)
        alice.create(opponent="human")
        bob = httpx.Client(timeout=10)
        page = bob.get(f"{server.url}/t/{alice.code}")
        joined = bob.post(
            f"{server.url}/t/{alice.code}/rejoindre",
            data={"csrf": csrf_of(page.text), "pseudo": "Bob"},
        )
        assert joined.status_code == 303, joined.text
        # the game has started; nobody's page is open, so both grace periods run. Hold the
        # write lock before they end: the first replacement then waits inside its write
        blocker.execute("BEGIN IMMEDIATE")
        time.sleep(GRACE_SECONDS + 1.0)
        assert seat_kinds(path, alice.code) == ["human", "human"]
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        release = threading.Timer(LOCK_HELD_AFTER_STOP, blocker.rollback)
        release.start()
        began = time.monotonic()
        exit_code = server.process.wait(timeout=30)  # it hung here forever before
        took = time.monotonic() - began
        # Uvicorn shuts down, then raises the signal it caught again: the exit is SIGTERM's
        assert exit_code == -signal.SIGTERM, log.read_text()
        assert took < 20, f"the stop took {took:.1f} s"
        # the cancelled write left nothing behind: the seats are as they were
        assert seat_kinds(path, alice.code) == ["human", "human"]
        server.start()  # the table wakes at its first visit, and the grace periods run again
        assert alice.state()["status"] == "live"
        deadline = time.monotonic() + 15
        while seat_kinds(path, alice.code) != ["bot", "bot"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert seat_kinds(path, alice.code) == ["bot", "bot"]
        seats = alice.state()["seats"]
        assert all(seat["name"].endswith("(robot)") for seat in seats), seats
    finally:
        release.join()
        blocker.close()
        server.stop()
    assert "Traceback" not in log.read_text()
