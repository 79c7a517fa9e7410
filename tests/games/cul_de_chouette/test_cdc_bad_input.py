"""Bad input: a clear French reason, and nothing changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from choux import games
from choux.engine import IllegalAction, MalformedAction, NotYourTurn, WindowClosed
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    BetFace,
    CivetBet,
    CloseWindow,
    EnterDice,
    Roll,
    Shout,
    Sip,
)
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.testing import arrange, dice


def refused(state: CulDeChouetteState, call: Callable[[], object], error: type, text: str) -> None:
    before = state.snapshot()
    with pytest.raises(error, match=text):
        call()
    assert state.snapshot() == before


def test_die_outside_1_to_6_is_refused() -> None:
    state = arrange(3)
    refused(state, lambda: state.apply(0, EnterDice((7, 1))), IllegalAction, "1 à 6 : 7")
    refused(state, lambda: state.apply(0, EnterDice((0, 1))), IllegalAction, "impossible")


def test_wrong_number_of_dice_is_refused() -> None:
    state = arrange(3)
    refused(state, lambda: state.apply(0, EnterDice((1, 2, 3))), IllegalAction, "Il faut saisir 2")


def test_typed_dice_at_a_table_with_site_dice_are_refused() -> None:
    state = games.get("cul-de-chouette").new(3, 1)
    assert isinstance(state, CulDeChouetteState)
    seat = state.roller
    refused(state, lambda: state.apply(seat, EnterDice((1, 2))), IllegalAction, "dés du site")


def test_roll_button_at_a_table_with_real_dice_is_refused() -> None:
    state = arrange(3)
    refused(state, lambda: state.apply(0, Roll()), IllegalAction, "vrais dés")


def test_stake_above_the_maximum_is_refused() -> None:
    state = arrange(3, scores=[200, 0, 0], civet=[True, False, False])
    refused(state, lambda: state.apply(0, CivetBet("Velute", 103)), IllegalAction, "hors limites")
    refused(state, lambda: state.apply(0, CivetBet("Velute", 0)), IllegalAction, "entre 1 et 102")


def test_bet_by_someone_without_the_points_is_refused() -> None:
    state = arrange(3, scores=[10, 4, 0])
    dice(state, 2, 2)
    dice(state, 5)
    state.apply(0, Sip(True))
    refused(state, lambda: state.apply(1, BetFace(2)), IllegalAction, "au moins 5 points")


def test_shout_by_a_player_who_is_not_seated_is_refused() -> None:
    state = arrange(3)
    dice(state, 1, 1)
    dice(state, 2)
    refused(state, lambda: state.apply(7, Shout(C.PAS_MOU)), NotYourTurn, "n'existe pas")


def test_action_after_the_window_closed_is_refused() -> None:
    state = arrange(3, options={"bouton_bevue": False})  # else a late shout is a Bévue
    dice(state, 1, 1)
    dice(state, 2)
    state.apply_timeout()
    # (the race's own cry is « trop tard » until the next dice: another cry is refused)
    refused(state, lambda: state.apply(1, Shout(C.CRI_PELICAN)), WindowClosed, "Aucune course")
    refused(state, lambda: state.apply(None, CloseWindow()), WindowClosed, "Aucune fenêtre")


def test_seat_none_is_only_the_clock() -> None:
    state = arrange(3)
    refused(state, lambda: state.apply(None, EnterDice((1, 2))), NotYourTurn, "horloge")


def test_clock_action_from_a_player_is_refused() -> None:
    state = arrange(3)
    dice(state, 1, 1)
    dice(state, 2)
    refused(state, lambda: state.apply(1, CloseWindow()), NotYourTurn, "horloge")


def test_unknown_shout_is_malformed() -> None:
    state = arrange(3)
    dice(state, 1, 1)
    dice(state, 2)
    refused(state, lambda: state.apply(1, Shout("Cocorico !")), MalformedAction, "cri")


def test_malformed_json_is_refused_by_the_codec() -> None:
    game = games.get("cul-de-chouette")
    with pytest.raises(MalformedAction):
        game.action_from_json({"type": "des", "dice": "six"})
    with pytest.raises(MalformedAction):
        game.action_from_json({"type": "crier"})
    assert game.action_from_json({"type": "des", "dice": [1, 2]}) == EnterDice((1, 2))


def test_actions_after_the_end_are_refused() -> None:
    state = arrange(2, scores=[300, 0])
    dice(state, 2, 4)
    dice(state, 6)
    refused(state, lambda: state.apply(1, EnterDice((1, 2))), WindowClosed, "terminée")
