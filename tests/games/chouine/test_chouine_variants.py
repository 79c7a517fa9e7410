"""The "Règles de Lavardin" preset and the three- and four-player game."""

from __future__ import annotations

import random

import pytest

from choux.engine import IllegalAction
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import EXCHANGE, Play
from choux.games.chouine.cards import parse, parse_all
from choux.games.chouine.testing import arrange


def declares(state: ChouineState, seat: int) -> set[tuple[str, str]]:
    return {
        (a.card, a.declare)
        for a in state.legal_actions(seat)
        if isinstance(a, Play) and a.declare is not None
    }


def legal_cards(state: ChouineState, seat: int) -> set[str]:
    return {a.card for a in state.legal_actions(seat) if isinstance(a, Play) and a.declare is None}


# --------------------------------------------------------------------------- Lavardin


def test_lavardin_chouine_is_ace_ten_king_queen_jack() -> None:
    classique = arrange(2, hands=["KH QH JH TH 9S", "7C 8D 9D JD 7D"], turned_up="KC")
    assert ("KH", "chouine") in declares(classique, 0)
    lavardin = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["KH QH JH TH 9S", "7C 8D 9D JD 7D"],
        turned_up="KC",
    )
    assert not any(k == "chouine" for _, k in declares(lavardin, 0))
    full = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["AH KH QH JH TH", "7C 8D 9D JD 7D"],
        turned_up="KC",
    )
    assert ("TH", "chouine") in declares(full, 0)


def test_lavardin_quinte_replaces_cinquante() -> None:
    state = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["AH TH AS TS AD", "7C 8D 9D JD 7D"],
        turned_up="KC",
    )
    kinds = {k for _, k in declares(state, 0)}
    assert kinds == {"quinte"}
    with pytest.raises(IllegalAction):
        state.apply(0, Play("AH", "cinquante"))
    state.apply(0, Play("AH", "quinte"))
    assert state.decl_points[0] == 50


def test_lavardin_au_sept_allows_the_exchange_when_two_cards_remain() -> None:
    state = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["7H 8S 9S JC 7D", "AS 8D 9D JD 7C"],
        turned_up="KH",
        talon="8H",
    )
    assert len(state.talon) == 2
    assert EXCHANGE in state.legal_actions(0)
    state.apply(0, EXCHANGE)
    assert state.talon[0] == parse("7H")


def test_lavardin_au_sept_is_called_when_two_cards_remain() -> None:
    state = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["8S 9S JC 7D 8C", "AS 8D 9D JD 7C"],
        turned_up="KH",
        talon="9H 8H JH",
    )
    state.apply(0, Play("8S"))
    events = state.apply(1, Play("AS"))
    assert "au_sept" in [e.kind for e in events]
    assert state.view(0)["au_sept"] is True
    assert len(state.talon) == 2


def test_lavardin_answering_player_may_exchange_at_the_last_call() -> None:
    state = arrange(
        2,
        options={"preset": "lavardin"},
        hands=["8S 9S JC 7D 8C", "7H AS 8D 9D JD"],
        turned_up="KH",
        talon="8H",
    )
    state.apply(0, Play("8S"))
    assert EXCHANGE in state.legal_actions(1)


# --------------------------------------------------------------------------- 3 and 4 players


@pytest.mark.parametrize(("players", "turned_index", "talon"), [(3, 9, 23), (4, 12, 20)])
def test_multi_player_deal_three_cards_each_and_turned_up_card(
    players: int, turned_index: int, talon: int
) -> None:
    state = GAME.new(players, 5)
    assert isinstance(state, ChouineState)
    deck = parse_all(" ".join(state.chance[-1]["deal"]))
    dealer = state.dealer
    assert all(len(h) == 3 for h in state.hands)
    first = (dealer + 1) % players
    assert state.hands[first] == sorted(deck[0:turned_index:players])
    assert state.talon[0] == deck[turned_index] and len(state.talon) == talon
    assert state.turn == first


def test_multi_player_dealer_passes_to_the_next_seat() -> None:
    state = arrange(3, hands=["8S", "7S", "9S"], turned_up="8H", talon="9H", won=["AS", "", ""])
    dealer = state.dealer
    while state.stage == "play":
        state.apply(state.turn, Play(state.view(state.turn)["hand"][0]))
    state.apply_timeout()
    assert state.dealer == (dealer + 1) % 3


def test_multi_player_drawing_order_from_the_trick_winner() -> None:
    state = arrange(
        3, hands=["7S 8C 9C", "AS 8D 9D", "8S JD 7C"], turned_up="KH", talon="7H 8H 9H JC", leader=0
    )
    for seat, code in [(0, "7S"), (1, "AS"), (2, "8S")]:
        state.apply(seat, Play(code))
    assert parse("7H") in state.hands[1]
    assert parse("8H") in state.hands[2]
    assert parse("9H") in state.hands[0]
    assert state.turn == 1


def test_three_players_last_two_cards_are_never_drawn() -> None:
    state = GAME.new(3, 2, {"parties": 3})
    assert isinstance(state, ChouineState)
    rng = random.Random(0)
    while state.stage == "play":
        seat = state.turn
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert len(state.talon) == 2
    assert sum(state.tricks_won) == 10 or (
        state.last_result and state.last_result["chouine"] is not None
    )


def test_multi_player_declarations_mariage_trente_and_chouine() -> None:
    state = arrange(3, hands=["KH QH JH", "AS TS AH", "7C 8D 9D"], turned_up="KC")
    assert {k for _, k in declares(state, 0)} == {"mariage", "chouine"}  # no tierce
    assert {k for _, k in declares(trente_position(), 1)} == {"trente"}
    state.apply(0, Play("QH", "mariage"))
    assert state.decl_points[0] == 20


def trente_position() -> ChouineState:
    state = arrange(3, hands=["7C 8D 9D", "AS TS AH", "KH QH JH"], turned_up="KC")
    state.apply(0, Play("7C"))
    return state


def test_multi_player_trente_scores_thirty() -> None:
    state = trente_position()
    state.apply(1, Play("AS", "trente"))
    assert state.decl_points[1] == 30


def test_multi_player_chouine_king_queen_jack_wins_the_partie() -> None:
    state = arrange(3, hands=["KH QH JH", "AS TS AC", "7C 8D 9D"], turned_up="KC")
    state.apply(0, Play("JH", "chouine"))
    state.apply(1, Play("AS"))
    state.apply(2, Play("7C"))
    assert state.last_result is not None and state.last_result["winner"] == 0


def test_multi_player_must_trump_but_need_not_overtrump() -> None:
    state = arrange(3, hands=["AS 8C", "QD 8H", "7D KD"], trump="D", turned_up=None, talon="")
    state.apply(0, Play("AS"))
    state.apply(1, Play("QD"))
    assert legal_cards(state, 2) == {"7D", "KD"}


def test_multi_player_trump_led_must_beat_the_highest_trump_if_possible() -> None:
    state = arrange(3, hands=["JD 8C", "QD 8H", "7D KD"], trump="D", talon="")
    state.apply(0, Play("JD"))
    state.apply(1, Play("QD"))
    assert legal_cards(state, 2) == {"KD"}


def test_multi_player_exchange_seven() -> None:
    state = arrange(3, hands=["7H 8S 9S", "AS 8D 9D", "8C JD 7C"], turned_up="KH")
    state.apply(0, EXCHANGE)
    assert parse("KH") in state.hands[0]
