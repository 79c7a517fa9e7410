"""Replays of finished games, built off the event loop, one at a time, and kept.

A replay is rebuilt from the record by playing every move again, with a view per step: a
long Cul de Chouette of bots (18,000 steps) took over a second of CPU and made a 40 MB
page. Built inside the request, every fetch stalled every table of the process (a security
audit: eight fetches at once held an unrelated request for 1.2 s). Now the work runs in a
thread, one build at a time, and the JSON it gives is kept for the next asker (records never
change) within a memory budget; the routes also have a rate limit of their own
(`CHOUX_LIMIT_REPLAY`).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

#: bytes of JSON kept in all (the largest replays are built again when asked for)
BUDGET = 48 * 1024 * 1024

T = TypeVar("T")


def compact_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The steps as a page gets them: the first with its whole view, each next one with
    only the view's keys that changed (`changes`) and those gone (`gone`). A long game's
    views repeat most of themselves from move to move (La parlote's recap, results and
    colours: about 20 KB a step), so its replay was tens of megabytes for a phone.

    >>> steps = [{"view": {"a": 1, "b": [2]}, "log": []}, {"view": {"a": 1, "b": [3]}, "log": ["x"]},
    ...          {"view": {"a": 1}, "log": []}]
    >>> compact_steps(steps)[1:]
    [{'log': ['x'], 'changes': {'b': [3]}}, {'log': [], 'changes': {}, 'gone': ['b']}]
    >>> expand_steps(compact_steps(steps)) == steps
    True
    """
    compact: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for step in steps:
        view = step["view"]
        if previous is None:
            compact.append(step)
        else:
            short = {k: v for k, v in step.items() if k != "view"}
            short["changes"] = {k: v for k, v in view.items() if previous.get(k, _NONE) != v}
            gone = [k for k in previous if k not in view]
            if gone:
                short["gone"] = gone
            compact.append(short)
        previous = view
    return compact


def expand_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`compact_steps` undone (what `static/js/replay.js` does on the page)."""
    whole: list[dict[str, Any]] = []
    view: dict[str, Any] = {}
    for step in steps:
        if "view" in step:
            view = step["view"]
            whole.append(step)
            continue
        view = {**view, **step["changes"]}
        for key in step.get("gone", []):
            del view[key]
        rest = {k: v for k, v in step.items() if k not in ("changes", "gone")}
        whole.append({"view": view, **rest})
    return whole


_NONE = object()


def compact_json(value: object, **options: object) -> str:
    """JSON without spaces (a replay's steps are many)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), **options)  # type: ignore[arg-type]


class Replays:
    """Built replays (any value with a size in bytes) by key, least recently used out."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.kept: OrderedDict[tuple[object, ...], tuple[object, int]] = OrderedDict()
        self.size = 0
        self._building: asyncio.Lock | None = None

    async def get(self, key: tuple[object, ...], build: Callable[[], tuple[T, int]]) -> T:
        """The value kept under `key`, else `build()` (value, size in bytes) run in a
        thread, after any other build of this process."""
        found = self._take(key)
        if found is not None:
            return found  # type: ignore[return-value]
        if self._building is None:
            self._building = asyncio.Lock()
        async with self._building:
            found = self._take(key)  # built while this one waited
            if found is not None:
                return found  # type: ignore[return-value]
            value, size = await asyncio.to_thread(build)
        self._keep(key, value, size)
        return value

    def _take(self, key: tuple[object, ...]) -> object | None:
        entry = self.kept.get(key)
        if entry is None:
            return None
        self.kept.move_to_end(key)
        return entry[0]

    def _keep(self, key: tuple[object, ...], value: object, size: int) -> None:
        if size > self.budget // 4 or key in self.kept:
            return  # one huge replay must not push all the others out
        self.kept[key] = (value, size)
        self.size += size
        while self.size > self.budget:
            _, (_, dropped) = self.kept.popitem(last=False)
            self.size -= dropped
