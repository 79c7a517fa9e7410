"""The baseline bot: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

import random

from choux.engine.base import Action, BotMove, Seat, State


class RandomBot:
    """Plays any legal action. Games whose windows should mostly pass wrap it; a bot that
    only chooses differently among the legal actions subclasses it and overrides `pick`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        actions = state.legal_actions(seat)
        if not actions:
            return None
        return BotMove(self.pick(state, seat, actions))

    def pick(self, state: State, seat: Seat, actions: list[Action]) -> Action:
        """One of `actions` (never empty), at random."""
        return self.rng.choice(actions)
