"""Run by `test_shutdown_during_write.py` in its own process (a hang must not hang pytest):
a service on SQLite stops while a table's task waits inside a write for a lock that another
connection holds, released `argv[2]` seconds later; then the event loop closes, as any
program embedding the service (a test client, `asyncio.run`) closes it. Prints « closed »
once the loop has closed."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import threading
import time

from faulthelpers import fault_settings

from choux.play.service import SeatSpec, TableService
from choux.play.store import Store


async def stop_during_a_write(path: str, hold: float) -> None:
    url = f"sqlite:///{path}"
    store = Store(url)
    await store.open()
    service = TableService(fault_settings(url, grace_seconds=0.05), store)
    await service.start()
    people = [SeatSpec("human"), SeatSpec("human")]
    table, _ = await service.create("chouine", 2, {}, people, creator="A")
    await service.join(table, None, "Bob")  # it starts: both grace periods run
    blocker = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")
    await asyncio.sleep(0.5)  # a replacement by a bot now waits inside its write
    release = threading.Timer(hold, blocker.rollback)
    release.start()
    began = time.monotonic()
    await service.stop()
    await store.close()
    print(f"stopped in {time.monotonic() - began:.2f} s", flush=True)
    release.join()
    blocker.close()


if __name__ == "__main__":
    asyncio.run(stop_during_a_write(sys.argv[1], float(sys.argv[2])))
    print("closed", flush=True)
