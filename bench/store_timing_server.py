"""A server for `bench/web_tables.py` that times its store writer and its event loop.

    BENCH_SIGNAL_PLAY=1 BENCH_SERVER=bench/store_timing_server.py \\
        .venv/bin/python bench/web_tables.py --tables 1000 --think 3.0 --seconds 30 --pin \\
        --db postgresql://postgres@127.0.0.1:5432/test

From SIGUSR1 (sent by the bench when play starts) to the end, it records: every batch of the
store's group commit (size, seconds from its start to its callers told, of which the COMMIT), the time each
append waited between its arrival and the writer taking it, the time from an append's
arrival to its caller being told (the whole write as a move sees it), every SQL statement
run on the async engine (by its first words: what else than the writer reaches the
database while tables play) and the event loop's lag (a 10 ms sleep timed over and over:
what ran meanwhile without yielding). The summary goes to $TIMING_OUT (timing.json).
GC_TYPES=1 counts what the youngest generation holds before a pass (types, when more
than 50,000 objects). GC_THRESHOLDS=a,b,c tries other GC thresholds. APPEND_WRITERS=N runs N batches of appends at once instead of the store's 8 (PostgreSQL).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from typing import Any

from sqlalchemy import event

from choux.play import store as store_module
from choux.play import sync as sync_module
from choux.web.server import run

on = [False]
played = [0.0]
batches: list[tuple[int, float, float]] = []  # size, seconds in the thread, COMMIT seconds
waits: list[float] = []  # arrival -> outcome set
lags: list[float] = []
beat = [time.perf_counter()]
stalls: list[tuple[float, float, str]] = []  # (since play, ms so far, the loop thread's stack)
gc_passes: list[tuple[float, int, float, int]] = []  # (since play, generation, ms, collected)
gc_start = [0.0]
timeline: list[tuple[float, str, float, int]] = []  # (since play, what, ms, batch size)
statements: Counter[str] = Counter()

Store = store_module.Store
original_append = Store.append_action
original_commit = Store._commit
original_open = Store.open


arrived: dict[tuple[int, int], float] = {}
ended: dict[tuple[int, int], float] = {}
queue_waits: list[float] = []  # arrival -> its batch starts
resume_waits: list[float] = []  # its batch done -> its caller runs again


async def append_action(self: Any, *args: Any, **kwargs: Any) -> Any:
    start = time.perf_counter()
    arrived[(args[0], args[1])] = start
    try:
        return await original_append(self, *args, **kwargs)
    finally:
        end = ended.pop((args[0], args[1]), None)
        if on[0]:
            waits.append(time.perf_counter() - start)
            if end is not None:
                resume_waits.append(time.perf_counter() - end)


async def commit_batch(self: Any, batch: list[Any]) -> None:
    start = time.perf_counter()
    for args, _ in batch:
        came = arrived.pop((args[0], args[1]), None)
        if on[0] and came is not None:
            queue_waits.append(start - came)
    await original_commit(self, batch)
    end = time.perf_counter()
    for args, _ in batch:
        ended[(args[0], args[1])] = end
    if on[0]:
        batches.append((len(batch), end - start, commit_seconds[0]))
        if end - start > 0.03:
            timeline.append((start - played[0], "batch", (end - start) * 1000, len(batch)))


commit_seconds = [0.0]


async def open_store(self: Any) -> None:
    await original_open(self)

    # time the DBAPI's COMMIT itself (the engine's "commit" event fires before it)

    def do_commit(dbapi_connection: Any) -> None:
        begin = time.perf_counter()
        original_do_commit(dbapi_connection)
        commit_seconds[0] = time.perf_counter() - begin

    engine = self.writer_engine  # PostgreSQL's plain appends commit as their statement runs
    original_do_commit = engine.dialect.do_commit
    engine.dialect.do_commit = do_commit

    def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if on[0]:
            statements[" ".join(statement.split()[:3])[:60]] += 1

    event.listen(self.db.sync_engine, "before_cursor_execute", count)
    asyncio.get_running_loop().create_task(lag_probe())
    ident = threading.get_ident()
    threading.Thread(target=watchdog, args=(ident,), daemon=True).start()


young: list[tuple[float, int, list[tuple[str, int]]]] = []  # GC_TYPES: what gen 0 held


def on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        if on[0] and os.environ.get("GC_TYPES") and info["generation"] == 0:
            objects = gc.get_objects(0)  # before the pass is timed: this costs as much
            if len(objects) > 50_000:
                kinds = Counter(type(o).__name__ for o in objects).most_common(8)
                young.append((time.perf_counter() - played[0], len(objects), kinds))
            del objects
        gc_start[0] = time.perf_counter()
    elif on[0]:
        now = time.perf_counter()
        passed = (now - gc_start[0]) * 1000
        gc_passes.append((now - played[0], info["generation"], passed, info["collected"]))


def watchdog(loop_thread: int) -> None:
    """When the loop has not beaten for 100 ms, what is it running? (once per stall)"""
    seen = 0.0
    while True:
        time.sleep(0.02)
        stale = time.perf_counter() - beat[0]
        if on[0] and stale > 0.1 and beat[0] != seen:
            seen = beat[0]
            frame = sys._current_frames().get(loop_thread)
            stack = "".join(traceback.format_stack(frame, limit=12)) if frame else ""
            stalls.append((time.perf_counter() - played[0], stale * 1000, stack))


async def lag_probe() -> None:
    while True:
        beat[0] = time.perf_counter()
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        if on[0]:
            lag = time.perf_counter() - start - 0.01
            lags.append(lag)
            if lag > 0.02:
                timeline.append((time.perf_counter() - played[0], "lag", lag * 1000, 0))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def summary() -> dict[str, Any]:
    sizes = [b[0] for b in batches]
    return {
        "batches": len(batches),
        "appends": sum(sizes),
        "batch_size_mean": sum(sizes) / len(sizes) if sizes else 0,
        "batch_size_max": max(sizes, default=0),
        "thread_ms": {q: pct([b[1] for b in batches], q) for q in (0.5, 0.95, 0.99, 1.0)},
        "commit_ms": {q: pct([b[2] for b in batches], q) for q in (0.5, 0.95, 0.99, 1.0)},
        "queue_ms": {q: pct(queue_waits, q) for q in (0.5, 0.95, 0.99, 1.0)},
        "resume_ms": {q: pct(resume_waits, q) for q in (0.5, 0.95, 0.99, 1.0)},
        "append_wait_ms": {q: pct(waits, q) for q in (0.5, 0.95, 0.99, 1.0)},
        "loop_lag_ms": {q: pct(lags, q) for q in (0.5, 0.95, 0.99, 1.0)},
        "loop_lag_over_50ms": sum(1 for x in lags if x > 0.05),
        "async_statements": dict(statements.most_common(20)),
        "catch_ups": dict(catch_ups),
        "gc_over_20ms": [  # (since play, generation, ms, objects collected)
            (round(t, 2), g, round(ms, 1), n) for t, g, ms, n in gc_passes if ms > 20
        ],
        "gc_collected_median": sorted(n for *_, n in gc_passes)[len(gc_passes) // 2]
        if gc_passes
        else 0,
        "gc_passes": len(gc_passes),
        "young_generation_over_50000": young,
        "stalls": [(round(t, 2), round(ms), stack) for t, ms, stack in stalls],
        "timeline": [(round(t, 2), what, round(ms, 1), n) for t, what, ms, n in timeline],
    }


catch_ups: Counter[str] = Counter()  # who asked for a catch-up from the store
original_catch_up = sync_module.Sync._catch_up


async def catch_up(self: Any, table: Any) -> None:
    if on[0]:
        caller = sys._getframe(1)
        catch_ups[f"{caller.f_code.co_filename.rsplit('/', 1)[-1]}:{caller.f_code.co_name}"] += 1
    await original_catch_up(self, table)


def main() -> None:
    if os.environ.get("APPEND_WRITERS"):  # try another number of batches committing at once
        store_module.APPEND_WRITERS = int(os.environ["APPEND_WRITERS"])
    if os.environ.get("GC_THRESHOLDS"):  # e.g. "5000,20,20": try other GC thresholds
        from choux.web import gc_tuning

        gc_tuning.THRESHOLDS = tuple(int(x) for x in os.environ["GC_THRESHOLDS"].split(","))
    sync_module.Sync._catch_up = catch_up  # type: ignore[method-assign]
    gc.callbacks.append(on_gc)
    Store.append_action = append_action  # type: ignore[method-assign]
    Store._commit = commit_batch  # type: ignore[method-assign]
    Store.open = open_store  # type: ignore[method-assign]

    def start(*_: Any) -> None:
        on[0] = True
        played[0] = time.perf_counter()

    signal.signal(signal.SIGUSR1, start)
    try:
        run(host="127.0.0.1", port=int(sys.argv[1]), database_url=sys.argv[2])
    finally:
        with open(os.environ.get("TIMING_OUT", "timing.json"), "w") as out:
            json.dump(summary(), out, indent=1)


if __name__ == "__main__":
    main()
