"""Hypothesis properties of Chouine over random seeds and random legal play."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux.engine import IllegalAction
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import Play
from choux.games.chouine.cards import CODES, DECK, LAST_TRICK_BONUS, POINTS

SEEDS = st.integers(min_value=0, max_value=2**32)
PLAYERS = st.sampled_from([2, 3, 4])
PRESETS = st.sampled_from(["classique", "lavardin"])


def new(players: int, seed: int, preset: str) -> ChouineState:
    state = GAME.new(players, seed, {"preset": preset})
    assert isinstance(state, ChouineState)
    return state


def every_card(state: ChouineState) -> list[int]:
    cards = [*state.talon, *state.trick]
    for seat in range(state.n):
        cards += state.hands[seat] + state.won[seat]
    return sorted(cards)


@given(seed=SEEDS, players=PLAYERS, preset=PRESETS)
def test_32_cards_conserved_across_hands_talon_tricks(seed: int, players: int, preset: str) -> None:
    state = new(players, seed, preset)
    rng = random.Random(seed)
    while state.stage == "play":
        assert every_card(state) == list(DECK)
        seat = state.turn
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert every_card(state) == list(DECK)


@given(seed=SEEDS, players=PLAYERS, preset=PRESETS)
def test_points_per_deal_are_120_plus_10_plus_declarations(
    seed: int, players: int, preset: str
) -> None:
    state = new(players, seed, preset)
    rng = random.Random(seed)
    while state.stage == "play":
        seat = state.turn
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.last_result
    assert result is not None
    if result["chouine"] is not None:
        return  # a Chouine stops the partie before the last trick
    undrawn = sum(POINTS[c] for c in state.talon)  # three players: 2 cards never drawn
    assert sum(result["totals"]) == 120 - undrawn + LAST_TRICK_BONUS + sum(state.decl_points)
    assert players == 3 or undrawn == 0


@given(seed=SEEDS, players=PLAYERS)
def test_hands_stay_full_while_the_talon_lasts(seed: int, players: int) -> None:
    state = new(players, seed, "classique")
    size = 5 if players == 2 else 3
    rng = random.Random(seed)
    while state.stage == "play":
        if not state.trick and state.phase() == 1:
            assert all(len(h) == size for h in state.hands)
        seat = state.turn
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@given(seed=SEEDS, players=PLAYERS, preset=PRESETS)
def test_illegal_cards_raise_and_leave_the_state_equal(
    seed: int, players: int, preset: str
) -> None:
    state = new(players, seed, preset)
    rng = random.Random(seed)
    while state.stage == "play":
        seat = state.turn
        legal = state.legal_actions(seat)
        playable = {a.card for a in legal if isinstance(a, Play)}
        before = state.snapshot()
        for code in rng.sample(CODES, 6):
            if code not in playable:
                with pytest.raises(IllegalAction):
                    state.apply(seat, Play(code))
                assert state.snapshot() == before
        state.apply(seat, rng.choice(legal))


@given(seed=SEEDS, players=PLAYERS)
def test_declarations_shown_cards_stay_public_until_played(seed: int, players: int) -> None:
    state = new(players, seed, "classique")
    rng = random.Random(seed)
    while state.stage == "play":
        for s in range(players):
            for c in state.shown[s]:
                assert c in state.hands[s]
                assert CODES[c] not in state.secrets((s + 1) % players)
        seat = state.turn
        state.apply(seat, rng.choice(state.legal_actions(seat)))


@given(seed=SEEDS)
def test_dealer_rotates_every_deal(seed: int) -> None:
    state = GAME.new(3, seed, {"parties": 5})
    rng = random.Random(seed)
    while not state.is_over():
        if state.actors():
            seat = state.actors()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        else:
            state.apply_timeout()
    dealers = [c["dealer"] for c in state.chance if "deal" in c]
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))
