"""Checking views for leaks: the one test every view must pass before it leaves the server."""

from __future__ import annotations

from choux.engine.base import Seat, State


def strings_in(value: object) -> set[str]:
    """Every string leaf and dict key of a JSON value.

    >>> sorted(strings_in({"hand": ["AH", "7S"], "n": 3}))
    ['7S', 'AH', 'hand', 'n']
    """
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def leaked_secrets(state: State, seat: Seat | None) -> set[str]:
    """The secrets of `seat` (cards it may not see...) that its view would show."""
    return state.secrets(seat) & strings_in(state.view(seat))
