"""The log filter that keeps a repeated warning to one line a minute."""

from __future__ import annotations

import logging

from choux.web.log_repeats import Repeats


def record(msg: str, *args: object, level: int = logging.WARNING) -> logging.LogRecord:
    return logging.LogRecord("choux.play", level, __file__, 1, msg, args, None)


def test_the_same_kind_of_warning_is_said_once_a_window_with_the_count_left_out() -> None:
    now = [0.0]
    repeats = Repeats(window=60, clock=lambda: now[0])
    template = "table %s: append %s not stored: %s"
    assert repeats.filter(record(template, 1, 8, "disk full"))
    for table in range(2, 50):  # other tables, same failure: one kind
        now[0] += 1
        assert not repeats.filter(record(template, table, 3, "disk full"))
    assert repeats.filter(record("pub/sub listener: %s (retrying)", "down"))  # another kind
    now[0] = 61.0
    later = record(template, 7, 9, "disk full")
    assert repeats.filter(later)
    assert later.getMessage().endswith("(48 more like this in the last 60 s)")
    now[0] = 200.0
    quiet = record(template, 7, 10, "disk full")
    assert repeats.filter(quiet) and "more like this" not in quiet.getMessage()


def test_info_lines_all_pass() -> None:
    repeats = Repeats(window=60, clock=lambda: 0.0)
    assert all(
        repeats.filter(record("log-in refused for %s from %s", "x", "y", level=logging.INFO))
        for _ in range(5)
    )
