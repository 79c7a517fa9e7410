"""Rules meeting each other: the interaction cases listed in the issue."""

from __future__ import annotations

import pytest

from choux.engine import IllegalAction
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BuyCul,
    ChallengeGrelottine,
    ChallengeSoufflette,
    DeclareBevue,
    PasseGrelot,
    Sip,
)
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass


def test_grelottine_challenge_whose_roll_is_a_suite() -> None:
    # 1-2-3 is a Suite and a Velute of 3: an imposed Velute is made, the roller keeps the
    # 18 points of the roll, and the challenge roll opens no race.
    state = arrange(3, scores=[100, 200, 0], grelottine=[False, True, False])
    dice(state, 1, 3)
    state.apply_timeout()
    dice(state, 6)
    state.apply(1, ChallengeGrelottine("Velute", 25))
    others_pass(state)
    dice(state, 1, 2, 3)
    assert state.scores == [100 + 25 + 18, 175, 0]
    assert state.step == "debut" and state.roller == 2


def test_grelottine_challenge_whose_roll_is_a_suite_misses_a_chouette() -> None:
    state = arrange(3, scores=[100, 200, 0], grelottine=[False, True, False])
    dice(state, 1, 3)
    state.apply_timeout()
    dice(state, 6)
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    others_pass(state)
    dice(state, 2, 3, 4)
    assert state.scores == [67, 233, 0]


def test_bleu_rouge_reroll_that_is_a_pelican() -> None:
    state = arrange(3, scores=[50, 0, 0])
    dice(state, 3, 3)
    dice(state, 4)
    state.apply(0, AnnounceTotal(18))
    dice(state, 6, 6, 6)
    assert state.scores[0] == 50 + 9 + 36 + 36 + 172
    assert state.step == "debut"  # the re-roll settles the bet, no Pélican race


def test_bleu_rouge_reroll_pelican_with_a_wrong_total_scores_nothing() -> None:
    state = arrange(3, scores=[50, 0, 0])
    dice(state, 3, 3)
    dice(state, 4)
    state.apply(0, AnnounceTotal(10))
    dice(state, 6, 6, 6)
    assert state.scores[0] == 59


def test_failed_sirotage_on_a_pair_of_six_with_a_civet_already_held() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False])
    dice(state, 6, 6)
    dice(state, 1)
    state.apply(0, Sip(True))
    dice(state, 2)
    assert state.scores[0] == 14
    assert state.civet == [True, False, False]  # still one Civet, not two


def test_gains_stopping_at_332() -> None:
    state = arrange(3, scores=[100, 0, 300])
    dice(state, 4, 2)
    state.apply_timeout()
    dice(state, 1)
    state.apply(0, ChallengeSoufflette(2))
    others_pass(state)
    dice(state, 4, 2, 1)
    assert state.scores == [50, 0, 332]


def test_purchase_by_a_player_at_330() -> None:
    state = arrange(3, scores=[0, 330, 0])
    dice(state, 6, 6)
    state.apply(1, BuyCul())
    assert state.scores[1] == 300
    dice(state, 6)  # a Pélican for the buyer: capped, no victory off their turn
    assert state.scores[1] == 332 and state.scores[0] == 36
    assert not state.is_over()


def test_reaching_343_by_a_challenge_does_not_win() -> None:
    state = arrange(3, scores=[330, 0, 40])
    dice(state, 4, 2)
    state.apply_timeout()
    dice(state, 1)
    state.apply(0, ChallengeSoufflette(2))
    others_pass(state)
    dice(state, 5, 5, 5)
    dice(state, 6, 6, 6)
    dice(state, 3, 3, 3)
    assert state.scores[0] == 332 and not state.is_over()


def test_scores_at_zero_losing_more_stay_at_zero() -> None:
    state = arrange(3, scores=[0, 0, 0])
    dice(state, 3, 3)
    dice(state, 1)
    state.apply(0, Sip(True))
    dice(state, 2)
    assert state.scores[0] == 0
    state.apply_timeout()  # nobody shouts the Contre-Sirop
    state.apply(1, DeclareBevue(0))
    assert state.scores == [0, 0, 0]


def test_passe_grelot_with_two_players_has_no_effect() -> None:
    state = arrange(2, scores=[100, 200], grelottine=[False, True], pg_earned=[True, False])
    dice(state, 1, 3)
    state.apply_timeout()
    dice(state, 6)
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    assert not any(isinstance(a, PasseGrelot) for a in state.legal_actions(0))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="sans effet à deux joueurs"):
        state.apply(0, PasseGrelot(1))
    assert state.snapshot() == before


def test_buyer_of_a_neant_gets_the_grelottine_and_faces_the_challenge() -> None:
    state = arrange(3, scores=[0, 100, 200], grelottine=[False, False, True])
    dice(state, 1, 3)
    state.apply(1, BuyCul())
    dice(state, 6)
    assert state.grelottine[1] and state.step == "grelottine"
    state.apply(2, ChallengeGrelottine("Chouette", 23))
    others_pass(state)
    dice(state, 2, 2, 5)  # typed by the buyer, the challenged
    assert state.scores[1] == 70 + 23 + 4
