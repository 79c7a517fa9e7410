"""Two `bench/expert_vs_greedy.py --log` files compared pair by pair (common random numbers).

Each line of a log is `pair deals_won points`: the same pair number is the same deck in
both runs, so the difference per pair cancels most of the cards' luck. Prints both shares
of deals won over the common pairs and the paired difference (B − A, in points of a
percentage) with its 95 % interval, and the paired difference of the point margin a deal.

    .venv/bin/python bench/paired_logs.py before.log after.log
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path


def load(path: Path) -> dict[int, tuple[float, int]]:
    """Pair number: (deals won of the two, point margin)."""
    pairs: dict[int, tuple[float, int]] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            pair, won, margin = line.split()
            pairs[int(pair)] = (float(won), int(margin))
    return pairs


def paired(diffs: list[float]) -> tuple[float, float]:
    """The mean of paired differences and the half-width of its 95 % interval."""
    n = len(diffs)
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("a", type=Path, help="the reference run's log")
    parser.add_argument("b", type=Path, help="the run compared with it")
    args = parser.parse_args()
    a, b = load(args.a), load(args.b)
    common = sorted(a.keys() & b.keys())
    if not common:
        raise SystemExit("no pair in common")
    n = len(common)
    mean, half = paired([(b[k][0] - a[k][0]) / 2 for k in common])
    margin, margin_half = paired([(b[k][1] - a[k][1]) / 2 for k in common])
    share_a = sum(a[k][0] for k in common) / (2 * n)
    share_b = sum(b[k][0] for k in common) / (2 * n)
    changed = sum(1 for k in common if a[k] != b[k])
    print(
        f"{n} pairs in common: A {100 * share_a:.1f} %, B {100 * share_b:.1f} %, "
        f"paired B − A {100 * mean:+.2f} ± {100 * half:.2f} points "
        f"(95 %); pairs whose result differs at all: {changed}; point margin a deal, "
        f"paired B − A {margin:+.2f} ± {margin_half:.2f}"
    )


if __name__ == "__main__":
    main()
