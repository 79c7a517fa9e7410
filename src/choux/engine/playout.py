"""Driving a game with bots: the loop shared by `choux simulate`, the tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from choux.engine.base import Action, Bot, BotMove, ChouxError, Seat, State
from choux.engine.record import Record


class StuckGame(ChouxError):
    """Nobody acts and no window closes: a bug in a game, never a normal end."""


def first_mover(choices: Iterable[tuple[Seat, BotMove | None]]) -> tuple[Seat, BotMove] | None:
    """Of several bots' decisions (seat, move or None to let the window pass), the one that
    acts first: the shortest delay, ties to the earliest in `choices` (the lowest seat when
    they come in seat order). None when every bot lets the window pass.

    >>> from choux.engine.base import Action
    >>> first_mover([(0, None), (1, BotMove(Action(), 2.0)), (2, BotMove(Action(), 0.5))])
    (2, BotMove(action=Action(), delay=0.5))
    """
    best: tuple[Seat, BotMove] | None = None
    for seat, move in choices:
        if move is not None and (best is None or move.delay < best[1].delay):
            best = (seat, move)
    return best


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
        chosen = first_mover((seat, bots[seat].choose(state, seat)) for seat in state.actors())
        if chosen is not None:
            seat, move = chosen
            state.apply(seat, move.action)
            if record is not None:
                record.append(seat, move.action)
            continue
        deadline = state.deadline()
        if deadline is None:
            raise StuckGame("no actor acted and no window is open")
        state.apply(deadline.seat, deadline.action)
        if record is not None:
            record.append(deadline.seat, deadline.action)
    raise StuckGame(f"the game did not end in {max_steps} steps")


def random_step(
    state: State, rng: random.Random, keep_open: float = 1.0
) -> tuple[Seat | None, Action] | None:
    """One random move, in place: a random actor's random legal action, or the open window's
    closing (only when nobody may act, unless `keep_open` < 1: then also with probability
    1 − `keep_open`). The move made (for a record), None when nothing can happen."""
    actors = state.actors()
    deadline = state.deadline()
    if actors and (deadline is None or keep_open >= 1.0 or rng.random() < keep_open):
        seat = rng.choice(actors)
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        return seat, action
    if deadline is not None:
        state.apply(deadline.seat, deadline.action)
        return deadline.seat, deadline.action
    return None


def random_rollout(state: State, rng: random.Random, max_steps: int = 20_000) -> State:
    """Finish `state` in place with uniformly random legal play; windows sometimes close."""
    for _ in range(max_steps):
        if state.is_over() or not random_step(state, rng, keep_open=0.7):
            return state
    return state
