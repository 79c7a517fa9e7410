"""How close the Chouine search's choices come to a much longer search, decision by decision.

Playing deals measures strength, but it needs thousands of deals to see a few points of
difference. This bench is far more sensitive to changes of the search's budget or of how it
spends it (sequential halving, common random numbers: `--common-random`, the solver's
window): it collects the phase-1 decisions of greedy-against-greedy games (a fixed set),
values every legal move of each with many worlds (`--worlds`, the same worlds for every
move: the reference), then lets the expert search decide each one (`--seeds` times,
`--simulations` rollouts, no clock) and prints its mean regret (reference value of the best
move minus that of the move chosen, in the search's own units: 1 = a partie) and how often
it picked the reference's best move.

The reference uses the same rollout policy and evaluation as the bot: changes to those
cannot be judged here (play deals: `expert_vs_greedy.py`).

    .venv/bin/python bench/chouine_search_regret.py --games 8 --worlds 500 --reference /tmp/ref.pkl
    .venv/bin/python bench/chouine_search_regret.py --reference /tmp/ref.pkl --simulations 600
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import time

from choux import games
from choux.games.chouine import search
from choux.games.chouine.bots import expert_bot
from choux.games.chouine.state import PLAY, ChouineState

Reference = list[tuple[ChouineState, int, list[str], list[float]]]


def decisions(count: int) -> list[tuple[ChouineState, int]]:
    """The phase-1 decisions with a choice of `count` greedy-against-greedy games."""
    game = games.get("chouine")
    found = []
    for number in range(count):
        state = game.new(2, 500 + number)
        assert isinstance(state, ChouineState)
        bots = [game.make_bot("greedy", random.Random(number * 3 + s)) for s in range(2)]
        while state.stage == PLAY:
            seat = state.turn
            if state.talon and len(state.legal_actions(seat)) > 1:
                found.append((state.clone(), seat))
            move = bots[seat].choose(state, seat)
            assert move is not None
            state.apply(seat, move.action)
    return found


def reference(count: int, worlds: int) -> Reference:
    bot = expert_bot(random.Random(12345), 300, None)
    bot.common_random = True  # the reference of the figures in docs/perf.md was made so
    out: Reference = []
    for state, seat in decisions(count):
        actions = state.legal_actions(seat)
        alive = list(range(len(actions)))
        totals = [0.0] * len(actions)
        for _ in range(worlds):
            values = bot._play_world(state, seat, [(a,) for a in actions], alive, None)
            assert values is not None
            for i, value in enumerate(values):
                totals[i] += value
        out.append((state, seat, [str(a) for a in actions], [t / worlds for t in totals]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games giving the decisions")
    parser.add_argument("--worlds", type=int, default=500, help="worlds of the reference")
    parser.add_argument("--reference", default=None, help="file keeping the reference")
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=2, help="times each decision is made")
    parser.add_argument("--common-random", action="store_true", help="same rollout stream")
    parser.add_argument("--cap", type=int, default=None, help="the solver's margin window")
    args = parser.parse_args()
    if args.reference and os.path.exists(args.reference):
        with open(args.reference, "rb") as file:
            ref: Reference = pickle.load(file)  # a file this bench wrote
    else:
        begin = time.perf_counter()
        ref = reference(args.games, args.worlds)
        print(f"référence : {len(ref)} décisions, {time.perf_counter() - begin:.0f} s")
        if args.reference:
            with open(args.reference, "wb") as file:
                pickle.dump(ref, file)
    if args.cap is not None:
        search.MARGIN_CAP = args.cap
    regret = 0.0
    best = count = 0
    cpu = time.process_time()
    for seed in range(args.seeds):
        for number, (state, seat, names, values) in enumerate(ref):
            bot = expert_bot(random.Random(1000 * seed + number), args.simulations, None)
            bot.common_random = args.common_random
            move = bot.choose(state, seat)
            assert move is not None
            chosen = values[names.index(str(move.action))]
            regret += max(values) - chosen
            best += chosen == max(values)
            count += 1
    print(
        f"{args.simulations} simulations"
        f"{', nombres aléatoires communs' if args.common_random else ''}"
        f"{'' if args.cap is None else f', fenêtre {args.cap}'} : regret moyen "
        f"{regret / count:.4f}, meilleur coup {100 * best / count:.1f} %, "
        f"{1000 * (time.process_time() - cpu) / count:.0f} ms de calcul par décision "
        f"({count} décisions)"
    )


if __name__ == "__main__":
    main()
