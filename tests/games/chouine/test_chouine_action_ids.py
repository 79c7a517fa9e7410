"""The fast path of the contract (`legal_action_ids`, `apply_id`) is the same rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux.engine import IllegalAction
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import ACTIONS, EXCHANGE_ID, NEXT_DEAL_ID, action_id
from choux.games.chouine.cards import shuffle

SEEDS = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=40)
@given(
    seed=SEEDS,
    players=st.sampled_from([2, 3, 4]),
    preset=st.sampled_from(["classique", "lavardin"]),
)
def test_action_ids_name_the_same_legal_actions_and_apply_the_same_way(
    seed: int, players: int, preset: str
) -> None:
    fast = GAME.new(players, seed, {"preset": preset})
    slow = GAME.new(players, seed, {"preset": preset})
    assert isinstance(fast, ChouineState) and isinstance(slow, ChouineState)
    rng = random.Random(seed)
    while not fast.is_over():
        if fast.stage != "play":
            fast.apply_id(None, NEXT_DEAL_ID)
            slow.apply_timeout()
            continue
        seat = fast.turn
        ids = list(fast.legal_action_ids(seat))
        actions = slow.legal_actions(seat)
        assert sorted(ids) == sorted(action_id(a) for a in actions)
        assert fast.legal_action_ids(1 - seat if players == 2 else (seat + 1) % players) == []
        chosen = rng.choice(ids)
        fast.apply_id(seat, chosen)
        slow.apply(seat, ACTIONS[chosen])
        assert fast.snapshot() == slow.snapshot()
        fast.check_invariants()


@pytest.mark.parametrize("bad", [-1, 999, EXCHANGE_ID])
def test_apply_id_refuses_an_illegal_id_and_leaves_the_state_unchanged(bad: int) -> None:
    state = GAME.new(2, 3)
    assert isinstance(state, ChouineState)
    seat = state.turn
    if bad == EXCHANGE_ID and bad in state.legal_action_ids(seat):
        pytest.skip("this deal gives the seven to the player")
    before = state.snapshot()
    with pytest.raises(IllegalAction):
        state.apply_id(seat, bad)
    other = next(c for c in range(32) if c not in state.hands[seat])
    with pytest.raises(IllegalAction):
        state.apply_id(seat, other)  # a card the player does not hold
    with pytest.raises(IllegalAction):
        state.apply_id(1 - seat, state.hands[1 - seat][0])  # not its turn
    assert state.snapshot() == before


def test_the_deal_shuffle_is_random_shuffle_draw_for_draw() -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 32, 300):  # 300: draws of more than 8 bits
            mine, stdlib = list(range(size)), list(range(size))
            shuffle(mine, ours)
            theirs.shuffle(stdlib)
            assert mine == stdlib
        assert ours.getstate() == theirs.getstate()
