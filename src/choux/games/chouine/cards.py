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

import _random
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


def new_rng(seed: int) -> random.Random:
    """`random.Random(seed)`: the same generator in the same state, made without random.py's
    Python `__init__` and `seed` (for an int seed they only check its type, call the C
    seeding and set `gauss_next`, as `_seeded` does; their calls were a ninth of the 37,000
    instructions of a `random.Random(seed)`, most of it the Mersenne Twister's seeding).
    Checked against `random.Random(seed)` at import, else that is what it returns."""
    if type(seed) is not int or not _SAME_SEEDING:
        return random.Random(seed)
    return _seeded(seed)


def _seeded(seed: int) -> random.Random:
    rng = random.Random.__new__(random.Random)
    _random.Random.seed(rng, seed)
    rng.__dict__["gauss_next"] = None
    return rng


def _same_seeding() -> bool:
    """Whether `_seeded` makes what `random.Random(seed)` makes (checked once, at import)."""
    for seed in (0, 1, 7, 2**31, 2**32 + 5, 2**70 + 3, -12):
        ours, theirs = _seeded(seed), random.Random(seed)
        if type(ours) is not random.Random or vars(ours) != vars(theirs):
            return False
        if ours.getstate() != theirs.getstate() or ours.random() != theirs.random():
            return False
    return True


_SAME_SEEDING: Final = _same_seeding()


def shuffle(cards: list[int], rng: random.Random) -> None:
    """`rng.shuffle(cards)`: the same permutation from the same draws of `rng`, without
    `random.py`'s two Python calls per card (deals are the bulk of a random match's cost).
    Any other kind of RNG, or a Python whose `shuffle` draws otherwise, gets `rng.shuffle`."""
    if type(rng) is not random.Random or not _SAME_DRAWS:
        rng.shuffle(cards)
        return
    _shuffle(cards, rng)


def _shuffle(cards: list[int], rng: random.Random) -> None:
    # random.Random.shuffle with `_randbelow_with_getrandbits` inlined: a draw below n is the
    # top `n.bit_length()` bits of one 32-bit word of the Mersenne Twister, drawn again while
    # it is >= n. `rng.random()` draws two words a, b and returns
    # ((a >> 5) * 2**26 + (b >> 6)) / 2**53: times 2**53 that is an exact int holding the top
    # 27 bits of a and the top 26 bits of b, so one call serves two draws (half the calls of
    # one `getrandbits` a draw). While two positions or more are left, both words are surely
    # used (each position takes one word at least), so no word is drawn that the stdlib's
    # shuffle would not draw; the last position takes `getrandbits` as the stdlib does.
    # Checked against `random.shuffle` at import (`_same_draws`), else `shuffle` uses it.
    # (Also measured: the words in bulk, `getrandbits(32 * m)` read as bytes: slower, the
    # int-to-bytes conversions cost more than the calls they save.)
    getrandbits = cast(Callable[[object], int], rng.getrandbits)
    items = cast(list[object], cards)  # the swaps move objects: no unboxing once compiled
    i = len(cards) - 1
    while i >= _PAIRED:  # a draw below 2**26 or more takes 27 bits: one word a call
        n = i + 1
        k: object = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1
    if i > 1:
        rand = rng.random
        n = i + 1
        bits = n.bit_length()  # of a draw below n
        low = 1 << (bits - 1)  # the smallest n of that many bits
        while i > 1:
            x = int(rand() * _TWO_53)
            j = x >> (53 - bits)  # the first word's draw
            if j < n:
                items[i], items[j] = items[j], items[i]
                i -= 1
                n = i + 1
                if n < low:
                    bits -= 1
                    low >>= 1
            j = (x & _LOW_26) >> (26 - bits)  # the second word's draw
            if j < n:
                items[i], items[j] = items[j], items[i]
                i -= 1
                n = i + 1
                if n < low:
                    bits -= 1
                    low >>= 1
    if i == 1:
        two = _TWO_BITS
        j = getrandbits(two)
        while j >= 2:
            j = getrandbits(two)
        items[1], items[j] = items[j], items[1]


#: `_shuffle`: from this index down, draws (26 bits at most) go two to a `random()` call
_PAIRED: Final = (1 << 26) - 1
_TWO_53: Final = 9007199254740992.0  # 2**53
_LOW_26: Final = (1 << 26) - 1
#: the bits of a draw below 2, as an int object (typed `object`: not boxed again a call)
_TWO_BITS: Final[object] = (2).bit_length()


def _same_draws() -> bool:
    """Whether `_shuffle` matches this Python's `random.shuffle` (checked once, at import)."""
    for seed in range(8):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (1, 2, 3, 5, 32, 40, 300):
            mine, stdlib = list(range(size)), list(range(size))
            _shuffle(mine, ours)
            theirs.shuffle(stdlib)
            if mine != stdlib:
                return False
        if ours.getstate() != theirs.getstate():
            return False
    return True


_SAME_DRAWS: Final = _same_draws()
