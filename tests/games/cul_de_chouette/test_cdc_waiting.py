"""Player-facing polish: a right cry that lost the race is « trop tard », not a Bévue; the
view says whom the game waits for; counts take the singular for 0 and 1."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import Pass, Shout
from choux.games.cul_de_chouette.rules import points_text
from choux.games.cul_de_chouette.steps import RACE_CRY
from choux.games.cul_de_chouette.testing import arrange, dice


def test_a_right_velute_cry_a_moment_late_costs_nothing() -> None:
    # Karadoc (1) shouts first and wins; Perceval (2) shouts the same right cry just after
    state = arrange(3, scores=[10, 10, 10])
    dice(state, 2, 2)
    dice(state, 4)
    assert state.step == "chouette_velute"
    state.apply(1, Shout(C.PAS_MOU))
    won = list(state.scores)
    events = state.apply(2, Shout(C.PAS_MOU))
    assert state.scores == won
    assert [e.text for e in events] == [
        "{p2} : « Pas mou le caillou ! », trop tard : la course est finie"
    ]
    assert not any("Bévue" in e.text for e in events)


def test_a_wrong_cry_after_the_race_stays_a_bevue() -> None:
    state = arrange(3, scores=[10, 10, 10])
    dice(state, 2, 2)
    dice(state, 4)
    state.apply(2, Shout(C.PAS_MOU))
    before = state.scores[1]
    state.apply(1, Shout(C.CRI_PELICAN))
    assert state.scores[1] == before - C.BEVUE


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


def test_a_silent_suite_player_who_shouts_after_the_clock_loses_once() -> None:
    state = arrange(3, scores=[20, 20, 20])
    dice(state, 2, 3)
    dice(state, 4)
    state.apply(1, Shout(C.GRELOTTE))
    state.apply(2, Shout(C.GRELOTTE))
    state.apply_timeout()
    assert state.scores == [10, 20, 20]
    state.apply(0, Shout(C.GRELOTTE))  # the roller of the next turn: refused before, now heard
    assert state.scores == [10, 20, 20]


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


def test_the_view_waits_for_the_roller_not_for_the_bevue_buttons() -> None:
    state = arrange(3)
    view = state.view(1)
    assert set(view["actors"]) == {0, 1, 2}
    assert view["waiting"] == [0]


def test_the_view_waits_for_the_buyers_in_the_achat_then_for_the_dice() -> None:
    state = arrange(3, scores=[0, 40, 40])
    dice(state, 2, 5)
    assert state.step == "achat"
    assert state.view(None)["waiting"] == [1, 2]
    state.apply(1, Pass())
    assert state.view(None)["waiting"] == [2]


def test_a_race_waits_for_nobody_and_the_end_for_nobody() -> None:
    state = arrange(3)
    dice(state, 2, 2)
    dice(state, 4)
    assert state.view(None)["waiting"] == []
    state.apply(1, Shout(C.PAS_MOU))
    view = state.view(None)
    assert view["late"] == {"cry": C.PAS_MOU, "seats": [0, 1, 2], "heard": [1]}
    assert view["waiting"] == [state.roller]


def test_a_challenged_player_is_waited_for() -> None:
    from choux.games.cul_de_chouette.actions import ChallengeSoufflette

    state = arrange(3, scores=[20, 20, 20])
    dice(state, 4, 2)
    dice(state, 1)
    assert state.step == "soufflette_cible"
    assert state.view(None)["waiting"] == [0]
    state.apply(0, ChallengeSoufflette(1))
    assert 1 in state.view(None)["waiting"]


def test_counts_take_the_singular_for_zero_and_one() -> None:
    assert points_text(0) == "0 point"
    assert points_text(1) == "1 point"
    assert points_text(2) == "2 points"
