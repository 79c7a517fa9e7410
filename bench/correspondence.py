"""Correspondence benchmark: N correspondence tables stored, their deadlines firing on time.

N two-person Chouine correspondence tables (rule: a bot plays the move at timeout) are
written straight into a fresh database, live, each with a stored deadline; the deadlines
fall evenly over `--window` seconds, starting a few seconds after one server process (a
`TableService`, as `choux serve` runs it) starts. Nobody visits any table: each deadline is
found by the process's poller, the table is rebuilt from the store, a bot plays the move
for the absent person and the action is committed. Lateness = commit time - deadline.

    nice -n 10 .venv/bin/python bench/correspondence.py --tables 10000 --window 60

Printed: tables stored, deadlines fired, lateness p50 / p99 / max, and the CPU time of the
process per fired deadline. `--db postgresql://...` runs it on PostgreSQL (a fresh schema).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from choux.fairness import new_seed
from sqlalchemy import bindparam, insert

from choux import games
from choux.play.correspondence_store import correspondence_t
from choux.play.service import TableService
from choux.play.settings import Settings
from choux.play.store import SEED_LOW_BITS, Store, seats_t, tables_t
from choux.play.tables import hash_token

LEAD = 5.0  # seconds between the start of the process and the first deadline


@contextlib.contextmanager
def database(url: str | None) -> Iterator[str]:
    if url is None or not url.startswith("postgresql"):
        with tempfile.TemporaryDirectory() as folder:
            yield url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        return
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")


async def fill(store: Store, count: int) -> list[int]:
    """`count` live correspondence Chouine tables (no deadline yet); their ids in order."""
    game = games.get("chouine")
    options = json.dumps(game.validate_options(2, {}))
    now = datetime.now(UTC)
    batch = 1000
    order: list[int] = []
    for start in range(0, count, batch):
        size = min(batch, count - start)
        async with store.db.begin() as conn:
            tables = []
            for i in range(start, start + size):
                seed = new_seed()
                tables.append(
                    {
                        "code": f"b{i:07d}",
                        "game": "chouine",
                        "players": 2,
                        "seed": seed & SEED_LOW_BITS,
                        "seed_text": str(seed),
                        "options": options,
                        "clock": 0,
                        "status": "live",
                        "version": 0,
                        "created_at": now,
                        "updated_at": now,
                    }
                )
            await conn.execute(insert(tables_t), tables)
            ids = {
                r.code: r.id
                for r in await conn.execute(
                    tables_t.select().where(tables_t.c.code.in_([t["code"] for t in tables]))
                )
            }
            seats, rules = [], []
            for i in range(start, start + size):
                table_id = ids[f"b{i:07d}"]
                order.append(table_id)
                for seat, name in enumerate(("Alice", "Bob")):
                    seats.append(
                        {
                            "table_id": table_id,
                            "seat": seat,
                            "kind": "human",
                            "name": name,
                            "level": None,
                            "token_hash": hash_token(f"t{i}-{seat}"),
                            "host": seat == 0,
                            "player": None,
                        }
                    )
                rules.append(
                    {
                        "table_id": table_id,
                        "move_seconds": 86400,
                        "on_timeout": "bot",
                        "due_version": 0,
                        "due_at": None,
                    }
                )
            await conn.execute(insert(seats_t), seats)
            await conn.execute(insert(correspondence_t), rules)
    return order


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(count: int, window: float, url: str) -> int:
    store = Store(url)
    await store.open()
    began = time.perf_counter()
    ids = await fill(store, count)
    print(f"{count} correspondence tables stored in {time.perf_counter() - began:.1f} s")
    # the deadlines, from LEAD seconds after now, evenly over the window
    first = datetime.now(UTC) + timedelta(seconds=LEAD)
    arm = (
        correspondence_t.update()
        .where(correspondence_t.c.table_id == bindparam("tid"))
        .values(due_at=bindparam("due"))
    )
    async with store.db.begin() as conn:
        await conn.execute(
            arm,
            [
                {"tid": table_id, "due": first + timedelta(seconds=window * i / max(1, count - 1))}
                for i, table_id in enumerate(ids)
            ],
        )
    settings = Settings(
        database_url=url,
        bot_pace=0.0,
        grace_seconds=0.0,
        restore_quiet_seconds=0.0,
        open_table_seconds=0.0,
        evict_seconds=600.0,
    )
    service = TableService(settings, store)
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    await service.start()
    limit = time.time() + LEAD + window + 60
    while len(service.fired_log) < count and time.time() < limit:
        await asyncio.sleep(0.5)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    await service.stop()
    versions = await store.versions([f"b{i:07d}" for i in range(count)])
    await store.close()
    late = [fired - due for due, fired in service.fired_log]
    moved = sum(1 for v, _ in versions.values() if v == 1)
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    print(f"deadlines fired: {len(late)} / {count} (tables at version 1 in the store: {moved})")
    if late:
        print(
            f"lateness: p50 {statistics.median(late) * 1000:.0f} ms, "
            f"p99 {percentile(late, 0.99) * 1000:.0f} ms, max {max(late) * 1000:.0f} ms; "
            f"CPU {cpu / len(late) * 1000:.2f} ms per deadline"
        )
    return 0 if late and len(late) == count and percentile(late, 0.99) < 1.0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--window", type=float, default=60.0, help="seconds the deadlines span")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    args = parser.parse_args()
    with database(args.db) as url:
        return asyncio.run(run(args.tables, args.window, url))


if __name__ == "__main__":
    sys.exit(main())
