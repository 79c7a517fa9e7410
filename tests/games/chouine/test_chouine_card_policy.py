"""The rollout policy distilled from the search (`card_policy.py`): what it reads, that it
reads nothing hidden, that its weights fit its features (its legal play over whole
parties: test_chouine_search.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import Play
from choux.games.chouine.bots import GreedyBot
from choux.games.chouine.card_policy import (
    FEATURES,
    STAGES,
    candidate_features,
    card_move,
    model_key,
)
from choux.games.chouine.card_policy_weights import CARD_WEIGHTS
from choux.games.chouine.cards import parse, parse_all
from choux.games.chouine.testing import arrange


def features_of(state: ChouineState, seat: int, code: str) -> list[float]:
    return candidate_features(state, seat, [parse(code)])[0]


def test_a_lead_names_masters_pairs_voids_and_the_last_trump() -> None:
    state = arrange(2, hands=["AS KH QH 7C 8D", "9S 9H 9C JC TC"], turned_up="TD", leader=0)
    ace, king, seven, trump = (features_of(state, 0, c) for c in ("AS", "KH", "7C", "8D"))
    assert ace[7] == 1.0 and ace[21] == 1.0  # an ace, the best spade left
    assert king[16] == 1.0 and king[21] == 0.0  # breaks the mariage; the ace of hearts is out
    assert seven[31] == 1.0 and king[31] == 0.0  # the last club; the queen stays
    assert trump[9] == 1.0 and trump[23] == 1.0  # the eight of trumps, the only one held
    assert trump[22] == 0.0 and trump[30] == 7 / 8  # seven trumps outside the hand
    assert all(f[24] == f[25] == f[26] == 0.0 for f in (ace, king, seven, trump))  # a lead


def test_an_answer_names_what_it_wins() -> None:
    state = arrange(2, hands=["9S 9H 9C JC TS", "AS KH QH 7C 8D"], turned_up="TD", leader=0)
    state.apply(0, Play("TS"))
    ace, trump, small = (features_of(state, 1, c) for c in ("AS", "8D", "7C"))
    assert ace[24] == 1.0 and ace[25] == pytest.approx(2.1) and ace[28] == 1.0
    assert trump[24] == 1.0 and trump[27] == 1.0 and trump[25] == pytest.approx(1.0)
    assert small[24] == 0.0 and small[26] == pytest.approx(1.0)


def test_losing_the_last_trick_of_phase_one_draws_the_turned_up_card() -> None:
    state = arrange(
        2, hands=["9S 9H 9C JC TS", "AS KH QH 7C 8D"], turned_up="AD", talon="7H", leader=0
    )
    assert len(state.talon) == 2
    state.apply(0, Play("TS"))
    assert features_of(state, 1, "7C")[29] == 1.0  # the ace of trumps, for losing
    assert features_of(state, 1, "AS")[29] == 0.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 18))
def test_the_policy_reads_nothing_its_seat_cannot_see(seed: int, moves: int) -> None:
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    greedy = GreedyBot(random.Random(seed))
    for _ in range(moves):
        if state.stage != "play":  # a Chouine can end the partie early
            return
        move = greedy.choose(state, state.turn)
        assert move is not None
        state.apply(state.turn, move.action)
    if state.stage != "play":
        return
    seat = state.turn
    twin = state.determinize(seat, random.Random(seed + 1))
    assert twin.view(seat) == state.view(seat)
    hand = state.hands[seat]
    assert candidate_features(state, seat, hand) == candidate_features(twin, seat, hand)
    if state.talon and len(hand) > 1:
        first = card_move(state, seat, list(hand), random.Random(7))
        assert first == card_move(twin, seat, list(hand), random.Random(7))


def test_the_stored_weights_cover_every_model_with_every_feature() -> None:
    keys = {model_key(answer, low) for answer in (False, True) for low, _ in STAGES}
    assert set(CARD_WEIGHTS) == keys
    assert all(len(w) == FEATURES for w in CARD_WEIGHTS.values())


def test_the_policy_keeps_its_trumps_for_a_trick_of_nothing() -> None:
    """Distilled from the search: a seven led early is not worth a trump."""
    state = arrange(2, hands=["7S 9H 9C JC TC", "8S KH JH 8D AS"], turned_up="TD", leader=0)
    state.apply(0, Play("7S"))
    ids = sorted(parse_all("8S KH JH 8D AS"))
    assert ids == state.legal_action_ids(1)
    chosen = {card_move(state, 1, ids, random.Random(r)) for r in range(20)}
    assert parse("8D") not in chosen
