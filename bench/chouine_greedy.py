"""Greedy against random at two-player Chouine, over duplicate deals.

Each deck is played twice from the same seed (same first dealer, same deal), the greedy bot
sitting at seat 0 the first time and seat 1 the second, so that luck of the cards cancels
out. Only the first partie of each game is played. Prints greedy's share of deals won
(a replayed tie counts half). Target: at least 85 %.

    .venv/bin/python bench/chouine_greedy.py --deals 2000
"""

from __future__ import annotations

import argparse
import random
import time

from choux import games
from choux.engine.base import Bot
from choux.games.chouine.state import PLAY, ChouineState


def play_one_deal(state: ChouineState, bots: list[Bot]) -> tuple[int | None, list[int]]:
    """Play the first partie; its winner (None on a tie) and totals."""
    while state.stage == PLAY:
        seat = state.turn
        move = bots[seat].choose(state, seat)
        assert move is not None
        state.apply(seat, move.action)
    result = state.last_result
    assert result is not None
    winner = result["winner"]
    return (winner if isinstance(winner, int) else None), list(result["totals"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="decks, each played twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classique", choices=["classique", "lavardin"])
    args = parser.parse_args()
    game = games.get("chouine")
    wins = 0.0
    chouines = ties = 0
    points = 0
    begin = time.perf_counter()
    for deal in range(args.deals):
        for greedy_seat in (0, 1):
            state = game.new(2, args.seed + deal, {"preset": args.preset})
            assert isinstance(state, ChouineState)
            bots: list[Bot] = [
                game.make_bot("random", random.Random(10 * deal + greedy_seat)),
                game.make_bot("random", random.Random(10 * deal + greedy_seat + 5)),
            ]
            bots[greedy_seat] = game.make_bot("greedy", random.Random(deal))
            winner, totals = play_one_deal(state, bots)
            points += totals[greedy_seat] - totals[1 - greedy_seat]
            if state.last_result and state.last_result["chouine"] is not None:
                chouines += 1
            if winner is None:
                ties += 1
                wins += 0.5
            elif winner == greedy_seat:
                wins += 1
    played = 2 * args.deals
    elapsed = time.perf_counter() - begin
    print(f"Chouine à deux ({args.preset}) : glouton contre aléatoire, {played} donnes")
    print(f"  donnes gagnées par le glouton : {100 * wins / played:.1f} %")
    print(f"  égalités (comptées pour moitié) : {ties}, Chouines annoncées : {chouines}")
    print(f"  écart moyen de points par donne : {points / played:+.1f}")
    print(f"  {played / elapsed:.0f} donnes/s")


if __name__ == "__main__":
    main()
