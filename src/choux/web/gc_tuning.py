"""The garbage collector of a server process holding many live tables.

Every live table keeps thousands of long-lived objects (state, log, seats, sockets). With
CPython's default thresholds (700, 10, 10) the short-lived objects of each version (views,
messages, frames) are promoted often enough to trigger a full collection every few
seconds under load, and a full pass over 1,000 tables stops the event loop for 100 to
900 ms: that, not the work of a version, was the tail latency (issue 17, `docs/perf.md`).
A larger young generation lets those objects die young; full passes become rare.
"""

from __future__ import annotations

import gc

#: objects allocated between two young collections (default 700), then how many young
#: (then middle) collections before the next older one (defaults 10 and 10)
THRESHOLDS = (20_000, 20, 20)


def tune_gc() -> None:
    """Call once the app is built: what startup made (modules, app) is never garbage, so
    it is moved out of the collector's sight; then the larger thresholds apply."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
