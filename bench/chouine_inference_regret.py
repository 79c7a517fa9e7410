"""Does the Chouine search's inference of the opponent's hand choose better moves?

Playing deals needs thousands of pairs to see a few points; this bench judges the sampling
of worlds (`ChouineSearch.inference`, `search.MODEL_TEMPERATURE`) decision by decision. It
collects the phase-1 decisions with a choice of greedy-against-greedy games (the deciding
seat's opponent is the greedy bot, as in `expert_vs_greedy.py`) and values every legal move
of each in worlds that hold the opponent's **real** hand, the talon re-dealt (`--worlds` of
them, the same for every move: the truth as far as the seat could ever know it). A search
whose worlds are closer to the real hands picks moves worth more there: the bench prints
the mean truth value of the moves each configuration picks (1 = a partie), its regret
against the best move in the truth, and how often it picked that move.

    .venv/bin/python bench/chouine_inference_regret.py --games 20 --reference /tmp/truth.pkl
    .venv/bin/python bench/chouine_inference_regret.py --reference /tmp/truth.pkl \
        --inference 1,8 --temperature 3
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
from choux.games.chouine.rules import hand_mask
from choux.games.chouine.state import PLAY, ChouineState

Reference = list[tuple[ChouineState, int, list[str], list[float]]]
#: what the reference file keeps: the games' count and each decision's moves and values
#: (the positions are played again from their seeds: a compiled state does not pickle)
Stored = tuple[int, list[tuple[list[str], list[float]]]]


def decisions(count: int) -> list[tuple[ChouineState, int]]:
    """The phase-1 decisions with a choice of `count` greedy-against-greedy games."""
    game = games.get("chouine")
    found = []
    for number in range(count):
        state = game.new(2, 900 + number)
        assert isinstance(state, ChouineState)
        bots = [game.make_bot("greedy", random.Random(number * 5 + s)) for s in range(2)]
        while state.stage == PLAY:
            seat = state.turn
            if state.talon and len(state.legal_actions(seat)) > 1:
                found.append((state.clone(), seat))
            move = bots[seat].choose(state, seat)
            assert move is not None
            state.apply(seat, move.action)
    return found


def truth_world(state: ChouineState, seat: int, rng: random.Random) -> ChouineState:
    """A world with the opponent's real hand; only the talon's order is drawn again."""
    world = state.determinize(seat, rng)
    other = 1 - seat
    real = state.hands[other]
    pool = sorted(c for c in state.hidden_cards(seat) if c not in real)
    rng.shuffle(pool)
    world.hands[other] = real[:]
    world.set_mask(other, hand_mask(real))
    world.talon = [state.talon[0], *pool] if state.talon else []
    return world


def reference(count: int, worlds: int) -> Reference:
    bot = expert_bot(random.Random(12345), 300, None)
    rng = random.Random(777)
    out: Reference = []
    for state, seat in decisions(count):
        actions = state.legal_actions(seat)
        totals = [0.0] * len(actions)
        for _ in range(worlds):
            world = truth_world(state, seat, rng)
            for i, action in enumerate(actions):
                sim = world.clone()
                sim.apply(seat, action)
                totals[i] += bot._rollout(state, sim, seat)
        out.append((state, seat, [str(a) for a in actions], [t / worlds for t in totals]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games giving the decisions")
    parser.add_argument("--worlds", type=int, default=100, help="truth worlds a move")
    parser.add_argument("--reference", default=None, help="file keeping the reference")
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=2, help="times each decision is made")
    parser.add_argument("--inference", default="1,8", help="candidate worlds, comma-separated")
    parser.add_argument("--temperature", type=float, default=None, help="the model's softness")
    args = parser.parse_args()
    if args.reference and os.path.exists(args.reference):
        with open(args.reference, "rb") as file:
            stored: Stored = pickle.load(file)  # a file this bench wrote
        games_count, moves = stored
        positions = decisions(games_count)
        ref = [(s, seat, n, v) for (s, seat), (n, v) in zip(positions, moves, strict=True)]
    else:
        begin = time.perf_counter()
        ref = reference(args.games, args.worlds)
        print(f"référence : {len(ref)} décisions, {time.perf_counter() - begin:.0f} s")
        if args.reference:
            with open(args.reference, "wb") as file:
                pickle.dump((args.games, [(names, v) for _, _, names, v in ref]), file)
    if args.temperature is not None:
        search.MODEL_TEMPERATURE = args.temperature
    for inference in (int(k) for k in args.inference.split(",")):
        value = regret = 0.0
        best = count = 0
        cpu = time.process_time()
        for seed in range(args.seeds):
            for number, (state, seat, names, values) in enumerate(ref):
                bot = expert_bot(random.Random(1000 * seed + number), args.simulations, None)
                bot.inference = inference
                move = bot.choose(state, seat)
                assert move is not None
                chosen = values[names.index(str(move.action))]
                value += chosen
                regret += max(values) - chosen
                best += chosen == max(values)
                count += 1
        print(
            f"{args.simulations} simulations, inférence {inference}"
            f" (température {search.MODEL_TEMPERATURE}) : valeur moyenne {value / count:.4f}, "
            f"regret {regret / count:.4f}, meilleur coup {100 * best / count:.1f} %, "
            f"{1000 * (time.process_time() - cpu) / count:.0f} ms de calcul par décision "
            f"({count} décisions)",
            flush=True,
        )


if __name__ == "__main__":
    main()
