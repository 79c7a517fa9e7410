"""Benchmark: a team of greedy bots against a team of random bots, games to 1000 points.

Usage: python bench/parlote_greedy.py [GAMES] [SEED] [MODE]
The greedy team sits at seats 0 and 2 in even games, 1 and 3 in odd games. Prints one
table: games, wins of the greedy team, win rate, mean deals per game, games per second.
The issue's target: at least 80 % of wins for the greedy team.
"""

from __future__ import annotations

import random
import sys
import time

from choux import games
from choux.engine.playout import play_out
from choux.games.parlote.state import ParloteState


def run(count: int, seed: int, mode: str = "jury") -> tuple[int, float, float]:
    """Wins of the greedy team, mean deals per game, seconds."""
    game = games.get("parlote")
    wins = 0
    deals = 0
    begin = time.perf_counter()
    for index in range(count):
        greedy_team = index % 2
        levels = ["greedy" if seat % 2 == greedy_team else "random" for seat in range(4)]
        bots = [
            game.make_bot(level, random.Random(seed * 7919 + index * 4 + seat))
            for seat, level in enumerate(levels)
        ]
        state = game.new(4, seed + index, {"mode": mode})
        play_out(state, bots)
        assert isinstance(state, ParloteState)
        outcome = state.outcome()
        assert outcome is not None
        if greedy_team in (s % 2 for s in outcome.winners):
            wins += 1
        deals += state.deals_played
    return wins, deals / count, time.perf_counter() - begin


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    mode = sys.argv[3] if len(sys.argv) > 3 else "jury"
    wins, mean_deals, seconds = run(count, seed, mode)
    print(f"La parlote coinchée — glouton contre aléatoire, mode {mode}, graine {seed}")
    print(
        f"{'parties':>8} {'victoires':>10} {'% victoires':>12} {'donnes/partie':>14} {'parties/s':>10}"
    )
    print(
        f"{count:>8} {wins:>10} {100 * wins / count:>11.1f}% {mean_deals:>14.1f} "
        f"{count / seconds:>10.1f}"
    )


if __name__ == "__main__":
    main()
