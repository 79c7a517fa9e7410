"""A rollout policy distilled from the search (expert iteration), two players, phase 1.

The search values every candidate card in hundreds of worlds; a linear scorer over what
the seat can see of each card (`card_features`: its rank and whether it is trump, the
combinations it would break, whether it is the best card left of its suit, and, when
answering, what it does to the trick) is fitted to those values
(`bench/chouine_policy_fit.py`), one model per role (lead or answer) and stage of the
talon. `card_move` plays the best-scoring card; declarations and the seven exchange are
left to the hand-written rule (`search.rollout_move`).
"""

from __future__ import annotations

import random

from choux.engine.base import Seat
from choux.games.chouine.card_policy_weights import CARD_WEIGHTS
from choux.games.chouine.cards import JACK, KING, POINTS, QUEEN, TEN
from choux.games.chouine.rules import brisque_count
from choux.games.chouine.state import ChouineState

#: the number of features of `card_features`
FEATURES = 34
#: the stages of the talon a model is fitted for (its size at the decision)
STAGES = ((14, 20), (8, 12), (0, 6))
#: the noise that breaks ties between equal scores (units of the search's value)
NOISE = 0.005


def stage(talon: int) -> int:
    """The index in STAGES of a talon of that size."""
    for i, (low, _) in enumerate(STAGES):
        if talon >= low:
            return i
    return len(STAGES) - 1


def model_key(answer: bool, talon: int) -> int:
    """The key of the model of `CARD_WEIGHTS` that scores such a decision."""
    return (3 if answer else 0) + stage(talon)


def gone_cards(state: ChouineState) -> int:
    """The cards played this partie (a bit set): everyone saw them fall."""
    gone = 0
    for pile in state.won:
        for c in pile:
            gone |= 1 << c
    for c in state.trick:
        gone |= 1 << c
    return gone


def card_features(
    c: int,
    mask: int,
    outside: int,
    trump: int,
    declared: int,
    led: int,
    brisques: int,
    turned: int,
) -> list[float]:
    """What the policy reads of playing `c` from the hand `mask`: `outside` the cards not
    yet played and not in the hand (bit set), `declared` the seat's declared suits, `led`
    the card to answer (-1 to lead), `brisques` the aces and tens in the hand, `turned`
    the turned-up card when the trick's loser will draw it (the last trick of phase 1),
    else -1."""
    x = [0.0] * FEATURES
    suit = c >> 3
    rank = c & 7
    is_trump = suit == trump
    x[(8 if is_trump else 0) + rank] = 1.0
    undeclared = not declared >> suit & 1
    if undeclared and (rank in (KING, QUEEN)) and mask >> (c ^ 1) & 1:
        x[17 if is_trump else 16] = 1.0
    if undeclared and rank == JACK and mask >> (c + 1) & 1 and mask >> (c + 2) & 1:
        x[18] = 1.0
    if rank >= TEN and brisques >= 3:
        x[19] = 1.0
    suit_cards = mask >> (suit * 8) & 0xFF
    outside_suit = outside >> (suit * 8) & 0xFF
    if not is_trump:
        x[20] = (bin(suit_cards).count("1") - 1) / 4.0
    higher = outside_suit >> (rank + 1)
    if not higher:
        x[22 if is_trump else 21] = 1.0
    if is_trump and suit_cards == 1 << rank:
        x[23] = 1.0
    if is_trump:
        x[30] = bin(outside_suit).count("1") / 8.0
        x[33] = bin(suit_cards).count("1") / 8.0
    elif suit_cards == 1 << rank:
        x[31] = 1.0  # the last card of its suit: a void to trump into later
    x[32] = bin(higher).count("1") / 4.0
    if led >= 0:
        on_table = (POINTS[led] + POINTS[c]) / 10.0
        beats = (suit == led >> 3 and c > led) or (is_trump and led >> 3 != trump)
        if beats:
            x[24] = 1.0
            x[25] = on_table
            if is_trump and led >> 3 != trump:
                x[27] = 1.0
            if led & 7 >= TEN:
                x[28] = 1.0
        else:
            x[26] = on_table
            if turned >= 0:  # losing the last trick of phase 1 draws the turned-up card
                x[29] = (turned & 7) / 7.0
    return x


def candidate_features(state: ChouineState, seat: Seat, cards: list[int]) -> list[list[float]]:
    """`card_features` of each of `cards` for `seat` in `state`."""
    mask = state.mask(seat)
    gone = gone_cards(state)
    outside = 0xFFFFFFFF & ~mask & ~gone
    trump = state.trump
    declared = state.declared_suits[seat]
    led = state.trick[0] if state.trick else -1
    brisques = 0 if state.brisque_used[seat] else brisque_count(mask)
    talon = state.talon
    turned = talon[0] if len(talon) == 2 else -1
    return [card_features(c, mask, outside, trump, declared, led, brisques, turned) for c in cards]


def card_move(state: ChouineState, seat: Seat, ids: list[int], rng: random.Random) -> int:
    """The plain card of `ids` (all plain cards, two players, phase 1) that the fitted
    model of the decision scores best."""
    weights = CARD_WEIGHTS.get(model_key(bool(state.trick), len(state.talon)))
    if weights is None:
        return ids[rng.randrange(len(ids))]
    best = ids[0]
    best_value = -1e9
    for c, x in zip(ids, candidate_features(state, seat, ids), strict=True):
        value = rng.random() * NOISE
        for w, xi in zip(weights, x, strict=True):
            if xi:
                value += w * xi
        if value > best_value:
            best, best_value = c, value
    return best


__all__ = ["FEATURES", "STAGES", "candidate_features", "card_features", "card_move"]
