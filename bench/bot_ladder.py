"""Rate every bot level of a game against the others with the ladder's own model.

Each game seats a random mix of the game's bot levels (several seats may share a level;
each seat is rated as its own entrant, so one level's seats never play "themselves"), plays
it out, and updates the levels' openskill ratings exactly as the web ladder does for people
(`choux.play.ratings.rate`: shared final ranks form one team). Prints the levels, best first,
with the shown rating (1000 = a newcomer) and the win share. The ladder should rank the
levels in their intended order: it checks the bots and the rating together.

    .venv/bin/python bench/bot_ladder.py --game chouine --games 300
    .venv/bin/python bench/bot_ladder.py --game cul-de-chouette --players 4 --games 300
    .venv/bin/python bench/bot_ladder.py --game chouine --games 120 --mix pairs --option manches=1
    .venv/bin/python bench/bot_ladder.py --game chouine --games 300 --mix pairs --jobs 2

`--mix rotate` (default) seats consecutive levels of the sorted list, rotating: with fewer
seats than levels some levels never meet (at two players and four levels, expert never meets
maitre). `--mix pairs` cycles through every set of distinct levels instead (at two players:
every pair in turn), so every level meets every other one. The search levels stop at their
wall-clock cap on a loaded machine, which weakens them; `--no-clock` gives them their whole
rollout budget instead (the levels as they play on a free core, whatever the load).
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import time
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from choux import games
from choux.ai.pimc import SearchBot
from choux.engine.playout import play_out
from choux.play.ratings import Entrant, Standing, rate


@dataclass(frozen=True)
class Plan:
    """One game of the ladder: which levels sit where, and the seeds."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    index: int
    seat_levels: tuple[str, ...]
    no_clock: bool = False


def play_game(plan: Plan) -> list[int]:
    """Plays one game out (in a worker process with `--jobs`); the final rank of each seat."""
    game = games.get(plan.game)
    bots = [
        game.make_bot(level, random.Random(plan.seed * 7919 + plan.index * 31 + s))
        for s, level in enumerate(plan.seat_levels)
    ]
    if plan.no_clock:  # the search levels' whole rollout budget, whatever the machine's load
        for bot in bots:
            if isinstance(bot, SearchBot):
                bot.seconds = None
    state = play_out(game.create(plan.players, plan.seed + plan.index, plan.options), bots)
    outcome = state.outcome()
    assert outcome is not None
    return list(outcome.ranks)


def current(ladder: dict[str, Standing], level: str, entrant: str) -> Standing:
    """The level's standing, under the name of one of its seats in this game."""
    old = ladder.get(level) or Standing(level, level)
    return Standing(entrant, level, old.mu, old.sigma, old.games, old.wins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="chouine")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=None, help="comma-separated (default: all)")
    parser.add_argument("--option", action="append", default=[], help="key=JSON value")
    parser.add_argument("--mix", choices=["rotate", "pairs"], default="rotate")
    parser.add_argument("--progress", type=int, default=0, help="print the ladder every N games")
    parser.add_argument("--jobs", type=int, default=1, help="games played in N processes")
    parser.add_argument(
        "--no-clock",
        action="store_true",
        help="search levels play their whole rollout budget (no wall-clock cap): the"
        " ladder no longer depends on the machine's load",
    )
    args = parser.parse_args()
    game = games.get(args.game)
    players = args.players or game.min_players
    levels = args.levels.split(",") if args.levels else sorted(game.bots())
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = json.loads(value)
    full = game.validate_options(players, options)
    competitors = game.competitors(players, full)
    rng = random.Random(args.seed)
    groups = list(itertools.combinations(levels, players)) if players <= len(levels) else []
    plans = []
    for index in range(args.games):
        if args.mix == "pairs" and groups:
            seat_levels = list(groups[index % len(groups)])
        else:
            seat_levels = [levels[(index + s) % len(levels)] for s in range(players)]
        rng.shuffle(seat_levels)
        plans.append(
            Plan(args.game, players, full, args.seed, index, tuple(seat_levels), args.no_clock)
        )
    ladder: dict[str, Standing] = {}
    begin = time.perf_counter()
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        results = pool.imap(play_game, plans) if pool is not None else map(play_game, plans)
        # ratings are updated in game order whatever the jobs: the same ladder for any --jobs
        for index, (plan, ranks) in enumerate(zip(plans, results, strict=True)):
            seat_levels = list(plan.seat_levels)
            found = [
                Entrant(f"{seat_levels[s]}#{s}", seat_levels[s], ranks[s]) for s in competitors
            ]
            before = {e.player: current(ladder, e.name, e.player) for e in found}
            by_level: dict[str, list[Standing]] = defaultdict(list)
            for standing in rate(found, before):
                by_level[standing.name].append(standing)
            for level, updates in by_level.items():
                old = ladder.get(level) or Standing(level, level)
                won = any(u.wins > before[u.player].wins for u in updates)
                ladder[level] = Standing(
                    level,
                    level,
                    sum(u.mu for u in updates) / len(updates),
                    sum(u.sigma for u in updates) / len(updates),
                    old.games + 1,
                    old.wins + int(won),
                )
            if args.progress and (index + 1) % args.progress == 0 and index + 1 < args.games:
                elapsed = time.perf_counter() - begin
                print(f"… {index + 1} parties ({elapsed:.0f} s)")
                show(ladder)
    elapsed = time.perf_counter() - begin
    print(f"{game.title}, {players} joueurs, {args.games} parties ({elapsed:.1f} s)")
    print(f"niveaux : {', '.join(levels)} ; mélange : {args.mix}")
    show(ladder)


def show(ladder: dict[str, Standing]) -> None:
    print(f"{'niveau':<10} {'cote':>6} {'mu':>6} {'sigma':>6} {'parties':>8} {'% victoires':>12}")
    for s in sorted(ladder.values(), key=lambda s: -s.score):
        share = 100 * s.wins / s.games if s.games else 0.0
        print(
            f"{s.name:<10} {s.score:>6} {s.mu:>6.1f} {s.sigma:>6.2f} {s.games:>8} {share:>11.1f} %",
            flush=True,
        )


if __name__ == "__main__":
    main()
