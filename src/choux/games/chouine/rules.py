"""The rules of Chouine as small pure functions over int cards (see cards.py).

Each function is named after the rule it decides, so that a reader (and a test) finds it:
`trick_winner`, `phase_two_legal_cards`, `can_exchange_seven`, `declarations`,
`first_dealer`, `partie_winner`, `chouine_winner`, `drawing_order`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, cast

from choux.games.chouine.cards import KING, QUEEN, SEVEN, TEN, card
from choux.games.chouine.variants import SuitCombo, Variant

#: bit masks over the 32 cards: the king and queen of each suit, every brisque
KQ_MASKS: Final = tuple((1 << card(KING, s)) | (1 << card(QUEEN, s)) for s in range(4))
BRISQUE_MASK: Final = sum(1 << c for c in range(32) if c & 7 >= TEN)
#: the eight cards of each suit
SUIT_MASKS: Final = tuple(0xFF << (8 * s) for s in range(4))
QUEEN_BITS: Final = sum(1 << card(QUEEN, s) for s in range(4))
#: queen bits of the suits in a 4-bit mask of declared suits
DECLARED_QUEENS: Final = tuple(
    sum(1 << card(QUEEN, s) for s in range(4) if m >> s & 1) for m in range(16)
)


def hand_mask(hand: Sequence[int]) -> int:
    """The hand as a 32-bit set."""
    mask = 0
    if isinstance(hand, list):  # a loop over a list, not the generic iteration, compiled
        cards = cast(list[int], hand)
        for c in cards:
            mask |= 1 << c
        return mask
    for c in hand:
        mask |= 1 << c
    return mask


def may_declare(mask: int, variant: Variant, declared_suits: int, brisque_used: bool) -> bool:
    """Cheap test before `declarations`: a king-queen pair in an undeclared suit (every suit
    combination holds one), or enough brisques for Cinquante, Quinte or Trente."""
    if mask & (mask >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[declared_suits]:
        return True
    return not brisque_used and brisque_count(mask) >= variant.brisque_combo.size


def brisque_count(mask: int) -> int:
    """How many brisques a hand (bit set) holds; no int method call (slow once compiled)."""
    brisques = mask & BRISQUE_MASK
    count = 0
    while brisques:
        brisques &= brisques - 1
        count += 1
    return count


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index in the trick of its winner: the highest trump, else the highest of the led suit.

    >>> from choux.games.chouine.cards import parse_all, HEARTS
    >>> trick_winner(parse_all("AS 7H"), HEARTS)
    1
    >>> trick_winner(parse_all("9S AD TS"), HEARTS)
    2
    """
    best = 0
    top = cards[0]
    for index in range(1, len(cards)):
        c = cards[index]
        if (c >> 3 == top >> 3 and c > top) or (c >> 3 == trump and top >> 3 != trump):
            best, top = index, c
    return best


def phase_two_legal_cards(hand: Sequence[int], trick: Sequence[int], trump: int) -> list[int]:
    """Cards a player may play once the talon is empty (see `phase_two_legal_mask`), in
    the order of `hand`.

    >>> from choux.games.chouine.cards import parse_all, HEARTS, codes
    >>> codes(phase_two_legal_cards(parse_all("9H KH 7S"), parse_all("JH"), HEARTS))
    ['KH']
    """
    if not trick:
        return list(hand)
    legal = phase_two_legal_mask(hand_mask(hand), trick, trump)
    return [c for c in hand if legal >> c & 1]


def phase_two_legal_mask(mask: int, trick: Sequence[int], trump: int) -> int:
    """The rule of phase 2, over a hand as a bit set (`hand_mask`): the legal cards.

    Follow the led suit if you can; when trump is led, beat the highest trump of the trick
    if you can. Unable to follow: trump if you can (any trump: no need to over-trump an
    earlier trump). Otherwise anything.
    """
    if not trick:
        return mask
    led = trick[0] >> 3
    follow = mask & SUIT_MASKS[led]
    if follow:
        if led == trump:
            top = 0
            for c in trick:
                if c >> 3 == trump and c > top:
                    top = c
            higher = follow >> (top + 1) << (top + 1)  # the cards above `top`
            if higher:
                return higher
        return follow
    trumps = mask & SUIT_MASKS[trump]
    return trumps if trumps else mask


def phase_one(talon_size: int, players: int) -> bool:
    """Phase 1 lasts while everyone can still draw after the trick (3 players: 2 cards stay)."""
    return talon_size >= players


def can_exchange_seven(
    hand: Sequence[int], trump: int, talon_size: int, players: int, last_call: bool
) -> bool:
    """The holder of the trump seven may swap it for the turned-up card during phase 1, while
    the talon (turned-up card included) holds more than 2 cards; with the Lavardin last
    call ("au sept"), still when exactly 2 remain."""
    if card(SEVEN, trump) not in hand or not phase_one(talon_size, players):
        return False
    return talon_size > 2 or (last_call and talon_size == 2)


def drawing_order(winner: int, players: int) -> tuple[int, ...]:
    """The trick's winner draws first, then the others in playing order."""
    return DRAWING_ORDERS[players][winner]


#: drawing orders by number of players and winner, computed once
DRAWING_ORDERS: Final = {
    n: tuple(tuple((w + i) % n for i in range(n)) for w in range(n)) for n in (2, 3, 4)
}


ComboCards = tuple[tuple[tuple[SuitCombo, tuple[int, ...], int], ...], ...]
#: `combo_cards` by the variant's id (with the variant, kept alive): hashing a frozen
#: Variant walks all its fields, and `declarations` asks at many moves of every playout
_COMBO_CARDS: dict[int, tuple[Variant, ComboCards]] = {}
#: the last variant asked for and its combinations (no `id()` call, no dict lookup)
_LAST_COMBOS: Final[list[tuple[Variant, ComboCards]]] = []


def combo_cards(variant: Variant) -> ComboCards:
    """Per suit, each suit combination of the variant with its cards and their bit mask."""
    if _LAST_COMBOS and _LAST_COMBOS[0][0] is variant:  # a playout asks for one variant
        return _LAST_COMBOS[0][1]
    known = _COMBO_CARDS.get(id(variant))
    if known is not None and known[0] is variant:
        combos = known[1]
    else:
        combos = _combo_cards(variant)
        _COMBO_CARDS[id(variant)] = (variant, combos)
    _LAST_COMBOS[:] = [(variant, combos)]
    return combos


@functools.cache
def _combo_cards(variant: Variant) -> ComboCards:
    return tuple(
        tuple(
            (combo, cards, hand_mask(cards))
            for combo in variant.suit_combos
            for cards in [tuple(sorted(card(r, suit) for r in combo.ranks))]
        )
        for suit in range(4)
    )


def declarations(
    hand: Sequence[int],
    playable: Sequence[int],
    variant: Variant,
    trump: int,
    declared_suits: int,
    brisque_used: bool,
) -> list[tuple[int, str, tuple[int, ...], int]]:
    """Every (card to play, kind, cards shown, points) the player may declare now.

    A combination is declared just before playing one of its cards while holding all of
    them; one combination per suit and per partie (`declared_suits` is a bit mask), the
    brisque combination (Cinquante, Quinte, Trente) once per partie. A Chouine scores 0: it
    wins the partie.
    """
    mask = hand_mask(hand)
    combo_b = variant.brisque_combo
    brisques_ok = not brisque_used and brisque_count(mask) >= combo_b.size
    pairs = mask & (mask >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[declared_suits]
    if not pairs and not brisques_ok:
        return []  # the common case, kept cheap for random playouts
    found: list[tuple[int, str, tuple[int, ...], int]] = []
    for suit in range(4):
        if not pairs >> (suit * 8 + QUEEN) & 1:  # no king-queen pair left to declare
            continue
        for combo, cards, combo_mask in combo_cards(variant)[suit]:
            if mask & combo_mask == combo_mask:
                points = combo.trump_points if suit == trump else combo.points
                for c in playable:
                    if combo_mask >> c & 1:
                        found.append((c, combo.kind, cards, points))
    if brisques_ok:
        brisques = sorted(c for c in hand if c & 7 >= TEN)
        for c in playable:
            if c & 7 >= TEN:
                others = [b for b in brisques if b != c][: combo_b.size - 1]
                shown = tuple(sorted([c, *others]))
                found.append((c, combo_b.kind, shown, combo_b.points))
    return found


def first_dealer(draws: Sequence[tuple[int, int]]) -> tuple[int | None, list[int]]:
    """From (seat, card) draws: the dealer (lowest rank), or None and the seats that tied
    for the lowest rank and must draw again.

    >>> from choux.games.chouine.cards import parse_all
    >>> first_dealer(list(enumerate(parse_all("AS 7H"))))
    (1, [1])
    >>> first_dealer(list(enumerate(parse_all("9S 9H KD"))))
    (None, [0, 1])
    """
    low = 8  # the lowest rank drawn (a loop: a generator costs more once compiled)
    for _, c in draws:
        if c & 7 < low:
            low = c & 7
    tied = [seat for seat, c in draws if c & 7 == low]
    return (tied[0] if len(tied) == 1 else None), tied


def partie_winner(totals: Sequence[int]) -> int | None:
    """The seat with the highest total, None when the best total is shared (replay)."""
    best = totals[0]
    leader: int | None = 0
    for seat in range(1, len(totals)):
        total = totals[seat]
        if total > best:
            best, leader = total, seat
        elif total == best:
            leader = None
    return leader


def chouine_winner(chouines: Sequence[tuple[int, int]], trump: int) -> int:
    """Of the Chouines declared in one trick, in playing order as (seat, suit): the trump
    one wins, else the first declared (the leader's)."""
    for seat, suit in chouines:
        if suit == trump:
            return seat
    return chouines[0][0]
