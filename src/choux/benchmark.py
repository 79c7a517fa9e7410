"""Throughput of random playouts and bots' time per decision, for `choux bench` and bench/."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from choux import games
from choux.engine.base import JSON
from choux.engine.playout import random_rollout


@dataclass
class PlayoutFigures:
    game: str
    players: int
    games: int
    units: int
    unit_name: str
    seconds: float

    @property
    def units_per_second(self) -> float:
        return self.units / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def random_playouts(
    name: str, players: int, seconds: float, options: dict[str, JSON] | None = None, seed: int = 1
) -> PlayoutFigures:
    """Random legal play (no recording, no bot objects) for about `seconds`."""
    game = games.get(name)
    rng = random.Random(seed)
    full = game.validate_options(players, options or {})
    played = units = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = random_rollout(game.create(players, seed + played, full), rng)
        played += 1
        units += game.count_units(state)
    return PlayoutFigures(name, players, played, units, game.unit_name, time.perf_counter() - start)


def bot_decision_times(
    name: str, players: int, level: str, decisions: int = 200, seed: int = 1
) -> tuple[float, float]:
    """Mean and max seconds per decision of a bot level, over decisions in random games."""
    game = games.get(name)
    rng = random.Random(seed)
    bot = game.make_bot(level, random.Random(seed))
    times: list[float] = []
    n = 0
    while len(times) < decisions:
        state = game.new(players, seed + n)
        n += 1
        while not state.is_over() and len(times) < decisions:
            actors = state.actors()
            if not actors:
                state.apply_timeout()
                continue
            seat = rng.choice(actors)
            begin = time.perf_counter()
            move = bot.choose(state, seat)
            times.append(time.perf_counter() - begin)
            if move is None:
                legal = state.legal_actions(seat)
                deadline = state.deadline()
                if deadline is not None and rng.random() < 0.5:
                    state.apply_timeout()
                else:
                    state.apply(seat, rng.choice(legal))
            else:
                state.apply(seat, move.action)
    return sum(times) / len(times), max(times)
