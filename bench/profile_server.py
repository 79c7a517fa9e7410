"""A server for `bench/web_tables.py` that profiles itself and times the GC (issue 17).

    PROFILE=1 BENCH_SIGNAL_PLAY=1 BENCH_SERVER=bench/profile_server.py \\
        .venv/bin/python bench/web_tables.py --tables 300 --think 1.0 --seconds 20 \\
        --spectators 1 --pin
    .venv/bin/python bench/profile_breakdown.py server.prof VERSIONS

With PROFILE=1, cProfile starts at SIGUSR1 (sent by the bench when play starts) and the
stats go to $PROFILE_OUT (server.prof; "{pid}" in it is replaced by the process id);
PROFILE_DELAY=S starts it S seconds later (once the sockets are open). Always: every garbage collection is timed, and a
summary per generation goes to $GC_OUT (gc.json) when the server stops.
"""

from __future__ import annotations

import cProfile
import gc
import json
import os
import signal
import sys
import time
from typing import Any

from choux.web.server import run

pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
started = [0.0]


def on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        pauses[info["generation"]].append(time.perf_counter() - started[0])


def main() -> None:
    gc.callbacks.append(on_gc)
    # PROFILE=cpu: CPU time (process_time) instead of wall time, which counts the time the
    # process waited for a core as « own time » on a loaded machine
    timer = time.process_time if os.environ.get("PROFILE") == "cpu" else time.perf_counter
    prof = cProfile.Profile(timer) if os.environ.get("PROFILE") else None
    if prof is not None:
        # PROFILE_DELAY=S: from S whole seconds after play starts (the sockets open first)
        delay = int(os.environ.get("PROFILE_DELAY", "0"))
        signal.signal(signal.SIGALRM, lambda *_: prof.enable())
        signal.signal(signal.SIGUSR1, lambda *_: signal.alarm(delay) if delay else prof.enable())
    try:
        run(host="127.0.0.1", port=int(sys.argv[1]), database_url=sys.argv[2])
    finally:
        if prof is not None:
            prof.disable()
            # "{pid}" in the name: one file per process (several processes profiled)
            prof.dump_stats(os.environ.get("PROFILE_OUT", "server.prof").format(pid=os.getpid()))
        summary = {
            gen: {"count": len(p), "total_ms": sum(p) * 1000, "max_ms": max(p, default=0) * 1000}
            for gen, p in pauses.items()
        }
        with open(os.environ.get("GC_OUT", "gc.json"), "w") as out:
            json.dump(summary, out)


if __name__ == "__main__":
    main()
