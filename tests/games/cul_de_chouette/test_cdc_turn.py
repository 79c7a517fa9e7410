"""The turn: opening roll, counter-clockwise play, Civet, purchase of the Cul, two kinds
of dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux import games
from choux.engine import NotYourTurn
from choux.games.cul_de_chouette.actions import BuyCul, CivetBet, EnterDice, Roll
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass


def test_opening_roll_lowest_die_starts_and_ties_roll_again() -> None:
    state = CulDeChouetteState(3, 0, {"des": "reels"})
    assert state.step == "ouverture" and set(state.actors()) == {0, 1, 2}
    state.apply(0, EnterDice((2,)))
    state.apply(1, EnterDice((2,)))
    state.apply(2, EnterDice((5,)))
    assert state.tiebreak is not None and state.tiebreak.pending == (0, 1)
    assert not state.legal_actions(2) or EnterDice((1,)) not in state.legal_actions(2)
    state.apply(0, EnterDice((4,)))
    state.apply(1, EnterDice((3,)))
    assert state.step == "debut" and state.roller == 1 and state.turn == 1


def test_site_dice_opening_is_rolled_and_recorded() -> None:
    state = games.get("cul-de-chouette").new(4, 12)
    assert state.step == "debut"
    assert len(state.chance) >= 4 and all("dice" in c for c in state.chance)


def test_play_goes_counter_clockwise() -> None:
    state = arrange(4, roller=2)
    dice(state, 1, 3)
    dice(state, 4)  # a Velute: the turn ends
    assert state.roller == 1
    dice(state, 1, 3)
    others_pass(state)  # seat 2 (32 points) could buy the Cul
    dice(state, 4)
    assert state.roller == 0
    assert state.view(None)["order"] == [0, 3, 2, 1]


def test_two_chouettes_then_the_cul_are_read_together() -> None:
    state = arrange(3)
    dice(state, 4, 1)
    assert state.step == "cul" and state.dice == [4, 1]
    dice(state, 3)
    assert state.last_roll == {"seat": 0, "dice": [4, 1, 3], "name": "Velute", "points": 32}
    assert state.scores[0] == 32


def test_site_dice_come_from_the_roll_button() -> None:
    state = games.get("cul-de-chouette").new(3, 5, {"bouton_bevue": False})
    assert isinstance(state, CulDeChouetteState)
    roller = state.roller
    assert state.legal_actions(roller) == [Roll()]
    before = len(state.chance)
    state.apply(roller, Roll())
    assert len(state.chance) >= before + 2  # the Chouettes, then the Cul


def test_real_dice_are_typed_by_the_roller() -> None:
    state = arrange(3)
    assert len([a for a in state.legal_actions(0) if isinstance(a, EnterDice)]) == 36
    with pytest.raises(NotYourTurn):
        state.apply(1, EnterDice((1, 2)))
    state.apply(0, EnterDice((1, 2)))
    assert state.dice == [1, 2]


def test_real_dice_may_be_typed_by_a_scribe() -> None:
    state = arrange(3, options={"scribe": 2})
    assert state.actors()[0] == 2
    with pytest.raises(NotYourTurn):
        state.apply(0, EnterDice((1, 3)))
    state.apply(2, EnterDice((1, 3)))
    state.apply(2, EnterDice((4,)))
    assert state.scores[0] == 32


def test_purchase_window_opens_for_players_with_30_points() -> None:
    state = arrange(3, scores=[0, 40, 10])
    dice(state, 2, 2)
    assert state.step == "achat"
    assert BuyCul() in state.legal_actions(1)
    assert BuyCul() not in state.legal_actions(2)
    assert state.deadline() is not None


def test_buyer_pays_30_scores_the_roll_and_the_roller_keeps_the_chouette() -> None:
    state = arrange(3, scores=[0, 40, 0])
    dice(state, 2, 2)
    state.apply(1, BuyCul())
    assert state.scores[1] == 10
    assert state._dice_duty() == (1, 1)  # the buyer rolls the Cul
    dice(state, 2)
    assert state.scores == [4, 70, 0]
    assert state.roller == 2


def test_purchase_closes_with_the_clock_and_the_roller_rolls_on() -> None:
    state = arrange(3, scores=[0, 40, 0])
    dice(state, 1, 3)
    state.apply_timeout()
    assert state.step == "cul"
    assert BuyCul() not in state.legal_actions(1)
    dice(state, 4)
    assert state.scores == [32, 40, 0]


def test_civet_bet_won_gives_the_stake_and_the_points() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False])
    state.apply(0, CivetBet("Velute", 20))
    assert not state.civet[0]
    dice(state, 1, 3)
    dice(state, 4)
    assert state.scores[0] == 50 + 20 + 32


def test_civet_bet_lost_costs_the_stake_but_keeps_the_points() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False])
    state.apply(0, CivetBet("Soufflette", 10))
    dice(state, 1, 3)
    dice(state, 4)
    assert state.scores[0] == 50 - 10 + 32


def test_civet_on_a_cul_de_chouette_with_sirotage_waits_for_the_sip() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False])
    state.apply(0, CivetBet("Cul de Chouette (avec Sirotage)", 30))
    dice(state, 3, 3)
    dice(state, 5)
    assert state.scores[0] == 50  # not settled yet
    from choux.games.cul_de_chouette.actions import Sip

    state.apply(0, Sip(True))
    dice(state, 3)
    assert state.scores[0] == 50 + 30 + 70


@settings(max_examples=25, deadline=None)
@given(score=st.integers(0, 340), stake=st.integers(1, 102), win=st.booleans())
def test_civet_stake_is_1_to_102_whatever_the_score(score: int, stake: int, win: bool) -> None:
    # rules decisions: « stake 1..102 on a named combination »; only the Grelottine's stake
    # depends on the scores. A lost stake stops at 0 like any loss, a won one at 332.
    state = arrange(3, scores=[score, 0, 0], civet=[True, False, False])
    bets = [a for a in state.legal_actions(0) if isinstance(a, CivetBet)]
    assert {a.stake for a in bets} == set(range(1, 103))
    state.apply(0, CivetBet("Néant" if win else "Suite", stake))
    dice(state, 1, 5)
    dice(state, 3)  # a Néant: no points of its own
    assert state.scores[0] == (
        min(score + stake, max(score, 332)) if win else max(0, score - stake)
    )
