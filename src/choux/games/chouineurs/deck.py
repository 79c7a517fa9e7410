"""Chouineurs data: the 44 double-ended cards, the five bet cards and the round counts.

Everything a designer might tune lives here (see shared/rules/chouineurs.md). Logic never
spells a number of this file: it reads the tables below.

A card is an int id 0..43. Each card has two ends; a *face* is ``card * 2 + side`` (side 0
is end A, side 1 end B), so turning a card is ``face ^ 1``. Colours are small ints.
"""

from __future__ import annotations

from typing import Final

# --------------------------------------------------------------------------- colours

BLACK: Final = 0  # dragons, super-trumps
YELLOW: Final = 1  # magicians, trumps
BLUE: Final = 2  # queens
RED: Final = 3  # kings

COLOUR_NAMES: Final = ("noir", "jaune", "bleu", "rouge")
COLOUR_CHARACTERS: Final = ("dragon", "magicien", "reine", "roi")

# --------------------------------------------------------------------------- the 44 cards

End = tuple[int, int]  # (colour, value)

#: dragon cards: black end <-> blue or red end, alternating blue and red
DRAGON_PAIRS: Final = (
    (5, 1),
    (5, 1),
    (4, 2),
    (4, 2),
    (3, 3),
    (3, 3),
    (2, 4),
    (2, 4),
    (1, 5),
    (1, 5),
)
#: magician cards: yellow end <-> blue or red end, each pair once with blue, once with red
MAGICIAN_PAIRS: Final = (
    (9, 6),
    (8, 7),
    (7, 8),
    (6, 9),
    (5, 10),
    (4, 11),
    (3, 12),
    (2, 13),
    (1, 14),
)
#: queen/king cards: blue end <-> red end
ROYAL_PAIRS: Final = (
    (15, 1),
    (15, 2),
    (14, 3),
    (13, 4),
    (12, 5),
    (11, 6),
    (10, 7),
    (9, 8),
    (8, 9),
    (7, 10),
    (6, 11),
    (5, 12),
    (4, 13),
    (3, 14),
    (2, 15),
    (1, 15),
)


def _build_cards() -> tuple[tuple[End, End], ...]:
    cards: list[tuple[End, End]] = []
    for i, (black, other) in enumerate(DRAGON_PAIRS):
        cards.append(((BLACK, black), (BLUE if i % 2 == 0 else RED, other)))
    for colour in (BLUE, RED):
        for yellow, other in MAGICIAN_PAIRS:
            cards.append(((YELLOW, yellow), (colour, other)))
    for blue, red in ROYAL_PAIRS:
        cards.append(((BLUE, blue), (RED, red)))
    return tuple(cards)


#: card id -> (end A, end B)
CARDS: Final = _build_cards()
CARD_COUNT: Final = len(CARDS)
#: face -> colour and face -> value (face = card * 2 + side)
FACE_COLOUR: Final = tuple(end[0] for card in CARDS for end in card)
FACE_VALUE: Final = tuple(end[1] for card in CARDS for end in card)
#: card id <-> the string code shown in views ("c17")
CARD_CODES: Final = tuple(f"c{i}" for i in range(CARD_COUNT))
CODE_TO_CARD: Final = {code: i for i, code in enumerate(CARD_CODES)}

# --------------------------------------------------------------------------- bet cards


#: bet card name -> {tricks: points}; `BET_AT_LEAST` marks "that many tricks or more"
BET_CARDS: Final[tuple[tuple[str, dict[int, int]], ...]] = (
    ("orange", {0: 8, 1: 3}),
    ("vert", {0: 2, 1: 8, 2: 5}),
    ("rouge", {1: 4, 2: 8, 3: 4}),
    ("bleu", {2: 3, 3: 9, 4: 4}),
    ("violet", {3: 5, 4: 10}),
)
#: bet card name -> a number of tricks from which every higher count scores like it
BET_AT_LEAST: Final = {"violet": 4}
BET_NAMES: Final = tuple(name for name, _ in BET_CARDS)
BET_TITLES: Final = ("Orange", "Vert", "Rouge", "Bleu", "Violet")
BET_INDEX: Final = {name: i for i, name in enumerate(BET_NAMES)}

# --------------------------------------------------------------------------- rounds

ROUNDS: Final = 4
HAND_SIZE: Final = 7
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 5
#: points of one token ("pleurer pour 1 point")
TOKEN_POINTS: Final = 1


def _bet_points_table() -> tuple[tuple[int, ...], ...]:
    """bet index -> points for 0..HAND_SIZE tricks (0 = the bet misses)."""
    table = []
    for name, points in BET_CARDS:
        row = []
        floor = BET_AT_LEAST.get(name)
        for tricks in range(HAND_SIZE + 1):
            if tricks in points:
                row.append(points[tricks])
            elif floor is not None and tricks >= floor:
                row.append(points[floor])
            else:
                row.append(0)
        table.append(tuple(row))
    return tuple(table)


#: bet index -> tuple of points by number of tricks won (0: missed)
BET_POINTS: Final = _bet_points_table()


def bet_description(bet: int) -> str:
    """French summary of a bet card: « 0 pli → 2, 1 pli → 8, 2 plis → 5 »."""
    name, points = BET_CARDS[bet]
    floor = BET_AT_LEAST.get(name)
    parts = []
    for tricks, value in points.items():
        more = " ou plus" if tricks == floor else ""
        word = "pli" if tricks <= 1 and not more else "plis"
        parts.append(f"{tricks} {word}{more} → {value}")
    return ", ".join(parts)


def end_text(face: int) -> str:
    """« 12 bleu »"""
    return f"{FACE_VALUE[face]} {COLOUR_NAMES[FACE_COLOUR[face]]}"
