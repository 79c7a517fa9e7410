"""The rules of Chouineurs as small pure functions over ints (faces, colours, seats).

The state machine (`state.py`) calls them; tests call them by name. A *face* is
``card * 2 + side`` (see `deck.py`); a trick is the list of faces in play order.
"""

from __future__ import annotations

from collections.abc import Sequence

from choux.games.chouineurs.deck import (
    BET_POINTS,
    BLACK,
    FACE_COLOUR,
    FACE_VALUE,
    TOKEN_POINTS,
    YELLOW,
)

NO_COLOUR = -1
#: face -> its rank as a trump (black above yellow), 0 for a plain colour
TRUMP_RANK = tuple(
    200 + v if c == BLACK else 100 + v if c == YELLOW else 0
    for c, v in zip(FACE_COLOUR, FACE_VALUE, strict=True)
)


def legal_cards(hand: Sequence[int], led: int) -> Sequence[int]:
    """Faces of `hand` that may be played when `led` is the led colour (NO_COLOUR: leading).

    Follow the led colour if you can; a black card may always be played; a player who
    cannot follow plays anything.
    """
    colour = FACE_COLOUR
    if led < 0 or led not in [colour[f] for f in hand]:
        return hand
    return [f for f in hand if colour[f] == led or colour[f] == BLACK]


def must_follow(hand: Sequence[int], led: int, face: int) -> bool:
    """True when playing `face` breaks the follow rule."""
    colour = FACE_COLOUR[face]
    if led < 0 or colour in (led, BLACK):
        return False
    return any(FACE_COLOUR[f] == led for f in hand)


def trick_winner(trick: Sequence[int]) -> int:
    """Index in `trick` of the winning face: highest black, else highest yellow, else highest
    of the led colour. Equal ends: the first played wins."""
    led = FACE_COLOUR[trick[0]]
    trump = TRUMP_RANK
    best = 0
    best_rank = -1
    for i, face in enumerate(trick):
        rank = trump[face] or (FACE_VALUE[face] if FACE_COLOUR[face] == led else -1)
        if rank > best_rank:
            best, best_rank = i, rank
    return best


def crybabies(trick: Sequence[int]) -> list[int]:
    """Indices in `trick` of every face showing the lowest number, whatever its colour
    (ties: all of them, the winner included), in play order."""
    values = [FACE_VALUE[f] for f in trick]
    low = min(values)
    return [i for i, v in enumerate(values) if v == low]


def bet_points(bet: int, tricks: int) -> int:
    """Points a bet card scores for `tricks` tricks (0: missed). `bet` -1: no bet."""
    if bet < 0:
        return 0
    return BET_POINTS[bet][tricks]


def score_round(bet: int, tricks: int, tokens: int) -> tuple[int, bool]:
    """(points of the round, whether the bet card is spent): bet points plus one per token.
    A bet that hits leaves the game; a missed bet scores nothing and comes back."""
    points = bet_points(bet, tricks)
    return points + tokens * TOKEN_POINTS, points > 0


def round_leader(scores: Sequence[int], previous: int) -> int:
    """Leader of a new round: the highest score; tie: the first tied player after the
    previous leader in play order."""
    n = len(scores)
    top = max(scores)
    for step in range(1, n + 1):
        seat = (previous + step) % n
        if scores[seat] == top:
            return seat
    raise AssertionError("unreachable")


def final_ranks(scores: Sequence[int], last_round: Sequence[int]) -> tuple[int, ...]:
    """Ranks at the end: most points; tie: most points in the last round; still tied:
    shared rank."""
    keys = list(zip(scores, last_round, strict=True))
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)
