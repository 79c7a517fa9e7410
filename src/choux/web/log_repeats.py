"""A log filter that keeps a repeated warning to one line per window: a full disk wrote two
lines every 2 s for every table, and a Redis away one line a second per process, burying
what else the log had to say (an operator's audit)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: seconds during which the same kind of line (logger and message template) is said once
WINDOW = 60.0


class Repeats(logging.Filter):
    """Lets the first line of a kind through, then at most one a `window`, which says how
    many like it were left out since. A kind is the logger and the message's template, not
    its arguments: the same failure at a hundred tables is one kind."""

    def __init__(self, window: float = WINDOW, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window = window
        self.clock = clock
        #: kind -> (when it was last let through, lines left out since)
        self.seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING or record.exc_info:
            # info and debug lines are asked for; errors and tracebacks each tell their own
            # story (Uvicorn says « Exception in ASGI application » for every crash)
            return True
        kind = (record.name, str(record.msg))
        now = self.clock()
        last = self.seen.get(kind)
        if last is not None and now - last[0] < self.window:
            self.seen[kind] = (last[0], last[1] + 1)
            return False
        if last is not None and last[1]:
            record.msg = f"{record.msg} ({last[1]} more like this in the last {self.window:.0f} s)"
        self.seen[kind] = (now, 0)
        if len(self.seen) > 1000:  # many kinds: forget the oldest
            for old in sorted(self.seen, key=lambda k: self.seen[k][0])[:500]:
                del self.seen[old]
        return True
