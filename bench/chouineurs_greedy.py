"""Greedy against random at Chouineurs: one greedy bot and random ones, rotating seats.

Prints the greedy and random mean scores and win shares (the issue asks for a mean score at
least 1.5 times random's and a win share at least twice the fair share).

    .venv/bin/python bench/chouineurs_greedy.py [games] [players]
"""

from __future__ import annotations

import random
import sys
import time

from choux import games
from choux.engine.playout import play_out


def main(total: int = 2000, players: int = 4) -> None:
    game = games.get("chouineurs")
    greedy_points = random_points = 0
    greedy_wins = random_wins = 0.0
    start = time.perf_counter()
    for number in range(total):
        greedy_seat = number % players
        bots = [
            game.make_bot("greedy" if s == greedy_seat else "random", random.Random(number * 7 + s))
            for s in range(players)
        ]
        state = play_out(game.new(players, number), bots)
        outcome = state.outcome()
        assert outcome is not None
        share = 1.0 / len(outcome.winners)
        for s in range(players):
            won = share if s in outcome.winners else 0.0
            if s == greedy_seat:
                greedy_points += outcome.scores[s]
                greedy_wins += won
            else:
                random_points += outcome.scores[s]
                random_wins += won
    seconds = time.perf_counter() - start
    greedy_mean = greedy_points / total
    random_mean = random_points / (total * (players - 1))
    print(f"Chouineurs, {players} joueurs, {total} parties ({seconds:.1f} s)")
    print("| robot | score moyen | part des victoires |")
    print("|---|---|---|")
    print(f"| greedy | {greedy_mean:.2f} | {100 * greedy_wins / total:.1f} % |")
    print(
        f"| random (chacun) | {random_mean:.2f} | "
        f"{100 * random_wins / (total * (players - 1)):.1f} % |"
    )
    print(
        f"rapport des scores : {greedy_mean / random_mean:.2f} (objectif ≥ 1,5) ; "
        f"victoires : {greedy_wins / total * players:.2f} × la part juste (objectif ≥ 2)"
    )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
