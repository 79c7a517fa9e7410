"""Driving a game with bots: the loop shared by `choux simulate`, the tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Sequence

from choux.engine.base import Bot, ChouxError, State
from choux.engine.record import Record


class StuckGame(ChouxError):
    """Nobody acts and no window closes: a bug in a game, never a normal end."""


def play_out(
    state: State, bots: Sequence[Bot], record: Record | None = None, max_steps: int = 100_000
) -> State:
    """Let the bots play until the game ends. Several actors: the shortest delay acts first
    (ties go to the lowest seat); if every actor lets the window pass, its deadline fires."""
    for _ in range(max_steps):
        if state.is_over():
            if record is not None:
                record.close(state)
            return state
        best = None
        best_seat = -1
        for seat in state.actors():
            move = bots[seat].choose(state, seat)
            if move is not None and (best is None or move.delay < best.delay):
                best, best_seat = move, seat
        if best is not None:
            state.apply(best_seat, best.action)
            if record is not None:
                record.append(best_seat, best.action)
            continue
        deadline = state.deadline()
        if deadline is None:
            raise StuckGame("no actor acted and no window is open")
        state.apply(deadline.seat, deadline.action)
        if record is not None:
            record.append(deadline.seat, deadline.action)
    raise StuckGame(f"the game did not end in {max_steps} steps")


def random_rollout(state: State, rng: random.Random, max_steps: int = 20_000) -> State:
    """Finish `state` in place with uniformly random legal play; windows sometimes close."""
    for _ in range(max_steps):
        if state.is_over():
            return state
        actors = state.actors()
        deadline = state.deadline()
        if actors and (deadline is None or rng.random() < 0.7):
            seat = rng.choice(actors)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        elif deadline is not None:
            state.apply(deadline.seat, deadline.action)
        else:
            break
    return state
