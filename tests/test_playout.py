"""The shared playout loops end every game of the registry."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.engine.playout import random_rollout


@pytest.mark.parametrize("name", games.names())
def test_random_rollout_ends_the_game(name: str) -> None:
    game = games.get(name)
    state = random_rollout(game.new(game.min_players, 9), random.Random(2))
    assert state.is_over()
    assert state.outcome() is not None
