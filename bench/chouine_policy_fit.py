"""Distil the search into a rollout policy (`card_policy.py`): one step of expert iteration.

Plays `--games` two-player parties with a search level on both seats (its registered
settings, `--simulations` rollouts a decision, no clock) until the talon is empty. At every
decision of phase 1 between plain cards only, it records what the seat sees of each card
(`card_features`) and the mean value the search gave it. Then fits, per model (lead or
answer, stage of the talon), a linear scorer of the values centred within each decision,
by least squares with a small ridge, in plain Python. Prints, on held-out parties (every
fifth), how often the scorer's best card is the search's choice, against the rollout
policy the search used (`rollout_move`). `--write` stores the weights (fitted on all the
parties) in `src/choux/games/chouine/card_policy_weights.py`; `--out FILE` writes them as
JSON.

`--value-out FILE` also fits the cut's evaluation (`search.value_estimate`) on the same
parties, with the search's own values as targets: at every searched decision at a trick's
start the best candidate's mean value is the position's value for the seat to move (one
minus it for the other seat: the search's values sum to one over the two seats). Those
targets value a position as the search plays it on, with far less noise than the outcome
of one rollout (`bench/chouine_value_fit.py`); the weights go to FILE as JSON, for
`bench/expert_vs_greedy.py --value-weights`.

    nice -n 5 .venv/bin/python bench/chouine_policy_fit.py --games 3000 --jobs 2 --write
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from pathlib import Path

from chouine_value_fit import (  # bench/ is the script's folder, hence on sys.path
    Sample,
    fit_by_talon,
    print_held_out,
    solve_linear,
    write_json,
    write_weights_module,
)
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import action_id
from choux.games.chouine.bots import expert_bot, maitre_bot
from choux.games.chouine.card_policy import FEATURES, candidate_features, model_key
from choux.games.chouine.search import rollout_move, value_features
from choux.games.chouine.state import PLAY

WEIGHTS_FILE = (
    Path(__file__).resolve().parent.parent / "src/choux/games/chouine/card_policy_weights.py"
)
RIDGE = 0.5

#: (model key, features of each candidate, the search's value of each, its choice's index,
#: the rollout rule's choice's index)
Decision = tuple[int, list[list[float]], list[float], int, int]


def play_party(
    task: tuple[int, str, int, list[tuple[str, int]]],
) -> tuple[list[Decision], list[Sample]]:
    """One party of the search level on both seats (`settings`: integer attributes of its
    search bot set otherwise); its recorded decisions, and the positions at a trick's start
    valued by the search (both seats: `value_features`, the best candidate's value)."""
    seed, level, simulations, settings = task
    factory = maitre_bot if level == "maitre" else expert_bot
    bots = [factory(random.Random(seed * 2 + s), simulations, None) for s in (0, 1)]
    for bot in bots:
        for name, value in settings:
            getattr(bot, name)  # an unknown name fails here
            setattr(bot, name, value)
    rule_rng = random.Random(seed)
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    decisions: list[Decision] = []
    samples: list[Sample] = []
    while state.stage == PLAY and state.talon:
        seat = state.turn
        ids = list(state.legal_action_ids(seat))
        chosen = bots[seat].choose(state, seat)
        assert chosen is not None
        values = bots[seat].last_values
        if values is not None and not state.trick and 2 <= len(state.talon) <= 20:
            value = max(values)
            talon = len(state.talon)
            samples.append((talon, value_features(state, seat), value))
            samples.append((talon, value_features(state, 1 - seat), 1.0 - value))
        if values is not None and len(ids) > 1 and ids[-1] < 32:
            actions = state.legal_actions(seat)
            cards = [action_id(a) for a in actions]
            rule = rollout_move(state, seat, rule_rng)
            decisions.append(
                (
                    model_key(bool(state.trick), len(state.talon)),
                    candidate_features(state, seat, cards),
                    list(values),
                    cards.index(action_id(chosen.action)),
                    cards.index(rule),
                )
            )
        state.apply(seat, chosen.action)
    return decisions, samples


class CentredFit:
    """Normal equations of a linear model of values centred within each decision."""

    def __init__(self) -> None:
        self.xtx = [[0.0] * FEATURES for _ in range(FEATURES)]
        self.xty = [0.0] * FEATURES
        self.count = 0

    def add(self, features: list[list[float]], values: list[float]) -> None:
        k = len(values)
        mean_x = [sum(x[i] for x in features) / k for i in range(FEATURES)]
        mean_y = sum(values) / k
        for x, y in zip(features, values, strict=True):
            d = [xi - m for xi, m in zip(x, mean_x, strict=True)]
            dy = y - mean_y
            self.count += 1
            for i, di in enumerate(d):
                if di:
                    row = self.xtx[i]
                    for j in range(FEATURES):
                        row[j] += di * d[j]
                    self.xty[i] += di * dy

    def solve(self) -> list[float]:
        a = [row[:] for row in self.xtx]
        for i in range(FEATURES):
            a[i][i] += RIDGE
        return solve_linear(a, self.xty[:])


def best(weights: list[float], features: list[list[float]]) -> int:
    scores = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in features]
    return max(range(len(scores)), key=scores.__getitem__)


def fit_values(parties: list[list[Sample]], path: str) -> None:
    """Fit the cut's evaluation per talon size on the search-valued positions; print each
    model's held-out error (every fifth party) against the bare mean; write the weights
    fitted on all the parties to `path` as JSON."""
    train, full, held = fit_by_talon(parties)
    print("evaluation, on the search's values:")
    print_held_out(train, held)
    write_json(full, path)
    print(f"evaluation weights written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=700_000, help="first deal's seed")
    parser.add_argument("--level", choices=["expert", "maitre"], default="expert")
    parser.add_argument("--simulations", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--bot-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an integer attribute of the teaching search bots (rollout_policy=4: the "
        "policy distilled so far rolls out their worlds: the next step of the iteration)",
    )
    parser.add_argument("--write", action="store_true", help="store the weights")
    parser.add_argument("--out", default=None, help="write the weights to this JSON file")
    parser.add_argument(
        "--value-out", default=None, help="fit the cut's evaluation too, to this JSON file"
    )
    args = parser.parse_args()
    begin = time.perf_counter()
    settings = [(n, int(v)) for n, _, v in (s.partition("=") for s in args.bot_set)]
    tasks = [
        (args.seed + game, args.level, args.simulations, settings) for game in range(args.games)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        played = list(pool.imap(play_party, tasks, chunksize=4))
    parties = [decisions for decisions, _ in played]
    train: dict[int, CentredFit] = {}
    full: dict[int, CentredFit] = {}
    held: list[Decision] = []
    for game, party in enumerate(parties):
        for decision in party:
            key, features, values = decision[0], decision[1], decision[2]
            if game % 5 == 4:
                held.append(decision)
            else:
                train.setdefault(key, CentredFit()).add(features, values)
            full.setdefault(key, CentredFit()).add(features, values)
    print(
        f"{args.games} parties, {sum(len(p) for p in parties)} decisions, "
        f"{time.perf_counter() - begin:.0f} s"
    )
    print(
        "model  train cards  held-out decisions  search's card: fitted  rule  regret: fitted  rule"
    )
    for key in sorted(train):
        w = train[key].solve()
        rows = [d for d in held if d[0] == key]
        agree = sum(best(w, d[1]) == d[3] for d in rows)
        rule = sum(d[4] == d[3] for d in rows)
        regret = sum(max(d[2]) - d[2][best(w, d[1])] for d in rows)
        rule_regret = sum(max(d[2]) - d[2][d[4]] for d in rows)
        n = max(1, len(rows))
        print(
            f"{key:5d} {train[key].count:12d} {len(rows):19d} {100 * agree / n:20.1f} % "
            f"{100 * rule / n:4.1f} % {regret / n:14.4f} {rule_regret / n:6.4f}"
        )
    if args.value_out:
        fit_values([samples for _, samples in played], args.value_out)
    table = {key: [round(v, 5) for v in full[key].solve()] for key in sorted(full)}
    if args.out:
        Path(args.out).write_text(json.dumps(table))
        print(f"weights written to {args.out}")
    if args.write:
        write_weights_module(WEIGHTS_FILE, "CARD_WEIGHTS", table)


if __name__ == "__main__":
    main()
