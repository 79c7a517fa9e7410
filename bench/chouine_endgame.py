"""Time of the exact phase-2 solver of Chouine (two players), on real endgames.

Greedy bots play seeded deals until the talon is empty; there the solver finds the exact
margin and a best move from a cold transposition table, then plays the endgame out (the
later decisions reuse the table, as in a game). Prints the median, 95th percentile and
worst times, and the nodes searched.

    .venv/bin/python bench/chouine_endgame.py --deals 500
"""

from __future__ import annotations

import argparse
import random
import time

from choux.games.chouine import GAME, ChouineState, endgame
from choux.games.chouine.bots import GreedyBot


def percentiles(times: list[float]) -> str:
    times.sort()
    middle = times[len(times) // 2]
    p95 = times[int(0.95 * (len(times) - 1))]
    return f"médiane {1000 * middle:.2f} ms, 95 % sous {1000 * p95:.2f} ms, pire {1000 * times[-1]:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    args = parser.parse_args()
    cold: list[float] = []
    warm: list[float] = []
    nodes: list[int] = []
    for seed in range(args.deals):
        state = GAME.new(2, seed)
        assert isinstance(state, ChouineState)
        bot = GreedyBot(random.Random(seed))
        while state.stage == "play" and state.talon:
            move = bot.choose(state, state.turn)
            assert move is not None
            state.apply(state.turn, move.action)
        if state.stage != "play":
            continue  # a Chouine ended the partie in phase 1
        endgame._solver.cache_clear()  # a cold table: the first decision of the endgame
        begin = time.process_time()
        _, action = endgame.solve(state)
        cold.append(time.process_time() - begin)
        nodes.append(endgame.solver_for(state).nodes)
        state.apply(state.turn, action)
        while state.stage == "play":
            begin = time.process_time()
            _, action = endgame.solve(state)
            warm.append(time.process_time() - begin)
            state.apply(state.turn, action)
    nodes.sort()
    print(f"Solveur exact de fin de donne (Chouine à deux), {len(cold)} fins de donne :")
    print(f"  première décision (table vide, 5 cartes chacun) : {percentiles(cold)}")
    print(f"  nœuds cherchés : médiane {nodes[len(nodes) // 2]}, pire {nodes[-1]}")
    print(f"  décisions suivantes (table déjà remplie) : {percentiles(warm)}")


if __name__ == "__main__":
    main()
