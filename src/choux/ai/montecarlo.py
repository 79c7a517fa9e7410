"""A game-agnostic stronger bot: determinized flat Monte Carlo (PIMC).

For each legal action it samples worlds consistent with what the seat has seen
(`State.determinize`), plays the action, finishes the game at random and keeps the action
with the best mean reward. It knows no rule of any game, so every game gets it for free;
it is slow compared with a game's own heuristics, hence a budget of playouts.
"""

from __future__ import annotations

import random

from choux.engine.base import Action, BotMove, Seat, State


def random_rollout(state: State, rng: random.Random, max_steps: int = 20_000) -> State:
    """Finish `state` in place with uniformly random legal play; windows sometimes close."""
    for _ in range(max_steps):
        if state.is_over():
            return state
        actors = state.actors()
        deadline = state.deadline()
        if actors and (deadline is None or rng.random() < 0.7):
            seat = rng.choice(actors)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        elif deadline is not None:
            state.apply(deadline.seat, deadline.action)
        else:
            break
    return state


def reward(state: State, seat: Seat) -> float:
    """1 for a sole win, shared wins split, plus a small share of the score spread."""
    outcome = state.outcome()
    if outcome is None:
        return 0.0
    winners = outcome.winners
    win = 1.0 / len(winners) if seat in winners else 0.0
    spread = max(outcome.scores) - min(outcome.scores) or 1
    return win + 0.1 * (outcome.scores[seat] - min(outcome.scores)) / spread


class MonteCarloBot:
    """Flat Monte Carlo over determinizations, `playouts` rollouts per decision in all."""

    def __init__(self, rng: random.Random, playouts: int = 60) -> None:
        self.rng = rng
        self.playouts = playouts

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        actions = state.legal_actions(seat)
        if not actions:
            return None
        if len(actions) == 1:
            return BotMove(actions[0])
        per_action = max(1, self.playouts // len(actions))
        best: Action = actions[0]
        best_value = -1.0
        for action in actions:
            total = 0.0
            for _ in range(per_action):
                world = state.determinize(seat, self.rng)
                world.apply(seat, action)
                total += reward(random_rollout(world, self.rng), seat)
            value = total / per_action
            if value > best_value:
                best, best_value = action, value
        return BotMove(best)
