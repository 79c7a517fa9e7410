"""A small neural rollout policy for two-player Chouine in phase 1 (expert iteration).

The linear one-card scorer of `card_policy.py` reached its fixed point (docs/perf.md,
issue 13, tenth pass): it cannot say « keep this ten because the opponent still holds the
ace and I hold two trumps ». This policy reads the whole of what the seat sees (`observe`:
its hand, the cards gone, the opponent's shown cards, the card led, the turned-up card, the
talon's size, the score, the declarations), suits renamed so that trumps are suit 0
(`canonical`), and scores each candidate card with one hidden layer of rectified units:

    score(card) = v . relu(W_s s + W_c c + b) + u . c

where `s` is the position's sparse input (`state_inputs`: indices of its ones, and the
margin as one real input) and `c` the card's (`card_inputs`: its one-hot index and the
34 hand-written features of `card_policy.card_features`). The position's part is summed
once a decision; each candidate then costs one pass over the hidden units.

The weights are fitted by `bench/chouine_net_fit.py` to the search's own values of its
candidates and stored in `net_weights.py` (absent: the policy is not available).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import NamedTuple

from choux.engine.base import Seat
from choux.games.chouine.card_policy import FEATURES, candidate_features, gone_cards
from choux.games.chouine.state import ChouineState

#: inputs of the position: hand, cards gone, opponent's shown cards, card led, turned-up
#: card (32 each), talon size (11: 0, 2, ..., 20), lead or answer, declared suits (4 + 4),
#: brisque declared (2), then the margin (one real input, tens of points)
HAND, GONE, SHOWN, LED, TURNED = 0, 32, 64, 96, 128
TALON = 160
ANSWER = 171
MY_DECLARED, THEIR_DECLARED = 172, 176
MY_BRISQUE, THEIR_BRISQUE = 180, 181
MARGIN = 182
STATE_INPUTS = 183
#: inputs of a candidate: its one-hot (32), then `card_features`
CARD_INPUTS = 32 + FEATURES
#: the noise that breaks ties between equal scores
NOISE = 0.001
#: the registered weights, beside the package's `__init__.py`
WEIGHTS_FILE = "net_weights.json"


class Observation(NamedTuple):
    """What the seat to move sees that the policy reads; cards in the engine's numbering
    (not yet canonical). `led` and `turned` are -1 when absent."""

    hand: int
    gone: int
    shown: int
    led: int
    turned: int
    talon: int
    margin: int
    my_declared: int
    their_declared: int
    my_brisque: bool
    their_brisque: bool
    trump: int


def observe(state: ChouineState, seat: Seat) -> Observation:
    """The policy's reading of `state` for `seat` (two players): only what the seat sees."""
    other = 1 - seat
    shown = 0
    for c in state.shown[other]:
        shown |= 1 << c
    talon = state.talon
    return Observation(
        hand=state.mask(seat),
        gone=gone_cards(state),
        shown=shown,
        led=state.trick[0] if state.trick else -1,
        turned=talon[0] if talon else -1,
        talon=len(talon),
        margin=state.card_points[seat]
        + state.decl_points[seat]
        - state.card_points[other]
        - state.decl_points[other],
        my_declared=state.declared_suits[seat],
        their_declared=state.declared_suits[other],
        my_brisque=state.brisque_used[seat],
        their_brisque=state.brisque_used[other],
        trump=state.trump,
    )


def canonical(c: int, trump: int) -> int:
    """`c` with its suit renamed so that trumps are suit 0 (the others keep their order)."""
    suit = c >> 3
    if suit == trump:
        return c & 7
    return ((suit + 1 if suit < trump else suit) << 3) | (c & 7)


def _mask_indices(mask: int, trump: int, base: int, out: list[int]) -> None:
    while mask:
        low = mask & -mask
        out.append(base + canonical(low.bit_length() - 1, trump))
        mask ^= low


def _suit_bits(suits: int, trump: int, base: int, out: list[int]) -> None:
    for suit in range(4):
        if suits >> suit & 1:
            out.append(base + (canonical(suit << 3, trump) >> 3))


def state_inputs(obs: Observation) -> list[int]:
    """The indices of the ones of the position's input (the margin apart)."""
    trump = obs.trump
    out: list[int] = []
    _mask_indices(obs.hand, trump, HAND, out)
    _mask_indices(obs.gone, trump, GONE, out)
    _mask_indices(obs.shown, trump, SHOWN, out)
    if obs.led >= 0:
        out.append(LED + canonical(obs.led, trump))
        out.append(ANSWER)
    if obs.turned >= 0:
        out.append(TURNED + canonical(obs.turned, trump))
    out.append(TALON + min(10, obs.talon // 2))
    _suit_bits(obs.my_declared, trump, MY_DECLARED, out)
    _suit_bits(obs.their_declared, trump, THEIR_DECLARED, out)
    if obs.my_brisque:
        out.append(MY_BRISQUE)
    if obs.their_brisque:
        out.append(THEIR_BRISQUE)
    return out


def margin_input(obs: Observation) -> float:
    """The margin as the network reads it (tens of points, clamped)."""
    return max(-6.0, min(6.0, obs.margin / 10.0))


class NetWeights:
    """The network's parameters as plain lists (given as rows of the first layer by
    input, as `bench/chouine_net_fit.py` writes them)."""

    def __init__(
        self,
        state_rows: list[list[float]],
        card_rows: list[list[float]],
        bias: list[float],
        out: list[float],
        card_linear: list[float],
    ) -> None:
        if len(state_rows) != STATE_INPUTS or len(card_rows) != CARD_INPUTS:
            raise ValueError("the network's inputs do not match this module's")
        hidden = len(bias)
        if any(len(row) != hidden for row in (*state_rows, *card_rows, out)):
            raise ValueError("the network's layers do not match")
        #: the first layer by hidden unit, flat: unit j's weight of input i at
        #: j * STATE_INPUTS + i (and j * CARD_INPUTS + i for the card's inputs)
        self.state_cols = [float(row[j]) for j in range(hidden) for row in state_rows]
        self.card_cols = [float(row[j]) for j in range(hidden) for row in card_rows]
        self.bias = [float(b) for b in bias]
        self.out = [float(v) for v in out]
        self.card_linear = [
            float(u) for u in card_linear
        ]  # CARD_INPUTS weights straight to the score


def weights_from_json(text: str) -> NetWeights:
    """The weights written by `bench/chouine_net_fit.py --out`."""
    data = json.loads(text)
    return NetWeights(data["ws"], data["wc"], data["b"], data["v"], data["u"])


_loaded: list[NetWeights | None] = []


def stored_weights() -> NetWeights | None:
    """The registered weights (`net_weights.json` beside the package), read once; None
    when there are none."""
    if not _loaded:
        package = sys.modules["choux.games.chouine"].__file__
        path = Path(package or ".").parent / WEIGHTS_FILE
        _loaded.append(weights_from_json(path.read_text()) if path.exists() else None)
    return _loaded[0]


def scores(
    weights: NetWeights, obs: Observation, cards: list[int], feats: list[list[float]]
) -> list[float]:
    """The network's score of each of `cards` (engine numbering), `feats` their
    `card_features`. Sums by hidden unit into locals: the compiled module then adds
    unboxed floats and writes one value a unit."""
    hidden = len(weights.bias)
    state_cols = weights.state_cols
    card_cols = weights.card_cols
    active = state_inputs(obs)
    m = margin_input(obs)
    pre: list[float] = []
    for j in range(hidden):
        base = j * STATE_INPUTS
        acc = weights.bias[j] + m * state_cols[base + MARGIN]
        for i in active:
            acc += state_cols[base + i]
        pre.append(acc)
    out = weights.out
    linear = weights.card_linear
    result: list[float] = []
    trump = obs.trump
    for c, x in zip(cards, feats, strict=True):
        index = canonical(c, trump)
        nz_index: list[int] = []
        nz_value: list[float] = []
        score = linear[index]
        for k in range(FEATURES):
            xk = x[k]
            if xk:
                nz_index.append(32 + k)
                nz_value.append(xk)
                score += xk * linear[32 + k]
        terms = len(nz_index)
        for j in range(hidden):
            base = j * CARD_INPUTS
            h = pre[j] + card_cols[base + index]
            for t in range(terms):
                h += nz_value[t] * card_cols[base + nz_index[t]]
            if h > 0.0:
                score += out[j] * h
        result.append(score)
    return result


def use_weights(weights: NetWeights | None) -> None:
    """Make `weights` the ones `stored_weights` gives (benchmarks of other fits)."""
    _loaded[:] = [weights]


def net_move(
    weights: NetWeights, state: ChouineState, seat: Seat, ids: list[int], rng: random.Random
) -> int:
    """The plain card of `ids` (all plain cards, two players, phase 1) the network scores
    best."""
    feats = candidate_features(state, seat, ids)
    values = scores(weights, observe(state, seat), ids, feats)
    best = ids[0]
    best_value = -1e9
    for c, value in zip(ids, values, strict=True):
        value += rng.random() * NOISE
        if value > best_value:
            best, best_value = c, value
    return best


__all__ = [
    "CARD_INPUTS",
    "STATE_INPUTS",
    "NetWeights",
    "Observation",
    "canonical",
    "net_move",
    "observe",
    "scores",
    "state_inputs",
    "stored_weights",
    "use_weights",
    "weights_from_json",
]
