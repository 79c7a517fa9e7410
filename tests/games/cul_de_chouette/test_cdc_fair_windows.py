"""The rules file's « Windows are fair », the unclaimed Chouette Velute, the Bévue button at
any time and refusals that name the real reason (issue 14)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from choux import games
from choux.engine import IllegalAction, NotYourTurn, WindowClosed
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BetChallenge,
    BetFace,
    BetTotal,
    BuyCul,
    ChallengeGrelottine,
    ChallengeSoufflette,
    CivetBet,
    CloseWindow,
    DeclareBevue,
    EnterDice,
    Pass,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
)
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.substates import Sirotage
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass


def refused(state: CulDeChouetteState, call: Callable[[], object], error: type, text: str) -> None:
    before = state.snapshot()
    with pytest.raises(error, match=text):
        call()
    assert state.snapshot() == before


def site_table(players: int, seed: int = 3, **options: object) -> CulDeChouetteState:
    state = games.get("cul-de-chouette").new(players, seed, dict(options))
    assert isinstance(state, CulDeChouetteState)
    return state


# ---------------------------------------------------------------- windows are fair


def test_roller_cannot_cut_the_sirotage_bets() -> None:
    # the reproduction: 3 players at 50, Chouettes 4-4, Cul 1, the roller sips
    state = arrange(3, scores=[50, 50, 50])
    dice(state, 4, 4)
    others_pass(state)  # nobody buys the Cul
    dice(state, 1)
    state.apply(0, Sip(True))
    assert state.step == "paris_sirotage"
    assert EnterDice((4,)) not in state.legal_actions(0)
    refused(state, lambda: state.apply(0, EnterDice((4,))), IllegalAction, "d'autres joueurs")
    state.apply(1, BetFace(4))
    assert state.step == "paris_sirotage"  # seat 2 may still bet
    state.apply(2, Pass())
    assert state.step == "sirotage"  # everyone acted or passed: the die is the roller's
    dice(state, 4)
    assert state.scores == [50 + 80, 75, 50]


def test_roller_cannot_cut_the_sirotage_bets_with_the_site_dice() -> None:
    state = site_table(3)
    state.scores = [50, 50, 50]
    state.roller, state.chouettes, state.dice = 0, [4, 4], [4, 4, 1]
    state.sip = Sirotage(4)
    state.enter(Step.PARIS_SIROTAGE)  # the roller has just chosen to sip
    state._fresh()
    roller = state.roller
    assert Roll() not in state.legal_actions(roller)
    refused(state, lambda: state.apply(roller, Roll()), IllegalAction, "d'autres joueurs")


def test_roller_cannot_cut_the_purchase_of_the_cul() -> None:
    state = arrange(3, scores=[0, 40, 40])
    dice(state, 2, 2)
    assert state.step == "achat"
    refused(state, lambda: state.apply(0, EnterDice((3,))), IllegalAction, "d'autres joueurs")
    state.apply(1, Pass())
    assert state.step == "achat"
    state.apply(2, BuyCul())
    assert state.bought_by == 2


def test_purchase_window_still_closes_at_its_deadline() -> None:
    state = arrange(3, scores=[0, 40, 40])
    dice(state, 2, 2)
    state.apply_timeout()
    assert state.step == "cul"


def test_roller_cannot_cut_the_bets_on_a_grelottine_challenge() -> None:
    state = arrange(3, scores=[100, 200, 50], grelottine=[False, True, False])
    state.boucliette = [False, False, False]
    state._fresh()
    dice(state, 1, 3)
    others_pass(state)
    dice(state, 6)
    state.apply(1, ChallengeGrelottine("Chouette", 33))
    assert state.step == "annonce"
    refused(state, lambda: state.apply(0, EnterDice((5, 5, 2))), IllegalAction, "d'autres")
    state.apply(2, BetChallenge(True))
    assert state.step == "defi"
    dice(state, 5, 5, 2)
    assert state.scores[2] == 75


def test_roller_cannot_cut_the_boucliette_of_the_others() -> None:
    state = arrange(3, scores=[60, 0, 0])
    dice(state, 4, 2)
    dice(state, 1)
    state.apply(0, ChallengeSoufflette(2))
    refused(state, lambda: state.apply(2, EnterDice((4, 2, 1))), IllegalAction, "d'autres")
    state.apply(1, UseBoucliette())
    assert state.challenge is None and state.roller == 2


def test_roller_cannot_cut_the_bets_on_a_bleu_rouge_total() -> None:
    state = arrange(3, scores=[50, 10, 10])
    dice(state, 3, 3)
    dice(state, 4)
    state.apply(0, AnnounceTotal(10))
    refused(state, lambda: state.apply(0, EnterDice((4, 4, 2))), IllegalAction, "d'autres")
    state.apply(1, BetTotal(10))
    state.apply(2, Pass())
    dice(state, 4, 4, 2)
    assert state.scores[1] == 35


def test_scribe_waits_for_the_civet_of_the_roller() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False], options={"scribe": 2})
    refused(state, lambda: state.apply(2, EnterDice((1, 3))), IllegalAction, "d'autres")
    state.apply(0, Pass())
    state.apply(2, EnterDice((1, 3)))
    assert state.step == "cul"


def test_roller_may_bet_the_civet_then_the_scribe_types() -> None:
    state = arrange(3, scores=[50, 0, 0], civet=[True, False, False], options={"scribe": 2})
    state.apply(0, CivetBet("Velute", 10))
    state.apply(2, EnterDice((1, 3)))
    assert state.step == "cul"


def test_a_window_nobody_can_act_in_does_not_wait() -> None:
    state = arrange(3, scores=[10, 4, 0])  # nobody has the 5 points of a bet
    dice(state, 2, 2)
    dice(state, 5)
    state.apply(0, Sip(True))
    assert state.step == "sirotage"


def test_nobody_challenges_the_neant_when_every_holder_passes() -> None:
    state = arrange(3, scores=[100, 200, 50], grelottine=[False, True, True])
    dice(state, 1, 3)
    others_pass(state)
    dice(state, 6)
    assert state.step == "grelottine"
    state.apply(1, Pass())
    assert state.step == "grelottine"
    state.apply(2, Pass())
    assert state.step == "debut" and state.roller == 2


def test_pass_is_refused_outside_a_window_with_the_reason() -> None:
    state = arrange(3, scores=[10, 10, 10])
    refused(state, lambda: state.apply(1, Pass()), IllegalAction, "rien à décider")
    dice(state, 1, 3)
    assert state.step == "cul"
    refused(state, lambda: state.apply(1, Pass()), WindowClosed, "rien à passer")


# ---------------------------------------------------------------- Chouette Velute


def test_unclaimed_chouette_velute_stays_with_the_roller() -> None:
    state = arrange(3, scores=[10, 0, 0])
    dice(state, 1, 1)
    dice(state, 2)
    assert state.step == "chouette_velute"
    state.apply_timeout()
    assert state.scores == [18, 0, 0] and state.step == "debut"


def test_unclaimed_chouette_velute_of_a_bought_cul_stays_with_the_buyer() -> None:
    state = arrange(3, scores=[0, 40, 0])
    dice(state, 2, 2)
    state.apply(1, BuyCul())
    dice(state, 4)
    state.apply_timeout()
    assert state.scores == [4, 10 + 32, 0]


# ---------------------------------------------------------------- Bévue at any time


def test_bevue_button_for_every_player_on_every_other_player_at_any_time() -> None:
    state = arrange(3, scores=[20, 20, 20])
    # the roller, before rolling, and a player with a decision of their own may press it
    assert DeclareBevue(1) in state.legal_actions(0)
    state.apply(0, DeclareBevue(1))
    dice(state, 1, 1)
    dice(state, 2)  # a Chouette Velute race: the racers may press it too
    assert DeclareBevue(0) in state.legal_actions(2)
    state.apply(2, DeclareBevue(0))
    assert state.scores == [10, 10, 20]


def test_bevue_button_once_per_pressing_player_per_target_per_turn() -> None:
    state = arrange(3, scores=[30, 30, 30])
    state.apply(1, DeclareBevue(0))
    refused(state, lambda: state.apply(1, DeclareBevue(0)), IllegalAction, "déjà signalé")
    state.apply(2, DeclareBevue(0))  # another presser: allowed
    dice(state, 1, 3)
    others_pass(state)
    dice(state, 4)  # next turn: the button is back
    assert DeclareBevue(0) in state.legal_actions(1)


def test_bevue_button_is_not_on_oneself() -> None:
    state = arrange(3, scores=[20, 20, 20])
    assert DeclareBevue(1) not in state.legal_actions(1)
    refused(state, lambda: state.apply(1, DeclareBevue(1)), IllegalAction, "autre joueur")


# ---------------------------------------------------------------- the real reasons


def sirotage_bets() -> CulDeChouetteState:
    state = arrange(3, scores=[50, 50, 50])
    dice(state, 4, 4)
    others_pass(state)
    dice(state, 1)
    state.apply(0, Sip(True))
    return state


def test_bet_on_face_7_is_out_of_bounds_not_closed() -> None:
    state = sirotage_bets()
    refused(state, lambda: state.apply(1, BetFace(7)), IllegalAction, "hors limites")
    refused(state, lambda: state.apply(1, BetFace(0)), IllegalAction, "hors limites")


def test_bet_on_total_2_is_out_of_bounds_not_closed() -> None:
    state = arrange(3, scores=[50, 10, 10])
    dice(state, 3, 3)
    dice(state, 4)
    refused(state, lambda: state.apply(1, BetTotal(2)), IllegalAction, "hors limites")
    refused(state, lambda: state.apply(1, BetTotal(19)), IllegalAction, "total impossible")


@pytest.mark.parametrize("total", [0, 1, 19, 25, -3])
def test_impossible_announced_total_is_a_bevue_whatever_the_number(total: int) -> None:
    state = arrange(3, scores=[50, 0, 0])
    dice(state, 3, 3)
    dice(state, 4)
    events = state.apply(0, AnnounceTotal(total))
    assert state.scores[0] == 59 - C.BEVUE
    assert any("total impossible" in e.text for e in events)
    assert state.bleu is not None and state.bleu.announced == 1 and state.bleu.totals == ()


def test_announced_total_out_of_its_moment_says_so() -> None:
    state = arrange(3, scores=[50, 0, 0])
    refused(state, lambda: state.apply(0, AnnounceTotal(10)), WindowClosed, "Bleu-Rouge")
    dice(state, 3, 3)
    dice(state, 4)
    refused(state, lambda: state.apply(1, AnnounceTotal(10)), NotYourTurn, "lanceur")
    state.apply(0, AnnounceTotal(10))
    refused(state, lambda: state.apply(0, AnnounceTotal(10)), IllegalAction, "déjà annoncé")


def test_soufflette_on_oneself_has_a_precise_reason() -> None:
    state = arrange(3, scores=[60, 0, 0])
    dice(state, 4, 2)
    dice(state, 1)
    assert state.step == "soufflette_cible"
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="soi-même") as error:
        state.apply(0, ChallengeSoufflette(0))
    assert not isinstance(error.value, NotYourTurn)
    assert state.snapshot() == before
    refused(state, lambda: state.apply(0, ChallengeSoufflette(5)), IllegalAction, "pas à la table")


def test_shout_twice_wrong_in_one_race_says_so() -> None:
    state = arrange(3, scores=[20, 20, 20], options={"bouton_bevue": False})
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.PAS_MOU))
    refused(state, lambda: state.apply(1, Shout(C.PAS_MOU)), IllegalAction, "à tort")


@pytest.mark.parametrize("cry", [C.CRI_GRELOTTINE, C.CRI_BOUCLIETTE, C.CRI_PASSE_GRELOT])
def test_a_second_shout_out_of_place_during_a_race_names_the_real_reason(cry: str) -> None:
    # the rules file: « a refusal always names the real reason, never a generic one »
    state = arrange(3, scores=[20, 20, 20])
    state.apply(1, Shout(C.CRI_PELICAN))  # out of place before the dice: a Bévue, once a turn
    dice(state, 2, 3)
    dice(state, 4)
    assert state.step == Step.SUITE
    refused(state, lambda: state.apply(1, Shout(cry)), IllegalAction, "Un seul cri hors de propos")


def test_a_cry_foreign_to_the_race_without_the_bevue_button_names_the_real_reason() -> None:
    state = arrange(3, scores=[20, 20, 20], options={"bouton_bevue": False})
    dice(state, 2, 3)
    dice(state, 4)
    assert state.step == Step.SUITE
    refused(
        state, lambda: state.apply(1, Shout(C.CRI_GRELOTTINE)), IllegalAction, "ne s'applique pas"
    )


@pytest.mark.parametrize(
    ("scribe", "text"),
    [(None, "{p0} peut saisir ses dés"), (2, "{p2} peut saisir les dés de {p0}")],
)
def test_a_window_closed_by_the_clock_with_real_dice_says_whose_dice_are_awaited(
    scribe: int | None, text: str
) -> None:
    """The site rolls nothing then: without a line the table would not see the window close
    (found by an audit)."""
    state = arrange(3, scores=[40, 40, 40], options={} if scribe is None else {"scribe": scribe})
    dice(state, 4, 4)
    assert state.step == "achat"
    events = state.apply(None, CloseWindow())
    assert [e.text for e in events] == [f"Temps écoulé : {text}."]
    assert state.step != "achat"
