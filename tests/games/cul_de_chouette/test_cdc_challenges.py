"""Sirotage and its bets, Soufflette, Grelottine and its bets, Passe-Grelot, Boucliette,
Bleu-Rouge."""

from __future__ import annotations

import pytest

from choux.engine import IllegalAction
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BetChallenge,
    BetFace,
    BetTotal,
    ChallengeGrelottine,
    ChallengeSoufflette,
    EnterDice,
    PasseGrelot,
    Shout,
    Sip,
    UseBoucliette,
)
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass

# ---------------------------------------------------------------- Sirotage


def chouette_of_two(scores: list[int], **sheets: list[bool]) -> CulDeChouetteState:
    state = arrange(3, scores=scores, **sheets)
    dice(state, 2, 2)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 5)
    assert state.step == "siroter"
    return state


def test_chouette_kept_scores_its_square() -> None:
    state = chouette_of_two([10, 0, 0])
    state.apply(0, Sip(False))
    assert state.scores[0] == 14


def test_chouette_sip_decision_closes_by_itself_keeping_the_chouette() -> None:
    state = chouette_of_two([10, 0, 0])
    state.apply_timeout()
    assert state.scores[0] == 14 and state.step == "debut"


def test_sirotage_hit_scores_the_cul_de_chouette_instead() -> None:
    state = chouette_of_two([10, 0, 0])
    state.apply(0, Sip(True))
    dice(state, 2)
    assert state.scores[0] == 70


def test_sirotage_miss_loses_the_chouette_value() -> None:
    state = chouette_of_two([10, 0, 0])
    state.apply(0, Sip(True))
    dice(state, 3)
    assert state.scores[0] == 6
    assert state.step == "contre_sirop"


def test_sirotage_side_bets_win_25_and_lose_5() -> None:
    state = chouette_of_two([0, 10, 10])
    state.apply(0, Sip(True))
    assert BetFace(3) in state.legal_actions(1)
    state.apply(1, BetFace(3))
    state.apply(2, BetFace(4))
    assert BetFace(1) not in state.legal_actions(1)  # one bet each
    dice(state, 3)
    assert state.scores[1:] == [35, 5]


def test_sirotage_roller_does_not_bet_on_own_die() -> None:
    state = chouette_of_two([50, 0, 0])
    state.apply(0, Sip(True))
    assert all(not isinstance(a, BetFace) for a in state.legal_actions(0))


def test_failed_sirotage_on_a_pair_of_six_gives_a_civet() -> None:
    state = arrange(3, scores=[40, 0, 0])
    dice(state, 6, 6)
    dice(state, 2)
    state.apply(0, Sip(True))
    dice(state, 1)
    assert state.scores[0] == 4 and state.civet[0]
    assert state.view(None)["sheets"][0]["civet"] is True


# ---------------------------------------------------------------- Soufflette


def soufflette(scores: list[int], target: int = 2) -> CulDeChouetteState:
    state = arrange(3, scores=scores)
    dice(state, 4, 2)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 1)
    assert state.step == "soufflette_cible"
    state.apply(0, ChallengeSoufflette(target))
    assert state.step == "annonce"
    return state


def test_soufflette_made_on_the_first_throw_takes_50_from_the_roller() -> None:
    state = soufflette([60, 0, 0])
    others_pass(state)
    dice(state, 1, 4, 2)
    assert state.scores == [10, 0, 50]


def test_soufflette_keeps_4_2_1_and_made_on_the_third_throw_gives_30() -> None:
    state = soufflette([60, 0, 0])
    others_pass(state)
    dice(state, 4, 6, 6)
    assert state.challenge is not None and state.challenge.kept == (4,)
    dice(state, 2, 5)
    dice(state, 1)
    assert state.scores == [30, 0, 30]


def test_soufflette_missed_costs_the_challenged_30_and_pays_the_roller() -> None:
    state = soufflette([0, 0, 40])
    others_pass(state)
    dice(state, 5, 5, 5)
    dice(state, 6, 6, 6)
    dice(state, 3, 3, 3)
    assert state.scores == [30, 0, 10]


def test_soufflette_target_defaults_to_the_next_player_when_the_clock_runs_out() -> None:
    state = arrange(3)
    dice(state, 4, 2)
    dice(state, 1)
    state.apply_timeout()
    assert state.challenge is not None and state.challenge.target == 2


# ---------------------------------------------------------------- Grelottine


def neant(scores: list[int], **sheets: list[bool]) -> CulDeChouetteState:
    sheets.setdefault("grelottine", [False, True, False])
    state = arrange(3, scores=scores, **sheets)
    dice(state, 1, 3)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 6)
    return state


def test_neant_gives_the_roller_a_grelottine() -> None:
    state = neant([0, 0, 0], grelottine=[False, False, False])
    assert state.grelottine == [True, False, False]
    assert state.step == "debut"  # nobody else holds one: no challenge


def test_grelottine_stake_is_capped_by_the_smaller_score() -> None:
    state = neant([100, 200, 0])
    assert state.step == "grelottine"
    menu = [a for a in state.legal_actions(1) if isinstance(a, ChallengeGrelottine)]
    tops = {c: max(a.stake for a in menu if a.combination == c) for c in C.GRELOTTINE_PERCENT}
    assert tops == {
        "Chouette": 33,
        "Velute": 25,
        "Sirop-Grelot": 20,
        "Cul de Chouette": 16,
        "Chouette Velute": 8,
    }
    with pytest.raises(IllegalAction, match="Mise trop forte"):
        state.apply(1, ChallengeGrelottine("Chouette", 34))


def test_grelottine_made_wins_the_stake_and_keeps_the_roll() -> None:
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    state.apply_timeout()
    dice(state, 5, 5, 2)
    assert state.scores == [100 + 33 + 25, 200 - 33, 0]
    assert state.grelottine == [False, False, False]  # both are spent
    assert state.pg_earned[0]


def test_grelottine_missed_loses_the_stake() -> None:
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Velute", 25))
    others_pass(state)
    dice(state, 1, 3, 6)
    assert state.scores == [75, 225, 0]
    assert state.grelottine == [False, False, False]
    assert not state.pg_earned[0]


def test_a_chouette_velute_rolled_for_a_challenge_stays_with_the_roller() -> None:
    """No race on a challenge's roll: nobody can claim the Chouette Velute, so the roller
    keeps its points (2v²), as with an unclaimed one."""
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Chouette Velute", 8))
    others_pass(state)
    dice(state, 2, 2, 4)
    assert state.scores == [100 + 8 + 32, 200 - 8, 0]
    assert state.step == "debut" and state.race is None


def test_grelottine_third_party_bets_5_to_win_25() -> None:
    state = neant([100, 200, 10])
    state.apply(1, ChallengeGrelottine("Chouette", 30))
    state.apply(2, BetChallenge(True))
    others_pass(state)
    dice(state, 4, 4, 1)
    assert state.scores[2] == 35
    state = neant([100, 200, 10])
    state.apply(1, ChallengeGrelottine("Chouette", 30))
    state.apply(2, BetChallenge(True))
    others_pass(state)
    dice(state, 1, 3, 6)
    assert state.scores[2] == 5


def test_sirop_grelot_needs_a_chouette_then_the_sip() -> None:
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Sirop-Grelot", 20))
    others_pass(state)
    dice(state, 2, 2, 5)
    assert state.step == "sirop_grelot"
    dice(state, 2)
    assert state.scores == [100 + 20 + 60, 180, 0]


def test_sirop_grelot_without_a_chouette_is_missed() -> None:
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Sirop-Grelot", 20))
    others_pass(state)
    dice(state, 1, 2, 5)
    assert state.scores == [80, 220, 0]


def test_sirop_grelot_on_a_chouette_velute_is_missed_without_a_sip() -> None:
    """No Sirotage after a Chouette Velute (decisions): the challenge is missed at once and
    the roller keeps the roll's 2v²."""
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Sirop-Grelot", 20))
    others_pass(state)
    dice(state, 2, 2, 4)
    assert state.step == "debut" and state.challenge is None
    assert state.scores == [100 - 20 + 32, 220, 0]


def test_a_passed_challenge_must_be_taken() -> None:
    """« refile le défi à un adversaire, qui doit l'accepter »: the new target can neither
    pass it on (back to the passer either) nor cancel it with a Boucliette; a third player's
    Boucliette still may."""
    state = arrange(
        4,
        scores=[100, 200, 50, 80],
        grelottine=[False, True, False, False],
        pg_earned=[True, False, False, True],
    )
    dice(state, 1, 3)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 6)
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    state.apply(0, PasseGrelot(3))
    assert not any(isinstance(a, (PasseGrelot, UseBoucliette)) for a in state.legal_actions(3))
    before = state.snapshot()
    for refused in (PasseGrelot(0), PasseGrelot(2), UseBoucliette()):
        with pytest.raises(IllegalAction, match="doit être accepté"):
            state.apply(3, refused)
        assert state.snapshot() == before
    assert UseBoucliette() in state.legal_actions(2)


def test_passe_grelot_hands_the_challenge_to_another_opponent() -> None:
    state = neant([100, 200, 50], pg_earned=[True, False, False])
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    assert PasseGrelot(2) in state.legal_actions(0)
    assert PasseGrelot(1) not in state.legal_actions(0)  # not back to the challenger
    events = state.apply(0, PasseGrelot(2))
    assert state.challenge is not None
    assert state.challenge.target == 2 and state.challenge.stake == 16
    # the stake is capped by the poorer target's score, and the table is told
    assert [e.text for e in events] == [
        "{p0} : « Passe-Grelot ! » Le défi passe à {p2}, mise ramenée à 16 points"
    ]
    assert state.pg_used[0]
    others_pass(state)
    dice(state, 1, 3, 6)  # typed by the new target
    assert state.scores == [100, 216, 34]


def test_passe_grelot_only_once_per_game() -> None:
    state = neant([100, 200, 50], pg_earned=[True, False, False], pg_used=[True, False, False])
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    assert not any(isinstance(a, PasseGrelot) for a in state.legal_actions(0))


def test_boucliette_cancels_a_challenge() -> None:
    state = neant([100, 200, 0])
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    state.apply(2, UseBoucliette())
    assert state.boucliette == [True, True, False]
    assert state.challenge is None and state.step == "debut"
    assert state.scores == [100, 200, 0]


def test_boucliette_cancels_a_soufflette_too() -> None:
    state = soufflette([60, 0, 0])
    state.apply(2, UseBoucliette())
    assert state.scores == [60, 0, 0] and not state.boucliette[2]


def test_boucliette_is_shown_on_the_sheet() -> None:
    state = arrange(3, boucliette=[True, False, True])
    assert [s["boucliette"] for s in state.view(None)["sheets"]] == [True, False, True]


# ---------------------------------------------------------------- Bleu-Rouge


def bleu_rouge(scores: list[int]) -> CulDeChouetteState:
    state = arrange(3, scores=scores, boucliette=[False, True, True])
    dice(state, 3, 4)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 3)
    assert state.step == "bleu_rouge"
    return state


def test_bleu_rouge_gives_back_the_boucliette_and_9_points() -> None:
    state = bleu_rouge([50, 0, 0])
    assert state.boucliette[0] and state.scores[0] == 59


def test_bleu_rouge_dice_typed_before_the_total_are_refused_with_the_reason() -> None:
    """The three dice wait for the total aimed at, and the refusal says so (an audit found
    « Aucun dé n'est attendu maintenant. », which told the roller nothing)."""
    state = bleu_rouge([50, 0, 0])
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="Annoncez d'abord le total"):
        state.apply(0, EnterDice((4, 4, 2)))
    with pytest.raises(IllegalAction, match="attend d'abord l'annonce du total"):
        state.apply(1, EnterDice((4, 4, 2)))
    assert state.snapshot() == before
    state.apply(0, AnnounceTotal(10))
    state.apply(0, EnterDice((4, 4, 2)))
    assert state.scores[0] == 59 + 36 + 20 + 16


def test_bleu_rouge_right_total_wins_36_twice_the_total_and_the_roll() -> None:
    state = bleu_rouge([50, 0, 0])
    state.apply(0, AnnounceTotal(10))
    state.apply(0, AnnounceTotal(11))
    dice(state, 4, 4, 2)  # total 10, a Chouette of 4
    assert state.scores[0] == 59 + 36 + 20 + 16


def test_bleu_rouge_re_rolled_into_a_chouette_velute_keeps_its_points() -> None:
    state = bleu_rouge([50, 0, 0])
    state.apply(0, AnnounceTotal(8))
    dice(state, 2, 2, 4)  # total 8, a Chouette Velute of 4: no race on a re-roll
    assert state.scores[0] == 59 + 36 + 16 + 32 and state.race is None


def test_bleu_rouge_names_the_re_rolled_combination_in_good_french() -> None:
    state = bleu_rouge([50, 0, 0])
    state.apply(0, AnnounceTotal(11))
    events = dice(state, 4, 4, 3)  # total 11, a Chouette of 4
    texts = [e.text for e in events]
    assert "{p0} marque sa Chouette : +16" in texts, texts
    assert C.possessive(C.CUL_DE_CHOUETTE) == "son Cul de Chouette"


def test_bleu_rouge_wrong_total_gives_nothing() -> None:
    state = bleu_rouge([50, 0, 0])
    state.apply(0, AnnounceTotal(10))
    dice(state, 1, 1, 5)
    assert state.scores[0] == 59


def test_bleu_rouge_three_totals_at_most() -> None:
    state = bleu_rouge([50, 0, 0])
    for total in (9, 10, 11):
        state.apply(0, AnnounceTotal(total))
    assert not any(isinstance(a, AnnounceTotal) for a in state.legal_actions(0))


def test_bleu_rouge_impossible_total_is_a_bevue() -> None:
    state = bleu_rouge([50, 0, 0])
    state.apply(0, AnnounceTotal(19))
    assert state.scores[0] == 49
    assert state.bleu is not None and state.bleu.totals == ()


def test_bleu_rouge_others_bet_5_on_the_total() -> None:
    state = bleu_rouge([50, 10, 10])
    state.apply(0, AnnounceTotal(10))
    state.apply(1, BetTotal(10))
    state.apply(2, BetTotal(12))
    dice(state, 4, 4, 2)
    assert state.scores[1:] == [35, 5]


def test_grelottine_shouted_without_a_grelottine_is_a_bevue() -> None:
    state = neant([100, 200, 30])
    shouts = [a for a in state.legal_actions(2) if isinstance(a, Shout)]
    assert shouts.count(Shout(C.CRI_GRELOTTINE)) == 1  # listed once, with the others' buttons
    state.apply(2, Shout(C.CRI_GRELOTTINE))
    assert state.scores[2] == 20 and state.step == "grelottine"
    # once: no « Grelottine ! » again, and it was this turn's one shout out of place
    assert not [a for a in state.legal_actions(2) if isinstance(a, Shout)]
