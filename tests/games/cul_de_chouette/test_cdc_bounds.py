"""Bounds: the floor at 0, the cap at 332, victory at 343 only on one's own turn, Bévue."""

from __future__ import annotations

import pytest

from choux.engine import IllegalAction
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import DeclareBevue, Shout
from choux.games.cul_de_chouette.testing import arrange, dice


def test_score_never_goes_below_zero() -> None:
    state = arrange(3, scores=[0, 5, 0])
    state.apply(2, DeclareBevue(1))
    assert state.scores[1] == 0


def test_gains_from_challenges_and_bets_stop_at_332() -> None:
    state = arrange(3, scores=[0, 320, 0])
    dice(state, 1, 1)
    state.apply_timeout()  # nobody buys
    dice(state, 2)
    state.apply(1, Shout(C.PAS_MOU))
    assert state.scores[1] == 320 + 8
    state = arrange(3, scores=[0, 330, 0])
    dice(state, 3, 3)
    state.apply_timeout()
    dice(state, 6)
    state.apply(1, Shout(C.PAS_MOU))
    assert state.scores[1] == 332 and not state.is_over()
    # at the cap already: the log says nothing is added (it said « +0 (plafonné à 332) »)
    state = arrange(3, scores=[0, 332, 0])
    dice(state, 3, 3)
    state.apply_timeout()
    dice(state, 6)
    events = state.apply(1, Shout(C.PAS_MOU))
    assert state.scores[1] == 332
    told = [e.text for e in events if "Pas mou" in e.text and ":" in e.text]
    assert (
        "{p1} crie le premier « Pas mou le caillou ! » : rien de plus, déjà au plafond de 332"
        in told
    ), told


def test_victory_at_343_on_ones_own_turn() -> None:
    state = arrange(2, scores=[300, 0])
    dice(state, 2, 4)
    dice(state, 6)
    assert state.is_over() and state.winner == 0
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == "343 points atteints sur ses propres dés"
    assert state.actors() == () and state.deadline() is None


def test_no_victory_below_343() -> None:
    state = arrange(2, scores=[300, 0])
    dice(state, 1, 3)
    dice(state, 4)
    assert state.scores[0] == 332 and not state.is_over()


def test_bevue_button_under_every_player() -> None:
    state = arrange(3, scores=[20, 20, 20])
    assert [a for a in state.legal_actions(1) if isinstance(a, DeclareBevue)] == [
        DeclareBevue(0),
        DeclareBevue(2),
    ]
    state.apply(1, DeclareBevue(2))
    assert state.scores == [20, 20, 10]
    with pytest.raises(IllegalAction, match="déjà signalé"):
        state.apply(1, DeclareBevue(2))  # once per target and turn
    state.apply(1, DeclareBevue(0))  # another target: allowed
    assert state.scores == [10, 20, 10]


def test_bevue_button_may_be_switched_off() -> None:
    state = arrange(3, options={"bouton_bevue": False})
    assert state.legal_actions(1) == [] and state.actors() == (0,)
    with pytest.raises(IllegalAction):
        state.apply(1, DeclareBevue(2))


def test_target_score_option_shortens_the_game_and_moves_the_cap() -> None:
    state = arrange(2, scores=[50, 0], options={"objectif": 100})
    assert state.cap == 89
    dice(state, 2, 4)
    dice(state, 6)
    assert state.is_over()


def test_shout_out_of_place_is_a_bevue_once_per_turn() -> None:
    state = arrange(3, scores=[20, 20, 20])
    assert Shout(C.CRI_PELICAN) in state.legal_actions(2)
    state.apply(2, Shout(C.CRI_PELICAN))
    assert state.scores == [20, 20, 10]
    assert not any(isinstance(a, Shout) for a in state.legal_actions(2))  # once this turn
    with pytest.raises(IllegalAction):
        state.apply(2, Shout(C.GRELOTTE))
