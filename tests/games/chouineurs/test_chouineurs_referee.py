"""The Chouineurs engine against a second, independent reading of its rules.

Why this file exists: every other Chouineurs test was written next to the engine, by the
same hands, so a rule misread in `rules.py` is easily misread again in its tests. The
reference below was written from the documents only (`shared/sources/chouineurs.txt`, the
publisher's text, and `shared/rules/chouineurs.md`, the decisions where it is silent), not
from the engine. It is deliberately plain: its own deck, bet tables, follow rule, trick
winner, crybabies, next round's leader and final ranking, over card codes and the ends the
views show ("bleu", 15).

Seeded random games at 3, 4 and 5 players are played through the engine's public surface
(`new`, `legal_actions`, `apply`, `view`, and the state's deal, reserve and tokens to
observe the cards); the reference replays every accepted move and the two must agree at
every step: the deal, the set-up choices offered, who acts, the legal moves, the trick's
winner, the crybabies and their options, the tokens drawn from the top of the reserve, the
reveal of the bets, the round's scores, the next leader, the final ranking, and what each
seat may not see. Moves the rules forbid (a card that does not follow, a token from an
empty reserve, a bet card already won) must be refused by `apply` as well. One run plays
low cards and takes a token whenever it can, so the reserve runs dry and the rule "empty
reserve: turn a card" is played.

Nothing here imports the engine's rule functions (`rules.py`): that would compare the
engine with itself. Where the two disagree, read the documents again before changing
either side: the reference can be the one that is wrong.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from choux.engine import Action, IllegalAction, InvalidOptions
from choux.games.chouineurs import GAME
from choux.games.chouineurs.actions import Cry, Play, Prepare

# data only: card ids -> codes (to name the reserve), the engine's deck (compared below)
from choux.games.chouineurs.deck import CARD_CODES, CARDS, COLOUR_NAMES
from choux.games.chouineurs.state import ChouineursState

# =========================================================================== the reference

End = tuple[str, int]  # (colour, number) as the views write an end: ("bleu", 15)
Card = tuple[End, End]  # both ends of a card, sorted (a card has no preferred end)

BLACK, YELLOW, BLUE, RED = "noir", "jaune", "bleu", "rouge"
ROUNDS = 4
HAND_SIZE = 7
DECK_SIZE = 44
ORIENTATIONS = ("endroit", "envers")  # as dealt / every card turned

#: bet card -> {tricks: points} (rules decisions, "Bet cards")
BETS: dict[str, dict[int, int]] = {
    "orange": {0: 8, 1: 3},
    "vert": {0: 2, 1: 8, 2: 5},
    "rouge": {1: 4, 2: 8, 3: 4},
    "bleu": {2: 3, 3: 9, 4: 4},
    "violet": {3: 5, 4: 10},
}
#: bet card -> the count of tricks from which "or more" scores the same
OR_MORE = {"violet": 4}


def card(a: End, b: End) -> Card:
    """A card as the sorted pair of its ends."""
    first, second = sorted((a, b))
    return first, second


def document_deck() -> Counter[Card]:
    """The 44 cards as the rules decisions list them ("The 44 cards")."""
    cards: list[Card] = []
    dragons = [(5, 1), (5, 1), (4, 2), (4, 2), (3, 3), (3, 3), (2, 4), (2, 4), (1, 5), (1, 5)]
    for i, (black, other) in enumerate(dragons):  # alternating blue, red
        cards.append(card((BLACK, black), (BLUE if i % 2 == 0 else RED, other)))
    magicians = [(9, 6), (8, 7), (7, 8), (6, 9), (5, 10), (4, 11), (3, 12), (2, 13), (1, 14)]
    for colour in (BLUE, RED):  # each pair once with blue and once with red
        cards.extend(card((YELLOW, yellow), (colour, other)) for yellow, other in magicians)
    royals = [(15, 1), (15, 2), (14, 3), (13, 4), (12, 5), (11, 6), (10, 7), (9, 8)]
    royals += [(8, 9), (7, 10), (6, 11), (5, 12), (4, 13), (3, 14), (2, 15), (1, 15)]
    cards.extend(card((BLUE, blue), (RED, red)) for blue, red in royals)
    return Counter(cards)


DECK = document_deck()


def other_end(pair: Card, shown: End) -> End:
    """The end of the card that is not `shown` (the two ends always differ in colour)."""
    return pair[1] if pair[0] == shown else pair[0]


def bet_points(bet: str | None, tricks: int) -> int:
    """Points of a bet card for `tricks` tricks; 0 when it misses or when there is no bet."""
    if bet is None:
        return 0
    floor = OR_MORE.get(bet)
    if floor is not None and tricks >= floor:
        return BETS[bet][floor]
    return BETS[bet].get(tricks, 0)


def playable(hand: dict[str, End], led: str | None) -> set[str]:
    """Codes that may be played: follow the led colour if you can, black is always
    allowed, a player who cannot follow plays anything; the leader plays anything."""
    if led is None or all(colour != led for colour, _ in hand.values()):
        return set(hand)
    return {code for code, (colour, _) in hand.items() if colour in (led, BLACK)}


def trick_winner(ends: list[End]) -> int:
    """Index of the winning end: highest black, else highest yellow, else highest of the
    led colour; between identical ends the first played wins."""
    led = ends[0][0]

    def strength(end: End) -> tuple[int, int]:
        colour, number = end
        tier = {BLACK: 3, YELLOW: 2}.get(colour, 1 if colour == led else 0)
        return tier, number if tier else 0

    best = 0
    for i in range(1, len(ends)):
        if strength(ends[i]) > strength(ends[best]):
            best = i
    return best


def crybabies(ends: list[End]) -> list[int]:
    """Indices of every end showing the trick's lowest number, whatever its colour."""
    low = min(number for _, number in ends)
    return [i for i, (_, number) in enumerate(ends) if number == low]


def next_round_leader(scores: list[int], previous: int) -> int:
    """The highest score leads; a tie goes to the first tied player after the previous
    round's leader in play order (the previous leader comes last)."""
    n = len(scores)
    top = max(scores)
    return next(s for s in ((previous + k) % n for k in range(1, n + 1)) if scores[s] == top)


def final_ranks(totals: list[int], last_round: list[int]) -> list[int]:
    """Rank 1 is most points; ties broken by the points of round 4; still tied: shared."""
    keys = list(zip(totals, last_round, strict=True))
    return [1 + sum(other > key for other in keys) for key in keys]


# =========================================================================== the referee


@dataclass(frozen=True)
class Move:
    """A move as the reference names it: "prepare" (orientation, bet), "play" or "turn"
    (a card code), "token"."""

    kind: str
    code: str = ""
    orientation: str = ""
    bet: str | None = None


def move_of(action: Action) -> Move:
    """The reference's name for an engine action."""
    if isinstance(action, Prepare):
        return Move("prepare", orientation=action.orientation, bet=action.bet)
    if isinstance(action, Play):
        return Move("play", action.card)
    assert isinstance(action, Cry), action
    return Move("token") if action.token else Move("turn", str(action.turn))


def end_of(data: dict[str, object]) -> End:
    """An end as the views write it, {"colour": "bleu", "value": 15}."""
    colour, value = data["colour"], data["value"]
    assert isinstance(colour, str) and isinstance(value, int)
    return colour, value


QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')  # a JSON string, quotes excluded


class Referee:
    """The reference's own account of one game, fed with every move the engine accepted.
    It sees only what a table would: each seat's hand when dealt, the reserve's order
    (to know which card a token takes), and the moves."""

    def __init__(self, state: ChouineursState) -> None:
        n = state.n
        self.n = n
        self.cards: dict[str, Card] = {}  # code -> both ends, learnt from the views
        self.scores = [0] * n
        self.bets_left = [set(BETS) for _ in range(n)]
        self.sheet: list[list[dict[str, object]]] = []
        self.round = 0
        self.round_leader = state.chance[0]["first_leader"]  # "a random player leads"
        assert self.round_leader in range(n)
        self.last_trick: dict[str, object] | None = None
        self.ranks: list[int] | None = None
        self.seen: Counter[str] = Counter()  # situations met, for the tests' coverage
        self.observe_deal(state)

    # ------------------------------------------------------------------ a round

    def observe_deal(self, state: ChouineursState) -> None:
        """A new round: read each hand from its owner's view and the reserve; check the
        cards are the documents' and that nothing is missing or doubled."""
        n = self.n
        self.round += 1
        self.phase = "choix"
        self.hands: list[dict[str, End]] = []
        for seat in range(n):
            hand: dict[str, End] = {}
            for entry in state.view(seat)["hand"]:
                top, bottom = end_of(entry["top"]), end_of(entry["bottom"])
                pair = card(top, bottom)
                assert pair in DECK, f"{entry['card']} is no card of the documents"
                assert self.cards.setdefault(entry["card"], pair) == pair, "a card changed"
                hand[entry["card"]] = top
            assert len(hand) == HAND_SIZE, "7 cards each"
            self.hands.append(hand)
        self.reserve = [CARD_CODES[c] for c in state.reserve]  # face down, its top last
        dealt = [code for hand in self.hands for code in hand]
        assert len(self.reserve) == DECK_SIZE - HAND_SIZE * n, "the rest is the reserve"
        assert sorted(dealt + self.reserve) == sorted(CARD_CODES), "one deck of 44 cards"
        assert Counter(self.cards.values()) <= DECK, "more copies of a card than the deck"
        self.choices: list[tuple[str, str | None] | None] = [None] * n
        self.revealed = False
        self.leader = self.round_leader
        self.trick: list[tuple[int, str, End]] = []
        self.tricks_played = 0
        self.tricks_won = [0] * n
        self.token_cards: list[list[str]] = [[] for _ in range(n)]
        self.cry_queue: list[int] = []

    def record(self, seat: int, move: Move) -> None:
        """Apply a move the engine accepted to the reference's own account."""
        kind = move.kind
        if kind == "prepare":
            self.choices[seat] = (move.orientation, move.bet)
            if move.orientation == "envers":
                hand = self.hands[seat]
                for code, end in hand.items():
                    hand[code] = other_end(self.cards[code], end)
            if all(self.choices):
                self.phase = "jeu"
        elif kind == "play":
            self.revealed = True  # bets and orientations show from the first lead
            self.trick.append((seat, move.code, self.hands[seat].pop(move.code)))
            if len(self.trick) == self.n:
                self.finish_trick()
        elif kind == "token":
            self.take_token(seat)
            self.next_crybaby()
        else:
            hand = self.hands[seat]
            hand[move.code] = other_end(self.cards[move.code], hand[move.code])
            self.seen["cry with the reserve empty"] += not self.reserve
            self.next_crybaby()

    def take_token(self, seat: int) -> None:
        """ "Pleurer pour 1 point": the top card of the reserve goes under the bet."""
        self.token_cards[seat].append(self.reserve.pop())

    def next_crybaby(self) -> None:
        """The next crybaby chooses; after the last one, the trick's winner leads."""
        del self.cry_queue[0]
        if not self.cry_queue:
            self.phase = "jeu"

    def finish_trick(self) -> None:
        """Winner, crybabies (whose bonus comes before the next lead); after the 7th trick
        the crybabies have no card to turn and take a token while the reserve lasts."""
        seats = [seat for seat, _, _ in self.trick]
        ends = [end for _, _, end in self.trick]
        winner = seats[trick_winner(ends)]
        crying = [seats[i] for i in crybabies(ends)]
        self.last_trick = {
            "cards": [
                {"seat": s, "end": {"colour": c, "value": v}}
                for s, (c, v) in zip(seats, ends, strict=True)
            ],
            "winner": winner,
            "crybabies": crying,
        }
        self.seen[f"{len(crying)} crybabies"] += 1
        self.seen["winner cries"] += winner in crying
        self.tricks_won[winner] += 1
        self.tricks_played += 1
        self.trick = []
        self.leader = winner
        if self.tricks_played < HAND_SIZE:
            self.phase = "chouine"
            self.cry_queue = list(crying)  # the last trick keeps its own list
            return
        for seat in crying:  # empty hands: only the token is left, while the reserve lasts
            if self.reserve:
                self.take_token(seat)
            else:
                self.seen["last trick, reserve empty"] += 1
        self.score_round()

    def score_round(self) -> None:
        """Bet points plus one per token; a hit bet card leaves the game; the next round's
        leader, or the final ranking after round 4."""
        rows: list[dict[str, object]] = []
        totals: list[int] = []
        for seat in range(self.n):
            choice = self.choices[seat]
            assert choice is not None
            bet = choice[1]
            tricks = self.tricks_won[seat]
            points = bet_points(bet, tricks)
            tokens = len(self.token_cards[seat])
            total = points + tokens
            rows.append(
                {
                    "bet": bet,
                    "tricks": tricks,
                    "bet_points": points,
                    "hit": points > 0,
                    "tokens": tokens,
                    "total": total,
                }
            )
            totals.append(total)
            self.scores[seat] += total
            if bet is not None and points:  # a hit bet leaves the game, a missed one comes back
                self.bets_left[seat].discard(bet)
        self.sheet.append(rows)
        if self.round == ROUNDS:
            self.phase = "fin"
            self.ranks = final_ranks(self.scores, totals)
            self.seen["tie on points at the end"] += self.scores.count(max(self.scores)) > 1
            return
        top = max(self.scores)
        self.seen["tie for the next lead"] += self.scores.count(top) > 1
        self.round_leader = next_round_leader(self.scores, self.round_leader)
        self.phase = "deal"  # the engine deals; observe_deal reads it

    # ------------------------------------------------------------------ what the engine must show

    def expected_actors(self) -> tuple[int, ...]:
        """Who may act now: every seat yet to choose, the next player, or the crybaby."""
        if self.phase == "choix":
            return tuple(s for s in range(self.n) if self.choices[s] is None)
        if self.phase == "jeu":
            return ((self.leader + len(self.trick)) % self.n,)
        if self.phase == "chouine":
            return (self.cry_queue[0],)
        return ()

    def expected_moves(self, seat: int) -> set[Move]:
        """The legal moves of `seat` now, by the documents."""
        if seat not in self.expected_actors():
            return set()
        hand = self.hands[seat]
        if self.phase == "choix":
            bets: list[str | None] = [*self.bets_left[seat]] or [None]  # no card left: no bet
            return {Move("prepare", orientation=o, bet=b) for o in ORIENTATIONS for b in bets}
        if self.phase == "jeu":
            led = self.trick[0][2][0] if self.trick else None
            return {Move("play", code) for code in playable(hand, led)}
        moves = {Move("turn", code) for code in hand}
        if self.reserve:  # an empty reserve leaves only the turn of a card
            moves.add(Move("token"))
        return moves

    def check(self, state: ChouineursState, viewers: list[int | None]) -> None:
        """Compare the engine with the reference: who acts and may do what, the cards
        where they are, and the public view (plus the own hand) of each of `viewers`."""
        n = self.n
        assert state.is_over() == (self.phase == "fin")
        assert tuple(state.actors()) == self.expected_actors(), "who acts"
        for seat in range(n):
            got = {move_of(a) for a in state.legal_actions(seat)}
            assert got == self.expected_moves(seat), f"legal moves of seat {seat}"
        assert [CARD_CODES[c] for c in state.reserve] == self.reserve, "the reserve"
        tokens = [[CARD_CODES[c] for c in t] for t in state.token_cards]
        assert tokens == self.token_cards, "tokens come from the top of the reserve"
        for viewer in viewers:
            self.check_view(state.view(viewer), viewer)

    def check_view(self, view: dict[str, Any], viewer: int | None) -> None:
        """The view of `viewer` (None: a spectator) shows the reference's table."""
        hand = self.hands[viewer] if viewer is not None else {}
        shown = {entry["card"]: end_of(entry["top"]) for entry in view["hand"]}
        assert shown == hand, "the viewer's hand and the ends it shows"
        public = {
            "phase": self.phase,
            "round": self.round,
            "scores": self.scores,
            "bets_left": [sorted(b) for b in self.bets_left],
            "hand_counts": [len(h) for h in self.hands],
            "reserve": len(self.reserve),
            "ready": [c is not None for c in self.choices],
            "revealed": self.revealed,
            "bets": [c[1] if c and self.revealed else None for c in self.choices],
            "orientations": [c[0] if c and self.revealed else None for c in self.choices],
            "tokens": [len(t) for t in self.token_cards],
            "tricks_won": self.tricks_won,
            "round_leader": self.round_leader,
            "leader": self.leader,
            "turn": self.expected_actors()[0] if self.phase == "jeu" else None,
            "trick": [
                {"seat": s, "card": code, "end": {"colour": c, "value": v}}
                for s, code, (c, v) in self.trick
            ],
            "led_colour": self.trick[0][2][0] if self.trick else None,
            "crybaby": {"seat": self.cry_queue[0], "waiting": self.cry_queue[1:]}
            if self.phase == "chouine"
            else None,
            "last_trick": self.last_trick,
            "sheet_rows": self.sheet,
        }
        got = {key: view[key] for key in public if key != "sheet_rows"}
        got["bets_left"] = [sorted(b) for b in view["bets_left"]]
        got["sheet_rows"] = [entry["rows"] for entry in view["sheet"]]
        assert got == public
        mine = self.choices[viewer] if viewer is not None and not self.revealed else None
        expected_choice = None if mine is None else {"orientation": mine[0], "bet": mine[1]}
        choice = view["my_choice"]
        assert (choice and {k: choice[k] for k in ("orientation", "bet")}) == expected_choice
        if self.ranks is not None:
            assert view["outcome"]["scores"] == self.scores
            assert view["outcome"]["ranks"] == self.ranks

    def check_secrets(self, state: ChouineursState) -> None:
        """No view names a card its viewer may not know (others' hands, the reserve, the
        tokens) nor what the engine itself declares secret (others' hidden choices); the
        public part of each view is compared too (bets and orientations stay None until
        the reveal, `my_choice` is the viewer's own)."""
        for viewer in [*range(self.n), None]:
            secret = {code for t in self.token_cards for code in t} | set(self.reserve)
            for seat, hand in enumerate(self.hands):
                if seat != viewer:
                    secret |= set(hand)
            view = state.view(viewer)
            strings = set(QUOTED.findall(json.dumps(view)))  # every string and key
            leaked = strings & (secret | state.secrets(viewer))
            assert not leaked, f"the view of seat {viewer} shows {sorted(leaked)}"
            self.check_view(view, viewer)


# =========================================================================== the driver

Chooser = Callable[[random.Random, list[Action], Referee], Action]


def uniform(rng: random.Random, actions: list[Action], referee: Referee) -> Action:
    """Any legal move, each as likely."""
    return rng.choice(actions)


def crying_for_tokens(rng: random.Random, actions: list[Action], referee: Referee) -> Action:
    """Cry often and take the reserve's cards: mostly play the lowest number one may (ties
    for the lowest make several crybabies) and always take a token while there is one, so
    the reserve runs dry before the round ends."""
    tokens = [a for a in actions if isinstance(a, Cry) and a.token]
    if tokens:
        return tokens[0]
    plays = [a for a in actions if isinstance(a, Play)]
    if plays and rng.random() < 0.8:
        hand = referee.hands[referee.expected_actors()[0]]  # the player to play
        return min(plays, key=lambda a: hand[a.card][1])
    return rng.choice(actions)


def probe_refusals(state: ChouineursState, referee: Referee, seat: int) -> None:
    """Moves the documents forbid are refused by `apply` too, not only left out of
    `legal_actions`: a card that does not follow, a token from an empty reserve, a bet card
    already won. A refusal changes nothing (the next check would see it)."""
    if referee.phase == "jeu":
        allowed = {move.code for move in referee.expected_moves(seat)}
        for code in sorted(set(referee.hands[seat]) - allowed)[:1]:
            with pytest.raises(IllegalAction):
                state.apply(seat, Play(code))
    elif referee.phase == "chouine" and not referee.reserve:
        with pytest.raises(IllegalAction):
            state.apply(seat, Cry(token=True))
    elif referee.phase == "choix":
        for bet in sorted(set(BETS) - referee.bets_left[seat])[:1]:
            with pytest.raises(IllegalAction):
                state.apply(seat, Prepare("endroit", bet))


def new_game(players: int, seed: int) -> ChouineursState:
    """A new seeded game, dealt."""
    state = GAME.new(players, seed)
    assert isinstance(state, ChouineursState)
    return state


def play_one_game(players: int, seed: int, choose: Chooser, sweep_every: int) -> Referee:
    """Play a seeded game, the reference checking the engine before and after each move;
    the secrecy sweep over every view runs every `sweep_every` moves."""
    state = new_game(players, seed)
    rng = random.Random(seed)
    referee = Referee(state)
    step = 0
    try:
        while not state.is_over():
            seat = rng.choice(state.actors())  # the set-up choice is made in any order
            referee.check(state, [seat])
            if step % sweep_every == 0:
                referee.check_secrets(state)
            probe_refusals(state, referee, seat)
            action = choose(rng, state.legal_actions(seat), referee)
            state.apply(seat, action)
            referee.record(seat, move_of(action))
            if referee.phase == "deal":
                referee.observe_deal(state)
            step += 1
        referee.check(state, [*range(players), None])
        outcome = state.outcome()
        assert outcome is not None
        assert list(outcome.scores) == referee.scores
        assert list(outcome.ranks) == referee.ranks
        assert referee.round == ROUNDS and len(referee.sheet) == ROUNDS
    except AssertionError as error:
        error.add_note(f"{players} players, seed {seed}, step {step}, round {referee.round}")
        raise
    return referee


# =========================================================================== the tests


def test_the_engine_has_the_documents_44_cards() -> None:
    engine_deck = Counter(
        card((COLOUR_NAMES[a[0]], a[1]), (COLOUR_NAMES[b[0]], b[1])) for a, b in CARDS
    )
    assert engine_deck == DECK
    assert sum(DECK.values()) == DECK_SIZE


@pytest.mark.parametrize("players", [2, 6])
def test_three_to_five_players(players: int) -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(players, 1)


def test_a_random_player_leads_the_first_round() -> None:
    leaders = Counter(Referee(new_game(4, seed)).round_leader for seed in range(40))
    assert sorted(leaders) == [0, 1, 2, 3]


GAMES = 8  # per number of players and policy: the whole file takes about 3 s of CPU


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_agree_with_the_reference(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        seen += play_one_game(players, seed, uniform, sweep_every=10).seen
    # the games met the cases that matter (else the comparison proves little)
    assert seen["2 crybabies"] and seen["winner cries"] and seen["tie for the next lead"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_games_that_exhaust_the_reserve_agree_with_the_reference(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(1000, 1000 + GAMES):
        seen += play_one_game(players, seed, crying_for_tokens, sweep_every=10).seen
    assert seen["3 crybabies"]
    if players == 5:  # 9 cards in the reserve (16 at 4 players, 23 at 3: rarely or never dry)
        assert seen["cry with the reserve empty"] and seen["last trick, reserve empty"]
