"""Exact play once the talon is empty (two players): every card is known, so the rest of
the partie is a small game of perfect information, solved here by alpha-beta with a
transposition table.

A position is a handful of ints: the hand of the player to move and of the other (32-bit
masks), their declaration flags (bits 0-3: suits already declared, bit 4: the brisque
combination used) and the card led in the current trick (-1 at a trick's start; +32 when
it was played with a Chouine). The value is the point margin of the rest of the partie
for the player to move: cards won, 10 for the last trick, declarations still possible,
and a Chouine as a win (``WIN``, beyond any margin).

Declaring is free once everything is known and holdings only shrink in phase 2, so a
player playing a card of a combination it may declare declares the best one (a Chouine
first): `declaration_points`. The test suite checks the solver against a brute force
over the engine's own legal actions, declarations included.

>>> from choux.games.chouine.testing import arrange
>>> state = arrange(2, hands=["AS 7H", "TS 8H"], trump="H", talon="")
>>> solve(state)[0]  # seat 0 wins both tricks: 11 + 10 + 10 for the last
31
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from choux.engine.base import Action
from choux.games.chouine.actions import PLAIN, Play
from choux.games.chouine.cards import CODES, LAST_TRICK_BONUS, POINTS
from choux.games.chouine.rules import BRISQUE_MASK, DECLARED_QUEENS, QUEEN_BITS
from choux.games.chouine.state import PLAY, ChouineState
from choux.games.chouine.variants import Variant

#: a Chouine decides the partie whatever the points: worth more than any margin
WIN = 1000
#: entries kept in a transposition table before it is cleared (memory: about 150 bytes each)
TABLE_LIMIT = 150_000
CHOUINE_LED = 32  # added to the led card when the leader declared a Chouine
BRISQUE_USED = 16  # flag bit: the brisque combination (Cinquante, Quinte) was declared

SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
#: cards of the same suit stronger than each card
ABOVE = tuple(((0xFF << (8 * (c >> 3))) & ~((2 << c) - 1)) & 0xFFFFFFFF for c in range(32))


@dataclass(frozen=True, slots=True)
class Combos:
    """The declarations of one variant and trump, as masks: per suit, the Chouine's mask
    and the scoring combinations (mask, points), best first."""

    chouine: tuple[int, ...]
    scoring: tuple[tuple[tuple[int, int], ...], ...]
    brisque_size: int
    brisque_points: int


@functools.cache
def combos_for(variant: Variant, trump: int) -> Combos:
    chouine = []
    scoring = []
    for suit in range(4):
        found = []
        for combo in variant.suit_combos:
            mask = sum(1 << (8 * suit + r) for r in combo.ranks)
            if combo.wins_partie:
                chouine.append(mask)
            else:
                found.append((mask, combo.trump_points if suit == trump else combo.points))
        found.sort(key=lambda item: -item[1])
        scoring.append(tuple(found))
    brisque = variant.brisque_combo
    return Combos(tuple(chouine), tuple(scoring), brisque.size, brisque.points)


def declaration_points(hand: int, flags: int, c: int, combos: Combos) -> tuple[int, int]:
    """(points, new flags) of the best declaration made when playing `c` from `hand`;
    points are ``WIN`` for a Chouine, 0 when nothing can be declared."""
    suit = c >> 3
    best = 0
    new_flags = flags
    if not flags >> suit & 1:
        chouine = combos.chouine[suit]
        if hand & chouine == chouine and chouine >> c & 1:
            return WIN, flags | (1 << suit)
        for mask, points in combos.scoring[suit]:
            if hand & mask == mask and mask >> c & 1:
                best, new_flags = points, flags | (1 << suit)
                break
    if (
        not flags & BRISQUE_USED
        and BRISQUE_MASK >> c & 1
        and (hand & BRISQUE_MASK).bit_count() >= combos.brisque_size
        and combos.brisque_points > best
    ):
        return combos.brisque_points, flags | BRISQUE_USED
    return best, new_flags


def _may_declare(hand: int, flags: int, combos: Combos) -> bool:
    """Cheap test first: a king-queen pair in an undeclared suit, or enough brisques."""
    if hand & (hand >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[flags & 15]:
        return True
    return not flags & BRISQUE_USED and (hand & BRISQUE_MASK).bit_count() >= combos.brisque_size


def follow_mask(hand: int, led: int, trump: int) -> int:
    """Phase-2 obligations as masks: follow (over a trump lead, beat it if you can), else
    trump, else anything."""
    suit = led >> 3
    follow = hand & SUIT_MASKS[suit]
    if follow:
        if suit == trump:
            higher = follow & ABOVE[led]
            return higher or follow
        return follow
    return hand & SUIT_MASKS[trump] or hand


def _bits(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


#: cards of a mask, cached by mask (hands of phase 2 are few: at most 5 cards)
_BITS: dict[int, list[int]] = {}


def bits(mask: int) -> list[int]:
    found = _BITS.get(mask)
    if found is None:
        if len(_BITS) > 50_000:
            _BITS.clear()
        found = _BITS[mask] = _bits(mask)
    return found


def _shift(bound: int, points: int) -> int:
    """A search bound seen from a child whose value adds `points`; a Chouine's ``±WIN``
    (and beyond) is the same for everyone and adds nothing."""
    return bound if bound >= WIN or bound <= -WIN else bound - points


class Solver:
    """Alpha-beta over (mover's hand, other's hand, flags, led card) for one variant and
    trump; its transposition table survives between calls (positions repeat inside a
    partie and across the search's worlds)."""

    def __init__(self, variant: Variant, trump: int) -> None:
        self.trump = trump
        self.combos = combos_for(variant, trump)
        self.table: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self._orders: dict[int, list[int]] = {}
        # `_may_declare`'s brisque test, inlined in the search
        self._brisques = combos_for(variant, trump).brisque_size

    def value(self, mine: int, other: int, my_flags: int, other_flags: int, led: int) -> int:
        """Exact margin of the rest of the partie for the player to move."""
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        return self._search(mine, other, my_flags, other_flags, led, -WIN - 1, WIN + 1)

    def exceeds(
        self, mine: int, other: int, my_flags: int, other_flags: int, led: int, threshold: int
    ) -> bool:
        """Whether the mover's exact margin is above `threshold`: one null-window search,
        much cheaper than the exact value (what a rollout needs to know who wins)."""
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        value = self._search(mine, other, my_flags, other_flags, led, threshold, threshold + 1)
        return value > threshold

    def _search(self, a: int, b: int, fa: int, fb: int, led: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        key = a | b << 32 | fa << 64 | fb << 69 | (led + 1) << 74
        entry = self.table.get(key)
        if entry is not None:
            low, high = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            alpha = max(alpha, low)
            beta = min(beta, high)
        start_alpha = alpha
        combos = self.combos
        best = -WIN - 1
        if led < 0:
            # the mover leads: for each card, the other answers
            may = bool(a & (a >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[fa & 15]) or (
                not fa & BRISQUE_USED and (a & BRISQUE_MASK).bit_count() >= self._brisques
            )
            for c in self._lead_order(a):
                points, flags = declaration_points(a, fa, c, combos) if may else (0, fa)
                if points == WIN:
                    child = c + CHOUINE_LED
                    points = 0
                else:
                    child = c
                if points:
                    low = -(beta if beta >= WIN or beta <= -WIN else beta - points)
                    high = -(alpha if alpha >= WIN or alpha <= -WIN else alpha - points)
                else:
                    low, high = -beta, -alpha
                reply = self._search(b, a & ~(1 << c), fb, flags, child, low, high)
                value = -reply if reply >= WIN or reply <= -WIN else points - reply
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        else:
            best = self._answer(a, b, fa, fb, led, alpha, beta)
        if best <= start_alpha:
            self.table[key] = (entry[0] if entry else -WIN - 1, best)
        elif best >= beta:
            self.table[key] = (best, entry[1] if entry else WIN + 1)
        else:
            self.table[key] = (best, best)
        return best

    def _answer(self, a: int, b: int, fa: int, fb: int, led: int, alpha: int, beta: int) -> int:
        """The mover answers `led`; `b` is the leader's hand after its card."""
        trump = self.trump
        combos = self.combos
        chouine_led = led >= CHOUINE_LED
        c = led - CHOUINE_LED if chouine_led else led
        legal = follow_mask(a, c, trump)
        if chouine_led:
            # only a trump Chouine answering a plain one wins; anything else loses
            if c >> 3 != trump:
                for d in bits(legal & SUIT_MASKS[trump]):
                    if declaration_points(a, fa, d, combos)[0] == WIN:
                        return WIN
            return -WIN
        best = -WIN - 1
        c_suit = c >> 3
        may = bool(a & (a >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[fa & 15]) or (
            not fa & BRISQUE_USED and (a & BRISQUE_MASK).bit_count() >= self._brisques
        )
        cards = _BITS.get(legal)
        if cards is None:
            cards = bits(legal)
        for d in cards:
            points, flags = declaration_points(a, fa, d, combos) if may else (0, fa)
            if points == WIN:
                return WIN
            rest = a & ~(1 << d)
            gained = POINTS[c] + POINTS[d]
            if not rest:
                gained += LAST_TRICK_BONUS
            d_suit = d >> 3
            if (d_suit == c_suit and d > c) or (d_suit == trump and c_suit != trump):
                value = points + gained
                if rest:
                    more = self._search(
                        rest,
                        b,
                        flags,
                        fb,
                        -1,
                        alpha if alpha >= WIN or alpha <= -WIN else alpha - value,
                        beta if beta >= WIN or beta <= -WIN else beta - value,
                    )
                    value = more if more >= WIN or more <= -WIN else value + more
            else:
                value = points - gained
                if rest:
                    more = self._search(
                        b,
                        rest,
                        fb,
                        flags,
                        -1,
                        -(beta if beta >= WIN or beta <= -WIN else beta - value),
                        -(alpha if alpha >= WIN or alpha <= -WIN else alpha - value),
                    )
                    value = -more if more >= WIN or more <= -WIN else value - more
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def _lead_order(self, hand: int) -> list[int]:
        """Leads to try first: trumps and brisques (they tend to decide), high cards first
        (cached by hand: read it, never change it)."""
        cards = self._orders.get(hand)
        if cards is None:
            cards = bits(hand)
            if len(cards) > 2:
                trump = self.trump
                cards = sorted(cards, key=lambda c: -((c >> 3 == trump) * 16 + (c & 7)))
            if len(self._orders) > 50_000:
                self._orders.clear()
            self._orders[hand] = cards
        return cards


@functools.cache
def _solver(variant: Variant, trump: int) -> Solver:
    return Solver(variant, trump)


def solver_for(state: ChouineState) -> Solver:
    return _solver(state.variant, state.trump)


def applies(state: ChouineState) -> bool:
    """The solver decides: two players, partie in play, talon empty."""
    return state.n == 2 and state.stage == PLAY and not state.talon


def flags_of(state: ChouineState, seat: int) -> int:
    return state.declared_suits[seat] | (BRISQUE_USED if state.brisque_used[seat] else 0)


def _chouine_in_trick(state: ChouineState) -> bool:
    return bool(state.chouines)


def solve(state: ChouineState) -> tuple[int, Action]:
    """The exact margin of the rest of the partie for the seat to play, and a best move
    (declaring the best combination of the card played)."""
    assert applies(state)
    seat = state.turn
    other = 1 - seat
    solver = solver_for(state)
    mine, theirs = state.mask(seat), state.mask(other)
    fa, fb = flags_of(state, seat), flags_of(state, other)
    combos = solver.combos
    best_value = -WIN - 1
    best_card = -1
    if len(solver.table) > TABLE_LIMIT:
        solver.table.clear()
    # each candidate is searched only above the best value found so far: a worse one fails
    # low at once (values above that bound are exact, the window is open above)
    if not state.trick:
        for c in solver._lead_order(mine):
            points, flags = declaration_points(mine, fa, c, combos)
            child = c + CHOUINE_LED if points == WIN else c
            points = 0 if points == WIN else points
            low, high = -_shift(WIN + 1, points), -_shift(best_value, points)
            reply = solver._search(theirs, mine & ~(1 << c), fb, flags, child, low, high)
            value = -reply if abs(reply) >= WIN else points - reply
            if value > best_value or best_card < 0:
                best_value, best_card = max(value, best_value), c
    else:
        led = state.trick[0] + (CHOUINE_LED if _chouine_in_trick(state) else 0)
        c = state.trick[0]
        for d in bits(follow_mask(mine, c, state.trump)):
            # one-card answer: search the position as if only `d` were playable
            value = _answer_with(solver, mine, theirs, fa, fb, led, d, best_value)
            if value > best_value or best_card < 0:
                best_value, best_card = max(value, best_value), d
    return best_value, _action(state, seat, best_card)


def _answer_with(
    solver: Solver, a: int, b: int, fa: int, fb: int, led: int, d: int, floor: int
) -> int:
    """The value of answering `led` with `d` (the solver's answer restricted to one card),
    exact when above `floor`, else some value at most `floor`."""
    combos = solver.combos
    trump = solver.trump
    chouine_led = led >= CHOUINE_LED
    c = led - CHOUINE_LED if chouine_led else led
    points, flags = declaration_points(a, fa, d, combos)
    if chouine_led:
        won = points == WIN and d >> 3 == trump and c >> 3 != trump
        return WIN if won else -WIN
    if points == WIN:
        return WIN
    rest = a & ~(1 << d)
    gained = POINTS[c] + POINTS[d] + (0 if rest else LAST_TRICK_BONUS)
    top = WIN + 1
    if ((d >> 3) == (c >> 3) and d > c) or (d >> 3 == trump and c >> 3 != trump):
        base = points + gained
        if not rest:
            return base
        more = solver._search(rest, b, flags, fb, -1, _shift(floor, base), _shift(top, base))
        return more if abs(more) >= WIN else base + more
    base = points - gained
    if not rest:
        return base
    more = solver._search(b, rest, fb, flags, -1, -_shift(top, base), -_shift(floor, base))
    return -more if abs(more) >= WIN else base - more


def _action(state: ChouineState, seat: int, c: int) -> Action:
    """Play `c`, declaring the best combination the solver counted for it."""
    points, _ = declaration_points(
        state.mask(seat), flags_of(state, seat), c, solver_for(state).combos
    )
    if points == WIN or (points and not state.chouines):  # after a Chouine: only a Chouine
        options = state.declarations_for(seat, [c])
        if options:
            if points == WIN:
                return Play(CODES[c], "chouine")
            kind = max(options, key=lambda d: d[3])[1]
            return Play(CODES[c], kind)
    return PLAIN[c]


def _points_ahead(state: ChouineState, seat: int) -> int:
    """What `seat` has already won and declared, minus what the other seat has."""
    other = 1 - seat
    return (
        state.card_points[seat]
        + state.decl_points[seat]
        - state.card_points[other]
        - state.decl_points[other]
    )


def _position(state: ChouineState) -> tuple[int, int, int, int, int]:
    """The solver's arguments for the position, seen from the seat to move: its hand, the
    other hand, their declaration flags, and the led card (-1 when leading)."""
    mover = state.turn
    other = 1 - mover
    led = -1
    if state.trick:
        led = state.trick[0] + (CHOUINE_LED if state.chouines else 0)
    return (
        state.mask(mover),
        state.mask(other),
        flags_of(state, mover),
        flags_of(state, other),
        led,
    )


def wins(state: ChouineState, seat: int) -> bool:
    """Whether `seat` wins the partie under perfect play from here (a tie is no win)."""
    assert applies(state)
    solver = solver_for(state)
    margin = _points_ahead(state, state.turn)
    if state.turn == seat:  # the rest must beat -margin
        return solver.exceeds(*_position(state), -margin)
    # seat wins when the mover's rest stays below -margin... of the mover: rest < margin'
    # with margin' the mover's deficit: mover wins iff rest > -margin; seat wins iff
    # rest < -margin, i.e. not (rest > -margin - 1)
    return not solver.exceeds(*_position(state), -margin - 1)


def clamped_margin(state: ChouineState, seat: int, cap: int) -> int:
    """The final margin for `seat` clamped to [-cap, cap] (a Chouine gives ±cap): a
    search in that window only, several times cheaper than the exact margin, and all a
    player needs who cares about winning (and a little about by how much)."""
    assert applies(state)
    solver = solver_for(state)
    margin = _points_ahead(state, state.turn)
    if len(solver.table) > TABLE_LIMIT:
        solver.table.clear()
    rest = solver._search(*_position(state), -margin - cap, -margin + cap)
    final = max(-cap, min(cap, rest if abs(rest) >= WIN else margin + rest))
    return final if state.turn == seat else -final


def final_margin(state: ChouineState, seat: int) -> int:
    """Exact final margin of the partie for `seat` (``±WIN`` when a Chouine decides),
    counting what is already won and declared."""
    value, _ = solve(state)
    if abs(value) >= WIN:
        return value if state.turn == seat else -value
    return _points_ahead(state, seat) + (value if state.turn == seat else -value)


__all__ = [
    "WIN",
    "Solver",
    "applies",
    "clamped_margin",
    "declaration_points",
    "final_margin",
    "solve",
    "wins",
]
