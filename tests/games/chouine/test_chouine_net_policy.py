"""The neural rollout policy (`net_policy.py`): its inputs, its arithmetic against a plain
dense network, that it reads nothing hidden, and its place in the search."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import Play
from choux.games.chouine.bots import GreedyBot, expert_bot
from choux.games.chouine.card_policy import FEATURES, candidate_features
from choux.games.chouine.cards import parse
from choux.games.chouine.net_policy import (
    CARD_INPUTS,
    GONE,
    HAND,
    LED,
    MARGIN,
    STATE_INPUTS,
    TURNED,
    NetWeights,
    canonical,
    margin_input,
    net_move,
    observe,
    scores,
    state_inputs,
    stored_weights,
    use_weights,
    weights_from_json,
)
from choux.games.chouine.search import learned_move
from choux.games.chouine.testing import arrange


def random_weights(seed: int, hidden: int = 8) -> dict[str, list[list[float]] | list[float]]:
    rng = random.Random(seed)

    def row(n: int) -> list[float]:
        return [rng.uniform(-1, 1) for _ in range(n)]

    return {
        "ws": [row(hidden) for _ in range(STATE_INPUTS)],
        "wc": [row(hidden) for _ in range(CARD_INPUTS)],
        "b": row(hidden),
        "v": row(hidden),
        "u": row(CARD_INPUTS),
    }


def advanced(seed: int, moves: int) -> ChouineState | None:
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    greedy = GreedyBot(random.Random(seed))
    for _ in range(moves):
        if state.stage != "play" or not state.talon:
            return None
        move = greedy.choose(state, state.turn)
        assert move is not None
        state.apply(state.turn, move.action)
    return state if state.stage == "play" and state.talon else None


def test_trumps_become_suit_zero_and_the_others_keep_their_order() -> None:
    trump = 2  # the third suit
    assert [canonical(s * 8 + 5, trump) >> 3 for s in range(4)] == [1, 2, 0, 3]
    assert all(canonical(c, trump) & 7 == c & 7 for c in range(32))
    assert sorted(canonical(c, trump) for c in range(32)) == list(range(32))


def test_the_inputs_name_the_hand_the_card_led_and_the_turned_up_card() -> None:
    state = arrange(2, hands=["9S 9H 9C JC TS", "AS KH QH 7C 8D"], turned_up="TD", leader=0)
    state.apply(0, Play("TS"))
    obs = observe(state, 1)
    trump = state.trump
    active = state_inputs(obs)
    hand = {HAND + canonical(c, trump) for c in state.hands[1]}
    assert hand <= set(active)
    assert LED + canonical(parse("TS"), trump) in active
    assert TURNED + canonical(parse("TD"), trump) == TURNED + canonical(trump * 8 + 6, trump)
    assert TURNED + 6 in active  # the ten of trumps, suit 0
    gone = [i for i in active if GONE <= i < GONE + 32]
    assert gone == [GONE + canonical(parse("TS"), trump)]  # only the card on the table
    assert len(active) == len(set(active))
    assert margin_input(obs) == 0.0


def dense_scores(
    raw: dict[str, list[list[float]] | list[float]], state: ChouineState, seat: int
) -> list[float]:
    """The same network computed the plain way: dense inputs, one layer, rectified."""
    obs = observe(state, seat)
    s = [0.0] * STATE_INPUTS
    for i in state_inputs(obs):
        s[i] = 1.0
    s[MARGIN] = margin_input(obs)
    hand = list(state.hands[seat])
    result = []
    ws, wc, b, v, u = (raw[k] for k in ("ws", "wc", "b", "v", "u"))
    for c, x in zip(hand, candidate_features(state, seat, hand), strict=True):
        ci = [0.0] * CARD_INPUTS
        ci[canonical(c, obs.trump)] = 1.0
        ci[32:] = x
        hidden = []
        for j in range(len(b)):
            pre = b[j]  # type: ignore[operator]
            pre += sum(s[i] * ws[i][j] for i in range(STATE_INPUTS))  # type: ignore[index]
            pre += sum(ci[i] * wc[i][j] for i in range(CARD_INPUTS))  # type: ignore[index]
            hidden.append(max(0.0, pre))
        score = sum(h * vj for h, vj in zip(hidden, v, strict=True))  # type: ignore[arg-type]
        score += sum(ci[i] * u[i] for i in range(CARD_INPUTS))  # type: ignore[operator]
        result.append(score)
    return result


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 16), wseed=st.integers(0, 100))
def test_the_sparse_scores_are_the_dense_network(seed: int, moves: int, wseed: int) -> None:
    state = advanced(seed, moves)
    if state is None:
        return
    raw = random_weights(wseed)
    net = weights_from_json(json.dumps(raw))
    seat = state.turn
    hand = list(state.hands[seat])
    got = scores(net, observe(state, seat), hand, candidate_features(state, seat, hand))
    assert got == pytest.approx(dense_scores(raw, state, seat), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 18))
def test_the_network_reads_nothing_its_seat_cannot_see(seed: int, moves: int) -> None:
    state = advanced(seed, moves)
    if state is None:
        return
    seat = state.turn
    twin = state.determinize(seat, random.Random(seed + 1))
    assert twin.view(seat) == state.view(seat)
    assert observe(twin, seat) == observe(state, seat)
    net = weights_from_json(json.dumps(random_weights(seed)))
    hand = sorted(state.hands[seat])
    if len(hand) > 1:
        first = net_move(net, state, seat, hand, random.Random(7))
        assert first == net_move(net, twin, seat, hand, random.Random(7))


def test_weights_of_another_shape_are_refused() -> None:
    raw = random_weights(1)
    raw["ws"] = raw["ws"][:-1]  # type: ignore[index]
    with pytest.raises(ValueError):
        weights_from_json(json.dumps(raw))
    raw = random_weights(1)
    raw["v"] = raw["v"][:-1]  # type: ignore[index]
    with pytest.raises(ValueError):
        NetWeights(raw["ws"], raw["wc"], raw["b"], raw["v"], raw["u"])  # type: ignore[arg-type]


def test_the_registered_network_fits_this_module() -> None:
    net = stored_weights()
    assert net is not None, "net_weights.json is missing"
    assert len(net.state_cols) == STATE_INPUTS * len(net.bias)
    assert len(net.card_cols) == CARD_INPUTS * len(net.bias)
    assert len(net.card_linear) == 32 + FEATURES


def test_the_rollouts_play_the_network_of_their_search() -> None:
    """Rollout policy 5 plays the network's card; a network that prefers low cards and one
    that prefers high cards make different choices in the same position."""
    state = arrange(2, hands=["7S 9H 9C JC TC", "8S KH JH 8D AS"], turned_up="TD", leader=0)
    ids = sorted(state.legal_action_ids(0))
    low, high = random_weights(1), random_weights(1)
    for raw, sign in ((low, -1.0), (high, 1.0)):
        raw["v"] = [0.0] * len(raw["v"])  # only the card's direct weights speak
        raw["u"] = [sign * (c & 7) if c < 32 else 0.0 for c in range(CARD_INPUTS)]
    low_card = learned_move(state, 0, random.Random(1), weights_from_json(json.dumps(low)))
    high_card = learned_move(state, 0, random.Random(1), weights_from_json(json.dumps(high)))
    assert low_card & 7 == min(c & 7 for c in ids)
    assert high_card & 7 == max(c & 7 for c in ids)
    saved = stored_weights()
    try:
        use_weights(weights_from_json(json.dumps(high)))
        bot = expert_bot(random.Random(1), 20, None)
        bot.rollout_policy = 5
        move = bot.choose(state, 0)
        assert move is not None and bot.net is stored_weights()
    finally:
        use_weights(saved)
