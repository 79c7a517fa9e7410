"""Record the search's decisions for the neural rollout policy (`net_policy.py`).

Plays `--games` two-player parties with a search level on both seats (its registered
settings, `--simulations` rollouts a decision, no clock) until the talon is empty. At every
decision of phase 1 between plain cards only, writes one JSON line: what the seat sees
(`net_policy.observe`), the candidate cards, their `card_features`, the search's mean value
of each and its choice. `bench/chouine_net_fit.py` fits the network on such files.

    nice -n 5 .venv/bin/python bench/chouine_net_record.py --games 6000 --jobs 2 --out d1.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import action_id
from choux.games.chouine.bots import expert_bot, maitre_bot
from choux.games.chouine.card_policy import candidate_features
from choux.games.chouine.net_policy import observe
from choux.games.chouine.state import PLAY


def play_party(task: tuple[int, str, int, list[tuple[str, int]]]) -> list[str]:
    """One party of the search level on both seats; its decisions as JSON lines."""
    seed, level, simulations, settings = task
    factory = maitre_bot if level == "maitre" else expert_bot
    bots = [factory(random.Random(seed * 2 + s), simulations, None) for s in (0, 1)]
    for bot in bots:
        for name, value in settings:
            getattr(bot, name)  # an unknown name fails here
            setattr(bot, name, value)
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    lines: list[str] = []
    while state.stage == PLAY and state.talon:
        seat = state.turn
        ids = list(state.legal_action_ids(seat))
        chosen = bots[seat].choose(state, seat)
        assert chosen is not None
        values = bots[seat].last_values
        if values is not None and len(ids) > 1 and ids[-1] < 32:
            cards = [action_id(a) for a in state.legal_actions(seat)]
            record = {
                "seed": seed,
                "obs": list(observe(state, seat)),
                "cards": cards,
                "feats": candidate_features(state, seat, cards),
                "values": [round(v, 5) for v in values],
                "chosen": cards.index(action_id(chosen.action)),
            }
            lines.append(json.dumps(record, separators=(",", ":")))
        state.apply(seat, chosen.action)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=2_000_000, help="first deal's seed")
    parser.add_argument("--level", choices=["expert", "maitre"], default="expert")
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bot-set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    begin = time.perf_counter()
    settings = [(n, int(v)) for n, _, v in (s.partition("=") for s in args.bot_set)]
    tasks = [(args.seed + g, args.level, args.simulations, settings) for g in range(args.games)]
    count = 0
    with open(args.out, "w", encoding="utf-8") as out, multiprocessing.Pool(args.jobs) as pool:
        for lines in pool.imap(play_party, tasks, chunksize=4):
            for line in lines:
                out.write(line + "\n")
            count += len(lines)
    print(f"{args.games} parties, {count} decisions, {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
