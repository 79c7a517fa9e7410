"""The generic Monte Carlo bot: legal choices, reproducible, and better than random."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.ai.montecarlo import MonteCarloBot, random_rollout, reward
from choux.ai.random import RandomBot
from choux.engine.base import Bot
from choux.engine.playout import play_out


@pytest.mark.parametrize("name", games.names())
def test_montecarlo_chooses_a_legal_action(name: str) -> None:
    game = games.get(name)
    state = game.new(game.min_players, 3)
    bot = MonteCarloBot(random.Random(1), playouts=8)
    for seat in state.actors():
        move = bot.choose(state, seat)
        assert move is not None
        assert move.action in state.legal_actions(seat)


@pytest.mark.parametrize("name", games.names())
def test_random_rollout_ends_the_game_and_rewards_are_bounded(name: str) -> None:
    game = games.get(name)
    state = random_rollout(game.new(game.min_players, 9), random.Random(2))
    assert state.is_over()
    for seat in range(game.min_players):
        assert 0.0 <= reward(state, seat) <= 1.1


def test_montecarlo_beats_random_at_chouine() -> None:
    if "chouine" not in games.names():
        pytest.skip("Chouine is not registered")
    game = games.get("chouine")
    wins = 0
    for seed in range(6):
        state = game.new(2, seed)
        mc_seat = seed % 2
        bots: list[Bot] = [RandomBot(random.Random(seed)) for _ in range(2)]
        bots[mc_seat] = MonteCarloBot(random.Random(seed), playouts=24)
        play_out(state, bots)
        outcome = state.outcome()
        assert outcome is not None
        wins += mc_seat in outcome.winners
    assert wins >= 4
