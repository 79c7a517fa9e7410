"""The PostgreSQL serving lock goes with its connection. A database restart, a network
failure or an operator's `pg_terminate_backend` let it go without a word, and a second
server could then start on the same base while the first still served from its memory
(two copies of every table, bots playing in both). The server now watches the lock's
connection: it takes the lock again, and stops serving if another server took it first.

Real faults: the lock's backend is terminated from another connection."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from serverhelpers import Server
from webhelpers import PG_BASE, postgres_or_skip

from choux.web.startup import SERVE_LOCK

HOLDERS = (
    "select pid from pg_locks where locktype = 'advisory' and granted"
    " and classid = %s and objsubid = 2"
    " and objid::bigint = (hashtext(current_schema())::bigint & 4294967295)"
)


def admin_connection(url: str) -> psycopg.Connection[tuple[object, ...]]:
    """A connection of the test's own in the server's schema."""
    options = url.split("options=")[1].replace("%3D", "=").replace("%20", " ")
    return psycopg.connect(PG_BASE, options=options, autocommit=True)


def holders(db: psycopg.Connection[tuple[object, ...]]) -> list[int]:
    return [int(str(pid)) for (pid,) in db.execute(HOLDERS, (SERVE_LOCK,)).fetchall()]


def wait_for(condition: object, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.postgres
def test_a_lost_serving_lock_is_taken_again_or_the_server_stops(tmp_path: Path) -> None:
    with postgres_or_skip() as url:
        log = tmp_path / "server.log"
        server = Server(url, log, CHOUX_LOCK_WATCH="0.3")
        server.start()
        try:
            with admin_connection(url) as db:
                (first,) = holders(db)
                db.execute("select pg_terminate_backend(%s)", (first,))
                # taken again on a new connection, and the site serves on
                wait_for(lambda: holders(db) not in ([], [first]))
                assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200
                assert "the serving lock is held again" in log.read_text()
                # cut again, and another server (this connection) is quicker to take it
                mine = False
                for _ in range(20):
                    (held,) = holders(db)
                    db.execute("select pg_terminate_backend(%s)", (held,))
                    while not mine and held in holders(db):
                        time.sleep(0.001)
                    take = "select pg_try_advisory_lock(%s, hashtext(current_schema()))"
                    deadline = time.monotonic() + 0.25
                    while not mine and time.monotonic() < deadline:
                        mine = bool(db.execute(take, (SERVE_LOCK,)).fetchone()[0])  # type: ignore[index]
                    if mine:
                        break
                    wait_for(lambda: len(holders(db)) == 1)  # the server won: again
                assert mine, "the server always took its lock back first"
                assert server.process is not None
                assert server.process.wait(timeout=15) == 1  # it stopped serving
                text = log.read_text()
                assert "another server took the serving lock" in text
                assert "Arrêt : La base de données" in text and "déjà servie" in text
        finally:
            server.stop()
