"""The shared playout loops end every game of the registry."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.engine.base import Action, BotMove
from choux.engine.playout import first_mover, random_rollout


@pytest.mark.parametrize("name", games.names())
def test_random_rollout_ends_the_game(name: str) -> None:
    """On the game's first random-walk table (`configurations`): uniformly random play that
    fines itself at every −10 button and shout would never end a Cul de Chouette."""
    game = games.get(name)
    players, options = game.configurations()[0]
    state = random_rollout(game.new(players, 9, options), random.Random(2))
    assert state.is_over()
    assert state.outcome() is not None


def test_first_mover_is_the_shortest_delay_and_a_tie_goes_to_the_first_seat() -> None:
    slow, quick, also_quick = BotMove(Action(), 3.0), BotMove(Action(), 1.0), BotMove(Action(), 1.0)
    assert first_mover([(0, slow), (1, quick), (2, also_quick)]) == (1, quick)
    assert first_mover([(0, None), (1, None)]) is None
    assert first_mover([]) is None
