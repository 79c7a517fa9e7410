"""Bytes of a finished game's replay as the page gets it, whole and compacted
(`web.replays.compact_steps`): one random game per game (seed 11, moves drawn with seed 5,
at most 3,000 moves), the spectator's view.

    .venv/bin/python bench/replay_sizes.py
"""

from __future__ import annotations

import copy
import random

from choux import games
from choux.engine.playout import random_step
from choux.engine.record import film, start
from choux.web.replays import compact_json, compact_steps

GAMES = (("chouine", 2), ("chouineurs", 4), ("cul-de-chouette", 4), ("parlote", 4))
MAX_MOVES = 3000


def main() -> None:
    for name, players in GAMES:
        game = games.get(name)
        state, record = start(game, players, 11, names=[f"P{i}" for i in range(players)])
        rng = random.Random(5)
        while not state.is_over() and len(record.actions) < MAX_MOVES:
            move = random_step(state, rng)
            if move is None:
                break
            record.append(*move)
        steps = film(record, game, None).steps
        whole = len(compact_json(steps))
        sent = len(compact_json(compact_steps(copy.deepcopy(steps))))
        print(
            f"{name} at {players}: {len(steps)} steps (finished: {state.is_over()}), "
            f"{whole / 1e6:.2f} MB whole, {sent / 1e6:.2f} MB compacted ({whole / sent:.1f}×)"
        )


if __name__ == "__main__":
    main()
