"""Run by `test_shutdown_during_write.py` in its own process (a hang must not hang pytest):
a service stops while a table's task waits inside a write for a lock that another
connection holds (SQLite's write lock, or PostgreSQL's lock on the seat's row), released
`argv[2]` seconds later; then the event loop closes, as any program embedding the service
(a test client, `asyncio.run`) closes it. Prints « closed » once the loop has closed; warnings go to stderr.

    python stop_in_process.py sqlite:////tmp/x.sqlite3 2
    python stop_in_process.py postgresql+asyncpg://... 2
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import threading
import time
from collections.abc import Callable

import psycopg
from faulthelpers import fault_settings

from choux.play.service import SeatSpec, TableService
from choux.play.store import Store


def hold_the_seat(url: str, table_id: int) -> Callable[[], None]:
    """Lock the seats of table `table_id` from another connection; returns the release."""
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        lite = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
        lite.execute("BEGIN IMMEDIATE")

        def release_sqlite() -> None:
            lite.rollback()
            lite.close()

        return release_sqlite
    postgres = psycopg.connect(url)  # a transaction stays open until the rollback
    postgres.execute("select * from seats where table_id = %s for update", (table_id,))

    def release_postgres() -> None:
        postgres.rollback()
        postgres.close()

    return release_postgres


async def stop_during_a_write(url: str, hold: float) -> None:
    store = Store(url)
    await store.open()
    service = TableService(fault_settings(url, grace_seconds=0.05), store)
    await service.start()
    people = [SeatSpec("human"), SeatSpec("human")]
    table, _ = await service.create("chouine", 2, {}, people, creator="A")
    await service.join(table, None, "Bob")  # it starts: both grace periods run
    unlock = hold_the_seat(url, table.row.id)
    await asyncio.sleep(0.5)  # a replacement by a bot now waits inside its write
    release = threading.Timer(hold, unlock)
    release.start()
    began = time.monotonic()
    await service.stop()
    await store.close()
    print(f"stopped in {time.monotonic() - began:.2f} s", flush=True)
    release.join()


if __name__ == "__main__":
    # every warning on one line the test can find: the service's own (tasks that did not
    # unwind) and the drivers' (a connection closed in the middle of a cancellation)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(stop_during_a_write(sys.argv[1], float(sys.argv[2])))
    print("closed", flush=True)
