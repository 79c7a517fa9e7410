"""One test per decision of shared/rules/chouine.md: deck, deal, tricks, seven, declarations."""

from __future__ import annotations

import itertools

import pytest

from choux.engine import IllegalAction, WindowClosed
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import EXCHANGE, Play
from choux.games.chouine.cards import (
    CODES,
    DECK,
    HEARTS,
    LAST_TRICK_BONUS,
    POINTS,
    SPADES,
    parse,
    parse_all,
)
from choux.games.chouine.rules import (
    can_exchange_seven,
    chouine_winner,
    declarations,
    first_dealer,
    phase_two_legal_cards,
    trick_winner,
)
from choux.games.chouine.testing import arrange
from choux.games.chouine.variants import variant_for


def legal_cards(state: ChouineState, seat: int) -> set[str]:
    return {a.card for a in state.legal_actions(seat) if isinstance(a, Play) and a.declare is None}


def declares(state: ChouineState, seat: int) -> set[tuple[str, str]]:
    return {
        (a.card, a.declare)
        for a in state.legal_actions(seat)
        if isinstance(a, Play) and a.declare is not None
    }


def new(players: int = 2, seed: int = 1, **options: object) -> ChouineState:
    state = GAME.new(players, seed, dict(options))
    assert isinstance(state, ChouineState)
    return state


# --------------------------------------------------------------------------- deck and deal


def test_deck_has_32_cards_ranked_a_10_k_q_j_9_8_7_worth_120() -> None:
    assert len(DECK) == 32 and len(set(CODES)) == 32
    spades = sorted((c for c in DECK if c >> 3 == SPADES), reverse=True)
    assert [CODES[c][0] for c in spades] == list("ATKQJ987")
    assert sum(POINTS) == 120
    assert [POINTS[parse(c)] for c in ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]] == [
        11,
        10,
        4,
        3,
        2,
        0,
        0,
        0,
    ]


def test_first_dealer_is_the_lowest_card_drawn() -> None:
    assert first_dealer([(0, parse("AS")), (1, parse("8H"))]) == (1, [1])
    for seed in range(20):
        state = new(seed=seed)
        draw = state.chance[len(state.dealer_draw) - 1]["draw"]
        lowest = min(draw, key=lambda d: parse(d[1]) & 7)
        assert state.chance[-1]["dealer"] == lowest[0]


def test_first_dealer_draw_again_on_equal_ranks() -> None:
    assert first_dealer([(0, parse("9S")), (1, parse("9D"))]) == (None, [0, 1])
    seed = next(s for s in range(200) if len(new(seed=s).dealer_draw) > 1)
    state = new(seed=seed)
    first, second = state.chance[0]["draw"], state.chance[1]["draw"]
    assert parse(first[0][1]) & 7 == parse(first[1][1]) & 7
    assert parse(second[0][1]) & 7 != parse(second[1][1]) & 7


def test_first_dealer_three_players_only_tied_lowest_draw_again() -> None:
    assert first_dealer(list(enumerate(parse_all("7S 7H AD")))) == (None, [0, 1])


def test_deal_five_each_one_by_one_opponent_first_then_turned_up_trump() -> None:
    state = new(seed=4)
    deal = state.chance[-1]
    deck, dealer = parse_all(" ".join(deal["deal"])), deal["dealer"]
    opponent = 1 - dealer
    assert state.hands[opponent] == sorted(deck[0:10:2])
    assert state.hands[dealer] == sorted(deck[1:10:2])
    assert state.talon[0] == deck[10] and state.trump == deck[10] >> 3
    assert len(state.talon) == 22 and state.talon[-1] == deck[11]


def test_dealers_opponent_leads_the_first_trick() -> None:
    state = new(seed=4)
    assert state.turn == state.leader == 1 - state.dealer


def test_dealer_alternates_each_partie() -> None:
    import random

    from choux.ai.random import RandomBot

    state = new(seed=9)
    bots = [RandomBot(random.Random(s)) for s in range(2)]
    dealers = [state.dealer]
    while len(dealers) < 3 and not state.is_over():
        while state.stage == "play":
            seat = state.turn
            move = bots[seat].choose(state, seat)
            assert move is not None
            state.apply(seat, move.action)
        if state.stage == "between":
            state.apply_timeout()
            dealers.append(state.dealer)
    assert all(a != b for a, b in itertools.pairwise(dealers))


# --------------------------------------------------------------------------- phase 1


def test_phase_one_free_play_no_need_to_follow() -> None:
    state = arrange(2, hands=["AH 7S 8S 9S JC", "7H 8D 9D JD 7C"], turned_up="KC")
    state.apply(0, Play("AH"))
    assert legal_cards(state, 1) == {"7H", "8D", "9D", "JD", "7C"}


def test_trick_winner_trump_wins_else_highest_of_led_suit() -> None:
    assert trick_winner(parse_all("AS 7H"), HEARTS) == 1  # trump beats the ace
    assert trick_winner(parse_all("9S AD"), HEARTS) == 0  # another suit never wins
    assert trick_winner(parse_all("9S TS"), HEARTS) == 1
    assert trick_winner(parse_all("KS TS"), HEARTS) == 1
    assert trick_winner(parse_all("8H AH"), HEARTS) == 1


def test_trick_winner_draws_first_then_the_other() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH", talon="8H 9H TC")
    state.apply(0, Play("7S"))
    state.apply(1, Play("AS"))
    assert parse("8H") in state.hands[1] and parse("9H") in state.hands[0]
    assert state.turn == 1


def test_turned_up_card_is_the_last_card_drawn() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH", talon="8H")
    state.apply(0, Play("7S"))
    state.apply(1, Play("AS"))
    assert parse("8H") in state.hands[1] and parse("KH") in state.hands[0]
    assert state.talon == [] and state.phase() == 2


# --------------------------------------------------------------------------- phase 2


def test_phase_two_must_follow_suit() -> None:
    state = arrange(2, hands=["AS 8C", "7S 8H"], trump="D", talon="")
    state.apply(0, Play("AS"))
    assert legal_cards(state, 1) == {"7S"}
    with pytest.raises(IllegalAction, match="fournir à pique"):
        state.apply(1, Play("8H"))


def test_phase_two_must_trump_when_unable_to_follow() -> None:
    state = arrange(2, hands=["AS 8C", "7D 8H"], trump="D", talon="")
    state.apply(0, Play("AS"))
    assert legal_cards(state, 1) == {"7D"}
    with pytest.raises(IllegalAction, match="couper"):
        state.apply(1, Play("8H"))


def test_phase_two_anything_when_void_in_led_suit_and_trumps() -> None:
    state = arrange(2, hands=["AS 8C", "7C 8H"], trump="D", talon="")
    state.apply(0, Play("AS"))
    assert legal_cards(state, 1) == {"7C", "8H"}


def test_phase_two_must_overtrump_when_trump_led() -> None:
    state = arrange(2, hands=["JD 8C 9C", "7D QD 8H"], trump="D", talon="")
    state.apply(0, Play("JD"))
    assert legal_cards(state, 1) == {"QD"}
    with pytest.raises(IllegalAction, match="monter"):
        state.apply(1, Play("7D"))


def test_phase_two_trump_led_any_trump_when_none_is_higher() -> None:
    assert phase_two_legal_cards(parse_all("7D 8D 8H"), parse_all("AD"), 2) == parse_all("7D 8D")


def test_phase_two_no_obligation_to_beat_on_plain_lead() -> None:
    state = arrange(2, hands=["9S 8C", "7S AS"], trump="D", talon="")
    state.apply(0, Play("9S"))
    assert legal_cards(state, 1) == {"7S", "AS"}


def test_phase_two_leader_plays_anything() -> None:
    state = arrange(2, hands=["9S 8C 7D", "7S AS 8D"], trump="D", talon="")
    assert legal_cards(state, 0) == {"9S", "8C", "7D"}


# --------------------------------------------------------------------------- trump seven


def test_exchange_seven_when_leading() -> None:
    state = arrange(2, hands=["7H 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    assert EXCHANGE in state.legal_actions(0)
    state.apply(0, EXCHANGE)
    assert parse("KH") in state.hands[0] and state.talon[0] == parse("7H")
    assert state.turn == 0  # still to play


def test_exchange_seven_when_answering() -> None:
    state = arrange(2, hands=["8S 9S JC 7D 8C", "7H AS 8D 9D JD"], turned_up="KH")
    assert EXCHANGE not in state.legal_actions(0)
    state.apply(0, Play("8S"))
    assert EXCHANGE in state.legal_actions(1)
    state.apply(1, EXCHANGE)
    assert state.talon[0] == parse("7H")


def test_exchange_seven_closed_when_two_cards_remain() -> None:
    state = arrange(2, hands=["7H 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH", talon="8H")
    assert len(state.talon) == 2
    assert EXCHANGE not in state.legal_actions(0)
    with pytest.raises(WindowClosed):
        state.apply(0, EXCHANGE)
    assert can_exchange_seven(parse_all("7H"), HEARTS, 3, 2, last_call=False)


def test_exchange_seven_needs_the_seven() -> None:
    state = arrange(2, hands=["8H 8S 9S JC 7D", "7H AS 8D 9D JD"], turned_up="KH")
    with pytest.raises(IllegalAction, match="sept d'atout"):
        state.apply(0, EXCHANGE)


def test_exchanged_turned_up_card_is_shown_to_the_others() -> None:
    state = arrange(2, hands=["7H 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    state.apply(0, EXCHANGE)
    assert state.view(1)["shown"][0] == ["KH"]
    assert "KH" not in state.secrets(1)
    assert state.view(1)["turned_up"] == "7H"


# --------------------------------------------------------------------------- declarations


def test_declaration_only_when_playing_one_of_its_cards() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD 7C"], turned_up="KC")
    assert declares(state, 0) == {("KH", "mariage"), ("QH", "mariage")}
    with pytest.raises(IllegalAction, match="annoncer"):
        state.apply(0, Play("7S", "mariage"))


def test_declaration_requires_holding_all_its_cards() -> None:
    state = arrange(2, hands=["KH JH 7S 8S 9S", "QH 8D 9D JD 7C"], turned_up="KC")
    assert declares(state, 0) == set()
    with pytest.raises(IllegalAction):
        state.apply(0, Play("KH", "mariage"))


@pytest.mark.parametrize(
    ("hand", "turned", "code", "kind", "points"),
    [
        ("KH QH 7S 8S 9S", "KC", "KH", "mariage", 20),
        ("KH QH 7S 8S 9S", "8H", "QH", "mariage", 40),
        ("KH QH JH 8S 9S", "KC", "JH", "tierce", 30),
        ("KH QH JH 8S 9S", "8H", "JH", "tierce", 60),
        ("AH KH QH JH 9S", "KC", "AH", "quarteron", 40),
        ("AH KH QH JH 9S", "8H", "KH", "quarteron", 80),
        ("AH TH AS TS AD", "KC", "TS", "cinquante", 50),
    ],
)
def test_declaration_points(hand: str, turned: str, code: str, kind: str, points: int) -> None:
    state = arrange(2, hands=[hand, "7C 8D 9D JD 7D"], turned_up=turned)
    state.apply(0, Play(code, kind))
    assert state.decl_points[0] == points
    assert state.view(1)["declarations"][0]["points"] == points


def test_declaration_scores_at_once_and_shows_its_cards() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD 7C"], turned_up="KC")
    events = state.apply(0, Play("KH", "mariage"))
    assert [e.kind for e in events] == ["declare", "play"]
    assert events[0].data["cards"] == ["QH", "KH"]
    view = state.view(1)
    assert view["declared_points"] == [20, 0]
    assert view["shown"][0] == ["QH"]  # the king is on the table now
    assert "QH" not in state.secrets(1)


def test_one_combination_per_suit_per_partie() -> None:
    variant = variant_for("classique", 2)
    hand = parse_all("AH KH QH JH 9S")
    assert declarations(hand, hand, variant, SPADES, 0, False)
    assert declarations(hand, hand, variant, SPADES, 1 << HEARTS, False) == []
    state = arrange(2, hands=["AH KH QH JH 9S", "7C 8D 9D JD 7D"], turned_up="KC")
    state.declared_suits[0] = 1 << HEARTS  # a tierce declared earlier in hearts
    assert declares(state, 0) == set()


def test_several_combinations_offered_for_the_same_card() -> None:
    state = arrange(2, hands=["AH KH QH JH 9S", "7C 8D 9D JD 7D"], turned_up="KC")
    assert {k for c, k in declares(state, 0) if c == "KH"} == {"mariage", "tierce", "quarteron"}


def test_cinquante_once_per_partie() -> None:
    state = arrange(2, hands=["AS TS AH TH AD", "7H 8D 9D JD 7D"], turned_up="KC", talon="TD 8C")
    state.apply(0, Play("AS", "cinquante"))
    state.apply(1, Play("7H"))
    assert state.hands[0] == sorted(parse_all("TS AH TH AD TD"))
    assert not any(k == "cinquante" for _, k in declares(state, 0))


def test_chouine_wins_the_partie_at_once() -> None:
    state = arrange(2, hands=["KH QH JH TH 9S", "AS AC AD TC TD"], turned_up="KC")
    assert ("KH", "chouine") in declares(state, 0)
    state.apply(0, Play("KH", "chouine"))
    assert state.stage == "play"  # the trick is finished first
    state.apply(1, Play("AS"))
    assert state.stage == "between"
    assert state.last_result is not None
    assert state.last_result["winner"] == 0 and state.last_result["chouine"] == 0
    assert state.partie_wins == [1, 0]


def test_two_chouines_in_one_trick_the_trump_one_wins() -> None:
    state = arrange(2, hands=["KS QS JS TS 9D", "KH QH JH TH 9C"], turned_up="8H")
    state.apply(0, Play("KS", "chouine"))
    state.apply(1, Play("KH", "chouine"))
    assert state.last_result is not None and state.last_result["winner"] == 1


def test_two_chouines_in_one_trick_the_leader_wins_without_trump() -> None:
    state = arrange(2, hands=["KS QS JS TS 9D", "KH QH JH TH 9C"], turned_up="8C")
    state.apply(0, Play("KS", "chouine"))
    state.apply(1, Play("KH", "chouine"))
    assert state.last_result is not None and state.last_result["winner"] == 0
    assert chouine_winner([(2, 0), (0, 1), (1, 3)], 3) == 1


def test_dix_de_der_for_the_last_trick() -> None:
    state = arrange(2, hands=["7S", "8S"], trump="D", talon="", won=["", ""])
    state.apply(0, Play("7S"))
    state.apply(1, Play("8S"))
    assert state.last_result is not None
    assert state.last_result["last_trick_winner"] == 1
    assert state.last_result["totals"] == [0, 120 + LAST_TRICK_BONUS]


def test_exchange_seven_not_in_phase_two() -> None:
    state = arrange(2, hands=["7H 8S", "AS 8D"], trump="H", talon="")
    assert EXCHANGE not in state.legal_actions(0)
    with pytest.raises(IllegalAction):
        state.apply(0, EXCHANGE)


def test_only_the_seat_to_play_may_act() -> None:
    from choux.engine import NotYourTurn
    from choux.games.chouine.actions import NEXT_DEAL

    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    before = state.snapshot()
    for seat, action in [(1, Play("AS")), (None, Play("7S")), (0, NEXT_DEAL), (None, NEXT_DEAL)]:
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
        assert state.snapshot() == before
    with pytest.raises(NotYourTurn):
        state.apply(1, Play("AS"))


def test_card_not_in_hand_is_refused_in_french() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    with pytest.raises(IllegalAction, match="Vous n'avez pas l'as de pique"):
        state.apply(0, Play("AS"))
    with pytest.raises(IllegalAction, match="Carte inconnue"):
        state.apply(0, Play("ZZ"))


def test_actions_round_trip_through_json() -> None:
    for action in [Play("AH"), Play("KH", "mariage"), EXCHANGE]:
        assert GAME.action_from_json(action.to_json()) == action
    assert GAME.action_from_json({"type": "play", "card": "AH"}) == Play("AH")
    assert Play("KH", "mariage").label() == "Annoncer un mariage et jouer le roi de cœur"
