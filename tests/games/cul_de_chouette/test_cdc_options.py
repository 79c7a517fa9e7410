"""Options beyond the document's play mode: Doublette, Chante-Sloubi."""

from __future__ import annotations

import pytest

from choux import games
from choux.engine import InvalidOptions, NotYourTurn
from choux.games.cul_de_chouette.actions import JoinSloubi
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


def test_chante_sloubi_late_seat_waits_then_joins_with_the_computed_score() -> None:
    state = table(4, scores=[100, 40, 10, 0], options={"chante_sloubi": 1})
    assert not state.present[3]
    assert state.legal_actions(3) == [JoinSloubi(False), JoinSloubi(True)]
    state.turn = 11  # ten turns played
    state.apply(3, JoinSloubi(False))
    assert state.scores[3] == (100 - 40) * 10 // 10
    assert state.present[3] and state.boucliette[3]


def test_chante_sloubi_singing_multiplies_by_one_and_a_half() -> None:
    state = table(4, scores=[100, 40, 10, 0], options={"chante_sloubi": 1})
    state.turn = 11
    state.apply(3, JoinSloubi(True))
    assert state.scores[3] == 90


def test_chante_sloubi_absent_seat_is_skipped_and_joins_only_between_turns() -> None:
    state = table(4, options={"chante_sloubi": 1})
    dice(state, 1, 4)
    assert state.legal_actions(3) == []
    with pytest.raises(NotYourTurn, match="Rejoignez"):
        state.apply(3, JoinSloubi(False))
    dice(state, 5)
    assert state.roller == 2  # seat 3 is not at the table yet
    assert state.view(None)["order"] == [2, 1, 0]


def test_chante_sloubi_needs_two_players_from_the_start() -> None:
    with pytest.raises(InvalidOptions):
        games.get("cul-de-chouette").new(3, 1, {"chante_sloubi": 2})
