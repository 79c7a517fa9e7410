"""Options beyond the document's play mode: Doublette, Chante-Sloubi."""

from __future__ import annotations

import pytest

from choux import games
from choux.engine import InvalidOptions
from choux.games.cul_de_chouette.testing import dice, table


def test_doublette_needs_more_than_six_players_in_pairs() -> None:
    game = games.get("cul-de-chouette")
    with pytest.raises(InvalidOptions, match="plus de 6"):
        game.new(6, 1, {"doublette": True})
    with pytest.raises(InvalidOptions):
        game.new(7, 1, {"doublette": True})
    assert game.new(8, 1, {"doublette": True}).view(None)["sheets"][0]["partner"] == 4


def test_doublette_partners_sit_opposite_and_share_their_score() -> None:
    state = table(8, options={"doublette": True})
    dice(state, 1, 4)
    dice(state, 5)
    assert state.scores[0] == state.scores[4] == 50
    assert state.scores[1] == 0


def test_doublette_team_wins_together_on_a_partners_turn() -> None:
    state = table(8, scores=[300, 0, 0, 0, 300, 0, 0, 0], options={"doublette": True})
    dice(state, 2, 4)
    dice(state, 6)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 4)
