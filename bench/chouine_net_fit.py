"""Fit the neural rollout policy (`net_policy.py`) on the search's recorded decisions.

Reads JSON lines of `bench/chouine_net_record.py`. Each decision's target is a softmax of
the search's values of its candidates at temperature `--temperature`; the network's
scores are fitted to it by cross-entropy (Adam, minibatches). The three plain suits are
interchangeable, so every minibatch renames them by a random permutation (six times the
data). Parties whose seed is a multiple of five are held out: the script prints how often
the network's best card is the search's choice there, and the regret (the search's value
of its choice minus that of the network's), against the linear policy of `card_policy.py`.
`--out FILE` writes the weights fitted on the training parties as JSON (the format of
`net_policy.load_weights`).

Needs numpy, in the lock's « train » group (not installed by `make setup`):

    .tools/bin/uv run --group train python bench/chouine_net_fit.py d1.jsonl --out net.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from choux.games.chouine.card_policy import CARD_WEIGHTS, model_key
from choux.games.chouine.net_policy import (
    CARD_INPUTS,
    GONE,
    HAND,
    LED,
    MARGIN,
    MY_DECLARED,
    SHOWN,
    STATE_INPUTS,
    THEIR_DECLARED,
    TURNED,
    Observation,
    canonical,
    margin_input,
    state_inputs,
)

MAX_CARDS = 5
Array = NDArray[np.float32]


def load(paths: list[str]) -> dict[str, NDArray[np.generic]]:
    """The decisions of the files as padded arrays."""
    s_rows: list[Array] = []
    c_rows: list[Array] = []
    values: list[list[float]] = []
    chosen: list[int] = []
    seeds: list[int] = []
    linear: list[int] = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                d = json.loads(line)
                obs = Observation(*d["obs"])
                s = np.zeros(STATE_INPUTS, np.float32)
                s[state_inputs(obs)] = 1.0
                s[MARGIN] = margin_input(obs)
                c = np.zeros((MAX_CARDS, CARD_INPUTS), np.float32)
                for k, (card, x) in enumerate(zip(d["cards"], d["feats"], strict=True)):
                    c[k, canonical(card, obs.trump)] = 1.0
                    c[k, 32:] = x
                s_rows.append(s)
                c_rows.append(c)
                v = d["values"]
                values.append(v + [np.nan] * (MAX_CARDS - len(v)))
                chosen.append(d["chosen"])
                seeds.append(d["seed"])
                w = CARD_WEIGHTS[model_key(obs.led >= 0, obs.talon)]
                scores = [sum(a * b for a, b in zip(w, x, strict=True)) for x in d["feats"]]
                linear.append(max(range(len(scores)), key=scores.__getitem__))
    return {
        "s": np.stack(s_rows),
        "c": np.stack(c_rows),
        "values": np.array(values, np.float32),
        "chosen": np.array(chosen),
        "seed": np.array(seeds),
        "linear": np.array(linear),
    }


def suit_permutations() -> list[tuple[NDArray[np.intp], NDArray[np.intp]]]:
    """Column maps of the state and card inputs for each renaming of the plain suits
    (canonical suits 1-3; trumps stay suit 0)."""
    maps = []
    for perm in itertools.permutations((1, 2, 3)):
        suit = [0, *perm]
        s_map = np.arange(STATE_INPUTS)
        for base in (HAND, GONE, SHOWN, LED, TURNED):
            for c in range(32):
                s_map[base + (suit[c >> 3] << 3 | (c & 7))] = base + c
        for base in (MY_DECLARED, THEIR_DECLARED):
            for x in range(4):
                s_map[base + suit[x]] = base + x
        c_map = np.arange(CARD_INPUTS)
        for c in range(32):
            c_map[suit[c >> 3] << 3 | (c & 7)] = c
        maps.append((s_map, c_map))
    return maps


class Net:
    """One hidden layer of rectified units; the state's and the card's parts of the first
    layer apart, so that inference sums the state's once a decision."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.params = {
            "ws": rng.normal(0, 1 / np.sqrt(20), (STATE_INPUTS, hidden)).astype(np.float32),
            "wc": rng.normal(0, 1 / np.sqrt(10), (CARD_INPUTS, hidden)).astype(np.float32),
            "b": np.zeros(hidden, np.float32),
            "v": rng.normal(0, 1 / np.sqrt(hidden), hidden).astype(np.float32),
            "u": np.zeros(CARD_INPUTS, np.float32),
        }
        self.m = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.s2 = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.t = 0

    def forward(self, s: Array, c: Array) -> tuple[Array, Array]:
        p = self.params
        pre = (s @ p["ws"] + p["b"])[:, None, :] + c @ p["wc"]
        h = np.maximum(pre, 0.0)
        return h @ p["v"] + c @ p["u"], h

    def step(self, s: Array, c: Array, target: Array, mask: Array, lr: float, l2: float) -> float:
        """One Adam step of the cross-entropy to `target` (rows of probabilities)."""
        p = self.params
        score, h = self.forward(s, c)
        score = np.where(mask, score, -1e9)
        score -= score.max(axis=1, keepdims=True)
        prob = np.exp(score) * mask
        prob /= prob.sum(axis=1, keepdims=True)
        n = len(s)
        loss = float(-(target * np.log(np.maximum(prob, 1e-9))).sum() / n)
        d = ((prob - target) * mask / n).astype(np.float32)
        grads = {
            "v": np.einsum("nk,nkh->h", d, h),
            "u": np.einsum("nk,nki->i", d, c),
        }
        dpre = d[:, :, None] * p["v"] * (h > 0)
        grads["wc"] = np.einsum("nki,nkh->ih", c, dpre)
        dstate = dpre.sum(axis=1)
        grads["ws"] = s.T @ dstate
        grads["b"] = dstate.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            if k in ("ws", "wc"):
                g = g + l2 * p[k]
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s2[k] = 0.999 * self.s2[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.s2[k] / (1 - 0.999**self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss


def targets(values: Array, temperature: float) -> tuple[Array, Array]:
    mask = ~np.isnan(values)
    z = np.where(mask, values, -np.inf) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z) * mask
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32), mask


def report(name: str, pick: NDArray[np.intp], data: dict[str, NDArray[np.generic]]) -> None:
    values = data["values"]
    rows = np.arange(len(values))
    agree = float(np.mean(pick == data["chosen"]))
    regret = float(np.mean(np.nanmax(values, axis=1) - values[rows, pick]))
    print(f"{name:>12}: search's card {100 * agree:5.1f} %, regret {regret:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--temperature", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="train on the held-out parties too")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    begin = time.perf_counter()
    data = load(args.files)
    held = data["seed"] % 5 == 0
    train = {k: v[~held] for k, v in data.items()} if not args.all else data
    test = {k: v[held] for k, v in data.items()}
    print(
        f"{len(data['s'])} decisions ({len(test['s'])} held out), "
        f"loaded in {time.perf_counter() - begin:.0f} s"
    )
    rng = np.random.default_rng(args.seed)
    net = Net(args.hidden, rng)
    maps = suit_permutations()
    target, mask = targets(train["values"].astype(np.float32), args.temperature)
    test_mask = ~np.isnan(test["values"])
    n = len(target)
    for epoch in range(args.epochs):
        order = rng.permutation(n)
        lr = args.lr * (0.5 ** max(0, epoch - args.epochs // 2))
        total = 0.0
        for start in range(0, n, args.batch):
            idx = order[start : start + args.batch]
            s_map, c_map = maps[int(rng.integers(len(maps)))]
            total += net.step(
                train["s"][idx][:, s_map],
                train["c"][idx][:, :, c_map],
                target[idx],
                mask[idx],
                lr,
                args.l2,
            ) * len(idx)
        score, _ = net.forward(test["s"], test["c"])
        pick = np.argmax(np.where(test_mask, score, -np.inf), axis=1)
        print(f"epoch {epoch + 1}: loss {total / n:.4f}", end="  ")
        report("network", pick, test)
    report("linear", test["linear"], test)
    if args.out:
        p = net.params
        weights = {k: np.round(v.astype(np.float64), 5).tolist() for k, v in p.items()}
        Path(args.out).write_text(json.dumps(weights))
        print(f"weights written to {args.out}")
    print(f"{time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
