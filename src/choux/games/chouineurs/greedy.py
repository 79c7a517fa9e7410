"""The greedy Chouineurs bot (re-exported by `bots.py`, with the expert): it bets on the tricks its hand should take, then aims at them.

Each end of a card has a chance of taking a trick (measured once over random games, the
tables below). The number of tricks a hand takes is then a sum of independent coin flips
(a Poisson-binomial law), which gives the expected points of every bet card for both
orientations. During play it weighs, for every legal card, the chance that the card wins
this trick against the points the rest of its hand can still reach, so it wins or ducks on
purpose; as a crybaby it turns the card that most raises its expected points, or takes the
sure point of a token.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from choux.engine.base import Action, BotMove, Seat, State
from choux.games.chouineurs.actions import AS_DEALT, CRY_FACE, CRY_TOKEN, PLAY_FACE, TURNED, Prepare
from choux.games.chouineurs.deck import (
    BET_NAMES,
    BET_POINTS,
    BLACK,
    FACE_COLOUR,
    FACE_VALUE,
    TOKEN_POINTS,
    YELLOW,
)
from choux.games.chouineurs.rules import legal_cards, trick_winner
from choux.games.chouineurs.state import (
    CHOOSING,
    CRYING,
    NO_BET,
    PLAYING,
    ChouineursState,
)

#: players -> (black 1-5, yellow 1-9, blue/red 1-15): share of tricks won by an end played
#: in random games (bots/measure: 1,500 random games per player count)
WIN_RATES: dict[int, tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = {
    3: (
        (0.66, 0.72, 0.81, 0.88, 0.97),
        (0.19, 0.24, 0.28, 0.34, 0.4, 0.48, 0.55, 0.66, 0.75),
        (0.01, 0.02, 0.03, 0.06, 0.07, 0.09, 0.13, 0.17, 0.21, 0.26, 0.31, 0.36, 0.42, 0.48, 0.56),
    ),
    4: (
        (0.59, 0.64, 0.73, 0.83, 0.96),
        (0.15, 0.17, 0.2, 0.24, 0.28, 0.35, 0.44, 0.54, 0.66),
        (0.0, 0.0, 0.01, 0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.14, 0.18, 0.22, 0.29, 0.36, 0.44),
    ),
    5: (
        (0.51, 0.58, 0.66, 0.79, 0.96),
        (0.11, 0.13, 0.16, 0.18, 0.2, 0.27, 0.35, 0.45, 0.61),
        (0.0, 0.0, 0.0, 0.0, 0.01, 0.01, 0.02, 0.03, 0.05, 0.07, 0.11, 0.15, 0.2, 0.27, 0.36),
    ),
}


def _face_rates(players: int) -> tuple[float, ...]:
    black, yellow, plain = WIN_RATES[players]
    rates = []
    for face in range(len(FACE_COLOUR)):
        colour, value = FACE_COLOUR[face], FACE_VALUE[face]
        table = black if colour == BLACK else yellow if colour == YELLOW else plain
        rates.append(table[value - 1])
    return tuple(rates)


#: players -> face -> chance that the face takes the trick it is played in
FACE_WIN = {players: _face_rates(players) for players in WIN_RATES}
#: value -> share of the 88 ends showing a lower number (for the crybaby's odds)
_VALUES = sorted(FACE_VALUE)
LOWER_SHARE = tuple(sum(1 for v in _VALUES if v < value) / len(_VALUES) for value in range(17))
#: what being a crybaby is worth, roughly: a token, or a useful turn
CRY_VALUE = 0.9 * TOKEN_POINTS


def trick_distribution(rates: Sequence[float]) -> list[float]:
    """P(k tricks) for k = 0..len(rates), cards taking tricks independently."""
    dist = [1.0]
    for p in rates:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * q
            nxt[k + 1] += mass * p
        dist = nxt
    return dist


#: (bet, won, rates) -> expected points, memoised: the search's rollouts ask for the same
#: hands again and again (cleared when it grows too big)
_EXPECTED: dict[tuple[int, int, tuple[float, ...]], float] = {}


def expected_points(bet: int, won: int, rates: Sequence[float]) -> float:
    """Expected bet points with `won` tricks already and `rates` for the cards left."""
    if bet < 0:
        return 0.0
    key = (bet, won, tuple(rates))
    value = _EXPECTED.get(key)
    if value is None:
        row = BET_POINTS[bet]
        top = len(row) - 1
        dist = trick_distribution(rates)
        value = sum(mass * row[min(won + k, top)] for k, mass in enumerate(dist))
        if len(_EXPECTED) > 20_000:  # about 5 MB at most
            _EXPECTED.clear()
        _EXPECTED[key] = value
    return value


class GreedyBot:
    """Bets on its expected tricks, then wins or ducks each trick to land on its bet."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        if not isinstance(state, ChouineursState) or seat not in state.actors():
            return None
        if state.phase == CHOOSING:
            return BotMove(self.prepare(state, seat))
        if state.phase == PLAYING:
            return BotMove(self.play(state, seat))
        if state.phase == CRYING:
            return BotMove(self.cry(state, seat))
        return None

    # ------------------------------------------------------------------ the bet

    def prepare(self, state: ChouineursState, seat: Seat) -> Action:
        win = FACE_WIN[state.n]
        hand = state.hands[seat]
        mask = state.bets_left[seat]
        bets = [b for b in range(len(BET_NAMES)) if mask >> b & 1]
        best: tuple[float, str, int] = (-1.0, AS_DEALT, NO_BET)
        for orientation, faces in ((AS_DEALT, hand), (TURNED, [f ^ 1 for f in hand])):
            dist = trick_distribution([win[f] for f in faces])
            for bet in bets or [NO_BET]:
                if bet < 0:
                    value = 0.0
                else:
                    row = BET_POINTS[bet]
                    value = sum(mass * row[k] for k, mass in enumerate(dist))
                    # keep the rich cards for later rounds when this one is a coin flip
                    value -= 0.02 * max(row)
                if value > best[0]:
                    best = (value, orientation, bet)
        _, orientation, bet = best
        return Prepare(orientation, BET_NAMES[bet] if bet >= 0 else None)

    # ------------------------------------------------------------------ the tricks

    def play(self, state: ChouineursState, seat: Seat) -> Action:
        n = state.n
        win = FACE_WIN[n]
        hand = state.hands[seat]
        trick = state.trick
        led = FACE_COLOUR[trick[0]] if trick else -1
        legal = legal_cards(hand, led)
        if len(legal) == 1:
            return PLAY_FACE[legal[0]]
        bet = state.choice_bet[seat]
        won = state.tricks_won[seat]
        after = n - len(trick) - 1  # players still to play after me
        low = min((FACE_VALUE[f] for f in trick), default=99)
        best_value = -1e9
        best_face = legal[0]
        for face in legal:
            rest = [win[f] for f in hand if f != face]
            lose_pts = expected_points(bet, won, rest)
            win_pts = expected_points(bet, won + 1, rest)
            p = self._takes(trick, face, after, win)
            value = p * win_pts + (1 - p) * lose_pts
            v = FACE_VALUE[face]
            if v <= low:
                value += CRY_VALUE * (1.0 - LOWER_SHARE[v]) ** after
            if value > best_value:
                best_value, best_face = value, face
        return PLAY_FACE[best_face]

    @staticmethod
    def _takes(trick: list[int], face: int, after: int, win: Sequence[float]) -> float:
        """Chance that `face` wins the trick, given the cards already on it."""
        if trick:
            candidate = [*trick, face]
            if trick_winner(candidate) != len(trick):
                return 0.0
        if after == 0:
            return 1.0
        colour = FACE_COLOUR[face]
        base = win[face]
        if not trick:
            return base
        # it beats the table now: it only has to hold against those still to play
        if colour == BLACK:
            hold = 0.97 - 0.05 * (5 - FACE_VALUE[face])
        else:
            hold = max(base, 0.15 if colour != YELLOW else 0.35)
        exponent: float = after / max(1, len(trick) + after)
        return min(1.0, float(hold**exponent))

    # ------------------------------------------------------------------ crying

    def cry(self, state: ChouineursState, seat: Seat) -> Action:
        win = FACE_WIN[state.n]
        hand = state.hands[seat]
        bet = state.choice_bet[seat]
        won = state.tricks_won[seat]
        rates = [win[f] for f in hand]
        now = expected_points(bet, won, rates)
        best_gain = TOKEN_POINTS if state.reserve else -1e9
        best: Action = CRY_TOKEN
        for i, face in enumerate(hand):
            turned = list(rates)
            turned[i] = win[face ^ 1]
            gain = expected_points(bet, won, turned) - now
            if gain > best_gain:
                best_gain, best = gain, CRY_FACE[face]
        return best


__all__ = [
    "CRY_VALUE",
    "FACE_WIN",
    "LOWER_SHARE",
    "GreedyBot",
    "expected_points",
    "trick_distribution",
]
