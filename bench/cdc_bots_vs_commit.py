"""A Cul de Chouette bot level against the same level at an earlier commit, four players.

The bots' module of that commit is read with `git show` and loaded beside today's; two seats
play today's bots and two the old ones, the sides swapping seats from one game to the next.
Prints the share of games won by today's seats (50 % is no change) with its 95 % interval.

    .venv/bin/python bench/cdc_bots_vs_commit.py --commit HEAD~1 [--level hard] [--games 2000]
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from choux import games
from choux.engine.playout import play_out
from choux.games.cul_de_chouette import bots as today

BOTS_PATH = "src/choux/games/cul_de_chouette/bots.py"


def bots_at(commit: str) -> ModuleType:
    """The bots' module as it was at `commit`."""
    source = subprocess.run(
        ["git", "show", f"{commit}:{BOTS_PATH}"], check=True, capture_output=True, text=True
    ).stdout
    path = Path(tempfile.mkdtemp()) / "cdc_bots_then.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("cdc_bots_then", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commit", required=True, help="the earlier commit")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=50_000, help="the first game's seed")
    args = parser.parse_args()
    then = bots_at(args.commit)
    game = games.get("cul-de-chouette")
    won = 0.0
    for number in range(args.games):
        sides = (today, then, today, then) if number % 2 == 0 else (then, today, then, today)
        bots = [
            side.BOTS[args.level](random.Random(number * 10 + seat))
            for seat, side in enumerate(sides)
        ]
        outcome = play_out(game.new(4, args.seed + number, {}), bots).outcome()
        assert outcome is not None
        won += sum(1 / len(outcome.winners) for s in outcome.winners if sides[s] is today)
    share = won / args.games
    interval = 1.96 * math.sqrt(share * (1 - share) / args.games)
    print(
        f"{args.level} today against {args.level} at {args.commit}, {args.games} games of four: "
        f"today's two seats win {100 * share:.1f} % (± {100 * interval:.1f} at 95 %)"
    )


if __name__ == "__main__":
    main()
