"""After a Chouine the trick is only finished (shared/rules/chouine.md, Default rules)."""

from __future__ import annotations

import pytest

from choux.engine import WindowClosed
from choux.games.chouine import ChouineState
from choux.games.chouine.actions import EXCHANGE, Play
from choux.games.chouine.testing import arrange


def after_a_chouine() -> ChouineState:
    """Seat 0 has just declared its Chouine; seat 1 holds a mariage and the trump seven,
    with the talon still open (both would be allowed in any other trick)."""
    state = arrange(2, hands=["KH QH JH TH 9S", "KS QS 7C AD TD"], turned_up="KC", won=["AS", ""])
    state.apply(0, Play("KH", "chouine"))
    return state


def test_after_a_chouine_no_other_declaration_is_accepted() -> None:
    state = after_a_chouine()
    assert Play("KS", "mariage") not in state.legal_actions(1)
    before = state.snapshot()
    with pytest.raises(WindowClosed, match="Chouine"):
        state.apply(1, Play("KS", "mariage"))
    assert state.snapshot() == before


def test_after_a_chouine_no_seven_exchange_is_accepted() -> None:
    other_trick = arrange(2, hands=["KH QH JH TH 9S", "KS QS 7C AD TD"], turned_up="KC")
    other_trick.apply(0, Play("9S"))
    assert EXCHANGE in other_trick.legal_actions(1)
    state = after_a_chouine()
    assert EXCHANGE not in state.legal_actions(1)
    before = state.snapshot()
    with pytest.raises(WindowClosed, match="Chouine"):
        state.apply(1, EXCHANGE)
    assert state.snapshot() == before


def test_after_a_chouine_the_others_only_play_their_card() -> None:
    state = after_a_chouine()
    assert {a for a in state.legal_actions(1)} == {
        Play(code) for code in ("KS", "QS", "7C", "AD", "TD")
    }


def test_after_a_chouine_the_others_may_declare_their_own_chouine() -> None:
    state = arrange(2, hands=["KS QS JS TS 9D", "KH QH JH TH 7C"], turned_up="8C")
    state.apply(0, Play("KS", "chouine"))
    assert Play("KH", "chouine") in state.legal_actions(1)
    assert Play("KH", "mariage") not in state.legal_actions(1)


def test_the_trick_of_a_chouine_scores_nothing() -> None:
    state = after_a_chouine()
    state.apply(1, Play("AD"))  # 10 + 11 in the trick, won by seat 1
    assert state.card_points == [11, 0]
    assert state.last_result is not None
    assert state.last_result["card_points"] == [11, 0]
    assert state.last_result["last_trick_winner"] is None
    state.check_invariants()


def test_the_result_of_a_chouine_names_the_chouine_as_the_reason() -> None:
    state = after_a_chouine()
    events = state.apply(1, Play("AD"))
    result = state.last_result
    assert result is not None
    assert result["winner"] == 0 and result["chouine"] == 0
    assert result["reason"] == "chouine" and "Chouine" in str(result["text"])
    partie = [e for e in events if e.kind == "partie"]
    assert partie and partie[0].data["reason"] == "chouine" and partie[0].seat == 0
    # the terminal view shows the reason, not a points total where the winner trails
    from choux.games.chouine.game import render_text

    text = render_text(state.view(1))
    assert "Chouine" in text and "l'adversaire 11" not in text


def test_a_partie_won_on_points_gives_points_as_its_reason() -> None:
    state = arrange(2, hands=["8S", "7S"], trump="D", talon="", won=["AS", ""])
    state.apply(0, Play("8S"))
    state.apply(1, Play("7S"))
    assert state.last_result is not None and state.last_result["reason"] == "points"
