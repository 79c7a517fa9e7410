"""The view says whom the game waits for, not everyone who may shout or press −10 (the
singular of « 0 point », « 1 point » is `choux.engine.french`'s doctest)."""

from __future__ import annotations

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import Pass, Shout
from choux.games.cul_de_chouette.testing import arrange, dice


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
