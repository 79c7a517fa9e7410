"""A second reading of the rules of Chouine, for `test_chouine_referee.py`.

Written from shared/rules/chouine.md and shared/sources/chouine.txt, not from the engine:
it imports nothing from `choux`. Cards are codes like "AH" (rank letter of "789JQKTA",
suit letter of "SHDC"); seats are numbered from 0 and play goes round in that order.
Each method follows one sentence of the documents; where the documents are silent it
takes the reading of chouine.md ("decisions where the document is silent").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

RANKS = "789JQKTA"  # weakest first: A 10 K Q J 9 8 7 from the highest
SUITS = "SHDC"
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
BRISQUES = "AT"  # "Cards with a value of 10 or higher are called brisques"
LAST_TRICK_BONUS = 10  # dix de der
CHOUINE = "chouine"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)

#: what happened, as the engine's events tell it: (kind, seat or None)
Event = tuple[str, int | None]


def suit_of(card: str) -> str:
    return card[1]


def strength(card: str) -> int:
    """Higher is stronger within a suit."""
    return RANKS.index(card[0])


def card_points(card: str) -> int:
    return CARD_POINTS.get(card[0], 0)


def is_brisque(card: str) -> bool:
    return card[0] in BRISQUES


class Move(NamedTuple):
    """Play `card` (declaring `declare` first, "" for nothing), or the trump seven
    exchange (kind "exchange", no card)."""

    kind: str
    card: str = ""
    declare: str = ""


EXCHANGE = Move("exchange")


@dataclass(frozen=True)
class Combination:
    """A combination within one suit: its ranks and its points (plain suit, trumps)."""

    kind: str
    ranks: str
    points: int
    trump_points: int


@dataclass(frozen=True)
class TableRules:
    """The rules of one table: a preset at a number of players, with its options."""

    players: int
    lavardin: bool
    hand_size: int
    combinations: tuple[Combination, ...]
    brisque_kind: str  # Cinquante, Quinte (Lavardin) or Trente (3 and 4 players)
    brisque_size: int
    brisque_points: int
    parties_per_manche: int
    manches_to_win: int
    scores_visible: bool


def table_rules(players: int, options: Mapping[str, Any]) -> TableRules:
    """The rules for `players` and the table options (preset, parties, manches,
    scores_visibles), defaults as chouine.md says."""
    lavardin = options.get("preset", "classique") == "lavardin"
    mariage = Combination("mariage", "KQ", 20, 40)
    if players == 2:
        chouine = Combination(CHOUINE, "ATKQJ" if lavardin else "KQJT", 0, 0)
        combinations: tuple[Combination, ...] = (
            mariage,
            Combination("tierce", "KQJ", 30, 60),
            Combination("quarteron", "AKQJ", 40, 80),
            chouine,
        )
        brisque = ("quinte" if lavardin else "cinquante", 5, 50)
    else:
        combinations = (mariage, Combination(CHOUINE, "KQJ", 0, 0))
        brisque = ("trente", 3, 30)
    # manches of the match: 1 by default (classique, and 3-4 players), 2 winning manches
    # at Lavardin with 2 players; the option "manches" is the best-of length
    manches = int(options.get("manches", 0)) or (3 if lavardin and players == 2 else 1)
    return TableRules(
        players=players,
        lavardin=lavardin,
        hand_size=5 if players == 2 else 3,
        combinations=combinations,
        brisque_kind=brisque[0],
        brisque_size=brisque[1],
        brisque_points=brisque[2],
        parties_per_manche=int(options.get("parties", 3)),
        manches_to_win=(manches + 1) // 2,
        scores_visible=bool(options.get("scores_visibles", False)),
    )


def first_dealer(rounds: Sequence[Sequence[tuple[int, str]]]) -> int:
    """The draw for the first dealer, rounds of (seat, card): the lowest rank deals; the
    seats tied for the lowest draw again. Fails on rounds that should not have happened."""
    contenders = sorted(seat for seat, _ in rounds[0])
    for number, draws in enumerate(rounds):
        assert sorted(seat for seat, _ in draws) == contenders, "the wrong seats drew"
        lowest = min(strength(card) for _, card in draws)
        contenders = sorted(seat for seat, card in draws if strength(card) == lowest)
        if len(contenders) == 1:
            assert number == len(rounds) - 1, "a draw after the dealer was known"
            return contenders[0]
    raise AssertionError("the draw ended on a tie")


@dataclass
class Declaration:
    seat: int
    kind: str
    suit: str | None  # None: the brisque combination
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class PartieResult:
    totals: list[int]
    card_points: list[int]
    declared_points: list[int]
    last_trick_winner: int | None
    winner: int | None  # None: equal totals, the partie is replayed
    chouine: int | None  # the seat that won by its Chouine


@dataclass
class Partie:
    """One deal, from the first card played to its result."""

    rules: TableRules
    dealer: int
    hands: list[list[str]]
    #: the next card to draw first; the turned-up card (or the seven given for it) last
    talon: list[str]
    trump: str
    leader: int = 0
    turn: int = 0
    trick: list[str] = field(default_factory=list)
    last_trick: tuple[int, list[str], int] | None = None  # leader, cards, winner
    won: list[list[str]] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # card points won in tricks
    declared: list[int] = field(default_factory=list)  # points of declarations
    declared_suits: list[set[str]] = field(default_factory=list)
    brisques_declared: list[bool] = field(default_factory=list)
    shown: list[set[str]] = field(default_factory=list)  # known to be in that hand
    declarations: list[Declaration] = field(default_factory=list)
    chouines: list[tuple[int, str]] = field(default_factory=list)  # this trick's
    au_sept: bool = False
    result: PartieResult | None = None

    @classmethod
    def laid_out(
        cls,
        rules: TableRules,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        trump: str,
        won: Sequence[Sequence[str]] = (),
    ) -> Partie:
        """A partie about to start its next trick: hands dealt, the talon (the next card
        first, the turned-up card last), cards already won (none at the deal); the
        dealer's left-hand neighbour leads."""
        n = rules.players
        partie = cls(rules, dealer, [list(h) for h in hands], list(talon), trump)
        partie.leader = partie.turn = (dealer + 1) % n
        partie.won = [list(w) for w in won] or [[] for _ in range(n)]
        partie.points = [sum(card_points(c) for c in w) for w in partie.won]
        partie.declared = [0] * n
        partie.declared_suits = [set() for _ in range(n)]
        partie.brisques_declared = [False] * n
        partie.shown = [set() for _ in range(n)]
        return partie

    @classmethod
    def dealt(cls, rules: TableRules, deck: Sequence[str], dealer: int) -> Partie:
        """Deal `deck` (top card first): one by one from the dealer's left, 5 cards each (3
        at three or four players); the next card is turned up; the rest is the talon."""
        n, size = rules.players, rules.hand_size
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(size * n):
            hands[(dealer + 1 + i) % n].append(deck[i])
        turned_up = deck[size * n]
        return cls.laid_out(rules, dealer, hands, [*deck[size * n + 1 :], turned_up], turned_up[1])

    # ------------------------------------------------------------------ what is on the table

    def turned_up(self) -> str | None:
        """The card face up under the talon, while there is one."""
        return self.talon[-1] if self.talon else None

    def drawing_open(self) -> bool:
        """Phase 1 lasts while the talon is not empty; with 3 players the last 2 cards are
        never drawn, so it ends when 2 remain."""
        return len(self.talon) > (2 if self.rules.players == 3 else 0)

    def hidden_from(self, viewer: int | None) -> set[str]:
        """Cards `viewer` (None: a spectator) cannot know: the talon under the turned-up
        card and the cards of the others' hands they have not shown."""
        hidden = set(self.talon[:-1])
        for seat, hand in enumerate(self.hands):
            if seat != viewer:
                hidden |= set(hand) - self.shown[seat]
        return hidden

    # ------------------------------------------------------------------ what may be done

    def playable(self, seat: int) -> list[str]:
        """Free play in phase 1 and when leading. Phase 2, answering: follow suit (trump
        led: beat the highest trump of the trick if you can), else trump, else anything."""
        hand = self.hands[seat]
        if not self.trick or self.drawing_open():
            return list(hand)
        led = suit_of(self.trick[0])
        follow = [c for c in hand if suit_of(c) == led]
        if follow and led == self.trump:
            top = max(strength(c) for c in self.trick if suit_of(c) == self.trump)
            return [c for c in follow if strength(c) > top] or follow
        if follow:
            return follow
        return [c for c in hand if suit_of(c) == self.trump] or list(hand)

    def declarations_with(self, seat: int, card: str) -> list[str]:
        """The combinations `seat` may announce just before playing `card`: one of its
        cards, all of them in hand, one per suit per partie, the brisque combination once.
        After a Chouine in this trick, only a Chouine of one's own."""
        hand, suit = self.hands[seat], suit_of(card)
        kinds = []
        for combo in self.rules.combinations:
            if card[0] not in combo.ranks or suit in self.declared_suits[seat]:
                continue
            if self.chouines and combo.kind != CHOUINE:
                continue
            if all(rank + suit in hand for rank in combo.ranks):
                kinds.append(combo.kind)
        brisques = sum(1 for c in hand if is_brisque(c))
        if (
            is_brisque(card)
            and not self.chouines
            and not self.brisques_declared[seat]
            and brisques >= self.rules.brisque_size
        ):
            kinds.append(self.rules.brisque_kind)
        return kinds

    def may_exchange(self, seat: int) -> bool:
        """The trump seven for the turned-up card, in phase 1, while the talon holds more
        than 2 cards (Lavardin: still at 2, after « au sept »); never after a Chouine."""
        if self.chouines or "7" + self.trump not in self.hands[seat]:
            return False
        if not self.drawing_open():
            return False
        return len(self.talon) > 2 or (self.rules.lavardin and len(self.talon) == 2)

    def legal_moves(self, seat: int) -> set[Move]:
        if seat != self.turn or self.result is not None:
            return set()
        moves = set()
        for card in self.playable(seat):
            moves.add(Move("play", card))
            moves.update(Move("play", card, kind) for kind in self.declarations_with(seat, card))
        if self.may_exchange(seat):
            moves.add(EXCHANGE)
        return moves

    def brisques_shown_ok(self, seat: int, card: str, cards: Sequence[str]) -> bool:
        """Whether `cards` may be the brisques shown for the brisque combination declared
        with `card` (the engine picks them when the hand holds more than needed)."""
        return (
            len(set(cards)) == len(cards) == self.rules.brisque_size
            and card in cards
            and all(is_brisque(c) and c in self.hands[seat] for c in cards)
        )

    # ------------------------------------------------------------------ doing it

    def exchange(self, seat: int) -> list[Event]:
        """The seven goes under the talon, its holder takes the turned-up card (seen by all)."""
        taken = self.talon[-1]
        self.hands[seat].remove("7" + self.trump)
        self.hands[seat].append(taken)
        self.talon[-1] = "7" + self.trump
        self.shown[seat].add(taken)
        return [("exchange", seat)]

    def play(self, seat: int, move: Move, brisques_shown: Sequence[str] = ()) -> list[Event]:
        """Play a card, announcing `move.declare` first (the brisque combination shows
        `brisques_shown`); the trick ends when everyone has played."""
        events: list[Event] = []
        if move.declare:
            events.append(("declare", seat))
            self.declare(seat, move.card, move.declare, brisques_shown)
        self.hands[seat].remove(move.card)
        self.shown[seat].discard(move.card)
        self.trick.append(move.card)
        events.append(("play", seat))
        if len(self.trick) < self.rules.players:
            self.turn = (seat + 1) % self.rules.players
            return events
        return events + self.end_trick()

    def declare(self, seat: int, card: str, kind: str, brisques_shown: Sequence[str]) -> None:
        """Score the combination at once (double in trumps) and show its cards."""
        if kind == self.rules.brisque_kind:
            self.brisques_declared[seat] = True
            cards, suit, points = tuple(brisques_shown), None, self.rules.brisque_points
        else:
            combo = next(c for c in self.rules.combinations if c.kind == kind)
            suit = suit_of(card)
            cards = tuple(rank + suit for rank in combo.ranks)
            points = combo.trump_points if suit == self.trump else combo.points
            self.declared_suits[seat].add(suit)
            if kind == CHOUINE:
                self.chouines.append((seat, suit))
        self.declared[seat] += points
        self.shown[seat].update(cards)
        self.declarations.append(Declaration(seat, kind, suit, cards, points))

    def trick_winner(self) -> int:
        """The highest trump, else the highest card of the suit led."""
        trumps = [c for c in self.trick if suit_of(c) == self.trump]
        led = [c for c in self.trick if suit_of(c) == suit_of(self.trick[0])]
        best = max(trumps or led, key=strength)
        return (self.leader + self.trick.index(best)) % self.rules.players

    def end_trick(self) -> list[Event]:
        """Score the trick (nothing after a Chouine, which ends the partie), then everyone
        draws, the winner first; the winner leads; empty hands end the partie."""
        n, winner = self.rules.players, self.trick_winner()
        gained = 0 if self.chouines else sum(card_points(c) for c in self.trick)
        self.points[winner] += gained
        self.won[winner].extend(self.trick)
        self.last_trick = (self.leader, self.trick, winner)
        self.trick = []
        events: list[Event] = [("trick", winner)]
        if self.chouines:
            return events + self.end_by_chouine()
        if self.drawing_open():
            events.append(("draw", None))
            for i in range(n):
                self.hands[(winner + i) % n].append(self.talon.pop(0))
            if not self.talon:  # the turned-up card (or the seven) drawn last: all saw it
                last_drawer = (winner + n - 1) % n
                self.shown[last_drawer].add(self.hands[last_drawer][-1])
            if not self.drawing_open():
                events.append(("phase", None))
            elif self.rules.lavardin and len(self.talon) == 2:
                self.au_sept = True  # the leader calls « au sept »
                events.append(("au_sept", winner))
        self.leader = self.turn = winner
        if not self.hands[winner]:
            return events + self.end_by_points(winner)
        return events

    def end_by_chouine(self) -> list[Event]:
        """Two Chouines in one trick: the trump one wins, else the first declared (the
        leader's)."""
        trump_ones = [seat for seat, suit in self.chouines if suit == self.trump]
        winner = trump_ones[0] if trump_ones else self.chouines[0][0]
        totals = [self.points[s] + self.declared[s] for s in range(self.rules.players)]
        self.result = PartieResult(
            totals, list(self.points), list(self.declared), None, winner, winner
        )
        return [("partie", winner)]

    def end_by_points(self, last_winner: int) -> list[Event]:
        """Cards + declarations + 10 for the last trick; equal best totals: replayed."""
        totals = [
            self.points[s] + self.declared[s] + (LAST_TRICK_BONUS if s == last_winner else 0)
            for s in range(self.rules.players)
        ]
        best = [s for s, total in enumerate(totals) if total == max(totals)]
        winner = best[0] if len(best) == 1 else None
        self.result = PartieResult(
            totals, list(self.points), list(self.declared), last_winner, winner, None
        )
        return [("dix_de_der", last_winner), ("partie", winner)]


@dataclass
class Match:
    """Parties, manches and the match, around the partie being played."""

    rules: TableRules
    partie: Partie
    stage: str = "play"  # "between" once a partie has ended, "over" with the match
    partie_wins: list[int] = field(default_factory=list)  # in the current manche
    total_partie_wins: list[int] = field(default_factory=list)
    manche_wins: list[int] = field(default_factory=list)
    decided: int = 0  # parties won (not replayed) in the current manche

    def __post_init__(self) -> None:
        n = self.rules.players
        self.partie_wins = [0] * n
        self.total_partie_wins = [0] * n
        self.manche_wins = [0] * n

    def next_dealer(self) -> int:
        """The deal passes to the next seat after each partie (replays included)."""
        return (self.partie.dealer + 1) % self.rules.players

    def new_partie(self, partie: Partie) -> None:
        self.partie = partie
        self.stage = "play"

    def legal_moves(self, seat: int) -> set[Move]:
        return self.partie.legal_moves(seat) if self.stage == "play" else set()

    def apply(self, seat: int, move: Move, brisques_shown: Sequence[str] = ()) -> list[Event]:
        if move == EXCHANGE:
            return self.partie.exchange(seat)
        events = self.partie.play(seat, move, brisques_shown)
        result = self.partie.result
        if result is not None:
            events += self.end_partie(result.winner)
        return events

    def end_partie(self, winner: int | None) -> list[Event]:
        """Count the partie won; a manche won may end the match."""
        self.stage = "between"
        if winner is None:
            return []
        self.partie_wins[winner] += 1
        self.total_partie_wins[winner] += 1
        self.decided += 1
        manche = self.manche_winner()
        if manche is None:
            return []
        events: list[Event] = [("manche", manche)]
        self.manche_wins[manche] += 1
        if self.manche_wins[manche] >= self.rules.manches_to_win:
            self.stage = "over"
            events.append(("match", manche))
        else:
            self.partie_wins = [0] * self.rules.players
            self.decided = 0
        return events

    def manche_winner(self) -> int | None:
        """2 players: the first to win most of the manche's parties (2 of 3, 3 of 5).
        3 or 4: the leader once nobody can catch up with the parties left; a lead still
        shared after them plays on until one leads alone."""
        wins = self.partie_wins
        if self.rules.players == 2:
            needed = self.rules.parties_per_manche // 2 + 1
            return next((s for s, w in enumerate(wins) if w >= needed), None)
        leaders = [s for s, w in enumerate(wins) if w == max(wins)]
        if len(leaders) > 1:
            return None
        left = max(0, self.rules.parties_per_manche - self.decided)
        leader = leaders[0]
        if all(w + left < wins[leader] for s, w in enumerate(wins) if s != leader):
            return leader
        return None

    def belle(self) -> bool:
        """2 players: the partie that decides the manche (each one short of winning it)."""
        needed = self.rules.parties_per_manche // 2 + 1
        return needed > 1 and all(w == needed - 1 for w in self.partie_wins)

    def belle_manche(self) -> bool:
        """The manche that decides the match (each one short of winning it)."""
        to_win = self.rules.manches_to_win
        return to_win > 1 and all(w == to_win - 1 for w in self.manche_wins)
