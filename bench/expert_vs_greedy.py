"""The search levels against the weaker bots, on duplicate deals.

Chouine, two players: each deck is played twice from the same seed, the measured level
(`--level`, default expert) at seat 0 then at seat 1, against `--against` (default greedy);
only the first partie of each game counts. Prints the measured level's share of deals won
(a replayed tie counts half) with its 95 % interval. Targets: expert ≥ 70 % against greedy,
maître ≥ 60 % against expert.

Chouineurs: one expert and greedy bots (4 players by default), the expert's seat rotating.
Prints mean scores and the expert's win share against the fair share. Target: above 1.2
times the fair share.

Both print the measured bot's time per decision (searched decisions only: a single legal
move, or an exact endgame, is played at once). Without `--simulations` the registered level
plays (its default budget and its clock); with it, that many rollouts a decision and no
clock (fully deterministic).

    .venv/bin/python bench/expert_vs_greedy.py --game chouine --deals 1000
    .venv/bin/python bench/expert_vs_greedy.py --game chouine --level maitre --against expert --deals 100
    .venv/bin/python bench/expert_vs_greedy.py --game chouine --deals 1000 --simulations 300 --jobs 2
    .venv/bin/python bench/expert_vs_greedy.py --game chouine --first 1000 --deals 500 --simulations 300
    .venv/bin/python bench/expert_vs_greedy.py --game chouineurs --games 200
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import time

from chouine_greedy import play_one_deal  # bench/ is the script's folder, hence on sys.path
from chouine_value_fit import load_weights
from choux import games
from choux.ai.pimc import SearchBot
from choux.engine.base import Bot, BotMove, Seat, State
from choux.games.chouine import card_policy
from choux.games.chouine import search as chouine_search
from choux.games.chouine.bots import expert_bot as chouine_expert
from choux.games.chouine.bots import maitre_bot as chouine_maitre
from choux.games.chouine.search import ChouineSearch
from choux.games.chouine.state import ChouineState
from choux.games.chouineurs.bots import expert_bot as chouineurs_expert


class Timed:
    """Wraps the expert to time its searched decisions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu: list[float] = []  # process time: what the decision costs on a free core

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        begin = time.perf_counter()
        cpu = time.process_time()
        move = self.bot.choose(state, seat)
        if getattr(self.bot, "last_simulations", 0):
            self.times.append(time.perf_counter() - begin)
            self.cpu.append(time.process_time() - cpu)
        return move


class PeekHand:
    """A diagnostic, never a level: the wrapped bot decides on a copy of the state where the
    opponent's whole hand is marked as shown, so its worlds hold the real hand and only the
    talon's order is dealt anew. What it wins is a ceiling for any inference of the
    opponent's hand within the same search (`--peek-hand`)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def __getattr__(self, name: str) -> object:  # `last_simulations` and the like
        return getattr(self.bot, name)

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        assert isinstance(state, ChouineState) and state.n == 2
        seen = state.clone()
        seen.shown[1 - seat][:] = seen.hands[1 - seat]
        return self.bot.choose(seen, seat)


def expert(name: str, seed: int, simulations: int | None) -> SearchBot | ChouineSearch:
    if name == "chouine":
        if simulations is None:
            return chouine_expert(random.Random(seed))
        return chouine_expert(random.Random(seed), simulations, None)
    if simulations is None:
        return chouineurs_expert(random.Random(seed))
    return chouineurs_expert(random.Random(seed), simulations, None)


def report_times(times: list[float]) -> None:
    times.sort()
    mean = sum(times) / len(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"  temps par décision cherchée : moyenne {1000 * mean:.0f} ms, 95 % sous "
        f"{1000 * p95:.0f} ms, pire {1000 * times[-1]:.0f} ms ({len(times)} décisions)"
    )


@functools.cache
def weights_file(path: str) -> dict[int, tuple[float, ...]]:
    """`load_weights`, read once per process (every pair builds its bots anew)."""
    return load_weights(path)


def chouine_level(
    level: str,
    seed: int,
    simulations: int | None,
    tuning: tuple[tuple[str, int], ...] = (),
    peek: bool = False,
    value_weights: str | None = None,
) -> Bot:
    """A Chouine bot of `level`; the search levels with `simulations` and no clock if given,
    and the search's attributes of `tuning` (name, value) set on it; with `peek`, shown its
    opponent's hand (`PeekHand`); with `value_weights` (a JSON file of
    `chouine_value_fit.py --out`), that evaluation at its rollouts' cut."""
    game = games.get("chouine")
    bot: Bot
    if simulations is not None and level in ("expert", "maitre"):
        factory = chouine_maitre if level == "maitre" else chouine_expert
        bot = factory(random.Random(seed), simulations, None)
    else:
        bot = game.make_bot(level, random.Random(seed))
    for name, value in tuning:
        assert isinstance(bot, ChouineSearch)
        current = getattr(bot, name)  # an unknown name fails here
        setattr(bot, name, type(current)(value))
    if value_weights is not None:
        assert isinstance(bot, ChouineSearch)
        bot.value_weights = weights_file(value_weights)
    return PeekHand(bot) if peek else bot


def play_pair(
    deal: int,
    seed: int,
    simulations: int | None,
    level: str,
    against: str,
    against_simulations: int | None,
    tuning: tuple[tuple[str, int], ...] = (),
    peek: bool = False,
    value_weights: str | None = None,
) -> tuple[float, int, int, list[float], list[float]]:
    """One deck played twice, seats swapped: (deals won by `level`, ties, its point margin,
    wall and CPU times of its searched decisions)."""
    game = games.get("chouine")
    measured = (tuning, peek, value_weights)
    timer = Timed(chouine_level(level, seed, simulations, *measured))
    won = 0.0
    ties = margin = 0
    for strong_seat in (0, 1):
        state = game.new(2, seed + deal)
        assert isinstance(state, ChouineState)
        bots: list[Bot] = [
            chouine_level(against, 10 * deal + s, against_simulations) for s in range(2)
        ]
        timer.bot = chouine_level(level, 7919 * deal + strong_seat, simulations, *measured)
        bots[strong_seat] = timer
        winner, totals = play_one_deal(state, bots)
        margin += totals[strong_seat] - totals[1 - strong_seat]
        if winner is None:
            ties += 1
            won += 0.5
        elif winner == strong_seat:
            won += 1
    return won, ties, margin, timer.times, timer.cpu


PairTask = tuple[
    int, int, int | None, str, str, int | None, tuple[tuple[str, int], ...], bool, str | None
]


def _pair_task(args: PairTask) -> tuple[float, int, int, list[float], list[float]]:
    return play_pair(*args)


def chouine(
    deals: int,
    seed: int,
    simulations: int | None,
    level: str = "expert",
    against: str = "greedy",
    against_simulations: int | None = None,
    jobs: int = 1,
    first: int = 0,
    log: str | None = None,
    tuning: tuple[tuple[str, int], ...] = (),
    peek: bool = False,
    value_weights: str | None = None,
) -> None:
    """`level` against `against` on duplicate deals: each deck twice, seats swapped.
    With `jobs` > 1 the pairs are shared among that many processes (same results: each
    pair's bots are seeded from the pair alone); `first` skips the pairs before it, so a
    stopped run can be extended and the two summed. `log`: a file that gets one line per
    pair (number, deals won, point margin), to compare two runs pair by pair."""
    won = 0.0
    ties = margin = 0
    times: list[float] = []
    cpu_times: list[float] = []
    begin = time.perf_counter()
    budget = "niveau enregistré" if simulations is None else f"{simulations} simulations"
    print(f"Chouine à deux : {level} ({budget}) contre {against}, {deals} paires de donnes")
    tasks: list[PairTask] = [
        (deal, seed, simulations, level, against, against_simulations, tuning, peek, value_weights)
        for deal in range(first, first + deals)
    ]
    log_file = open(log, "a", encoding="utf-8") if log else None  # noqa: SIM115
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    results = pool.imap(_pair_task, tasks) if pool is not None else map(_pair_task, tasks)
    try:
        for done, (w, t, m, wall, cpu) in enumerate(results, 1):
            if log_file is not None:
                print(first + done - 1, w, m, file=log_file, flush=True)
            won += w
            ties += t
            margin += m
            times.extend(wall)
            cpu_times.extend(cpu)
            if done % 10 == 0 and done < deals:
                played = 2 * done
                share = won / played
                mean_cpu = sum(cpu_times) / max(1, len(cpu_times))
                p95_cpu = sorted(cpu_times)[int(0.95 * (len(cpu_times) - 1))] if cpu_times else 0
                print(
                    f"  … {done} paires : {100 * share:.1f} % "
                    f"(± {196 * (share * (1 - share) / played) ** 0.5:.1f} à 95 %), "
                    f"écart {margin / played:+.1f} points, {ties} égalités, calcul par "
                    f"décision {1000 * mean_cpu:.0f} ms en moyenne, {1000 * p95_cpu:.0f} ms "
                    f"à 95 % ({len(cpu_times)} décisions), {time.perf_counter() - begin:.0f} s",
                    flush=True,
                )
    finally:
        if log_file is not None:
            log_file.close()
        if pool is not None:
            pool.close()
            pool.join()
    played = 2 * deals
    share = won / played
    error = 196 * (share * (1 - share) / played) ** 0.5  # 95 % interval, in points of %
    print(f"  donnes gagnées par {level} : {100 * share:.1f} % (intervalle à 95 % : ± {error:.1f})")
    print(f"  égalités (comptées pour moitié) : {ties}")
    print(f"  écart moyen de points par donne : {margin / played:+.1f}")
    report_times(times)
    cpu = sorted(cpu_times)
    print(
        f"  temps de calcul (process_time) par décision : moyenne "
        f"{1000 * sum(cpu) / len(cpu):.0f} ms, 95 % sous "
        f"{1000 * cpu[int(0.95 * (len(cpu) - 1))]:.0f} ms, pire {1000 * cpu[-1]:.0f} ms"
    )
    print(f"  durée : {time.perf_counter() - begin:.0f} s", flush=True)


def chouineurs(total: int, players: int, seed: int, simulations: int | None) -> None:
    from choux.engine.playout import play_out

    game = games.get("chouineurs")
    timer = Timed(expert("chouineurs", seed, simulations))
    expert_points = greedy_points = 0
    expert_wins = 0.0
    begin = time.perf_counter()
    for number in range(total):
        expert_seat = number % players
        bots: list[Bot] = [
            game.make_bot("greedy", random.Random(number * 7 + s)) for s in range(players)
        ]
        timer.bot = expert("chouineurs", 7919 * number, simulations)
        bots[expert_seat] = timer
        state = play_out(game.new(players, seed + number), bots)
        outcome = state.outcome()
        assert outcome is not None
        expert_points += outcome.scores[expert_seat]
        greedy_points += sum(outcome.scores) - outcome.scores[expert_seat]
        if expert_seat in outcome.winners:
            expert_wins += 1.0 / len(outcome.winners)
    share = expert_wins / total
    fair = 1.0 / players
    budget = "niveau enregistré" if simulations is None else f"{simulations} simulations"
    print(
        f"Chouineurs à {players} : un expert ({budget}) contre {players - 1} gloutons, "
        f"{total} parties"
    )
    print(
        f"  score moyen : expert {expert_points / total:.1f}, "
        f"glouton {greedy_points / total / (players - 1):.1f}"
    )
    print(
        f"  victoires de l'expert : {100 * share:.1f} % "
        f"({share / fair:.2f} × la part équitable de {100 * fair:.0f} %)"
    )
    report_times(timer.times)
    print(f"  durée : {time.perf_counter() - begin:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=["chouine", "chouineurs", "both"], default="both")
    parser.add_argument("--deals", type=int, default=200, help="Chouine decks, each played twice")
    parser.add_argument("--games", type=int, default=200, help="Chouineurs games")
    parser.add_argument("--players", type=int, default=4, help="Chouineurs players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=None, help="rollouts per decision")
    parser.add_argument("--level", default="expert", help="Chouine: the level measured")
    parser.add_argument("--against", default="greedy", help="Chouine: its opponent's level")
    parser.add_argument(
        "--against-simulations", type=int, default=None, help="the opponent's rollouts"
    )
    parser.add_argument("--jobs", type=int, default=1, help="Chouine: processes sharing the pairs")
    parser.add_argument(
        "--first", type=int, default=0, help="Chouine: number of the first pair (to extend a run)"
    )
    parser.add_argument(
        "--bot-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="Chouine: an integer attribute of the measured level's search bot only "
        "(value_tricks, rollout_policy...), its opponent unchanged",
    )
    parser.add_argument(
        "--peek-hand",
        action="store_true",
        help="Chouine, a diagnostic: the measured level sees its opponent's hand (not the "
        "talon), a ceiling for inference",
    )
    parser.add_argument(
        "--bot-value-weights",
        default=None,
        help="Chouine: a JSON file of `chouine_value_fit.py --out` for the measured level's "
        "cut only, its opponent unchanged",
    )
    parser.add_argument("--log", default=None, help="Chouine: a file for one line per pair")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="Chouine: a parameter of search.py for this run (rollout weights, margin), "
        "or of card_policy.py as card_policy.NAME, for every search bot of the run (its "
        "processes inherit it)",
    )
    parser.add_argument(
        "--value-weights",
        default=None,
        help="Chouine: a JSON file of `chouine_value_fit.py --out` for the cut's evaluation "
        "(every search bot of the run)",
    )
    parser.add_argument(
        "--card-weights",
        default=None,
        help="Chouine: a JSON file of `chouine_policy_fit.py --out` for the distilled rollout "
        "policy (`rollout_policy=4`, every search bot of the run)",
    )
    args = parser.parse_args()
    if args.card_weights:
        card_policy.CARD_WEIGHTS = load_weights(args.card_weights)
    if args.value_weights:
        chouine_search.VALUE_WEIGHTS = load_weights(args.value_weights)
    for setting in args.set:
        name, _, value = setting.partition("=")
        module, _, name = name.rpartition(".")
        targets = {"": chouine_search, "search": chouine_search, "card_policy": card_policy}
        target = targets[module]  # an unknown module fails here
        current = getattr(target, name)  # an unknown name fails here
        setattr(target, name, type(current)(value))
    if args.game in ("chouine", "both"):
        chouine(
            args.deals,
            args.seed,
            args.simulations,
            args.level,
            args.against,
            args.against_simulations,
            args.jobs,
            args.first,
            args.log,
            tuple((n, int(v)) for n, _, v in (b.partition("=") for b in args.bot_set)),
            args.peek_hand,
            args.bot_value_weights,
        )
    if args.game in ("chouineurs", "both"):
        chouineurs(args.games, args.players, args.seed, args.simulations)


if __name__ == "__main__":
    main()
