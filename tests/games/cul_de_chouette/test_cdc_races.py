"""Shouts and races: first to click wins, the last of a Suite loses, wrong shouts cost; the
race's own cry after it ended is only « trop tard » until the next dice."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux.engine import IllegalAction
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import rotation
from choux.games.cul_de_chouette.actions import BuyCul, EnterDice, Pass, Roll, Shout
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.steps import RACE_CRY
from choux.games.cul_de_chouette.testing import arrange, dice


def test_pelican_gives_172_and_28_to_the_first_to_shout() -> None:
    state = arrange(3)
    dice(state, 6, 6)
    dice(state, 6)
    assert state.scores[0] == 172 and state.step == "pelican"
    state.apply(2, Shout(C.CRI_PELICAN))
    assert state.scores == [172, 0, 28]
    assert state.step == "debut"


def test_the_race_s_cry_after_it_was_won_is_too_late_not_a_bevue() -> None:
    # the second click lost the race but applies to the dice still on the table
    state = arrange(3, scores=[0, 30, 0])
    dice(state, 6, 6)
    state.apply_timeout()  # nobody buys the Cul
    dice(state, 6)
    state.apply(2, Shout(C.CRI_PELICAN))
    events = state.apply(1, Shout(C.CRI_PELICAN))  # too late: the race is over
    assert state.scores == [172, 30, 28]
    assert [e.text for e in events] == ["{p1} : « Pélican ! », trop tard : la course est finie"]
    state = arrange(3, options={"bouton_bevue": False})
    dice(state, 6, 6)
    dice(state, 6)
    state.apply(2, Shout(C.CRI_PELICAN))
    assert 1 in state.actors()  # its late cry is heard even without the −10 buttons
    state.apply(1, Shout(C.CRI_PELICAN))
    assert state.scores == [172, 0, 28]
    with pytest.raises(IllegalAction):  # once
        state.apply(1, Shout(C.CRI_PELICAN))


def test_a_wrong_cry_after_the_race_is_a_bevue() -> None:
    state = arrange(3, scores=[0, 30, 0])
    dice(state, 6, 6)
    state.apply_timeout()
    dice(state, 6)
    state.apply(2, Shout(C.CRI_PELICAN))
    state.apply(1, Shout(C.PAS_MOU))
    assert state.scores == [172, 20, 28]


def test_the_race_s_cry_after_the_next_roll_s_cul_is_a_bevue() -> None:
    """The next player's Chouettes thrown right after the race do not make a late cry a
    Bévue (an audit: fined −10 for arriving 0.4 s late, 0.2 s after the next throw); the
    next roll's Cul does."""
    state = arrange(3, scores=[0, 20, 0])
    dice(state, 6, 6)
    dice(state, 6)
    state.apply(2, Shout(C.CRI_PELICAN))
    assert state.roller == 2 and state.late is not None
    dice(state, 2, 3)  # the next turn's Chouettes, thrown at once
    events = state.apply(1, Shout(C.CRI_PELICAN))
    assert state.scores[1] == 20 and "trop tard" in events[0].text
    state = arrange(3, scores=[0, 20, 20])
    dice(state, 6, 6)
    dice(state, 6)
    state.apply(1, Shout(C.CRI_PELICAN))
    dice(state, 2, 3)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 5)  # the next roll's Cul (the roller's Velute): the Pélican is forgotten
    assert state.late is None
    before = state.scores[0]
    state.apply(0, Shout(C.CRI_PELICAN))
    assert state.scores[0] == before - 10


class LoadedDice:
    """The site's dice, loaded: `random()` gives these faces in turn."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def random(self) -> float:
        return (self.faces.pop(0) - 0.5) / 6


@pytest.mark.parametrize("bought", [False, True])
def test_with_the_site_s_dice_the_race_is_forgotten_once_the_next_roll_is_complete(
    bought: bool,
) -> None:
    """With the site's dice the race is forgotten too: a referee saw a lost « Pas mou le
    caillou » still « trop tard » turns later. Once the next roll's Cul is bought (its own
    moment), a late cry is a Bévue; when the site throws the three dice at once (nobody may
    buy), only from the dice after that roll: the next player throws at once, and a cry
    0.3 s late was fined (an audit)."""
    state = CulDeChouetteState(3, 0, {"des": "site"})
    state.tiebreak = None
    state.roller = 0
    rotation.start_turn(state)
    state.scores = [20, 40, 0] if bought else [20, 0, 0]
    state._fresh()
    state.rng = LoadedDice(1, 1, 2, 2, 3, 5, 4, 6, 1)  # type: ignore[assignment]
    state.apply(0, Roll())  # 1-1-2: a Chouette Velute, a race
    if bought:  # seat 1 (40 points) may buy the Cul: nobody does this time
        state.apply(1, Pass())
        state.apply(0, Roll())
    state.apply(2, Shout(C.PAS_MOU))  # seat 2 wins it and rolls next
    assert state.roller == 2 and state.late is not None
    state.apply(2, Roll())  # 2-3 and, bought by seat 1 or in the same throw, the Cul: a 5
    if bought:
        state.apply(1, BuyCul())
    assert state.last_roll is not None and state.last_roll["dice"] == [2, 3, 5]
    if bought:
        assert state.late is None
    else:  # thrown with the Chouettes: a cry right after is still only too late
        events = state.apply(1, Shout(C.PAS_MOU))
        assert state.scores[1] == 0 and "trop tard" in events[0].text
        assert state.late is not None
        state.apply(state.roller, Roll())  # the next dice: now it is out of place
        assert state.late is None
    before = state.scores[0]
    state.apply(0, Shout(C.PAS_MOU))
    assert state.scores[0] == before - 10


def test_chouette_velute_goes_to_the_first_to_shout() -> None:
    state = arrange(3)
    dice(state, 2, 2)
    dice(state, 4)
    assert state.step == "chouette_velute" and state.scores == [0, 0, 0]
    state.apply(1, Shout(C.PAS_MOU))
    assert state.scores == [0, 32, 0]
    assert state.step == "debut"


def test_chouette_velute_may_be_won_by_the_roller() -> None:
    state = arrange(3)
    dice(state, 3, 6)
    dice(state, 3)
    state.apply(0, Shout(C.PAS_MOU))
    assert state.scores[0] == 72


def test_pelican_shout_that_nobody_makes_in_time_goes_to_nobody() -> None:
    # (was a Chouette Velute: the rules now leave an unclaimed one with the roller)
    state = arrange(3)
    dice(state, 6, 6)
    dice(state, 6)
    state.apply_timeout()
    assert state.scores == [172, 0, 0] and state.step == "debut"


def test_suite_last_to_shout_loses_10() -> None:
    state = arrange(3, scores=[20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    assert state.step == "suite"
    state.apply(1, Shout(C.GRELOTTE))
    state.apply(0, Shout(C.GRELOTTE))
    state.apply(2, Shout(C.GRELOTTE))
    assert state.scores == [20, 20, 10]


def test_a_second_right_cry_while_the_suite_runs_on_is_not_a_bevue() -> None:
    # « Grelotte ça picote ! » again from a player already heard applies to the Suite on
    # the table: already counted (no Bévue), as after the race; once.
    state = arrange(4, scores=[20, 20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.GRELOTTE))
    events = state.apply(1, Shout(C.GRELOTTE))
    assert state.scores == [20, 20, 20, 20] and "déjà compté" in events[0].text
    state.check_invariants()
    for seat in (2, 0, 3):
        state.apply(seat, Shout(C.GRELOTTE))
    assert state.scores == [20, 20, 20, 10]  # the order of the first cries decides
    assert state.late is not None and 1 not in state.late.seats  # its repeat is spent


def test_suite_one_silent_player_is_the_last() -> None:
    state = arrange(3, scores=[20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.GRELOTTE))
    state.apply(2, Shout(C.GRELOTTE))
    state.apply_timeout()
    assert state.scores == [10, 20, 20]
    state.apply(0, Shout(C.GRELOTTE))  # after the clock: too late, it loses only once
    assert state.scores == [10, 20, 20]


def test_suite_silent_players_roll_a_die_and_the_lowest_loses() -> None:
    state = arrange(3, scores=[20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.GRELOTTE))
    state.apply_timeout()
    assert state.step == "departage" and set(state.actors()) >= {0, 2}
    state.apply(0, EnterDice((4,)))
    state.apply(2, EnterDice((4,)))  # a tie: roll again
    state.apply(2, EnterDice((5,)))
    state.apply(0, EnterDice((3,)))
    assert state.scores == [10, 20, 20]
    assert state.step == "debut"


def test_suite_1_2_3_also_gives_the_roller_18() -> None:
    state = arrange(3)
    dice(state, 1, 2)
    dice(state, 3)
    assert state.scores[0] == 18 and state.step == "suite"


def test_wrong_shout_is_a_bevue() -> None:
    state = arrange(3, scores=[20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.PAS_MOU))
    assert state.scores[1] == 10
    # one wrong shout per window: of the races' cries only the right one remains
    shouts = [a for a in state.legal_actions(1) if isinstance(a, Shout)]
    assert [a for a in shouts if a.cry in C.RACE_CRIES] == [Shout(C.GRELOTTE)]
    # the other buttons stay on screen, out of place
    assert {a.cry for a in shouts} - {C.GRELOTTE} == {
        C.CRI_GRELOTTINE,
        C.CRI_PASSE_GRELOT,
        C.CRI_BOUCLIETTE,
    }


def test_shouts_follow_the_order_of_the_clicks() -> None:
    state = arrange(4)
    dice(state, 1, 1)
    dice(state, 2)
    state.apply(3, Shout(C.PAS_MOU))
    assert state.scores == [0, 0, 0, 8]


def test_contre_sirop_goes_to_the_first_to_shout() -> None:
    from choux.games.cul_de_chouette.actions import Sip

    state = arrange(3, scores=[10, 0, 0])
    dice(state, 2, 2)
    dice(state, 5)
    state.apply(0, Sip(True))
    dice(state, 3)
    assert state.step == "contre_sirop"
    assert state.race is not None and 0 not in state.race.eligible  # not the sipper
    assert state.view(0)["race"]["eligible"] == [1, 2]  # the page tells the sipper so
    state.apply(2, Shout(C.CONTRE_SIROP))
    assert state.scores == [6, 0, 12]


def test_the_sipper_s_own_contre_sirop_cry_is_a_bevue_that_says_why() -> None:
    """An audit saw the sipper shout « J'apprécie les fruits au sirop ! » on their own missed
    Sirotage and read « hors de propos »: the reason now names their own Sirotage."""
    from choux.games.cul_de_chouette.actions import Sip

    state = arrange(3, scores=[30, 0, 0])
    dice(state, 2, 2)
    dice(state, 5)
    state.apply(0, Sip(True))
    dice(state, 3)
    events = state.apply(0, Shout(C.CONTRE_SIROP))
    assert any("sur son propre Sirotage" in e.text for e in events), [e.text for e in events]
    assert state.step == "contre_sirop"  # the race goes on for the others


def test_the_winner_s_second_click_is_not_a_bevue() -> None:
    state = arrange(3, scores=[10, 10, 10])
    dice(state, 2, 2)
    dice(state, 4)
    state.apply(1, Shout(C.PAS_MOU))
    won = list(state.scores)
    events = state.apply(1, Shout(C.PAS_MOU))
    assert state.scores == won and "déjà compté" in events[0].text


def test_an_unclaimed_chouette_velute_still_stays_with_the_roller() -> None:
    state = arrange(3)
    dice(state, 2, 2)
    dice(state, 4)
    state.apply_timeout()
    kept = state.scores[0]
    assert kept == C.chouette_velute_points(4)
    state.apply(1, Shout(C.PAS_MOU))  # too late
    assert state.scores == [kept, 0, 0]


def test_the_late_cry_is_not_a_cry_of_a_player_outside_the_race() -> None:
    from choux.games.cul_de_chouette.actions import Sip

    state = arrange(3, scores=[10, 0, 0])
    dice(state, 2, 2)
    dice(state, 5)
    state.apply(0, Sip(True))
    dice(state, 3)
    state.apply(2, Shout(C.CONTRE_SIROP))
    assert state.late is not None and 0 not in state.late.seats  # the sipper was not in it


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["velute", "pelican", "suite"]))
def test_a_late_right_cry_never_moves_a_score(seed: int, kind: str) -> None:
    rng = random.Random(seed)
    state = arrange(4, scores=[rng.randint(0, 25) for _ in range(4)])
    first, second = {"velute": (2, 2), "pelican": (6, 6), "suite": (2, 3)}[kind]
    dice(state, first, second)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, {"velute": 4, "pelican": 6, "suite": 4}[kind])
    assert state.race is not None
    cry = RACE_CRY[state.race.kind]
    seats = list(state.race.eligible)
    rng.shuffle(seats)
    if kind == "suite":
        for s in seats[:-1]:
            state.apply(s, Shout(cry))
        if state.race is not None:
            state.apply_timeout()
    else:
        state.apply(seats[0], Shout(cry))
    if state.over:
        return
    scores = list(state.scores)
    for s in list(state.late.seats if state.late else ()):
        snapshot = state.snapshot()
        state.apply(s, Shout(cry))
        assert state.scores == scores, snapshot
        state.check_invariants()


def test_a_player_with_a_decision_may_still_shout_out_of_place_once_a_turn() -> None:
    """The shout buttons are always on screen (rules): the roller about to roll who presses
    one where it does not apply makes a Bévue, and keeps the dice to roll; once a turn."""
    state = arrange(3, scores=[40, 40, 40])
    assert EnterDice((1, 2)) in state.legal_actions(0)  # the roller has the dice to type
    state.apply(0, Shout(C.PAS_MOU))
    assert state.scores == [30, 40, 40]
    assert EnterDice((1, 2)) in state.legal_actions(0)
    assert not [a for a in state.legal_actions(0) if isinstance(a, Shout)]
    with pytest.raises(IllegalAction, match="Un seul cri hors de propos par tour"):
        state.apply(0, Shout(C.CRI_PELICAN))
    assert state.scores == [30, 40, 40]
    dice(state, 2, 3)
    if state.step == "achat":
        state.apply_timeout()
    dice(state, 4)  # a Suite: the race's menu decides the races' cries, as before
    assert Shout(C.GRELOTTE) in state.legal_actions(0)


def test_the_challenge_calls_are_bevues_where_they_do_not_apply() -> None:
    """« Passe-Grelot ! » and « Boucliette ! » are shouts too: out of place, a Bévue."""
    state = arrange(3, scores=[40, 40, 40], boucliette=[True, True, True])
    state.apply(1, Shout(C.CRI_BOUCLIETTE))
    state.apply(2, Shout(C.CRI_PASSE_GRELOT))
    assert state.scores == [40, 30, 30]
    assert state.boucliette == [True, True, True]  # a shout spends no Boucliette


@pytest.mark.parametrize("button", [True, False])
def test_shouts_out_of_place_follow_the_bevue_option(button: bool) -> None:
    state = arrange(3, scores=[40, 40, 40], options={"bouton_bevue": button})
    assert (Shout(C.PAS_MOU) in state.legal_actions(1)) is button
    if not button:
        with pytest.raises(IllegalAction, match="Aucune course"):
            state.apply(1, Shout(C.PAS_MOU))
        assert state.scores == [40, 40, 40]
