"""The 32-card piquet deck: cards are small ints, codes like "AH" only at the edges.

A card is ``suit * 8 + strength``: strength 0 is the seven, 7 the ace, so within a suit a
higher int is a stronger card and ``card >> 3`` is its suit. Codes are rank + suit letters
("AH" = l'as de cœur, "TS" = le dix de pique, "7D" = le sept de carreau).

>>> CODES[ace(HEARTS)], NAMES[ace(HEARTS)], POINTS[ace(HEARTS)]
('AH', "l'as de cœur", 11)
>>> sum(POINTS)
120
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Final, cast

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS: Final = "SHDC"
SUIT_NAMES = ("pique", "cœur", "carreau", "trèfle")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")

# strengths, weakest first: the order of the game (A 10 K Q J 9 8 7)
SEVEN: Final = 0
EIGHT: Final = 1
NINE: Final = 2
JACK: Final = 3
QUEEN: Final = 4
KING: Final = 5
TEN: Final = 6
ACE: Final = 7
RANK_LETTERS: Final = "789JQKTA"
RANK_NAMES = ("sept", "huit", "neuf", "valet", "dame", "roi", "dix", "as")
RANK_ARTICLES = ("le ", "le ", "le ", "le ", "la ", "le ", "le ", "l'")
RANK_SHORT = ("7", "8", "9", "V", "D", "R", "10", "A")
#: points of each rank when won in a trick (the brisques are the aces and tens)
RANK_POINTS: Final = (0, 0, 0, 2, 3, 4, 10, 11)
LAST_TRICK_BONUS: Final = 10  # dix de der

DECK: Final[tuple[int, ...]] = tuple(range(32))
CODES: Final[tuple[str, ...]] = tuple(RANK_LETTERS[c & 7] + SUIT_LETTERS[c >> 3] for c in DECK)
CODE_INDEX: dict[str, int] = {code: card for card, code in enumerate(CODES)}
NAMES: Final[tuple[str, ...]] = tuple(
    f"{RANK_ARTICLES[c & 7]}{RANK_NAMES[c & 7]} de {SUIT_NAMES[c >> 3]}" for c in DECK
)
SHORT: Final[tuple[str, ...]] = tuple(RANK_SHORT[c & 7] + SUIT_SYMBOLS[c >> 3] for c in DECK)
POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[c & 7] for c in DECK)
BRISQUES: frozenset[int] = frozenset(c for c in DECK if (c & 7) in (TEN, ACE))


def card(strength: int, suit: int) -> int:
    return suit * 8 + strength


def ace(suit: int) -> int:
    return suit * 8 + ACE


def suit_of(c: int) -> int:
    return c >> 3


def strength_of(c: int) -> int:
    return c & 7


def parse(code: str) -> int:
    """The card of a code; ValueError on anything else."""
    try:
        return CODE_INDEX[code]
    except KeyError:
        raise ValueError(f"unknown card code {code!r}") from None


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def parse_all(text: str) -> list[int]:
    """Cards from space-separated codes ("AH TS 7D"), for tests and tools."""
    return [parse(code) for code in text.split()]


def shuffle(cards: list[int], rng: random.Random) -> None:
    """`rng.shuffle(cards)`: the same permutation from the same draws of `rng`, without
    `random.py`'s two Python calls per card (deals are the bulk of a random match's cost).
    Any other kind of RNG, or a Python whose `shuffle` draws otherwise, gets `rng.shuffle`."""
    if type(rng) is not random.Random or not _SAME_DRAWS:
        rng.shuffle(cards)
        return
    _shuffle(cards, rng)


def _shuffle(cards: list[int], rng: random.Random) -> None:
    # random.Random.shuffle with _randbelow_with_getrandbits inlined (drawing the words in
    # bulk, `getrandbits(32 * m)` read as bytes, was measured: no faster once compiled)
    # the bit counts are passed as the int objects of `_BIT_LENGTHS` (typed `object`: no
    # boxing of a native int at each draw once compiled)
    getrandbits = cast(Callable[[object], int], rng.getrandbits)
    items = cast(list[object], cards)  # the swaps move objects: no unboxing once compiled
    i = len(cards) - 1
    while i > 0:
        n = i + 1
        k: object = _BIT_LENGTHS[n] if n < 64 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1


_BIT_LENGTHS: Final[tuple[object, ...]] = tuple(n.bit_length() for n in range(64))


def _same_draws() -> bool:
    """Whether `_shuffle` matches this Python's `random.shuffle` (checked once, at import)."""
    for seed in range(8):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, stdlib = list(range(40)), list(range(40))
        _shuffle(mine, ours)
        theirs.shuffle(stdlib)
        if mine != stdlib or ours.getstate() != theirs.getstate():
            return False
    return True


_SAME_DRAWS: Final = _same_draws()
