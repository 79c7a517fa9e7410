"""Cul de Chouette random play, in detail: turns per second, actions per turn and the cost
of one action, in CPU time (steadier than the wall clock on a shared machine).

Run: `.venv/bin/python bench/cdc_turns.py [--seconds S] [--players N]`. Results go in
docs/perf.md. The loop is `choux.engine.playout.random_rollout`'s (any actor, any legal
action, the clock 30 % of the time in a window), counting the actions.
"""

from __future__ import annotations

import argparse
import random
import time

from choux import games
from choux.engine.base import JSON

OPTIONS: dict[str, dict[str, JSON]] = {
    "default options": {},
    "without the −10 button": {"bouton_bevue": False},
}


def measure(players: int, options: dict[str, JSON], seconds: float) -> tuple[float, float, float]:
    """(turns/s, actions per turn, µs per action) over whole random games (20,000 actions
    at most each, as in `random_rollout`)."""
    game = games.get("cul-de-chouette")
    full = game.validate_options(players, options)
    rng = random.Random(1)
    actions = turns = played = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.create(players, 1 + played, full)
        played += 1
        for _ in range(20_000):
            if state.is_over():
                break
            actors = state.actors()
            deadline = state.deadline()
            if actors and (deadline is None or rng.random() < 0.7):
                seat = rng.choice(actors)
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            elif deadline is not None:
                state.apply(deadline.seat, deadline.action)
            actions += 1
        turns += game.count_units(state)
    spent = time.process_time() - start
    return turns / spent, actions / turns, 1e6 * spent / actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"Cul de Chouette, {args.players} players, random play, CPU time")
    print(f"{'options':<26} {'turns/s':>9} {'actions/turn':>13} {'µs/action':>10}")
    for label, options in OPTIONS.items():
        rate, per_turn, cost = measure(args.players, options, args.seconds)
        print(f"{label:<26} {rate:>9,.0f} {per_turn:>13.1f} {cost:>10.2f}")


if __name__ == "__main__":
    main()
