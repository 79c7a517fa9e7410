"""A game-agnostic search bot: determinized rollouts (PIMC) with sequential halving.

It only uses the contract. For each decision it samples worlds consistent with what its
seat has seen (`State.determinize`), plays every candidate action in each world and finishes
the world with a cheap rollout policy (the game's greedy bot, say), then keeps the action
with the best mean value. The same worlds serve every candidate (paired samples), and the
candidates are halved round after round (sequential halving) so that the budget goes to the
close calls.

A rollout need not finish a whole match: with a `horizon` (stop here?) and an `evaluate`
(how good is this for my seat?) it stops at the end of the current deal and scores it.

Budget: `simulations` rollouts per decision, plus an optional wall-clock cap in seconds.
Given its RNG, the bot is deterministic as long as the cap does not bite (tests pass
``seconds=None``). Future chance (next deals) is re-seeded in every world, so the bot never
profits from the real RNG's state either.

>>> import random
>>> from choux import games
>>> game = games.get("chouine")
>>> state = game.new(2, 1)
>>> bot = SearchBot(random.Random(0), simulations=16, seconds=None)
>>> move = bot.choose(state, state.actors()[0])
>>> move is not None and move.action in state.legal_actions(state.actors()[0])
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from choux.ai.random import RandomBot
from choux.engine.base import Action, Bot, BotFactory, BotMove, Seat, State
from choux.engine.playout import first_mover

#: (state, seat) -> value for `seat` (higher is better) of a finished or stopped rollout
Evaluate = Callable[[State, Seat], float]
#: (root, now) -> True when the rollout from `root` has gone far enough (end of the deal)
Horizon = Callable[[State, State], bool]
#: a candidate of the search: actions of the searching seat played one after the other
Plan = tuple[Action, ...]


def outcome_value(state: State, seat: Seat) -> float:
    """Default evaluation: 1 for a win (shared between tied winners), else 0; a rollout
    that stopped before the end is worth a neutral 0.5."""
    outcome = state.outcome()
    if outcome is None:
        return 0.5
    winners = outcome.winners
    return 1.0 / len(winners) if seat in winners else 0.0


class SearchBot:
    """Determinized search for one seat. See the module docstring.

    - `rollout`: factory of the policy every seat follows in rollouts (default: random);
    - `evaluate`, `horizon`: score a rollout early (default: play to the end, win = 1);
    - `simulations`: rollouts per decision, over all candidates; `seconds`: a wall-clock
      cap on top (None: none, fully deterministic).
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        rollout: BotFactory | None = None,
        evaluate: Evaluate | None = None,
        horizon: Horizon | None = None,
        simulations: int = 200,
        seconds: float | None = 0.25,
        max_steps: int = 5_000,
    ) -> None:
        self.rng = rng
        self.rollout_factory: BotFactory = rollout or RandomBot
        self.evaluate: Evaluate = evaluate or outcome_value
        self.horizon = horizon
        self.simulations = max(1, simulations)
        self.seconds = seconds
        self.max_steps = max_steps
        self._policies: dict[Seat, Bot] = {}
        #: figures of the last decision, for benchmarks and tests
        self.last_simulations = 0
        self.last_worlds = 0
        #: each candidate's mean value in the last search (None: no search was needed)
        self.last_values: list[float] | None = None

    # ------------------------------------------------------------------ decision

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        actions = state.legal_actions(seat)
        self.last_simulations = self.last_worlds = 0
        self.last_values = None
        if not actions:
            return None
        if len(actions) == 1:
            return BotMove(actions[0])
        plans = self.plans(state, seat, actions)
        best = self._search(state, seat, plans)
        if len(plans) != len(actions):  # each action's value: the best of its plans
            values = self.last_values
            assert values is not None
            starts = [actions.index(plan[0]) for plan in plans]
            self.last_values = [
                max(v for v, start in zip(values, starts, strict=True) if start == i)
                for i in range(len(actions))
            ]
        return BotMove(plans[best][0])

    def plans(self, state: State, seat: Seat, actions: list[Action]) -> list[Plan]:
        """The candidates searched, each a sequence of the seat's actions played at once:
        by default each legal action alone. A game where an action leaves the turn with the
        same seat (Chouine's seven exchange, before a card) lists it followed by each move
        after it, so that it is valued by its best follow-up, not by the rollout policy's."""
        return [(action,) for action in actions]

    def _search(self, state: State, seat: Seat, plans: list[Plan]) -> int:
        """Sequential halving over paired worlds; returns the index of the chosen plan."""
        stop_at = None if self.seconds is None else time.perf_counter() + self.seconds
        count = len(plans)
        totals = [0.0] * count
        samples = [0] * count
        alive = list(range(count))
        rounds = max(1, math.ceil(math.log2(count)))
        used = 0
        for round_index in range(rounds):
            share = (self.simulations - used) // (rounds - round_index)
            worlds = max(1, share // len(alive))
            for _ in range(worlds):
                values = self._play_world(state, seat, plans, alive, stop_at)
                if values is None:
                    break
                for i, value in zip(alive, values, strict=True):
                    totals[i] += value
                    samples[i] += 1
                used += len(alive)
                self.last_worlds += 1
                if stop_at is not None and time.perf_counter() > stop_at:
                    break
            else:
                if len(alive) > 1:
                    alive.sort(key=lambda i: (-totals[i] / samples[i], i))
                    alive = sorted(alive[: (len(alive) + 1) // 2])
                continue
            break
        self.last_simulations = used
        self.last_values = [t / n if n else 0.0 for t, n in zip(totals, samples, strict=True)]
        return max(alive, key=lambda i: (totals[i] / samples[i], -i))

    def _play_world(
        self,
        state: State,
        seat: Seat,
        plans: list[Plan],
        alive: list[int],
        stop_at: float | None,
    ) -> list[float] | None:
        """The value of each candidate in one sampled world; None when the clock ran out
        before the world was done (the first world is always finished)."""
        world = self._world(state, seat)
        values = []
        for i in alive:
            sim = world.clone()
            for action in plans[i]:
                sim.apply(seat, action)
            values.append(self._rollout(state, sim, seat))
            if stop_at is not None and self.last_worlds and time.perf_counter() > stop_at:
                return None
        return values

    def _world(self, state: State, seat: Seat) -> State:
        """A sample of what `seat` cannot see, with its own future chance."""
        world = state.determinize(seat, self.rng)
        world.rng = random.Random(self.rng.getrandbits(64))
        return world

    # ------------------------------------------------------------------ rollouts

    def _policy(self, seat: Seat) -> Bot:
        bot = self._policies.get(seat)
        if bot is None:
            bot = self.rollout_factory(random.Random(self.rng.getrandbits(64)))
            self._policies[seat] = bot
        return bot

    def _rollout(self, root: State, sim: State, seat: Seat) -> float:
        """Play `sim` on with the rollout policy until the end or the horizon; its value."""
        horizon = self.horizon
        for _ in range(self.max_steps):
            if sim.is_over() or (horizon is not None and horizon(root, sim)):
                break
            chosen = first_mover((a, self._policy(a).choose(sim, a)) for a in sim.actors())
            if chosen is not None:
                sim.apply(chosen[0], chosen[1].action)
                continue
            deadline = sim.deadline()
            if deadline is None:
                break
            sim.apply(deadline.seat, deadline.action)
        return self.evaluate(sim, seat)


__all__ = ["Evaluate", "Horizon", "Plan", "SearchBot", "outcome_value"]
