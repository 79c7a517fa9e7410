"""Group a server profile's own time (cProfile tottime) by what the code does, per version.

    .venv/bin/python bench/profile_breakdown.py server.prof VERSIONS

Builtins are counted where their callers are (the secret check's `isalnum`/`findall` in
the message build, the thread pool's queue in threads). The writer thread is not profiled
(cProfile follows the main thread only): its SQLite time is in the CPU figure, not here.
"""

from __future__ import annotations

import pstats
import sys
from collections.abc import Callable

Pred = Callable[[str, str], bool]
VIEW_NAMES = ("view", "board_view", "legal_actions", "label", "to_json", "secrets", "hidden")
SOCKETS = ("websockets", "uvicorn", "starlette", "fastapi")

GROUPS: list[tuple[str, Pred]] = [
    ("clone", lambda f, n: n == "clone"),
    (
        "views (engine view, legal, labels)",
        lambda f, n: ("/games/" in f or "/engine/" in f) and any(k in n for k in VIEW_NAMES),
    ),
    ("apply (engine)", lambda f, n: "/games/" in f),
    ("engine other", lambda f, n: "/engine/" in f),
    (
        "message build (log lines, secrets check, seats)",
        lambda f, n: (
            "play/tables.py" in f or any(k in n for k in ("'isalnum'", "'findall'", "builtins.any"))
        ),
    ),
    (
        "write path (writes, scheduler)",
        lambda f, n: any(k in f for k in ("play/writes.py", "play/scheduler.py", "play/base.py")),
    ),
    (
        "store write (SQLAlchemy, sqlite3)",
        lambda f, n: (
            "greenlet" in n
            or any(k in f for k in ("sqlalchemy", "sqlite3", "play/store.py", "aiosqlite"))
        ),
    ),
    ("JSON (orjson, json)", lambda f, n: "json" in f or "orjson" in n or n in ("dumps", "loads")),
    ("sockets (uvicorn, websockets, starlette)", lambda f, n: any(k in f for k in SOCKETS)),
    ("web/ws.py", lambda f, n: "web/" in f),
    ("event loop, tasks, wake-ups", lambda f, n: "asyncio" in f or "uvloop" in f),
    (
        "threads (to_thread, locks)",
        lambda f, n: "threading" in f or "concurrent" in f or "SimpleQueue" in n,
    ),
]


def main() -> None:
    stats = pstats.Stats(sys.argv[1])
    versions = int(sys.argv[2])
    totals = {name: 0.0 for name, _ in GROUPS}
    other = 0.0
    for (path, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        for group, pred in GROUPS:
            if pred(path, name):
                totals[group] += own
                break
        else:
            other += own
    total = sum(totals.values()) + other
    print(f"{total:.2f} s own time, {total * 1e6 / versions:.0f} µs per version (profiled)")
    print("| part | µs per version | share |")
    print("|---|---:|---:|")
    for group, own in sorted(totals.items(), key=lambda x: -x[1]):
        print(f"| {group} | {own * 1e6 / versions:.0f} | {100 * own / total:.0f} % |")
    print(
        f"| other (builtins, dataclasses...) | {other * 1e6 / versions:.0f} | "
        f"{100 * other / total:.0f} % |"
    )


if __name__ == "__main__":
    main()
