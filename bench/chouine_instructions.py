"""The engine against the bare loop in instructions (valgrind's callgrind), immune to load.

Runs `bench/bare_chouine.py`'s two sides under ``valgrind --tool=callgrind`` twice each, N and
3N matches (engine) or deals (bare loop), and divides the difference of the instruction
counts by the difference of the deals played: start-up and imports cancel out. Needs
valgrind; takes a few minutes (callgrind runs about 50 times slower than Python).

    nice -n 19 .venv/bin/python bench/chouine_instructions.py --matches 200
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: plays `count` engine matches or bare deals as `bare_chouine.py` does; prints the deals
RUN = """
import random, sys
sys.path.insert(0, {here!r})
from bare_chouine import bare_deal, engine_deals
rng = random.Random(1)
deals = 0
for i in range({count}):
    deals += engine_deals(rng, i) if {engine} else (bare_deal(rng), 1)[1]
print("deals", deals)
"""


def instructions(count: int, engine: bool) -> tuple[int, int]:
    """(instructions, deals) of one run under callgrind."""
    code = RUN.format(here=str(HERE), count=count, engine=engine)
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    deals = re.search(r"deals (\d+)", done.stdout)
    assert collected and deals, done.stderr[-500:]
    return int(collected.group(1)), int(deals.group(1))


def per_deal(count: int, engine: bool) -> float:
    low, low_deals = instructions(count, engine)
    high, high_deals = instructions(3 * count, engine)
    return (high - low) / (high_deals - low_deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="N (engine; bare: 2.5 N deals)")
    args = parser.parse_args()
    bare = per_deal(args.matches * 5 // 2, engine=False)
    engine = per_deal(args.matches, engine=True)
    print("Chouine à deux, instructions par donne (callgrind) :")
    print(f"  boucle nue : {bare:,.0f}")
    print(f"  moteur par le contrat : {engine:,.0f}")
    print(f"  rapport moteur / boucle nue (en vitesse) : {bare / engine:.3f}×")


if __name__ == "__main__":
    main()
