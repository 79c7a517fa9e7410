"""Rollouts per second of the Chouine search bot (`ChouineSearch`), the engine's speed as
the bot feels it: a fixed budget of simulations per decision, no clock, on the same
phase-1 positions (2 players) every run; CPU time. Prints whether the engine modules run
compiled (see src/choux/engine/native.py; ``CHOUX_NATIVE=0`` runs them interpreted).

    .venv/bin/python bench/chouine_search_speed.py --positions 30 --simulations 400
"""

from __future__ import annotations

import argparse
import random
import time

from choux.engine.native import is_compiled
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.search import ChouineSearch


def positions(count: int, seed: int) -> list[ChouineState]:
    """Phase-1 positions of random 2-player deals (talon still open)."""
    rng = random.Random(seed)
    found: list[ChouineState] = []
    while len(found) < count:
        state = GAME.new(2, rng.getrandbits(32))
        assert isinstance(state, ChouineState)
        for _ in range(rng.randrange(12)):
            ids = state.legal_action_ids(state.turn)
            state.apply_id(state.turn, rng.choice(ids))
            if state.stage != "play":
                break
        if state.stage == "play" and len(state.talon) >= 2:
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = positions(args.positions, args.seed)
    bot = ChouineSearch(random.Random(args.seed), simulations=args.simulations, seconds=None)
    simulations = 0
    begin = time.process_time()
    for state in states:
        bot.choose(state, state.turn)
        simulations += bot.last_simulations
    spent = time.process_time() - begin
    compiled = is_compiled("choux.games.chouine.state")
    print(f"moteur {'compilé (mypyc)' if compiled else 'interprété'} :")
    print(
        f"  {len(states)} décisions, {simulations:,} simulations en {spent:.2f} s de calcul : "
        f"{simulations / spent:,.0f} simulations/s, {1000 * spent / len(states):.0f} ms/décision"
    )


if __name__ == "__main__":
    main()
