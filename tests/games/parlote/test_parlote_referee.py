"""La parlote coinchée against a second, independent reading of its rules.

`Reference` below is the game written again from the documents only
(`shared/sources/parlote-coinchee.txt` and the decisions of `shared/rules/parlote-coinchee.md`),
not from the engine: it imports no rule function of `choux.games.parlote.rules`, only the
game's content (each card's colour and depth, the scenarios' italic lines) as data. The
engine drives seeded random games (`new`, `legal_actions`, `apply`, `view`); the reference
follows every move and the two must agree at every step: each seat's legal moves, the
phase, the reader, the bidding and the coinche, each argument's status, every trick's
winner and points, the deal's scores, whether the contract (a capot too) was made, and the
end of the game. Moves of every kind, legal or not, are tried from every seat: the engine
must accept exactly the legal ones and refuse the others without a trace. The views must
hide the other hands, the italic line and the open ballots.

Chance is observed, never predicted: the first reader among the « moi ! », the scenario and
the deal, the card the play clock plays. Where the documents leave a choice to the engine,
the reference checks only what they do say (the card is played without an argument).

When the two disagree, read the documents again before changing either: the reference may
be the one that misread them.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from choux.engine.base import JSON, Action, IllegalAction
from choux.games.parlote import GAME
from choux.games.parlote.actions import (
    Bid,
    ClaimLiar,
    Clock,
    Coinche,
    Contest,
    Draw,
    Judge,
    LetPass,
    Pass,
    Play,
    Vote,
)
from choux.games.parlote.content import cards_index, content, scenarios_index
from choux.games.parlote.state import ParloteState

# --------------------------------------------------------------------------- the documents

PLAYERS = 4  # exactly four players, two teams seated crosswise
SELECTION = 28  # cards in a game: per colour, one of each depth 1 to 4
REFEREE = 4  # Arbitre mode: the optional fifth seat, who only judges
HAND_SIZE = 7
TRICKS = 7
CAPOT = 250  # « a capot bid is worth 250, as in coinche »
AMOUNTS = (*range(80, 151, 10), CAPOT)  # 80 to 150 by tens, or the capot
FAILED_BONUS = 160
DEAL_POINTS = 156
CONTESTS_PER_DEAL = 2  # per team, Jury mode
MAX_ARGUMENT = 280

CARDS = cards_index()
COLOURS = content().colour_ids()
TRUMP_PAIRS = frozenset(frozenset((a, b)) for a in COLOURS for b in COLOURS if a != b)

#: a move as the reference names it: its kind, then what tells it apart ("play", card)
Key = tuple[object, ...]


def team_of(seat: int) -> int:
    """Seats 0 and 2 play against seats 1 and 3."""
    return seat % 2


def left_of(seat: int) -> int:
    """The neighbour on the left: play, the lead and the reader's role move that way."""
    return (seat + 1) % PLAYERS


def card_points(code: str, trumps: frozenset[str]) -> int:
    """Non-trump: 2 × depth; trump: 12 − 2 × depth."""
    card = CARDS[code]
    return 12 - 2 * card.depth if card.colour in trumps else 2 * card.depth


def typed(argument: str) -> str:
    """The argument as it counts: an argument of blanks only was not typed."""
    return argument.strip()


@dataclass
class PlayedCard:
    seat: int
    card: str
    status: str  # "none" (no argument), "pending", "counts" or "rejected"
    ballots: list[tuple[int, bool]] = field(default_factory=list)


def trick_winner(plays: Sequence[PlayedCard], trumps: frozenset[str]) -> int:
    """Index of the winning card: among the cards whose argument counts (all of them if
    none counts), the trump of the lowest depth, else the deepest card; ties go to the
    card played first."""
    pool = [i for i, p in enumerate(plays) if p.status == "counts"] or list(range(len(plays)))
    trumps_played = [i for i in pool if CARDS[plays[i].card].colour in trumps]
    if trumps_played:
        return min(trumps_played, key=lambda i: (CARDS[plays[i].card].depth, i))
    return min(pool, key=lambda i: (-CARDS[plays[i].card].depth, i))


def deal_scores(
    bidders: int, amount: int, coinched: bool, points: Sequence[int], tricks: Sequence[int]
) -> tuple[list[int], bool]:
    """What each team scores for a deal, and whether the contract was made."""
    made = tricks[bidders] == TRICKS if amount == CAPOT else points[bidders] >= amount
    scores = [0, 0]
    if made:
        scores[bidders] = amount + points[bidders]
        scores[1 - bidders] = points[1 - bidders]
    else:
        scores[1 - bidders] = FAILED_BONUS + amount
    return [2 * s for s in scores] if coinched else scores, made


def game_winner(scores: Sequence[int], target: int) -> int | None:
    """The first team over the target; both over, the higher (equal: play on)."""
    over = [t for t in (0, 1) if scores[t] > target]
    if len(over) == 2 and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return over[0] if len(over) == 1 else None


def action_key(action: Action) -> Key:
    """The reference's name of an engine move (the argument of a card aside)."""
    match action:
        case ClaimLiar():
            return ("moi",)
        case Draw(pile=pile):
            return ("draw", pile)
        case Pass():
            return ("pass",)
        case Bid(amount=amount, colours=colours):
            return ("bid", amount, frozenset(colours))
        case Coinche():
            return ("coinche",)
        case Play(card=card):
            return ("play", card)
        case Contest():
            return ("contest",)
        case LetPass():
            return ("let pass",)
        case Vote(counts=counts):
            return ("vote", counts)
        case Judge(counts=counts):
            return ("judge", counts)
    return ("other", type(action).__name__)


@dataclass(frozen=True)
class Contract:
    seat: int
    amount: int
    trumps: frozenset[str]
    coinched: bool


@dataclass
class Window:
    """The discussion open on the last argument played."""

    kind: str  # "contest", "vote" or "judge"
    declined: set[int] = field(default_factory=set)


@dataclass
class DealResult:
    scores: list[int]
    made: bool
    points: list[int]
    tricks: list[tuple[int, int, list[str]]]  # winner, points, statuses


# --------------------------------------------------------------------------- the reference


class Reference:
    """The rules as read from the documents, one move behind the engine."""

    def __init__(self, players: int, mode: str, target: int, argument_required: bool) -> None:
        self.players = players
        self.mode = mode
        self.target = target
        self.argument_required = argument_required
        self.phase = "liar"
        self.claims: set[int] = set()
        self.reader: int | None = None
        self.scores = [0, 0]
        self.winner: int | None = None
        self.pile_sizes = [0, 0]
        self.selection: frozenset[str] = frozenset()
        self.scenario: str | None = None  # of the deal being played
        self.finished_scenario: str | None = None  # of the last deal played to its end
        self.results: list[DealResult] = []
        self.redeals = 0
        #: the ballots of the vote the last move closed, and whether it rejected the argument
        self.closed_vote: tuple[list[tuple[int, bool]], bool] | None = None
        self._new_deal_fields()

    def _new_deal_fields(self) -> None:
        self.hands: list[set[str]] = [set() for _ in range(PLAYERS)]
        self.turn = 0
        self.high: tuple[int, int, frozenset[str]] | None = None  # seat, amount, trumps
        self.passes = 0
        self.contract: Contract | None = None
        self.trick: list[PlayedCard] = []
        self.window: Window | None = None
        self.contests_left = [CONTESTS_PER_DEAL, CONTESTS_PER_DEAL]
        self.tricks_won = [0, 0]
        self.points = [0, 0]
        self.history: list[tuple[int, int, list[str]]] = []

    # ---------------------------------------------------------------- who may do what

    def judge_seat(self) -> int | None:
        """Arbitre mode: the fifth seat, or the reader when there is none."""
        return REFEREE if self.players > PLAYERS else self.reader

    def bids_over(self, current: int) -> set[Key]:
        """Every bid above `current`: a higher amount and two different trump colours."""
        return {("bid", a, pair) for a in AMOUNTS if a > current for pair in TRUMP_PAIRS}

    def legal_keys(self, seat: int) -> set[Key]:
        """Every move `seat` may make now."""
        if self.phase == "liar":
            return {("moi",)} if seat < PLAYERS and seat not in self.claims else set()
        if self.phase == "draw":
            if seat != self.reader:
                return set()
            return {("draw", p) for p in (0, 1) if self.pile_sizes[p]}
        if self.phase == "bidding":
            return self._bidding_keys(seat)
        if self.phase == "play":
            return self._play_keys(seat)
        return set()

    def _bidding_keys(self, seat: int) -> set[Key]:
        keys: set[Key] = set()
        if seat == self.turn:
            keys.add(("pass",))
            keys |= self.bids_over(self.high[1] if self.high else 0)
        if self.high is not None and seat < PLAYERS and team_of(seat) != team_of(self.high[0]):
            keys.add(("coinche",))
        return keys

    def _play_keys(self, seat: int) -> set[Key]:
        if self.window is None:
            return {("play", c) for c in self.hands[seat]} if seat == self.turn else set()
        author = self.trick[-1].seat
        if self.window.kind == "contest":
            may = (
                seat < PLAYERS
                and team_of(seat) != team_of(author)
                and seat not in self.window.declined
                and self.contests_left[team_of(seat)] > 0
            )
            return {("contest",), ("let pass",)} if may else set()
        if self.window.kind == "vote":
            voted = {s for s, _ in self.trick[-1].ballots}
            may = seat < PLAYERS and seat != author and seat not in voted
            return {("vote", True), ("vote", False)} if may else set()
        return {("judge", True), ("judge", False)} if seat == self.judge_seat() else set()

    def allows(self, seat: int | None, action: Action) -> bool:
        """Whether the engine must accept `action` from `seat` (None: the table clock)."""
        if isinstance(action, Clock):
            return seat is None and self.phase != "over"
        if seat is None or action_key(action) not in self.legal_keys(seat):
            return False
        if isinstance(action, Play):
            text = typed(action.argument)
            return len(text) <= MAX_ARGUMENT and (bool(text) or not self.argument_required)
        return True

    # ---------------------------------------------------------------- observing chance

    def see_table(self, table: ParloteState) -> None:
        """The public piles (their backs), refreshed before each comparison."""
        self.pile_sizes = [len(p) for p in table.piles]

    def see_selection(self, selection: Sequence[str]) -> None:
        """28 cards: per colour, one card of each depth 1 to 4."""
        assert len(selection) == len(set(selection)) == SELECTION
        for colour in COLOURS:
            depths = sorted(CARDS[c].depth for c in selection if CARDS[c].colour == colour)
            assert depths == [1, 2, 3, 4], (colour, depths)
        self.selection = frozenset(selection)

    def _see_first_reader(self, table: ParloteState) -> None:
        assert table.reader in (self.claims or set(range(PLAYERS))), (table.reader, self.claims)
        self.reader = table.reader
        self.phase = "draw"

    def _see_deal(
        self, table: ParloteState, piles_before: Sequence[Sequence[str]], pile: int | None
    ) -> None:
        """The reader drew from the pile they chose (any, on the clock) and 7 cards each
        were dealt from the game's 28."""
        allowed = [p for p in (0, 1) if piles_before[p]] if pile is None else [pile]
        assert any(table.scenario in piles_before[p] for p in allowed), table.scenario
        self._new_deal_fields()
        self.scenario = table.scenario
        self.hands = [set(h) for h in table.hands]
        assert all(len(h) == HAND_SIZE for h in self.hands)
        assert set().union(*self.hands) == self.selection
        self.phase = "bidding"
        assert self.reader is not None
        self.turn = left_of(self.reader)

    # ---------------------------------------------------------------- moves

    def follow(
        self,
        seat: int | None,
        action: Action,
        table: ParloteState,
        piles_before: Sequence[Sequence[str]],
    ) -> None:
        """Apply the move the engine has just applied (`table`: the engine after it, read
        only for chance)."""
        self.closed_vote = None
        if isinstance(action, Clock):
            self._clock(table, piles_before)
            return
        assert seat is not None
        match action:
            case ClaimLiar():
                self.claims.add(seat)
                if len(self.claims) == PLAYERS:
                    self._see_first_reader(table)
            case Draw(pile=pile):
                self._see_deal(table, piles_before, pile)
            case Pass():
                self._pass()
            case Bid(amount=amount, colours=colours):
                self.high = (seat, amount, frozenset(colours))
                self.passes = 0
                self.turn = left_of(seat)
            case Coinche():
                self._end_bidding(coinched=True)
            case Play(card=card, argument=argument):
                self._put(seat, card, argued=bool(typed(argument)))
            case Contest():
                self.contests_left[team_of(seat)] -= 1
                self.window = Window("vote")
            case LetPass():
                assert self.window is not None
                self.window.declined.add(seat)
                author = self.trick[-1].seat
                opponents = [s for s in range(PLAYERS) if team_of(s) != team_of(author)]
                if all(s in self.window.declined for s in opponents):
                    self._close("counts")
            case Vote(counts=counts):
                self.trick[-1].ballots.append((seat, counts))
                if len(self.trick[-1].ballots) == PLAYERS - 1:
                    self._close_vote()
            case Judge(counts=counts):
                self._close("counts" if counts else "rejected")

    def _clock(self, table: ParloteState, piles_before: Sequence[Sequence[str]]) -> None:
        """The deadline: nobody claimed more (random reader among the claims), the reader
        draws, the bidder passes, the player's card goes without an argument, a window
        closes with its argument counting unless a majority rejected it."""
        if self.phase == "liar":
            self._see_first_reader(table)
        elif self.phase == "draw":
            self._see_deal(table, piles_before, None)
        elif self.phase == "bidding":
            self._pass()
        elif self.window is None:
            seat = self.turn
            hand = self.hands[seat]
            gone = hand if len(hand) == 1 else hand - set(table.hands[seat])
            assert len(gone) == 1, gone
            self._put(seat, next(iter(gone)), argued=False)
        elif self.window.kind == "vote":
            self._close_vote()
        else:
            self._close("counts")

    def _pass(self) -> None:
        self.passes += 1
        if self.high is not None and self.passes == PLAYERS - 1:
            self._end_bidding(coinched=False)
        elif self.high is None and self.passes == PLAYERS:
            self.redeals += 1  # new deal, same reader
            self._new_deal_fields()
            self.phase = "draw"
        else:
            self.turn = left_of(self.turn)

    def _end_bidding(self, coinched: bool) -> None:
        assert self.high is not None and self.reader is not None
        seat, amount, trumps = self.high
        self.contract = Contract(seat, amount, trumps, coinched)
        self.phase = "play"
        self.turn = left_of(self.reader)

    def _put(self, seat: int, card: str, argued: bool) -> None:
        self.hands[seat].remove(card)
        window: Window | None = None
        if not argued:
            status = "none"
        elif self.mode == "honneur":
            status = "counts"
        elif self.mode == "jury":
            if self.contests_left[1 - team_of(seat)] > 0:
                status, window = "pending", Window("contest")
            else:
                status = "counts"  # nobody may contest it any more
        elif self.players == PLAYERS and seat == self.reader:
            status, window = "pending", Window("vote")  # the reader never judges themself
        else:
            status, window = "pending", Window("judge")
        self.trick.append(PlayedCard(seat, card, status))
        self.window = window
        if window is None:
            self._next_card()

    def _close_vote(self) -> None:
        ballots = self.trick[-1].ballots
        against = sum(1 for _, counts in ballots if not counts)
        rejected = against >= 2  # a majority of the three voters
        self.closed_vote = (list(ballots), rejected)
        self._close("rejected" if rejected else "counts")

    def _close(self, status: str) -> None:
        self.trick[-1].status = status
        self.window = None
        self._next_card()

    def _next_card(self) -> None:
        if len(self.trick) < PLAYERS:
            self.turn = left_of(self.trick[-1].seat)
            return
        assert self.contract is not None
        trumps = self.contract.trumps
        winner = self.trick[trick_winner(self.trick, trumps)].seat
        points = sum(card_points(p.card, trumps) for p in self.trick)
        self.tricks_won[team_of(winner)] += 1
        self.points[team_of(winner)] += points
        self.history.append((winner, points, [p.status for p in self.trick]))
        self.trick = []
        self.turn = winner
        if len(self.history) == TRICKS:
            self._end_deal()

    def _end_deal(self) -> None:
        assert self.contract is not None and self.reader is not None
        assert sum(self.points) == DEAL_POINTS
        contract = self.contract
        scores, made = deal_scores(
            team_of(contract.seat), contract.amount, contract.coinched, self.points, self.tricks_won
        )
        self.results.append(DealResult(scores, made, list(self.points), list(self.history)))
        self.finished_scenario = self.scenario
        self.scores = [self.scores[0] + scores[0], self.scores[1] + scores[1]]
        self.winner = game_winner(self.scores, self.target)
        self._new_deal_fields()
        if self.winner is not None:
            self.phase = "over"
        else:
            self.reader = left_of(self.reader)
            self.phase = "draw"


# --------------------------------------------------------------------------- comparing


def assert_agree(ref: Reference, table: ParloteState) -> None:
    """The engine and the reference see the same table."""
    assert table.phase == ref.phase, "phase"
    assert table.reader == ref.reader, "reader"
    assert list(table.scores) == ref.scores, "scores"
    for seat in range(ref.players):
        legal = [action_key(a) for a in table.legal_actions(seat)]
        assert len(legal) == len(set(legal)), f"seat {seat}: a move listed twice"
        expected = ref.legal_keys(seat)
        assert set(legal) == expected, (seat, ref.phase, set(legal) ^ expected)
    assert set(table.actors()) == {s for s in range(ref.players) if ref.legal_keys(s)}, "actors"
    assert len(table.results) == len(ref.results), "deals played"
    if ref.phase == "play":
        contract = table.contract
        assert contract is not None
        seen = Contract(
            contract.seat, contract.amount, frozenset(contract.colours), contract.coinched
        )
        assert seen == ref.contract, "contract"
        assert list(table.contests_left) == ref.contests_left, "contests left"
        statuses = [p.status for p in table.trick]
        assert statuses == [p.status for p in ref.trick], "argument statuses"
        done = [(t.winner, t.points, [p.status for p in t.plays]) for t in table.tricks]
        assert done == ref.history, "tricks: winner, points, statuses"
    if ref.phase == "over":
        assert table.is_over() and table.winner == ref.winner, "winner"


def assert_deal_result(ref: Reference, table: ParloteState) -> None:
    """Just after a deal: its tricks, card points, scores and contract as the reference
    counted them."""
    mine = ref.results[-1]
    theirs = table.results[-1]
    seen = (theirs["scores"], theirs["made"])
    assert seen == (mine.scores, mine.made), ("deal scores, made", seen, mine.scores, mine.made)
    assert theirs["points"] == mine.points, "card points"
    recap: Any = table.recap
    tricks = [
        (t["winner"], t["points"], [p["status"] for p in t["plays"]]) for t in recap["tricks"]
    ]
    assert tricks == mine.tricks, "tricks of the deal: winner, points, statuses"


#: the strings of a JSON text (card codes and scenario identifiers hold no quote)
QUOTED = re.compile(r'"([^"\\]*)"')


def assert_views_hide_secrets(ref: Reference, table: ParloteState) -> None:
    """No view shows another seat's hand, the italic line to anyone but the reader during
    the deal (everyone sees it in the recap once the deal is over), the piles' order, or a
    ballot while its vote is open."""
    for viewer in [*range(ref.players), None]:
        view: Any = table.view(viewer)
        # the « mémo » panel (the colours' trees, marking the game's 28 public cards) is
        # the bulk of a view and the same for everyone: it is left out of the search
        text = json.dumps({k: v for k, v in view.items() if k != "memo"}, ensure_ascii=False)
        strings = set(QUOTED.findall(text))
        for other in range(PLAYERS):
            if other != viewer:
                assert not strings & ref.hands[other], (viewer, other)
        assert not strings.intersection(*table.piles), viewer
        if viewer is not None and viewer < PLAYERS:
            assert {card["code"] for card in view["hand"]} == ref.hands[viewer]
            assert view["team"] == team_of(viewer)
        else:  # the referee's seat or a spectator
            assert view["hand"] == [] and view["team"] is None
        if ref.phase in ("bidding", "play"):
            assert ref.scenario is not None
            objection = scenarios_index()[ref.scenario].objection
            if viewer == ref.reader:
                assert view["scenario"]["objection"] == objection
            else:
                assert view["scenario"]["objection"] is None
                assert json.dumps(objection, ensure_ascii=False)[1:-1] not in text
        elif ref.finished_scenario is not None:
            objection = scenarios_index()[ref.finished_scenario].objection
            assert view["recap"]["scenario"]["objection"] == objection
        assert_ballots_secret(ref, view)


def assert_ballots_secret(ref: Reference, view: Any) -> None:
    """While a vote is open, a view counts the ballots cast but shows none of them."""
    if ref.window is not None and ref.window.kind == "vote":
        assert view["window"]["play"]["votes"] == []
        assert view["window"]["play"]["votes_cast"] == len(ref.trick[-1].ballots)
        assert view["trick"]["plays"][-1]["votes"] == []


def shown_ballots(view: Any) -> list[list[Any]]:
    """The ballots of the last argument voted on, as the public view shows them once the
    vote is closed: in the trick, the last trick, or the recap of the deal."""
    if view["trick"] and view["trick"]["plays"]:
        return list(view["trick"]["plays"][-1]["votes"])
    if view["phase"] == "play":
        return list(view["last_trick"]["plays"][-1]["votes"])
    return [[v["seat"], v["counts"]] for v in view["recap"]["tricks"][-1]["plays"][-1]["votes"]]


def probe_moves(ref: Reference, table: ParloteState, rng: random.Random) -> None:
    """Moves of every kind, from every seat and the clock: the engine accepts exactly those
    the reference allows (tried on copies), and the refused ones leave no trace (tried on
    the table itself, which must come out of them unchanged)."""
    before = table.snapshot()
    first, second = rng.sample(COLOURS, 2)
    high = ref.high[1] if ref.high else 70
    amounts = (70, 80, 85, 150, 160, CAPOT, min(high + 10, 150))
    moves: list[Action] = [Bid(a, (first, second)) for a in amounts]
    moves += [Bid(100, (first, first)), Bid(100, ("pas-une-couleur", first))]
    moves += [ClaimLiar(), Draw(0), Draw(1), Draw(2), Pass(), Coinche(), Contest(), LetPass()]
    moves += [Vote(True), Vote(False), Judge(True), Judge(False), Clock()]
    arguments = ["", "   ", "Un argument.", "x" * MAX_ARGUMENT, "x" * (MAX_ARGUMENT + 1)]
    for seat in [*range(ref.players), None]:
        cards = [rng.choice(sorted(ref.selection))]
        if seat is not None and seat < PLAYERS and ref.hands[seat]:
            cards.append(rng.choice(sorted(ref.hands[seat])))
        for action in [*moves, *(Play(c, rng.choice(arguments)) for c in cards)]:
            allowed = ref.allows(seat, action)
            try:
                (table.clone() if allowed else table).apply(seat, action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == allowed, (ref.phase, seat, action)
    assert table.snapshot() == before, "a refused move left a trace"


# --------------------------------------------------------------------------- driving


@dataclass(frozen=True)
class Style:
    """How the random players lean: probabilities, and deals played in a set way."""

    clock: float = 0.08  # the clock strikes during the bidding and the tricks
    early_clock: float = 0.1  # the clock strikes on the « moi ! » buttons or the draw
    bid: float = 0.35  # the bidder bids rather than passes
    capot: float = 0.05  # a bid is the capot
    coinche: float = 0.04  # an opponent of the highest bid coinches now
    argue: float = 0.6  # a card comes with an argument
    steer_every: int = 0  # every n-th deal only the bidders argue (0: never)
    silent_every: int = 0  # every n-th deal, from the second, all four pass (0: never)

    def steers(self, deal: int) -> bool:
        return self.steer_every > 0 and deal % self.steer_every == 0

    def silent(self, deal: int) -> bool:
        return self.silent_every > 0 and deal % self.silent_every == 1


PLAIN = Style()
BOLD = Style(
    clock=0.05,
    early_clock=0.3,
    bid=0.5,
    capot=0.12,
    coinche=0.1,
    argue=0.5,
    steer_every=2,
    silent_every=3,
)

ARGUMENTS = ("Un argument qui tient debout.", "x" * MAX_ARGUMENT, " Bref. ")
NO_ARGUMENTS = ("", "  \n ")


def choose(
    table: ParloteState, ref: Reference, style: Style, rng: random.Random
) -> tuple[int | None, Action]:
    """A move of a random player leaning as `style` says, or the clock."""
    actors = table.actors()
    clock = style.early_clock if ref.phase in ("liar", "draw") else style.clock
    if not actors or rng.random() < clock:
        return None, Clock()
    deal = len(ref.results) + ref.redeals
    if ref.phase == "bidding":
        coinchers = [s for s in actors if ("coinche",) in ref.legal_keys(s)]
        if coinchers and rng.random() < style.coinche:
            return rng.choice(coinchers), Coinche()
        current = ref.high[1] if ref.high else 0
        if current < CAPOT and not style.silent(deal) and rng.random() < style.bid:
            over = [a for a in AMOUNTS if a > current]
            amount = CAPOT if rng.random() < style.capot else rng.choice(over)
            first, second = rng.sample(COLOURS, 2)
            return ref.turn, Bid(amount, (first, second))
        return ref.turn, Pass()
    seat = rng.choice(actors)
    action = rng.choice(table.legal_actions(seat))
    if isinstance(action, Play):
        contract = ref.contract
        assert contract is not None
        if ref.argument_required:
            argue = True
        elif style.steers(deal):
            argue = team_of(seat) == team_of(contract.seat)
        else:
            argue = rng.random() < style.argue
        argument = rng.choice(ARGUMENTS if argue else NO_ARGUMENTS)
        return seat, Play(action.card, argument)
    return seat, action


def tally_move(tally: Counter[str], ref: Reference, seat: int | None, action: Action) -> None:
    """What the move exercises (counted before the reference follows it)."""
    if isinstance(action, Clock):
        tally[f"clock in {ref.phase}"] += 1
    elif isinstance(action, Coinche):
        tally["coinche"] += 1
        if ref.high is not None and ref.high[1] == CAPOT:
            tally["capot coinched"] += 1
        if seat != ref.turn:
            tally["coinche out of turn"] += 1
    elif isinstance(action, Bid) and action.amount == CAPOT:
        tally["capot bid"] += 1
    elif isinstance(action, Contest):
        tally["contest"] += 1
    elif isinstance(action, Judge) and not action.counts:
        tally["rejected by the judge"] += 1


def tally_deal(tally: Counter[str], ref: Reference, contract: Contract) -> None:
    result = ref.results[-1]
    kind = "capot" if contract.amount == CAPOT else "contract"
    tally[f"{kind} {'made' if result.made else 'failed'}"] += 1
    if contract.coinched:
        tally["coinched deal"] += 1


def play_and_compare(
    players: int,
    options: dict[str, JSON],
    seed: int,
    style: Style,
    probe_every: int,
    views_every: int,
    tally: Counter[str] | None = None,
) -> Counter[str]:
    """One seeded game, engine and reference side by side, to its end."""
    tally = Counter() if tally is None else tally
    table = GAME.new(players, seed, options)
    assert isinstance(table, ParloteState)
    ref = Reference(players, table.mode, table.target, argument_required=table.argument_required)
    ref.see_selection(table.selection)
    rng = random.Random(seed)
    probe_rng = random.Random(-seed)
    for step in range(5000):
        ref.see_table(table)
        assert_agree(ref, table)
        if step % probe_every == 0:
            probe_moves(ref, table, probe_rng)
        if step % views_every == 0:
            assert_views_hide_secrets(ref, table)
        elif (
            ref.window is not None and ref.window.kind == "vote" and len(ref.trick[-1].ballots) == 1
        ):
            for viewer in [*range(ref.players), None]:
                assert_ballots_secret(ref, table.view(viewer))
        if table.is_over():
            break
        seat, action = choose(table, ref, style, rng)
        tally_move(tally, ref, seat, action)
        piles_before = [list(p) for p in table.piles]
        contract, deals, redeals = ref.contract, len(ref.results), ref.redeals
        table.apply(seat, action)
        ref.follow(seat, action, table, piles_before)
        if ref.closed_vote is not None:
            ballots, rejected = ref.closed_vote
            assert shown_ballots(table.view(None)) == [list(b) for b in ballots]
            tally["rejected by a vote" if rejected else "kept by a vote"] += 1
        if len(ref.results) > deals:
            assert contract is not None
            assert_deal_result(ref, table)
            tally_deal(tally, ref, contract)
        tally["redeal"] += ref.redeals - redeals
    else:
        pytest.fail(f"seed {seed}: the game did not end")
    tally["games"] += 1
    tally["deals"] += len(ref.results)
    return tally


# --------------------------------------------------------------------------- tests

TABLES: dict[str, tuple[int, dict[str, JSON]]] = {
    "jury": (4, {"mode": "jury"}),
    "honneur": (4, {"mode": "honneur"}),
    "arbitre-4": (4, {"mode": "arbitre"}),
    "arbitre-5": (5, {"mode": "arbitre"}),
    "jury-argument-required": (4, {"mode": "jury", "argument_required": True}),
}
TARGETS = (300, 600, 1000)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_the_engine_plays_as_the_documents_say(table: str, seed: int) -> None:
    """Random players at each kind of table, to a few targets."""
    players, options = TABLES[table]
    target = TARGETS[seed % len(TARGETS)]
    play_and_compare(
        players, {**options, "target": target}, seed, PLAIN, probe_every=6, views_every=15
    )


def test_bids_coinches_and_capots_as_the_documents_say() -> None:
    """Players who bid often, call the capot, coinche, and every other deal let only the
    bidders argue (so that capots are made as well as failed); every third deal, from the
    second, all four pass. Every path listed below must have been taken."""
    tally: Counter[str] = Counter()
    for seed in range(100, 106):
        for players, options in TABLES.values():
            play_and_compare(
                players,
                {**options, "target": 800},
                seed,
                BOLD,
                probe_every=12,
                views_every=30,
                tally=tally,
            )
    exercised = (
        "coinche",
        "coinche out of turn",
        "capot bid",
        "capot coinched",
        "capot made",
        "capot failed",
        "contract made",
        "contract failed",
        "coinched deal",
        "redeal",
        "contest",
        "rejected by a vote",
        "kept by a vote",
        "rejected by the judge",
        "clock in liar",
        "clock in draw",
        "clock in bidding",
        "clock in play",
    )
    missing = [name for name in exercised if not tally[name]]
    assert not missing, (missing, tally)
