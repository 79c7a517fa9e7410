"""The state machine of a Chouine match: deals, tricks, declarations, parties and manches.

Cards are ints inside (see cards.py) and codes like "AH" in views, actions and records.
A match is a sequence of parties (one deal each); between two parties the state pauses in
stage "between" (no actor; the table clock's `NextDeal` deals the next one), so that the
table can show the result.

View keys (``view(seat)``, JSON-ready; seat None is a spectator)
-----------------------------------------------------------------
- ``game`` "chouine"; ``preset`` "classique"|"lavardin"; ``preset_title`` (French);
  ``players`` (2-4); ``seat`` (the viewer, or None)
- ``stage``: "play" (a partie is being played), "between" (pause showing the result of the
  last partie), "over" (match finished, see ``outcome``)
- ``phase``: 1 (talon open: free play) or 2 (talon closed: follow, trump, over-trump)
- ``dealer``, ``leader`` (seat who led the current trick), ``turn`` (seat to act or None),
  ``actors`` (list of seats)
- ``trump`` suit letter "S"|"H"|"D"|"C", ``trump_name`` ("cœur"), ``trump_symbol`` ("♥")
- ``turned_up``: code of the turned-up card while it lies under the talon, else None
- ``talon``: number of cards left in the talon, turned-up card included
- ``hand``: the viewer's cards (codes, sorted by suit then strength); [] for spectators
- ``hand_sizes``: cards in hand per seat
- ``shown``: per seat, the codes known to be in that hand (declared cards not yet played,
  the turned-up card taken by the seven exchange or drawn last, the seven drawn last after
  an exchange); one's own list too
- ``trick``: the current trick, ``[{"seat": s, "card": code}]`` in playing order
- ``last_trick``: ``{"cards": [{"seat", "card"}], "winner": s}`` or None (current partie)
- ``won_cards``: the viewer's own won cards this partie (never the others')
- ``tricks_won``: number of tricks won per seat
- ``declarations``: ``[{"seat", "kind", "name", "suit" (letter or None), "cards": [codes],
  "points"}]`` of the current partie, in order
- ``declared_points`` per seat (public); ``card_points`` and ``points`` (cards +
  declarations) per seat: the viewer's own always, the others' only with the option
  "scores visibles", else None
- ``au_sept``: True once the Lavardin last call for the trump seven has been made
- ``partie_wins`` (current manche), ``total_partie_wins`` (match), ``manche_wins`` per seat;
  ``deal_number`` (deals so far, replays included), ``manche_number``,
  ``partie_number`` (in the manche; a replayed tie keeps its number),
  ``parties_per_manche``, ``manches_to_win``; ``belle``: the partie being played decides
  the manche; ``belle_manche``: the manche being played decides the match
- ``scores_visibles``: the table option
- ``last_result``: the previous partie's result or None: ``{"totals", "card_points",
  "declared_points", "last_trick_winner", "winner" (None: replayed), "chouine" (seat or
  None), "text" (French, ``{p0}`` placeholders)}``
- ``dealer_draw``: the draw for the first dealer, rounds of ``[{"seat", "card_name"}]``
- ``legal``: ``[{"action": json, "label": French}]`` for the viewer ([] otherwise)
- ``outcome``: ``Outcome.to_json()`` once the match is over, else None

Chance log (``state.chance``, copied into game records)
------------------------------------------------------
- ``{"draw": [[seat, code], ...]}``: one round of the draw for the first dealer (the lowest
  rank deals; the seats tied for the lowest draw again in a new round);
- ``{"deal": [32 codes], "dealer": seat}``: one partie's deck, top card first. Cards go one
  by one to the seats after the dealer (5 each at two players, 3 at three or four), the next
  card is turned up (its suit is trump), the following ones are drawn in order and the
  turned-up card last.

Event kinds (``Event.kind``; texts are French with ``{p0}`` placeholders)
-------------------------------------------------------------------------
"deal" (data ``turned_up``), "play" (data ``card``), "declare" (data ``kind``, ``cards``,
``points``), "exchange" (data ``taken``, ``given``), "trick", "draw", "phase" (the talon
is closed), "au_sept", "dix_de_der", "partie" (data ``totals``), "manche", "match".
"""

from __future__ import annotations

import functools
import random
import sys
from typing import Any, Final, cast

from choux.engine.base import (
    JSON,
    Action,
    Deadline,
    Event,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    Seat,
    State,
    WindowClosed,
    copy_rng,
    rng_fingerprint,
)
from choux.engine.french import points_text
from choux.games.chouine.actions import (
    ACTIONS,
    DECLARE_KINDS,
    EXCHANGE_ID,
    KIND_INDEX,
    NEXT_DEAL,
    NEXT_DEAL_ID,
    Exchange,
    NextDeal,
    Play,
)
from choux.games.chouine.cards import (
    CODE_INDEX,
    CODES,
    DECK,
    KING,
    LAST_TRICK_BONUS,
    NAMES,
    POINTS,
    QUEEN,
    SEVEN,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card,
    codes,
    new_rng,
    shuffle,
)
from choux.games.chouine.rules import (
    DECLARED_QUEENS,
    QUEEN_BITS,
    brisque_count,
    can_exchange_seven,
    chouine_winner,
    declarations,
    first_dealer,
    hand_mask,
    may_declare,
    partie_winner,
    phase_two_legal_cards,
    phase_two_legal_mask,
    trick_winner,
)
from choux.games.chouine.variants import DECLARATION_NAMES, Variant
from choux.games.chouine.view_types import ChouineBoard, LastTrick, PlayedCard

PLAY: Final = "play"
BETWEEN: Final = "between"
OVER: Final = "over"
CHOUINE: Final = "chouine"
#: after a Chouine the trick is only finished: its card, or a Chouine of one's own
AFTER_CHOUINE: Final = (
    "Une Chouine a été annoncée : on finit seulement le pli "
    "(jouez votre carte, ou annoncez votre propre Chouine)."
)
PAUSE_SECONDS: Final = 6.0
#: see `ChouineState.__init__` (3.12 and later handle a NULL instance dict themselves)
_EMPTY_DICT: Final = sys.version_info < (3, 12)
#: determinization: a card a seat probably lacks (see `_infer`) weighs 1/UNLIKELY_POWER
UNLIKELY_POWER: Final = 4

DRAW_EVENT: Final = Event("draw", "Chacun pioche dans le talon, le gagnant du pli d'abord.")
PHASE_EVENT: Final = Event("phase", "Le talon est épuisé : on fournit, on coupe, on monte.")


#: events are immutable: the common ones are built once (playouts create millions)
PLAY_EVENTS: Final = tuple(
    tuple(Event("play", f"{{p{seat}}} : {NAMES[c]}.", seat, {"card": CODES[c]}) for c in DECK)
    for seat in range(4)
)


@functools.cache
def trick_event(winner: Seat, gained: int | None) -> Event:
    """The log's line for a trick; `gained` None when the scores are hidden: the points of
    every trick would add up, line by line, to the opponent's hidden score (the rules say
    to count in one's head, never to look at the others' tricks)."""
    if gained is None:
        return Event("trick", f"{{p{winner}}} : pli remporté.", winner)
    return Event("trick", f"{{p{winner}}} : pli remporté ({points_text(gained)}).", winner)


def _of(name: str) -> str:
    """French "de" before a combination's name: "d'un mariage", "de la Chouine"."""
    return "d'" + name if name.startswith("un") else "de " + name


Declaration = tuple[int, str, int, tuple[int, ...], int]  # seat, kind, suit|-1, cards, points
#: totals, card points, declared points, last trick's winner, winner, Chouine's winner
PartieResult = tuple[list[int], list[int], list[int], int | None, int | None, int | None]


def result_text(totals: list[int], winner: int | None, chouine: int | None) -> tuple[str, str]:
    """The reason ("chouine", "egalite", "points") and the French text of a partie's end."""
    if chouine is not None:
        text = f"{{p{chouine}}} gagne la partie par la Chouine, quels que soient les points."
        return CHOUINE, text
    if winner is None:
        return "egalite", "Égalité : la partie est rejouée."
    return "points", f"{{p{winner}}} : partie gagnée avec {points_text(totals[winner])}."


def won_count(head: str, unit: str, wins: list[int]) -> str:
    """The end of a match as a score, from the first to the last, without names.

    >>> won_count("Manche terminée", "partie", [2, 0])
    'Manche terminée : 2 parties à 0.'
    >>> won_count("Match terminé", "manche", [2, 1, 0])
    'Match terminé : 2 manches, 1 et 0.'
    """
    first = f"{wins[0]} {unit}{'s' if wins[0] > 1 else ''}"
    if len(wins) == 2:
        return f"{head} : {first} à {wins[1]}."
    return f"{head} : {first}, {', '.join(map(str, wins[1:-1]))} et {wins[-1]}."


def _tally(wins: list[int]) -> str:
    """« {p0} 2, {p1} 0 »: a count per seat, each with its player's name."""
    return ", ".join(f"{{p{s}}} {w}" for s, w in enumerate(wins))


class ChouineState(State):
    """A whole match. Internal cards are ints; `talon[0]` is the turned-up card and the
    next card drawn is `talon[-1]`."""

    game_name = "chouine"

    def __init__(
        self, variant: Variant, options: dict[str, JSON], seed: int, *, blank: bool = False
    ) -> None:
        """A new match. `blank`: only an empty shell, which `clone` fills."""
        if _EMPTY_DICT and not blank:
            # first, before any attribute (interpreted, the dict holds them): compiled, the
            # class has an instance-dict slot (its base `State` is interpreted) left NULL,
            # and CPython 3.11 then cannot specialize a method lookup (`state.apply_id`) in
            # interpreted callers (tables, bots, playouts): each one takes the generic path.
            # With an empty dict (every empty dict shares one key table) it specializes.
            object.__setattr__(self, "__dict__", {})
        self.variant = variant
        self.n = n = variant.players
        # per seat (up to 4): the hand as a bit set, the suits it lacks, the cards its play
        # says it did not hold; plain int fields, which mypyc stores unboxed (an int above
        # 256 stored in a list is a new object): see `mask`, `masks`, `voids`, `unlikely`
        self._mask0 = self._mask1 = self._mask2 = self._mask3 = 0
        self._void0 = self._void1 = self._void2 = self._void3 = 0
        self._unlikely0 = self._unlikely1 = self._unlikely2 = self._unlikely3 = 0
        if blank:
            self.options = options
            return
        self.options = dict(options)
        self._rng = new_rng(seed)  # `random.Random(seed)`, cheaper
        self._rng_shared = False
        self._reseed: int | None = None  # determinize: seed of a fresh RNG, made on use
        self.chance: list[JSON] = []
        manches = int(options.get("manches", 0)) or variant.default_manches
        self.manches_to_win = (manches + 1) // 2
        self.parties_per_manche = int(options.get("parties", 3))
        self.scores_visible = bool(options.get("scores_visibles", False))
        self.partie_wins = [0] * n
        self.total_partie_wins = [0] * n
        self.manche_wins = [0] * n
        self.deals = 0
        self.decided = 0  # parties won (not replayed) in the current manche
        self.manche_number = 1
        # the last partie's result as plain values, its dict built when read (`last_result`)
        self._result: PartieResult | None = None
        self._result_dict: dict[str, JSON] | None = None
        self.final: Outcome | None = None  # built when first asked for (`outcome`)
        self.dealer_draw: list[list[tuple[int, int]]] = []
        self.dealer = self._draw_first_dealer()
        self._new_partie_lists()
        self._start_partie()

    @property
    def rng(self) -> random.Random:
        """The deal's RNG, copied on first use after a `clone` (copying a Mersenne Twister
        costs more than the rest of the clone, and most clones never deal again)."""
        if self._rng_shared:
            self._rng = copy_rng(self._rng) if self._reseed is None else random.Random(self._reseed)
            self._rng_shared = False
            self._reseed = None
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False
        self._reseed = None

    # ------------------------------------------------------------------ per-seat bit sets

    def mask(self, seat: Seat) -> int:
        """The hand of `seat` as a 32-bit set (`hand_mask(hands[seat])`)."""
        if seat == 0:
            return self._mask0
        if seat == 1:
            return self._mask1
        return self._mask2 if seat == 2 else self._mask3

    def set_mask(self, seat: Seat, value: int) -> None:
        """Store the bit set of `seat`'s hand (whoever changes `hands[seat]` calls it)."""
        if seat == 0:
            self._mask0 = value
        elif seat == 1:
            self._mask1 = value
        elif seat == 2:
            self._mask2 = value
        else:
            self._mask3 = value

    def void(self, seat: Seat) -> int:
        """The suits (4-bit set) `seat` has shown it lacks in phase 2."""
        if seat == 0:
            return self._void0
        if seat == 1:
            return self._void1
        return self._void2 if seat == 2 else self._void3

    def _set_void(self, seat: Seat, value: int) -> None:
        if seat == 0:
            self._void0 = value
        elif seat == 1:
            self._void1 = value
        elif seat == 2:
            self._void2 = value
        else:
            self._void3 = value

    def unlikely_cards(self, seat: Seat) -> int:
        """The cards (bit set) that `seat`'s public play suggests it did not hold (`_put`)."""
        if seat == 0:
            return self._unlikely0
        if seat == 1:
            return self._unlikely1
        return self._unlikely2 if seat == 2 else self._unlikely3

    def set_unlikely(self, seat: Seat, value: int) -> None:
        if seat == 0:
            self._unlikely0 = value
        elif seat == 1:
            self._unlikely1 = value
        elif seat == 2:
            self._unlikely2 = value
        else:
            self._unlikely3 = value

    @property
    def masks(self) -> tuple[int, ...]:
        """Every seat's `mask`, a copy (a tuple: write with `set_mask`)."""
        return tuple([self.mask(s) for s in range(self.n)])

    @property
    def voids(self) -> tuple[int, ...]:
        """Every seat's `void`, a copy."""
        return tuple([self.void(s) for s in range(self.n)])

    @property
    def unlikely(self) -> tuple[int, ...]:
        """Every seat's `unlikely_cards`, a copy (a tuple: write with `set_unlikely`)."""
        return tuple([self.unlikely_cards(s) for s in range(self.n)])

    @property
    def last_trick(self) -> tuple[list[int], list[int], int] | None:
        """The last trick of the partie as (seats, cards, winner), a copy; None before it."""
        if self._last_winner < 0:
            return None
        n, leader = self.n, self._last_leader
        seats = [(leader + i) % n for i in range(len(self._last_cards))]
        return (seats, self._last_cards[:], self._last_winner)

    @property
    def trick_seats(self) -> list[int]:
        """The seats of the current trick's cards, in playing order: play goes round the
        table from `leader` (a new list; nothing stores it, see `_put`)."""
        n, leader = self.n, self.leader
        return [(leader + i) % n for i in range(len(self.trick))]

    # ------------------------------------------------------------------ dealing

    def _draw_first_dealer(self) -> int:
        """Each player draws a card from the spread deck; the lowest deals, ties draw again."""
        contenders = list(range(self.n))
        while True:
            deck = list(DECK)
            shuffle(deck, self.rng)
            draws = [(s, deck[i]) for i, s in enumerate(contenders)]
            self.chance.append({"draw": [[s, CODES[c]] for s, c in draws]})
            self.dealer_draw.append(draws)
            dealer, tied = first_dealer(draws)
            if dealer is not None:
                return dealer
            contenders = tied

    def _start_partie(self) -> None:
        deck = list(DECK)
        shuffle(deck, self.rng)
        # the codes by a loop over the list (`codes` takes any iterable: slower compiled)
        self.chance.append({"deal": [CODES[c] for c in deck], "dealer": self.dealer})
        self.lay_out(deck)

    def _new_partie_lists(self) -> None:
        """The lists of a partie, made once a match: `lay_out` empties them in place (a
        clone copies every one of them, so none is shared)."""
        n = self.n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.talon: list[int] = []
        self.trick: list[int] = []
        # the last trick of the partie (see `last_trick`); its lists become the next
        # trick's once that one is over (no new list a trick)
        self._last_cards: list[int] = []
        self._last_leader = 0
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.card_points = [0] * n
        self.decl_points = [0] * n
        self.declared_suits = [0] * n
        self.brisque_used = [False] * n
        self.shown: list[list[int]] = [[] for _ in range(n)]
        self.declarations: list[Declaration] = []
        self.chouines: list[tuple[int, int]] = []

    def lay_out(self, deck: list[int]) -> None:
        """Deal `deck` (top first): cards one by one from the dealer's left, the next card
        turned up as trump, the rest as the talon (`deck` itself becomes the talon).
        Resets everything of the partie."""
        n = self.n
        dealt = self.variant.hand_size * n
        first = (self.dealer + 1) % n
        hands = self.hands
        for k in range(n):  # seat first + k gets the cards k, k + n, k + 2n...
            seat = first + k if first + k < n else first + k - n
            hand = hands[seat]
            hand.clear()
            mask = 0
            i = k
            while i < dealt:  # each card inserted in order (no `sort` call for 3-5 cards)
                c = deck[i]
                j = len(hand)
                while j > 0 and hand[j - 1] > c:
                    j -= 1
                hand.insert(j, c)
                mask |= 1 << c
                i += n
            self.set_mask(seat, mask)
        turned = deck[dealt]
        self.trump = turned >> 3
        # the talon: the rest of the deck, its last card first, the turned-up card under it
        deck.reverse()
        del deck[len(deck) - dealt - 1 :]
        deck.insert(0, turned)
        self.talon = deck
        self.leader = self.turn = first
        self.trick.clear()
        self._last_cards.clear()
        self._last_winner = -1
        tricks_won, card_points, decl_points = self.tricks_won, self.card_points, self.decl_points
        declared_suits, brisque_used = self.declared_suits, self.brisque_used
        won, shown = self.won, self.shown
        for s in range(n):
            tricks_won[s] = 0
            card_points[s] = 0
            decl_points[s] = 0
            declared_suits[s] = 0
            brisque_used[s] = False
            won[s].clear()
            shown[s].clear()
        self.declarations.clear()
        self.chouines.clear()
        self._void0 = self._void1 = self._void2 = self._void3 = 0
        self._unlikely0 = self._unlikely1 = self._unlikely2 = self._unlikely3 = 0
        self.au_sept = False
        self.stage = PLAY
        self.deals += 1

    # ------------------------------------------------------------------ contract: queries

    def actors(self) -> tuple[Seat, ...]:
        return (self.turn,) if self.stage == PLAY else ()

    def phase(self) -> int:
        return 1 if len(self.talon) >= self.n else 2

    def playable_cards(self, seat: Seat) -> list[int]:
        """The cards `seat` may play now (all of its hand but when answering in phase 2)."""
        hand = self.hands[seat]
        if self.trick and len(self.talon) < self.n:
            return phase_two_legal_cards(hand, self.trick, self.trump)
        return hand

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [ACTIONS[i] for i in self.legal_action_ids(seat)]

    # ------------------------------------------------------------------ contract: fast path

    def legal_action_ids(self, seat: Seat) -> list[int]:
        """The legal actions as ints (see actions.py), for search and playouts. When only
        cards may be played this is the playable list itself: read it, never change it
        (it is valid until the next move)."""
        if seat != self.turn or self.stage != PLAY:
            return []
        hand = self.hands[seat]
        talon = len(self.talon)
        mask = self.mask(seat)
        playable = hand
        if self.trick and talon < self.n:
            legal = phase_two_legal_mask(mask, self.trick, self.trump)
            if legal != mask:
                playable = [c for c in hand if legal >> c & 1]
        # `may_declare` and the seven, inlined: this runs at every move of every playout
        if mask & (mask >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[self.declared_suits[seat]] or (
            mask >> (self.trump * 8) & 1 and talon >= 2  # the seven of trumps
        ):
            return self._legal_ids(seat, playable)
        if not self.brisque_used[seat] and brisque_count(mask) >= self.variant.brisque_combo.size:
            return self._legal_ids(seat, playable)
        return playable

    def _legal_ids(self, seat: Seat, playable: list[int]) -> list[int]:
        """The legal ids when a declaration or the seven exchange may be possible: the
        playable cards, then the declarations, then the exchange."""
        ids = playable[:]
        after_chouine = bool(self.chouines)
        for c, kind, _, _ in self.declarations_for(seat, playable):
            if not after_chouine or kind == CHOUINE:
                ids.append(32 * (1 + KIND_INDEX[kind]) + c)
        if after_chouine:
            return ids  # the trick is only finished (see AFTER_CHOUINE)
        hand = self.hands[seat]
        if self.mask(seat) >> (self.trump * 8) & 1 and can_exchange_seven(
            hand, self.trump, len(self.talon), self.n, self.variant.last_call
        ):
            ids.append(EXCHANGE_ID)
        return ids

    def apply_id(self, seat: Seat | None, action: int) -> None:
        """Apply the action of this id without building events: the same rules as `apply`
        (a plain card goes straight to `_put`, a declaration or the exchange to the code
        `apply` calls, anything else through `apply`), the same refusals (IllegalAction,
        state unchanged)."""
        if (
            seat is not None
            and 0 <= action < 32
            and seat == self.turn
            and self.stage == PLAY
            and self.mask(seat) >> action & 1
            and not self.chouines
        ):
            trick = self.trick
            if not trick or len(self.talon) >= self.n:
                self._put(seat, action, False, None)
                return
            if phase_two_legal_mask(self.mask(seat), trick, self.trump) >> action & 1:
                self._put(seat, action, True, None)
                return
        if action == NEXT_DEAL_ID and seat is None and self.stage == BETWEEN:
            self._deal_next()
            return
        if 32 <= action <= EXCHANGE_ID and seat is not None and seat == self.turn:
            if self.stage == PLAY:  # what `apply` checks before `_play` and `_exchange`
                if action == EXCHANGE_ID:
                    self._exchange(seat, None)
                else:
                    self._play(seat, action & 31, DECLARE_KINDS[action // 32 - 1], None)
                return
        if not 0 <= action < len(ACTIONS):
            raise MalformedAction("Ce coup n'existe pas à la Chouine.")
        self.apply(seat, ACTIONS[action])

    def declarations_for(
        self, seat: Seat, playable: list[int]
    ) -> list[tuple[int, str, tuple[int, ...], int]]:
        """(card, kind, cards shown, points) that `seat` may declare with one of `playable`."""
        if not may_declare(
            self.mask(seat), self.variant, self.declared_suits[seat], self.brisque_used[seat]
        ):
            return []
        return declarations(
            self.hands[seat],
            playable,
            self.variant,
            self.trump,
            self.declared_suits[seat],
            self.brisque_used[seat],
        )

    def is_over(self) -> bool:
        return self.stage == OVER

    def outcome(self) -> Outcome | None:
        if self.final is None and self.stage == OVER:
            self.final = self._final_outcome()
        return self.final

    @property
    def last_result(self) -> dict[str, JSON] | None:
        """The previous partie's result (see the view keys), built when first read."""
        if self._result_dict is None and self._result is not None:
            totals, card_points, decl_points, last_winner, winner, chouine = self._result
            reason, text = result_text(totals, winner, chouine)
            self._result_dict = {
                "totals": list(totals),
                "card_points": list(card_points),
                "declared_points": list(decl_points),
                "last_trick_winner": last_winner,
                "winner": winner,
                "chouine": chouine,
                "reason": reason,
                "text": text,
            }
        return self._result_dict

    def deadline(self) -> Deadline | None:
        if self.stage == BETWEEN:
            return Deadline(PAUSE_SECONDS, NEXT_DEAL, None)
        return None

    # ------------------------------------------------------------------ contract: apply

    def apply(self, seat: Seat | None, action: Action) -> list[Event]:
        if self.stage == BETWEEN:
            if seat is None and type(action) is NextDeal:
                return self._next_deal()
            raise NotYourTurn("La partie est finie : la donne suivante arrive.")
        if self.stage == OVER:
            raise WindowClosed("Le match est terminé.")
        if seat is None or seat != self.turn:
            raise NotYourTurn("Ce n'est pas à vous de jouer.")
        events: list[Event] = []
        if isinstance(action, Play):
            c = CODE_INDEX.get(action.card)
            if c is None:
                raise MalformedAction(f"Carte inconnue : {action.card!r}.")
            self._play(seat, c, action.declare, events)
            return events
        kind = type(action)
        if kind is Exchange:
            self._exchange(seat, events)
            return events
        if kind is NextDeal:
            raise IllegalAction("Seule la table distribue la donne suivante.")
        raise MalformedAction("Ce coup n'existe pas à la Chouine.")

    def _exchange(self, seat: Seat, events: list[Event] | None) -> None:
        """Swap the trump seven for the turned-up card; its event only when asked for."""
        if self.chouines:
            raise WindowClosed(AFTER_CHOUINE)
        hand = self.hands[seat]
        seven = card(SEVEN, self.trump)
        if not can_exchange_seven(
            hand, self.trump, len(self.talon), self.n, self.variant.last_call
        ):
            if seven not in hand:
                raise IllegalAction("Vous n'avez pas le sept d'atout.")
            raise WindowClosed("Il est trop tard pour échanger le sept d'atout.")
        taken = self.talon[0]
        hand.remove(seven)
        hand.append(taken)
        self.set_mask(seat, self.mask(seat) ^ (1 << seven) ^ (1 << taken))
        hand.sort()
        self.talon[0] = seven
        self.shown[seat].append(taken)
        if events is not None:
            events.append(
                Event(
                    "exchange",
                    f"{{p{seat}}} : échange du sept d'atout contre la retourne, {NAMES[taken]}.",
                    seat,
                    {"taken": CODES[taken], "given": CODES[seven]},
                )
            )

    def _play(self, seat: Seat, c: int, declare: str | None, events: list[Event] | None) -> None:
        """Validate then play card `c` of `seat` (the actor), declaring `declare` first;
        events only when asked for."""
        hand = self.hands[seat]
        if c not in hand:
            raise IllegalAction(f"Vous n'avez pas {NAMES[c]} en main.")
        trick = self.trick
        closed = trick and len(self.talon) < self.n  # phase 2, answering: obligations
        if closed and c not in phase_two_legal_cards(hand, trick, self.trump):
            raise IllegalAction(self._obligation(hand))
        declared = None
        if declare is not None:
            if self.chouines and declare != CHOUINE:
                raise WindowClosed(AFTER_CHOUINE)
            matching = [d for d in self.declarations_for(seat, [c]) if d[1] == declare]
            if not matching:
                name = DECLARATION_NAMES.get(declare, declare)
                raise IllegalAction(f"Vous ne pouvez pas annoncer {name} en jouant {NAMES[c]}.")
            declared = matching[0]
        # validated: mutate from here on
        if declared is not None:
            _, kind, cards, points = declared
            self._declare(seat, c, kind, cards, points, events)
        self._put(seat, c, bool(closed), events)

    def _put(self, seat: Seat, c: int, closed: bool, events: list[Event] | None) -> None:
        """Play the validated card `c` (and end the trick when it is complete); events are
        appended only when asked for (`apply_id` asks for none). The hot path of every
        playout: locals, no calls but the trick's end."""
        trick = self.trick
        trump = self.trump
        suit = c >> 3
        if closed:
            led = trick[0] >> 3
            if suit != led:
                void = 1 << led if suit == trump else (1 << led) | (1 << trump)
                self._set_void(seat, self.void(seat) | void)
        # what everyone may read from this card (public knowledge, for the bots' sampling
        # of hidden hands): a king or queen played without declaring the mariage of an
        # undeclared suit says its partner was not in hand; a card played while the seven
        # could still be exchanged says the seven of trumps was not in hand
        rank = c & 7
        known = self.unlikely_cards(seat)
        if QUEEN <= rank <= KING and not self.declared_suits[seat] >> suit & 1:
            known |= 1 << (c ^ 1)  # the king and queen differ in the last bit
        talon = self.talon
        size = len(talon)
        seven = trump * 8  # card(SEVEN, trump)
        if size > 2 and size >= self.n and talon[0] != seven:
            known |= 1 << seven
        self.set_unlikely(seat, known)
        hand = self.hands[seat]
        i = 0
        while hand[i] != c:  # `hand.remove(c)` without a generic comparison per card
            i += 1
        # `hand.pop(i)` goes through CPython's slice assignment (`list_ass_slice`, 180
        # instructions and a large function to fetch): the later cards move down one by
        # one as objects (no unboxing), then the last place goes
        items = cast(list[object], hand)
        last = len(hand) - 1
        while i < last:
            items[i] = items[i + 1]
            i += 1
        items.pop()
        self.set_mask(seat, self.mask(seat) ^ (1 << c))
        shown = self.shown[seat]
        if shown and c in shown:
            shown.remove(c)
        trick.append(c)
        if events is not None:
            events.append(PLAY_EVENTS[seat][c])
        if len(trick) < self.n:
            self.turn = (seat + 1) % self.n
        else:
            self._end_trick(events)

    def _obligation(self, hand: list[int]) -> str:
        led = self.trick[0] >> 3
        if any(c >> 3 == led for c in hand):
            if led == self.trump:
                return "Atout demandé : vous devez fournir à l'atout, et monter si vous le pouvez."
            return f"Vous devez fournir à {SUIT_NAMES[led]}."
        return (
            f"Vous ne pouvez pas fournir : vous devez couper à l'atout ({SUIT_NAMES[self.trump]})."
        )

    def _declare(
        self,
        seat: Seat,
        c: int,
        kind: str,
        cards: tuple[int, ...],
        points: int,
        events: list[Event] | None,
    ) -> None:
        brisque = kind == self.variant.brisque_combo.kind
        suit = -1 if brisque else c >> 3
        if brisque:
            self.brisque_used[seat] = True
        else:
            self.declared_suits[seat] = self.declared_suits[seat] | 1 << suit
        self.decl_points[seat] = self.decl_points[seat] + points
        self.declarations.append((seat, kind, suit, cards, points))
        shown = self.shown[seat]
        shown.extend(x for x in cards if x not in shown)
        if kind == CHOUINE:
            self.chouines.append((seat, suit))
        if events is None:
            return
        name = DECLARATION_NAMES[kind]
        where = "" if brisque else f" à {SUIT_NAMES[suit]}"
        if kind == CHOUINE:
            text = f"{{p{seat}}} : annonce {_of(name)}{where} !"
        else:
            text = f"{{p{seat}}} : annonce {_of(name)}{where}, {points_text(points)}."
        data: dict[str, JSON] = {"kind": kind, "cards": codes(cards), "points": points}
        events.append(Event("declare", text, seat, data))

    def _end_trick(self, events: list[Event] | None) -> None:
        n = self.n
        trick = self.trick
        if n == 2:  # `trick_winner` for two cards, inlined
            a, b = trick
            trump = self.trump
            beats = (b >> 3 == a >> 3 and b > a) or (b >> 3 == trump and a >> 3 != trump)
            winner = 1 - self.leader if beats else self.leader
            gained = POINTS[a] + POINTS[b]
        else:
            winner = (self.leader + trick_winner(trick, self.trump)) % n
            gained = sum([POINTS[c] for c in trick])
        if self.chouines:  # the trick that ends on a Chouine scores nothing
            gained = 0
        self.won[winner].extend(trick)
        card_points, tricks_won = self.card_points, self.tricks_won
        card_points[winner] = card_points[winner] + gained
        tricks_won[winner] = tricks_won[winner] + 1
        cards = self._last_cards
        self._last_cards = trick
        self._last_leader = self.leader
        self._last_winner = winner
        cards.clear()
        self.trick = cards
        if events is not None:
            events.append(trick_event(winner, gained if self.scores_visible else None))
        if self.chouines:
            chouine = chouine_winner(self.chouines, self.trump)
            self._end_partie(events, chouine, None)
            return
        talon = self.talon
        if len(talon) >= n:
            hands = self.hands
            s = winner  # `drawing_order`: the winner first, then in playing order
            for _ in range(n):
                drawn = talon.pop()
                hand = hands[s]
                i = len(hand)  # bisect.insort, without a call per card
                while i > 0 and hand[i - 1] > drawn:
                    i -= 1
                hand.insert(i, drawn)
                self.set_mask(s, self.mask(s) | (1 << drawn))
                s = s + 1 if s + 1 < n else 0
            if events is not None:
                events.append(DRAW_EVENT)
            if not talon:
                # the last card drawn was the turned-up card (or the seven given for it): all
                # saw who took it
                self.shown[s - 1 if s else n - 1].append(drawn)
                if events is not None:
                    events.append(PHASE_EVENT)
            elif self.variant.last_call and len(talon) == 2 and n == 2:
                self.au_sept = True
                if events is not None:
                    events.append(Event("au_sept", f"{{p{winner}}} : « Au sept ! »", winner))
            elif len(talon) < n and events is not None:
                events.append(
                    Event("phase", "Plus assez de cartes pour piocher : fin de la pioche.")
                )
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self._end_partie(events, None, winner)

    # ------------------------------------------------------------------ parties and manches

    def _end_partie(
        self, events: list[Event] | None, chouine: int | None, last_winner: int | None
    ) -> None:
        """Score the partie, then the manche and the match; events only when asked for."""
        n = self.n
        totals = [
            self.card_points[s]
            + self.decl_points[s]
            + (LAST_TRICK_BONUS if s == last_winner else 0)
            for s in range(n)
        ]
        winner = chouine if chouine is not None else partie_winner(totals)
        if last_winner is not None and events is not None:
            events.append(Event("dix_de_der", f"{{p{last_winner}}} : dix de der.", last_winner))
        # copies: `lay_out` empties the partie's lists in place
        self._result = (
            totals,
            self.card_points[:],
            self.decl_points[:],
            last_winner,
            winner,
            chouine,
        )
        self._result_dict = None
        if events is not None:
            reason, text = result_text(totals, winner, chouine)
            events.append(Event("partie", text, winner, {"totals": list(totals), "reason": reason}))
        self.stage = BETWEEN
        if winner is None:
            return
        # `wins[i] = wins[i] + 1`: `+=` on a list item is the generic protocol once compiled
        self.partie_wins[winner] = self.partie_wins[winner] + 1
        self.total_partie_wins[winner] = self.total_partie_wins[winner] + 1
        self.decided += 1
        manche = self._manche_winner()
        if manche is None:
            return
        self.manche_wins[manche] = self.manche_wins[manche] + 1
        if events is not None:
            score = _tally(self.partie_wins)
            text = f"{{p{manche}}} gagne la manche. Parties gagnées : {score}."
            events.append(Event("manche", text, manche))
        if self.manche_wins[manche] >= self.manches_to_win:
            self.stage = OVER  # its Outcome is built when asked for (`outcome`)
            if events is not None:
                text = f"{{p{manche}}} gagne le match."
                if self.manches_to_win > 1:
                    text += f" Manches gagnées : {_tally(self.manche_wins)}."
                events.append(Event("match", text, manche))
        else:
            self.partie_wins = [0] * n
            self.decided = 0
            self.manche_number += 1

    def _manche_winner(self) -> int | None:
        """2 players: first to a majority of the manche's parties (2 of 3, 3 of 5). 3 or 4
        players: the manche stops as soon as nobody can catch up the leader with the
        parties left to play; a lead still shared after them plays on until one leads alone."""
        wins = self.partie_wins
        if self.n == 2:  # the first of the two in case of a tie, as `wins.index(max(wins))`
            leader = 0 if wins[0] >= wins[1] else 1
            return leader if wins[leader] >= (self.parties_per_manche + 1) // 2 else None
        best = max(wins)
        left = max(0, self.parties_per_manche - self.decided)
        leader = wins.index(best)
        if all(w + left < best for s, w in enumerate(wins) if s != leader):
            return leader
        return None

    def is_belle(self) -> bool:
        """Whether the partie in play decides the manche for everyone still in the race."""
        wins = self.partie_wins
        if self.n == 2:
            need = (self.parties_per_manche + 1) // 2
            return need > 1 and wins[0] == wins[1] == need - 1
        return self.decided >= self.parties_per_manche

    def _final_outcome(self) -> Outcome:
        # rank: 1 + the seats ahead by (manches, parties won); plain loops, no generators
        manches, parties = self.manche_wins, self.total_partie_wins
        ranked: list[int] = []
        for s in range(self.n):
            rank = 1
            for o in range(self.n):
                if manches[o] > manches[s] or (
                    manches[o] == manches[s] and parties[o] > parties[s]
                ):
                    rank += 1
            ranked.append(rank)
        ranks = tuple(ranked)
        # the reason is shown to everyone, without names (no placeholders there), above the
        # ranking: the counts follow it, from the first to the last
        if self.manches_to_win > 1:
            reason = won_count("Match terminé", "manche", sorted(manches, reverse=True))
        else:
            reason = won_count("Manche terminée", "partie", sorted(parties, reverse=True))
        return Outcome(tuple(self.total_partie_wins), ranks, reason)

    def _next_deal(self) -> list[Event]:
        self._deal_next()
        turned = self.talon[0]
        text = (
            f"Nouvelle donne, donneur {{p{self.dealer}}} : la retourne est {NAMES[turned]}, "
            f"atout {SUIT_NAMES[self.trump]}."
        )
        return [Event("deal", text, self.dealer, {"turned_up": CODES[turned]})]

    def _deal_next(self) -> None:
        self.dealer = (self.dealer + 1) % self.n
        self._start_partie()

    # ------------------------------------------------------------------ views and secrets

    def seat_count(self) -> int:
        return self.n

    def board_view(self, seat: Seat | None) -> ChouineBoard:
        n = self.n
        visible = [self.scores_visible or s == seat for s in range(n)]
        trick: list[PlayedCard] = [
            {"seat": s, "card": CODES[c]} for s, c in zip(self.trick_seats, self.trick, strict=True)
        ]
        last: LastTrick | None = None
        last_trick = self.last_trick
        if last_trick is not None:
            seats, cards, winner = last_trick
            last = {
                "cards": [{"seat": s, "card": CODES[c]} for s, c in zip(seats, cards, strict=True)],
                "winner": winner,
            }
        return {
            "preset": self.variant.preset,
            "preset_title": self.variant.title,
            "players": n,
            "stage": self.stage,
            "phase": self.phase(),
            "dealer": self.dealer,
            "leader": self.leader,
            "turn": self.turn if self.stage == PLAY else None,
            "trump": SUIT_LETTERS[self.trump],
            "trump_name": SUIT_NAMES[self.trump],
            "trump_symbol": SUIT_SYMBOLS[self.trump],
            "turned_up": CODES[self.talon[0]] if self.talon else None,
            "talon": len(self.talon),
            "hand": codes(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "shown": [codes(sorted(s)) for s in self.shown],
            "trick": trick,
            "last_trick": last,
            "won_cards": codes(self.won[seat]) if seat is not None else [],
            "tricks_won": list(self.tricks_won),
            "declarations": [
                {
                    "seat": s,
                    "kind": kind,
                    "name": DECLARATION_NAMES[kind],
                    "suit": SUIT_LETTERS[suit] if suit >= 0 else None,
                    "cards": codes(cards),
                    "points": points,
                }
                for s, kind, suit, cards, points in self.declarations
            ],
            "declared_points": list(self.decl_points),
            "card_points": [self.card_points[s] if visible[s] else None for s in range(n)],
            "points": [
                self.card_points[s] + self.decl_points[s] if visible[s] else None for s in range(n)
            ],
            "au_sept": self.au_sept,
            "partie_wins": list(self.partie_wins),
            "total_partie_wins": list(self.total_partie_wins),
            "manche_wins": list(self.manche_wins),
            "deal_number": self.deals,
            "manche_number": self.manche_number,
            "parties_per_manche": self.parties_per_manche,
            "manches_to_win": self.manches_to_win,
            "partie_number": self.decided + 1,
            "belle": self.is_belle(),
            "belle_manche": self.manches_to_win > 1
            and all(w == self.manches_to_win - 1 for w in self.manche_wins),
            "scores_visibles": self.scores_visible,
            "last_result": dict(result) if (result := self.last_result) else None,
            "dealer_draw": [
                [{"seat": s, "card_name": NAMES[c]} for s, c in draws] for draws in self.dealer_draw
            ],
            "outcome": final.to_json() if (final := self.outcome()) else None,
        }

    def hidden_cards(self, seat: Seat | None) -> list[int]:
        """Cards `seat` cannot see: the talon under the turned-up card, others' hands except
        the cards they have shown."""
        hidden = self.talon[1:]
        for s in range(self.n):
            if s != seat:
                shown = self.shown[s]
                hidden.extend(c for c in self.hands[s] if c not in shown)
        return hidden

    def secrets(self, seat: Seat | None) -> set[str]:
        return {CODES[c] for c in self.hidden_cards(seat)}

    # ------------------------------------------------------------------ copies

    def clone(self) -> ChouineState:
        """An independent copy: every attribute by name (no `__dict__` to copy once the
        module is compiled, see docs/perf.md); the RNG is copied on first use (`rng`)."""
        new = ChouineState(self.variant, self.options, 0, blank=True)
        new._rng = self._rng
        new._rng_shared = self._rng_shared = True  # copy-on-use, see `rng`
        new._reseed = self._reseed
        new.chance = list(self.chance)
        new.manches_to_win = self.manches_to_win
        new.parties_per_manche = self.parties_per_manche
        new.scores_visible = self.scores_visible
        new.partie_wins = self.partie_wins[:]
        new.total_partie_wins = self.total_partie_wins[:]
        new.manche_wins = self.manche_wins[:]
        new.deals = self.deals
        new.decided = self.decided
        new.manche_number = self.manche_number
        new._result = self._result  # never mutated (nor its lists)
        new._result_dict = self._result_dict
        new.final = self.final
        new.dealer_draw = self.dealer_draw
        new.dealer = self.dealer
        # the partie (see `lay_out`)
        new.hands = [h[:] for h in self.hands]
        new._mask0, new._mask1 = self._mask0, self._mask1
        new._mask2, new._mask3 = self._mask2, self._mask3
        new.trump = self.trump
        new.talon = self.talon[:]
        new.leader = self.leader
        new.turn = self.turn
        new.trick = self.trick[:]
        new._last_cards = self._last_cards[:]
        new._last_leader = self._last_leader
        new._last_winner = self._last_winner
        new.won = [w[:] for w in self.won]
        new.tricks_won = self.tricks_won[:]
        new.card_points = self.card_points[:]
        new.decl_points = self.decl_points[:]
        new.declared_suits = self.declared_suits[:]
        new.brisque_used = self.brisque_used[:]
        new.shown = [x[:] for x in self.shown]
        new.declarations = self.declarations[:]
        new.chouines = self.chouines[:]
        new._void0, new._void1 = self._void0, self._void1
        new._void2, new._void3 = self._void2, self._void3
        new._unlikely0, new._unlikely1 = self._unlikely0, self._unlikely1
        new._unlikely2, new._unlikely3 = self._unlikely2, self._unlikely3
        new.au_sept = self.au_sept
        new.stage = self.stage
        return new

    def determinize(self, seat: Seat, rng: random.Random) -> ChouineState:
        """Re-deal what `seat` cannot know (others' unshown cards, the talon under the
        turned-up card), respecting the suits others have shown they lack; future deals are
        re-seeded too."""
        new = self.clone()
        new._rng_shared = True
        new._reseed = rng.getrandbits(64)  # future deals are unknown too
        # sorted first: the sample depends on what the seat knows, never on the real deal
        pool = sorted(self.hidden_cards(seat))
        keys = {c: rng.random() for c in pool}  # a uniform shuffle, cheaper than rng.shuffle
        pool.sort(key=keys.__getitem__)
        others = [s for s in range(self.n) if s != seat]
        others.sort(key=lambda s: -bin(self.void(s)).count("1"))
        for s in others:
            shown = self.shown[s]
            need = sum(1 for c in self.hands[s] if c not in shown)
            voids = self.void(s)
            allowed = [c for c in pool if not voids >> (c >> 3) & 1]
            if len(allowed) < need:
                allowed = pool[:]
            unlikely = self.unlikely_cards(s)
            if unlikely:
                # weighted sampling without replacement (Efraimidis-Spirakis): an unlikely
                # card has a quarter of the weight of the others
                allowed.sort(
                    key=lambda c: -(keys[c] ** UNLIKELY_POWER if unlikely >> c & 1 else keys[c])
                )
            else:
                allowed.reverse()
            chosen = allowed[:need]
            for c in chosen:
                pool.remove(c)
            new.hands[s] = sorted([*shown, *chosen])
        new.talon = [self.talon[0], *pool] if self.talon else []
        for s in range(self.n):
            new.set_mask(s, hand_mask(new.hands[s]))
        return new

    # ------------------------------------------------------------------ snapshot, invariants

    def snapshot(self) -> dict[str, JSON]:
        data: dict[str, Any] = {
            "preset": self.variant.preset,
            "players": self.n,
            "options": self.options,
            "stage": self.stage,
            "dealer": self.dealer,
            "leader": self.leader,
            "turn": self.turn,
            "trump": self.trump,
            "hands": [codes(h) for h in self.hands],
            "talon": codes(self.talon),
            "trick": codes(self.trick),
            "trick_seats": list(self.trick_seats),
            "last_trick": None
            if (last := self.last_trick) is None
            else [last[0], codes(last[1]), last[2]],
            "won": [codes(w) for w in self.won],
            "tricks_won": list(self.tricks_won),
            "card_points": list(self.card_points),
            "decl_points": list(self.decl_points),
            "declared_suits": list(self.declared_suits),
            "brisque_used": list(self.brisque_used),
            "shown": [codes(s) for s in self.shown],
            "declarations": [
                [s, k, suit, codes(cards), p] for s, k, suit, cards, p in self.declarations
            ],
            "chouines": [list(c) for c in self.chouines],
            "voids": list(self.voids),
            "unlikely": list(self.unlikely),
            "au_sept": self.au_sept,
            "partie_wins": list(self.partie_wins),
            "total_partie_wins": list(self.total_partie_wins),
            "manche_wins": list(self.manche_wins),
            "deals": self.deals,
            "decided": self.decided,
            "manche_number": self.manche_number,
            "last_result": self.last_result,
            "outcome": final.to_json() if (final := self.outcome()) else None,
            "chance": list(self.chance),
            "rng": rng_fingerprint(self.rng),
        }
        return data

    def check_invariants(self) -> None:
        cards = [*self.talon, *self.trick]
        for s in range(self.n):
            cards.extend(self.hands[s])
            cards.extend(self.won[s])
            assert all(c in self.hands[s] for c in self.shown[s]), "shown card not in hand"
            assert self.mask(s) == hand_mask(self.hands[s]), "hand mask out of date"
        assert sorted(cards) == list(DECK), "a card was created or lost"
        if not self.chouines:  # the trick that ends on a Chouine scores nothing
            assert sum(POINTS[c] for w in self.won for c in w) == sum(self.card_points)
        if self.stage == PLAY:
            sizes = {len(h) for h in self.hands}
            assert len(self.trick) < self.n
            # play goes round the table from the leader (`trick_seats` relies on it)
            assert self.turn == (self.leader + len(self.trick)) % self.n, "out of turn"
            assert max(sizes) - min(sizes) <= 1, "hand sizes drifted"
