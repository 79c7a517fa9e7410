"""Fit the evaluation that cuts the search's rollouts short (`search.value_estimate`).

Plays `--games` two-player parties with the search's rollout policy (`rollout_move`) on
both sides until the talon is empty, records at every trick's start the features of both
seats (`value_features`), and values each party for each seat as the search does at the
empty talon (the exact solver, `partie_margin`). Then fits one linear model per talon size
by least squares (a small ridge), in plain Python, and prints for each the mean squared
error on held-out parties (every fifth) against the bare mean: how much of a rollout's
noise the evaluation explains. `--write` stores the weights (fitted on all the parties) in
`src/choux/games/chouine/value_weights.py`.

`--policy 4` plays the parties with the distilled policy (`search.learned_move`), so that
the fit values that policy's rollouts; `--out FILE` writes the weights as JSON (for
`bench/expert_vs_greedy.py --value-weights`).

    .venv/bin/python bench/chouine_value_fit.py --games 20000 --write
    .venv/bin/python bench/chouine_value_fit.py --games 20000 --policy 4 --out /tmp/v4.json
    .venv/bin/python bench/chouine_value_fit.py --games 10000 --search expert --jobs 2 --out /tmp/e.json

`--search LEVEL` plays the parties with that search bot on both seats (one step of
expert iteration: the cut's evaluation then values what the search's own play makes of a
position, for a stronger level to read through `bench/expert_vs_greedy.py
--bot-value-weights`).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.bots import expert_bot, maitre_bot
from choux.games.chouine.search import (
    learned_move,
    partie_margin,
    rollout_move,
    value_features,
)
from choux.games.chouine.state import PLAY

WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "src/choux/games/chouine/value_weights.py"
RIDGE = 1.0


def load_weights(path: str) -> dict[int, tuple[float, ...]]:
    """A weights file of `--out`: talon size -> weights."""
    data = json.loads(Path(path).read_text())
    return {int(k): tuple(float(x) for x in v) for k, v in data.items()}


Sample = tuple[int, list[float], float]


def record_party(state: ChouineState, move: Callable[[ChouineState, int], None]) -> list[Sample]:
    """(talon size, features, value) for both seats at every trick's start of one party,
    `move` playing the seat to move until the talon is empty (then valued exactly)."""
    points: list[tuple[int, int, list[float]]] = []
    while state.stage == PLAY and state.talon:
        if not state.trick and 2 <= len(state.talon) <= 20:
            for seat in (0, 1):
                points.append((seat, len(state.talon), value_features(state, seat)))
        move(state, state.turn)
    values = (partie_margin(state, 0), partie_margin(state, 1))
    return [(talon, x, values[seat]) for seat, talon, x in points]


def play(seed: int, rng: random.Random, policy: int = 0) -> list[Sample]:
    """One party of the rollout policy (`policy` 0: `rollout_move`, 4: `learned_move`)."""
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)

    def move(state: ChouineState, turn: int) -> None:
        if policy == 4:
            state.apply_id(turn, learned_move(state, turn, rng))
        else:
            state.apply_id(turn, rollout_move(state, turn, rng))

    return record_party(state, move)


def play_searched(task: tuple[int, str, int]) -> list[Sample]:
    """As `play`, but both seats are the search bot `level` (its registered settings,
    `simulations` rollouts a decision, no clock): the evaluation then values positions as
    the search itself plays them on (`--search`)."""
    seed, level, simulations = task
    factory = maitre_bot if level == "maitre" else expert_bot
    bots = [factory(random.Random(seed * 2 + s), simulations, None) for s in (0, 1)]
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)

    def move(state: ChouineState, turn: int) -> None:
        chosen = bots[turn].choose(state, turn)
        assert chosen is not None
        state.apply(turn, chosen.action)

    return record_party(state, move)


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution of `a` w = `b` (both changed in place), by Gaussian elimination with
    partial pivoting: the normal equations of a fit, in plain Python."""
    size = len(b)
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(col + 1, size):
            f = a[r][col] / a[col][col]
            if f:
                for k in range(col, size):
                    a[r][k] -= f * a[col][k]
                b[r] -= f * b[col]
    w = [0.0] * size
    for i in reversed(range(size)):
        w[i] = (b[i] - sum(a[i][k] * w[k] for k in range(i + 1, size))) / a[i][i]
    return w


class Fit:
    """Sums of the normal equations of one least-squares model."""

    def __init__(self, size: int) -> None:
        self.xtx = [[0.0] * size for _ in range(size)]
        self.xty = [0.0] * size
        self.count = 0

    def add(self, x: list[float], y: float) -> None:
        self.count += 1
        for i, xi in enumerate(x):
            if xi:
                row = self.xtx[i]
                for j in range(i, len(x)):
                    row[j] += xi * x[j]
                self.xty[i] += xi * y

    def solve(self) -> list[float]:
        size = len(self.xty)
        a = [[self.xtx[min(i, j)][max(i, j)] for j in range(size)] for i in range(size)]
        for i in range(1, size):  # no ridge on the constant
            a[i][i] += RIDGE
        return solve_linear(a, self.xty[:])


def fit_by_talon(
    parties: Iterable[list[Sample]],
) -> tuple[dict[int, Fit], dict[int, Fit], list[Sample]]:
    """One model per talon size: fitted on four parties in five (`train`), on all of them
    (`full`), and the fifth parties' samples held out."""
    train: dict[int, Fit] = {}
    full: dict[int, Fit] = {}
    held: list[Sample] = []
    for game, party in enumerate(parties):
        for talon, x, y in party:
            if game % 5 == 4:
                held.append((talon, x, y))
            else:
                train.setdefault(talon, Fit(len(x))).add(x, y)
            full.setdefault(talon, Fit(len(x))).add(x, y)
    return train, full, held


def print_held_out(train: dict[int, Fit], held: list[Sample]) -> None:
    """Each model's mean squared error on the held-out samples against the bare mean."""
    print("talon  train  held-out  MSE(mean)  MSE(fit)  explained")
    for talon in sorted(train):
        w = train[talon].solve()
        rows = [(x, y) for t, x, y in held if t == talon]
        mean = train[talon].xty[0] / train[talon].count
        base = sum((y - mean) ** 2 for _, y in rows) / max(1, len(rows))
        err = sum((y - sum(a * b for a, b in zip(w, x, strict=True))) ** 2 for x, y in rows)
        err /= max(1, len(rows))
        print(
            f"{talon:5d} {train[talon].count:6d} {len(rows):9d} {base:10.4f} {err:9.4f} "
            f"{100 * (1 - err / base) if base else 0.0:8.1f} %"
        )


def write_json(full: dict[int, Fit], path: str) -> None:
    """The weights fitted on all the parties, talon size -> weights, as JSON (`load_weights`)."""
    table = {talon: [round(v, 5) for v in full[talon].solve()] for talon in sorted(full)}
    Path(path).write_text(json.dumps(table))


def write_weights_module(path: Path, name: str, table: dict[int, list[float]]) -> None:
    """Store `table` as the dict `name` of the weights module `path`, in place of the one
    between its `# fmt: off` and `# fmt: on` lines."""
    lines = [f"    {key}: ({', '.join(f'{v:.5f}' for v in w)})," for key, w in table.items()]
    text = path.read_text()
    start = text.index("# fmt: off\n")
    end = text.index("# fmt: on\n") + len("# fmt: on\n")
    body = (
        f"# fmt: off\n{name}: dict[int, tuple[float, ...]] = {{\n"
        + "\n".join(lines)
        + "\n}\n# fmt: on\n"
    )
    path.write_text(text[:start] + body + text[end:])
    print(f"{name} written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=500_000, help="first deal's seed")
    parser.add_argument("--write", action="store_true", help="store the weights")
    parser.add_argument(
        "--policy", type=int, choices=[0, 4], default=0, help="0: rollout_move; 4: learned_move"
    )
    parser.add_argument("--out", default=None, help="write the weights to this JSON file")
    parser.add_argument(
        "--search",
        choices=["expert", "maitre"],
        default=None,
        help="play the parties with this search level on both seats instead of the policy",
    )
    parser.add_argument("--simulations", type=int, default=300, help="--search: its rollouts")
    parser.add_argument("--jobs", type=int, default=1, help="--search: processes")
    args = parser.parse_args()
    begin = time.perf_counter()
    rng = random.Random(args.seed)
    parties: Iterable[list[Sample]]
    if args.search:
        tasks = [(args.seed + game, args.search, args.simulations) for game in range(args.games)]
        pool = multiprocessing.Pool(args.jobs)
        parties = pool.imap(play_searched, tasks, chunksize=8)
    else:
        parties = (play(args.seed + game, rng, args.policy) for game in range(args.games))
    train, full, held = fit_by_talon(parties)
    played = time.perf_counter() - begin
    print(f"{args.games} parties, {sum(f.count for f in full.values())} positions, {played:.0f} s")
    print_held_out(train, held)
    if args.out:
        write_json(full, args.out)
        print(f"weights written to {args.out}")
    if args.write:
        table = {talon: full[talon].solve() for talon in sorted(full)}
        write_weights_module(WEIGHTS_FILE, "VALUE_WEIGHTS", table)


if __name__ == "__main__":
    main()
