"""Bots of La parlote coinchée: « random » (the easiest level) and « greedy ».

Both write their arguments from the per-card templates of the content, filled with the
scenario's listener and stakes, and both vote honestly: an argument counts unless it is
empty or off-topic by a simple check (`on_topic`). The random bot never contests.

In the fifth (arbiter) seat both judge by the same honest check: a referee tossing a coin
sank people's good arguments at tables where a friend met the easiest robot.

The random bot bids only the smallest amount it may and rarely coinches: bidding at random
up to the capot, it made none of 22 contracts in an audit and handed its human partner's
opponents 820 points in one deal (the rules want bids « by sound heuristics »).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence

from choux.engine.base import Action, BotMove, Seat, State
from choux.games.parlote import data, rules
from choux.games.parlote.actions import (
    Bid,
    ClaimLiar,
    Coinche,
    Contest,
    Draw,
    Judge,
    LetPass,
    Pass,
    Play,
    Vote,
)
from choux.games.parlote.content import Card, Scenario, cards_index, content, scenarios_index
from choux.games.parlote.records import COUNTS, PENDING
from choux.games.parlote.state import BIDDING, DRAW, LIAR, PLAY, ParloteState

#: what a distracted player says: never on topic, so that honest voters reject it
OFF_TOPIC = (
    "Euh… j'ai oublié ce que je voulais dire.",
    "Bref, vous voyez l'idée.",
    "Joker !",
    "Hmm. Passons.",
)

STOP_WORDS = frozenset(
    [
        "alors",
        "apres",
        "avant",
        "avec",
        "comme",
        "dans",
        "depuis",
        "entre",
        "jusqu",
        "pendant",
        "plutot",
        "pour",
        "sans",
        "sous",
        "toute",
        "toutes",
        "tous",
        "tout",
        "juste",
        "meme",
        "notre",
        "votre",
        "leurs",
        "cette",
        "celui",
        "celle",
        "chaque",
        "encore",
        "jamais",
        "moins",
        "plus",
        "bien",
        "quand",
        "quoi",
        "rien",
    ]
)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> set[str]:
    cleaned = "".join(c if c.isalnum() else " " for c in _fold(text))
    return {w for w in cleaned.split() if w not in STOP_WORDS}


def _stem(word: str) -> str:
    """A word's first five letters, its plural dropped: « réunions » meets « réunion »,
    « chante » meets « chanter »."""
    return word.rstrip("sx")[:5] if len(word) > 4 else word


#: the bots' own lines, folded: what the check must always find off topic
_OFF_TOPIC_FOLDED = frozenset(" ".join(sorted(_words(line))) for line in OFF_TOPIC)
#: their words: a filler with a word or two added is still a filler
_FILLER_WORDS = frozenset(w for line in OFF_TOPIC for w in _words(line))


def _wordlike(word: str) -> bool:
    """Four letters or more, three of them different, a vowel among them: « loup », not
    « aaaa », « haha » or « 1234 »."""
    return (
        len(word) >= 4
        and word.isalpha()
        and len(set(word)) >= 3
        and any(c in "aeiouy" for c in word)
    )


def on_topic(argument: str, scenario: Scenario) -> bool:
    """The bots' simple check, generous with people: an argument counts unless it is empty,
    a word said over and over, or a known filler; one that names the listener, the speaker
    or a word of the stakes (accents, case and plurals ignored) counts at once, and so does
    a real sentence (four different words of four letters or more) that names none of them:
    « Le loup ? Il n'existe pas, personne ne l'a jamais prouvé. » is about the forest.

    >>> from choux.games.parlote.content import scenarios_index
    >>> monday = next(s for s in scenarios_index().values() if "lundi" in s.enjeu)
    >>> on_topic("Franchement, personne n'aime ces réunions, donc on arrête !", monday)
    True
    >>> on_topic("Clara, Clara, Clara, Clara !", monday), on_topic("Joker !", monday)
    (False, False)
    """
    if len(argument.strip()) < 10:
        return False
    words = _words(argument)
    if " ".join(sorted(words)) in _OFF_TOPIC_FOLDED:
        return False
    content = {w for w in words if _wordlike(w)} - _FILLER_WORDS
    if len(content) < 2 and len(words) < 4:  # « Clara, Clara, Clara ! »
        return False
    keys = {_stem(w) for w in _words(scenario.enjeu) if len(w) >= 5}
    keys |= {_stem(w) for w in _words(scenario.public) if len(w) >= 4}
    keys |= {_stem(w) for w in _words(scenario.orateur) if len(w) >= 4}
    if keys & {_stem(w) for w in words if len(w) >= 4}:  # « Papa » names the listener
        return True
    return len(content) >= 4


def fill(template: str, scenario: Scenario) -> str:
    """A template with the scenario's listener and stakes; at most 280 characters."""
    public = scenario.public
    text = (
        template.replace("{Public}", public[:1].upper() + public[1:])
        .replace("{public}", public)
        .replace("{enjeu}", scenario.enjeu)
    )
    if len(text) > data.MAX_ARGUMENT:
        text = text[: data.MAX_ARGUMENT - 1].rsplit(" ", 1)[0] + "…"
    return text


class _Base:
    """Shared habits: arguing without repeating oneself, voting honestly."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.recent: list[str] = []

    def argue(self, code: str, scenario: Scenario) -> str:
        templates = list(cards_index()[code].templates)
        fresh = [t for t in templates if t not in self.recent] or templates
        template = self.rng.choice(fresh)
        self.recent = ([*self.recent, template])[-12:]
        return fill(template, scenario)

    def honest(self, state: ParloteState) -> bool:
        assert state.scenario is not None
        return on_topic(state.trick[-1].argument, scenarios_index()[state.scenario])

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        """« Moi ! » half the time before the first deal, after a human pause; every other
        choice is the level's `decide`."""
        assert isinstance(state, ParloteState)
        legal = state.legal_actions(seat)
        if not legal:
            return None
        if state.phase == LIAR:
            return (
                BotMove(ClaimLiar(), self.rng.uniform(0.5, 4)) if self.rng.random() < 0.5 else None
            )
        return self.decide(state, seat, legal)

    def decide(self, state: ParloteState, seat: Seat, legal: list[Action]) -> BotMove | None:
        """The level's choice among `legal` (not empty), outside the « moi ! » phase."""
        raise NotImplementedError

    def window_move(self, state: ParloteState, seat: Seat) -> BotMove | None:
        """Votes and verdicts, shared by both levels."""
        assert state.window is not None
        if state.window.kind == "vote":
            return BotMove(Vote(self.honest(state)), 1.0)
        if state.window.kind == "judge":
            return BotMove(Judge(self.honest(state)), 1.0)
        return None


class RandomParloteBot(_Base):
    """Random legal choices, with arguments: the easiest level (never contests)."""

    def decide(self, state: ParloteState, seat: Seat, legal: list[Action]) -> BotMove | None:
        if state.phase == DRAW:
            return BotMove(self.rng.choice(legal))
        if state.phase == BIDDING:
            if seat != state.turn:
                return BotMove(Coinche(), 2.0) if self.rng.random() < 0.02 else None
            bids = [a for a in legal if isinstance(a, Bid)]
            if bids and self.rng.random() < 0.4:
                lowest = min(b.amount for b in bids)
                return BotMove(self.rng.choice([b for b in bids if b.amount == lowest]), 0.5)
            return BotMove(Pass(), 0.5)
        if state.window is None:
            play = self.rng.choice(legal)
            assert isinstance(play, Play) and state.scenario is not None
            roll = self.rng.random()
            if roll < 0.75:
                argument = self.argue(play.card, scenarios_index()[state.scenario])
            elif roll < 0.88 or state.argument_required:
                argument = self.rng.choice(OFF_TOPIC)
            else:
                argument = ""
            return BotMove(Play(play.card, argument), 1.0)
        if state.window.kind == "contest":
            return BotMove(LetPass(), 0.5)
        return self.window_move(state, seat)


# --------------------------------------------------------------------------- greedy

TRUMP_STRENGTH = {1: 30, 2: 22, 3: 15, 4: 9}
SIDE_STRENGTH = {1: 0, 2: 0, 3: 3, 4: 8}


def pair_strength(hand: Sequence[Card], pair: Sequence[str]) -> int:
    """How good a hand is with these two trump colours (trumps of low depth are best)."""
    return sum(
        TRUMP_STRENGTH[c.depth] if c.colour in pair else SIDE_STRENGTH[c.depth] for c in hand
    )


def power(card: Card, trumps: Sequence[str]) -> tuple[int, int]:
    """Higher wins: any trump beats any other card, a low trump beats a deep one."""
    return (1, -card.depth) if card.colour in trumps else (0, card.depth)


class GreedyBot(_Base):
    """Coinche-like heuristics: bids from the strength of its cards in the colours it would
    name, coinches hopeless bids, wins tricks cheaply and loads its partner's tricks."""

    def decide(self, state: ParloteState, seat: Seat, legal: list[Action]) -> BotMove | None:
        if state.phase == DRAW:
            return BotMove(Draw(self.rng.choice([p for p in (0, 1) if state.piles[p]])))
        if state.phase == BIDDING:
            return self.bid(state, seat, legal)
        if state.phase != PLAY:
            return None
        if state.window is None:
            return self.play(state, seat)
        if state.window.kind == "contest":
            if not self.honest(state):
                return BotMove(Contest(), 0.5)
            return BotMove(LetPass(), 0.5)
        return self.window_move(state, seat)

    # bidding -----------------------------------------------------------------

    def bid(self, state: ParloteState, seat: Seat, legal: list[Action]) -> BotMove | None:
        hand = [cards_index()[c] for c in state.hands[seat]]
        high = state.high
        if Coinche() in legal and high is not None and high.amount is not None:
            defence = sum(1 for c in hand if c.colour in high.colours and c.depth <= 2) + sum(
                0.5 for c in hand if c.colour in high.colours and c.depth > 2
            )
            if high.amount == data.CAPOT and defence >= 0.5:
                return BotMove(Coinche(), 0.2)
            if high.amount >= 130 and defence >= 1.5:
                return BotMove(Coinche(), 0.2)
        if seat != state.turn:
            return None
        colours = content().colour_ids()
        pairs = [(a, b) for i, a in enumerate(colours) for b in colours[i + 1 :]]
        best = max(pairs, key=lambda p: pair_strength(hand, p))
        strength = pair_strength(hand, best)
        partner_holds = high is not None and rules.team_of(high.seat) == rules.team_of(seat)
        # measured on greedy games: the bidders' points are about 0.6 × strength + 40;
        # bidding slightly over that wins more games against greedy defenders
        amount = min(int(0.6 * strength + 42) // 10 * 10, data.MAX_BID)
        current = high.amount if high is not None and high.amount is not None else 0
        if partner_holds and amount < current + 30:
            return BotMove(Pass())
        if amount > current:
            bid = Bid(amount, best)
            if bid in legal:
                return BotMove(bid)
        return BotMove(Pass())

    # tricks ------------------------------------------------------------------

    def play(self, state: ParloteState, seat: Seat) -> BotMove:
        assert state.contract is not None and state.scenario is not None
        trumps = state.contract.colours
        hand = [cards_index()[c] for c in state.hands[seat]]
        played = [cards_index()[p.card] for p in state.trick]
        counts = [p.status in (COUNTS, PENDING) for p in state.trick]
        team = rules.team_of(seat)

        def wins_with(card: Card) -> bool:
            index, _ = rules.trick_winner([*played, card], [*counts, True], trumps)
            return index == len(played)

        def points(card: Card) -> int:
            return rules.card_points(card, trumps)

        if not played:
            strong = [c for c in hand if c.colour in trumps and c.depth <= 2]
            if strong:
                choice = min(strong, key=lambda c: c.depth)
            else:
                choice = min(hand, key=lambda c: (points(c), power(c, trumps)))
        else:
            index, _ = rules.trick_winner(played, counts, trumps)
            leader_seat = state.trick[index].seat
            partner_wins = rules.team_of(leader_seat) == team
            last = len(played) == 3
            secure = played[index].colour in trumps and played[index].depth == 1
            winners = [c for c in hand if wins_with(c)]
            if partner_wins and (last or secure):
                keep = [c for c in hand if not (c.colour in trumps and c.depth <= 2)] or hand
                choice = max(keep, key=lambda c: (points(c), -power(c, trumps)[0]))
            elif partner_wins:
                choice = min(hand, key=lambda c: (points(c), power(c, trumps)))
            elif winners:
                choice = min(winners, key=lambda c: (power(c, trumps), -points(c)))
            else:
                choice = min(hand, key=lambda c: (points(c), power(c, trumps)))
        argument = self.argue(choice.id, scenarios_index()[state.scenario])
        return BotMove(Play(choice.id, argument), 1.0)
