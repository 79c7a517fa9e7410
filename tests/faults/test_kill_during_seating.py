"""kill -9 of a server while the last free seat of a table is being taken: the table is
either still waiting for that person (the seat free, they join again) or playing, never
full and waiting for players for ever.

Before, the seat's claim and the start of the game were two commits: a process killed
between them left every seat taken and the table "open", with nobody able to start it.
The moment is made exact for real: another connection holds the table's row, so the
server's write to it waits, and the server is killed there."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from pathlib import Path

import httpx
import psycopg
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from serverhelpers import Player, Server, csrf_of
from webhelpers import PG_BASE, postgres_or_skip


def stored(url: str, code: str) -> tuple[str, list[str]]:
    """The table's stored status and the kinds of its seats."""
    with psycopg.connect(PG_BASE, options=url.split("options=")[1].replace("%3D", "=")) as db:
        status = db.execute("select status from tables where code = %s", (code,)).fetchone()
        kinds = db.execute(
            "select s.kind from seats s join tables t on t.id = s.table_id "
            "where t.code = %s order by s.seat",
            (code,),
        ).fetchall()
    assert status is not None
    return str(status[0]), [str(kind) for (kind,) in kinds]


def wait_for_lock_waiter(admin: psycopg.Connection[tuple[object, ...]]) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        row = admin.execute(
            "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
        ).fetchone()
        if row is not None and int(str(row[0])) > 0:
            return
        time.sleep(0.05)
    raise AssertionError("the join never waited for the table's row")


@pytest.mark.postgres
def test_a_kill_while_the_last_seat_is_taken_never_leaves_a_full_table_waiting(
    tmp_path: Path,
) -> None:
    with postgres_or_skip() as url:
        log = tmp_path / "server.log"
        server = Server(url, log)
        server.start()
        try:
            alice = Player(server)
            alice.create(opponent="human")
            schema = url.split("options=")[1].replace("%3D", "=")
            holder = psycopg.connect(PG_BASE, options=schema)
            admin = psycopg.connect(PG_BASE, autocommit=True)
            try:
                holder.execute("select 1 from tables where code = %s for update", (alice.code,))
                bob = httpx.Client(timeout=30)
                page = bob.get(f"{server.url}/t/{alice.code}")
                form = {"csrf": csrf_of(page.text), "pseudo": "Bob"}

                def join() -> None:
                    with contextlib.suppress(httpx.HTTPError):  # killed: no answer
                        bob.post(f"{server.url}/t/{alice.code}/rejoindre", data=form)

                joining = threading.Thread(target=join, daemon=True)
                joining.start()
                wait_for_lock_waiter(admin)  # the join writes to the table's row: it waits
                server.kill()
                joining.join(timeout=10)
            finally:
                holder.rollback()
                holder.close()
                admin.close()
            status, kinds = stored(url, alice.code)
            assert not (status == "open" and "open" not in kinds), (status, kinds)
            server.start()
            page = bob.get(f"{server.url}/t/{alice.code}")
            joined = bob.post(
                f"{server.url}/t/{alice.code}/rejoindre",
                data={"csrf": csrf_of(page.text), "pseudo": "Bob"},
            )
            assert joined.status_code == 303, joined.text
            assert alice.state()["status"] == "live"
            assert stored(url, alice.code) == ("live", ["human", "human"])
        finally:
            server.stop()
        assert "Traceback" not in log.read_text()
