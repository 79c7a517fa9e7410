"""The garbage collector of a server process holding many live tables.

Every live table keeps thousands of long-lived objects (state, log, seats, sockets). With
CPython's default thresholds (700, 10, 10) the short-lived objects of each version (views,
messages, frames) are promoted often enough to trigger a full collection every few
seconds under load, and a full pass over 1,000 tables stops the event loop for 100 to
900 ms: that, not the work of a version, was the tail latency (issue 17, `docs/perf.md`).
A larger young generation lets those objects die young; full passes become rare.

That left one pause: each version replaces a table's state (a fresh clone), so the young
generation refills with the live set itself, and about every 10 s a young pass walked
100,000 live objects (60 to 95 ms). `keep_live_set_frozen` moves what survived the last
second out of the collector's sight (`gc.freeze`: constant time); frozen objects are
still freed by their reference counts the moment they die, only reference cycles among
them wait for the next full collection, which runs when the process's resident memory
has grown by half (and by 128 MiB at least, with cycles probably frozen meanwhile:
`FrozenGarbage`) or every ten minutes (counting the frozen
objects would walk them all: tens of milliseconds). Such a pass costs about 0.5 s for 1,000 live tables;
once requests stopped leaving cycles behind (`middleware`), play makes no cyclic garbage
at all, so a pass that finds nothing makes the next one wait longer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from pathlib import Path

log = logging.getLogger(__name__)

#: objects allocated between two young collections (default 700), then how many young
#: (then middle) collections before the next older one (defaults 10 and 10)
THRESHOLDS = (20_000, 20, 20)
#: how often what survived is frozen, seconds
FREEZE_EVERY = 1.0
#: a full collection once resident memory grew by this factor (cycles accumulate)...
FULL_GROWTH = 1.5
#: ...and by at least this many bytes (a pause of half a second per 1,000 tables is not
#: worth a few megabytes: a process that grows because tables and sockets open would
#: otherwise pay it while they open)...
FULL_MIN_GROWTH = 128 * 2**20
#: ...or this long after the previous one, seconds
FULL_EVERY = 600.0

_freezing = [False]


def tune_gc() -> None:
    """Call once the app is built: what startup made (modules, app) is never garbage, so
    it is moved out of the collector's sight; then the larger thresholds apply."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    _freezing[0] = os.environ.get("CHOUX_GC_FREEZE", "1") != "0"


def freezing() -> bool:
    """Whether this server process freezes its survivors (`CHOUX_GC_FREEZE=0`: it does
    not; a test's app never does)."""
    return _freezing[0]


def full_collection() -> tuple[int, float, float]:
    """Everything frozen is looked at once: the unreachable objects found, the pause (wall
    clock) and the CPU time the collection itself took."""
    begin, cpu = time.perf_counter(), time.thread_time()
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found, time.perf_counter() - begin, time.thread_time() - cpu


def resident_bytes() -> int:
    """This process's resident memory (Linux; 0 elsewhere: then only the clock counts)."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


#: a full collection that found fewer unreachable objects than this (a few megabytes) was
#: a pause for nothing (counting the live objects to compare would walk them all again)
FULL_FOUND_ENOUGH = 50_000
#: a full collection that stopped the loop longer than this (seconds) is a warning
LONG_PAUSE = 0.2


def pause_level(pause: float, cpu: float) -> int:
    """A warning when the collection itself was long; a pause made long by a busy machine
    (other processes on the cores, little CPU of ours) is only information: the operator
    can do nothing about Choux's side of it.

    >>> pause_level(0.5, 0.3) == logging.WARNING, pause_level(0.5, 0.02) == logging.INFO
    (True, True)
    >>> pause_level(0.05, 0.04) == logging.INFO
    True
    """
    return logging.WARNING if min(pause, cpu) > LONG_PAUSE else logging.INFO


def next_full_schedule(
    found: int, growth: float, every: float, base: tuple[float, float]
) -> tuple[float, float]:
    """The growth factor and the interval before the next full collection. A pass that
    found almost nothing (`FULL_FOUND_ENOUGH`) was a pause for nothing, and its length
    grows with the live set: wait twice as long, up to 8 times the base. A pass that found
    garbage: back to the base.

    >>> next_full_schedule(10, 1.5, 600.0, (1.5, 600.0))
    (2.0, 1200.0)
    >>> next_full_schedule(10, 3.0, 2400.0, (1.5, 600.0))
    (5.0, 4800.0)
    >>> next_full_schedule(10, 5.0, 4800.0, (1.5, 600.0))
    (5.0, 4800.0)
    >>> next_full_schedule(80_000, 5.0, 4800.0, (1.5, 600.0))
    (1.5, 600.0)
    """
    base_growth, base_every = base
    if found >= FULL_FOUND_ENOUGH:
        return base
    wider = 1 + min(8 * (base_growth - 1), 2 * (growth - 1))
    return wider, min(8 * base_every, 2 * every)


class FrozenGarbage:
    """An estimate of the reference cycles frozen since the last full collection. Each
    young pass says what share of the youngest generation was cyclic garbage; each freeze
    moves that generation out of sight without a look, so about that share of it is
    frozen garbage. Memory that grew while this stayed small grew with live tables and
    sockets, and a full pass would find nothing (one that did found 0 objects in 493 ms,
    docs/perf.md); a table's objects that die in a cycle long after being frozen are
    left to the timed passes."""

    #: weight of the latest young pass in the smoothed share
    SMOOTHING = 0.2

    def __init__(self) -> None:
        self.share = 0.0  # smoothed share of garbage the young passes found
        self.frozen = 0.0  # estimated objects of garbage frozen since the last full pass
        self._examined = 0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """A `gc.callbacks` hook: learn from the youngest generation's passes."""
        if info["generation"] != 0:
            return
        if phase == "start":
            self._examined = gc.get_count()[0]  # objects it holds, before the pass
        elif self._examined > 0:
            found = min(1.0, info["collected"] / self._examined)
            self.share += self.SMOOTHING * (found - self.share)

    def before_freeze(self) -> None:
        """Count the young objects `gc.freeze()` is about to move out of sight."""
        self.frozen += self.share * max(0, gc.get_count()[0])


async def keep_live_set_frozen(
    every: float = FREEZE_EVERY,
    growth: float = FULL_GROWTH,
    full_every: float = FULL_EVERY,
    min_growth: int = FULL_MIN_GROWTH,
    garbage: FrozenGarbage | None = None,
) -> None:
    """Freeze the survivors every `every` seconds; a full collection now and then, less
    often while they find nothing (`next_full_schedule`), and on memory growth only when
    cycles were probably frozen meanwhile (`FrozenGarbage`)."""
    garbage = garbage or FrozenGarbage()
    gc.callbacks.append(garbage.on_gc)
    try:
        await _keep_frozen(every, growth, full_every, min_growth, garbage)
    finally:
        gc.callbacks.remove(garbage.on_gc)


async def _keep_frozen(
    every: float, growth: float, full_every: float, min_growth: int, garbage: FrozenGarbage
) -> None:
    baseline = resident_bytes()
    last_full = time.monotonic()
    base = (growth, full_every)
    while True:
        await asyncio.sleep(every)
        garbage.before_freeze()
        gc.freeze()
        resident = resident_bytes()
        grown = (
            resident > max(baseline * growth, baseline + min_growth) > 0
            and garbage.frozen >= FULL_FOUND_ENOUGH
        )
        if grown or time.monotonic() - last_full > full_every:
            found, pause, cpu = full_collection()
            after = resident_bytes()
            log.log(
                pause_level(pause, cpu),
                "full collection (%s): %s unreachable objects (%.0f expected), %.0f ms"
                " (%.0f ms of CPU);"
                " resident %.0f MiB before, %.0f MiB after, %.0f MiB after the previous one",
                "memory" if grown else "time",
                found,
                garbage.frozen,
                pause * 1000,
                cpu * 1000,
                resident / 2**20,
                after / 2**20,
                baseline / 2**20,
            )
            growth, full_every = next_full_schedule(found, growth, full_every, base)
            baseline, last_full = after, time.monotonic()
            garbage.frozen = 0.0
