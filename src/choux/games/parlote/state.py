"""The state machine of La parlote coinchée.

Phases (`view["phase"]`): "liar" (the « moi ! » buttons before the first deal), "draw" (the
reader picks a scenario pile), "bidding", "play" (seven tricks; a window may be open on the
last argument) and "over".

Keys of `view(seat)` (stable, for the web UI; every text is French, arguments are raw text
as typed and must be displayed escaped):

- "game": "parlote"; "seat": the viewer's seat or None (spectator)
- "phase", "phase_label" (French)
- "mode": "honneur" | "jury" | "arbitre"; "target": points to pass to win
- "teams": [[0, 2], [1, 3]]; "team": the viewer's team or None
- "scores": [team 0, team 1], totals over the finished deals
- "reader": seat of this deal's reader (le piocheur) or None before the first deal
- "actors": seats that may act now; "legal": the viewer's legal actions
  `[{"action": {...}, "label": "..."}]` (a "jouer" action carries an empty "argument",
  or "…" when the table requires one: the UI asks for the text, see `Game.text_field`)
- "argument_required": whether a card may only be played with an argument (table option;
  the play clock still plays a card without one)
- "deadline": {"seconds": float, "kind": phase or window kind} or None
- "claims": seats that clicked « moi ! » (phase "liar")
- "piles": [{"count": int, "theme": id or None, "theme_name": str or None, "hue": str or
  None}] × 2: the backs of the two scenario piles (the theme of the top card shows)
- "scenario": None or {"id", "theme", "theme_name", "title", "orateur", "public",
  "enjeu", "injonction", "objection"}; "objection" (the italic line) is None except for
  the reader, until the deal ends (then it is in "recap")
- "hand": the viewer's cards, each {"code", "colour", "depth", "name", "definition",
  "example", "points"} ("points": what it is worth under the contract's trumps, or None)
- "hand_sizes": [int × 4]
- "bidding": {"history": [{"seat", "kind": "bid"|"pass"|"coinche", "amount", "colours"}],
  "turn": seat or None, "high": the highest bid entry or None, "amounts": the amounts
  one may still bid, "redeals": the deals redone after four passes}
- "contract": None or {"seat", "team", "amount", "capot", "colours", "coinched",
  "coinched_by"}
- "trick": {"number": 1..7, "leader": seat, "plays": [play]}; a play is {"seat", "card":
  card (as in "hand"), "argument", "status": "none"|"pending"|"counts"|"rejected",
  "status_label", "contester", "votes": [[seat, bool]], "votes_cast": int, "judge"}; the
  votes are secret while their vote is open ("votes" empty, "votes_cast" counts them)
- "last_trick": None or {"leader", "plays", "winner", "why", "points"}
- "tricks_won": [team 0, team 1]; "deal_points": [team 0, team 1] (card points so far)
- "contests_left": [team 0, team 1] (Jury mode: 2 per team per deal)
- "window": None or {"kind": "contest"|"vote"|"judge", "author", "play": play,
  "eligible": seats who may act in it, "declined": seats who let it pass}. Jury mode: a
  "contest" window (the author's opponents, 15 s) then, if contested, a "vote" window
  (the three others, 30 s; a missing vote counts for the argument). Arbitre mode: a
  "judge" window (30 s, then it counts). With four players the reader judges every
  argument but their own, which goes to a secret "vote" of the three others (as in Jury,
  without a contest); with five, seat 4 is the arbiter and judges every argument, the
  reader's too.
- "players": 4 or 5; "arbiter": 4 when a fifth seat referees (Arbitre mode), else None.
  The arbiter holds no cards, never bids nor claims, and only ever has Judge actions; its
  view is the public one ("hand" empty, "team" None, no italic line: the rules file shows
  it to the reader only until the deal ends). Its outcome entry: score 0, rank 3 (after
  both teams, never among the winners).
- "deal_number": number of the current deal (1 for the first)
- "recap": None or the recap of the last finished deal (see `recap.py`)
- "results": one {"deal", "reader", "scenario" (its title), "theme", "contract",
  "points", "made", "scores"} per finished deal (scenario identifiers never show once
  played: the piles are reshuffled from the played ones when both run out)
- "winner": the winning team or None
- "colours": [{"id", "name", "hue", "summary"}] × 7, for the bid buttons
- "memo": the « mémo » panel, one entry per colour {"colour", "name", "hue", "summary",
  "tree"}; a tree node is {"name", "depth", "definition", "in_play", "children": [node]}
  ("in_play": the card is among the 28 of this game)
"""

from __future__ import annotations

import random
from typing import cast

from choux.engine.base import (
    JSON,
    Action,
    Deadline,
    Event,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Outcome,
    State,
    WindowClosed,
    copy_rng,
    rng_fingerprint,
)
from choux.games.parlote import data, rules
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
from choux.games.parlote.content import (
    Card,
    card_json,
    cards_index,
    content,
    memo,
    scenario_json,
    scenarios_index,
)
from choux.games.parlote.recap import build_recap
from choux.games.parlote.records import (
    CONTEST,
    COUNTS,
    JUDGE,
    NONE,
    PENDING,
    REJECTED,
    STATUS_LABELS,
    VOTE,
    BidEntry,
    Contract,
    PlayedCard,
    Trick,
    Window,
)
from choux.games.parlote.view_types import ParloteBoard, WindowView

LIAR = "liar"
DRAW = "draw"
BIDDING = "bidding"
PLAY = "play"
OVER = "over"

PHASE_LABELS = {
    LIAR: "Qui a menti en dernier ?",
    DRAW: "Le piocheur choisit un scénario",
    BIDDING: "Enchères d'atout",
    PLAY: "Les plis",
    OVER: "Partie terminée",
}

MODES = ("honneur", "jury", "arbitre")

#: the argument of the "jouer" actions of `legal_actions` when an argument is required: a
#: placeholder that the player's own text replaces (see `Game.text_field`)
PLACEHOLDER = "…"


def who(seat: int) -> str:
    """The placeholder of a player's name in an event text."""
    return "{p" + str(seat) + "}"


def _card(code: str) -> Card:
    return cards_index()[code]


def _sort_key(code: str) -> tuple[int, int, str]:
    card = _card(code)
    return (content().colour_ids().index(card.colour), card.depth, code)


class ParloteState(State):
    """A game of La parlote coinchée: four players, two teams seated crosswise (plus, in the
    Arbitre mode, an optional fifth seat who referees the arguments)."""

    game_name = "parlote"

    def __init__(
        self,
        seed: int,
        mode: str = "jury",
        play_seconds: int = 90,
        target: int = 1000,
        argument_required: bool = False,
        players: int = data.PLAYERS,
    ):
        if players not in (data.PLAYERS, data.PLAYERS + 1):
            raise ValueError(f"players must be 4 or 5, not {players}")
        if players > data.PLAYERS and mode != "arbitre":
            raise ValueError("a fifth seat exists only in the Arbitre mode")
        self.players = players
        self.mode = mode
        self.argument_required = argument_required
        self.play_seconds = play_seconds
        self.target = target
        self.rng = random.Random(seed)
        self.chance: list[JSON] = []
        self.phase = LIAR
        self.scores = [0, 0]
        self.reader: int | None = None
        self.claims: list[int] = []
        self.deals_played = 0
        self.redeals = 0
        self.recap: dict[str, JSON] | None = None
        self.results: list[dict[str, JSON]] = []
        self.winner: int | None = None
        # the 28 cards of this game: per colour, one card of each depth
        stock = content()
        selection = []
        for colour in stock.colour_ids():
            for depth in (1, 2, 3, 4):
                selection.append(self.rng.choice(stock.cards_of(colour, depth)).id)
        self.selection: tuple[str, ...] = tuple(selection)
        ids = [s.id for s in stock.scenarios]
        self.rng.shuffle(ids)
        self.piles: list[list[str]] = [ids[0::2], ids[1::2]]  # the top card is the last
        self.discard: list[str] = []
        self.chance.append(
            {"selection": list(self.selection), "piles": [list(p) for p in self.piles]}
        )
        self._clear_deal()

    def _clear_deal(self) -> None:
        self.scenario: str | None = None
        self.hands: list[list[str]] = [[], [], [], []]
        self.bids: list[BidEntry] = []
        self.high: BidEntry | None = None
        self.passes = 0
        self.turn = 0
        self.contract: Contract | None = None
        self.leader = 0
        self.trick: list[PlayedCard] = []
        self.tricks: list[Trick] = []
        self.contests_left = [data.CONTESTS_PER_DEAL, data.CONTESTS_PER_DEAL]
        self.window: Window | None = None

    # ------------------------------------------------------------------ who acts

    def author(self) -> int | None:
        """The author of the argument a window is open on."""
        return self.trick[-1].seat if self.window is not None and self.trick else None

    def arbiter_seat(self) -> int | None:
        """The fifth seat, who referees and never plays, or None in a four-player game."""
        return data.PLAYERS if self.players > data.PLAYERS else None

    def arbiter(self) -> int:
        """Arbitre mode: the fifth seat if any, else the reader (whose own arguments go to
        a vote instead, see `rules.readers_argument_goes_to_vote`)."""
        fifth = self.arbiter_seat()
        if fifth is not None:
            return fifth
        assert self.reader is not None
        return self.reader

    def coinchers(self) -> tuple[int, ...]:
        if self.phase != BIDDING or self.high is None:
            return ()
        return tuple(s for s in range(4) if rules.may_coinche(s, self.high.seat))

    def contesters(self) -> tuple[int, ...]:
        author = self.author()
        if self.window is None or self.window.kind != CONTEST or author is None:
            return ()
        team = 1 - rules.team_of(author)
        if self.contests_left[team] <= 0:
            return ()
        return tuple(s for s in rules.team_seats(team) if s not in self.window.declined)

    def voters(self) -> tuple[int, ...]:
        author = self.author()
        if self.window is None or self.window.kind != VOTE or author is None:
            return ()
        voted = {s for s, _ in self.trick[-1].votes}
        return tuple(s for s in range(4) if s != author and s not in voted)

    def actors(self) -> tuple[int, ...]:
        if self.phase == LIAR:
            return tuple(s for s in range(4) if s not in self.claims)
        if self.phase == DRAW:
            assert self.reader is not None
            return (self.reader,)
        if self.phase == BIDDING:
            return tuple(sorted({self.turn, *self.coinchers()}))
        if self.phase == PLAY:
            if self.window is None:
                return (self.turn,)
            if self.window.kind == CONTEST:
                return self.contesters()
            if self.window.kind == VOTE:
                return self.voters()
            return (self.arbiter(),)
        return ()

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        if self.phase == LIAR:
            return [ClaimLiar()]
        if self.phase == DRAW:
            return [Draw(p) for p in (0, 1) if self.piles[p]]
        if self.phase == BIDDING:
            actions: list[Action] = []
            if seat == self.turn:
                actions.append(Pass())
                actions.extend(self._possible_bids())
            if seat in self.coinchers():
                actions.append(Coinche())
            return actions
        if self.window is None:
            placeholder = PLACEHOLDER if self.argument_required else ""
            return [Play(code, placeholder) for code in self.hands[seat]]
        if self.window.kind == CONTEST:
            return [Contest(), LetPass()]
        if self.window.kind == VOTE:
            return [Vote(True), Vote(False)]
        return [Judge(True), Judge(False)]

    def _possible_bids(self) -> list[Action]:
        current = self.high.amount if self.high is not None else None
        if current == data.CAPOT:
            return []
        colours = content().colour_ids()
        pairs = [(a, b) for i, a in enumerate(colours) for b in colours[i + 1 :]]
        return [
            Bid(amount, pair)
            for amount in rules.bid_amounts()
            if current is None or amount > current
            for pair in pairs
        ]

    def deadline(self) -> Deadline | None:
        if self.phase == LIAR:
            return Deadline(data.LIAR_SECONDS, Clock())
        if self.phase == DRAW:
            return Deadline(data.DRAW_SECONDS, Clock())
        if self.phase == BIDDING:
            return Deadline(self.play_seconds, Clock())
        if self.phase == PLAY:
            if self.window is None:
                return Deadline(self.play_seconds, Clock())
            seconds = {CONTEST: data.CONTEST_SECONDS, VOTE: data.VOTE_SECONDS}
            return Deadline(seconds.get(self.window.kind, data.JUDGE_SECONDS), Clock())
        return None

    def window_key(self) -> object:
        """« Qui a menti en dernier ? » and an argument's window (contest, vote, judgement)
        each run on one clock, whoever clicks meanwhile; every other change is a new move."""
        if self.phase == LIAR:
            return LIAR
        if self.phase == PLAY and self.window is not None:
            return (len(self.tricks), len(self.trick), self.window.kind)
        return None

    # ------------------------------------------------------------------ applying

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        if self.phase == OVER:
            raise WindowClosed("La partie est terminée.")
        if isinstance(action, Clock):
            if seat is not None:
                raise IllegalAction("Seule l'horloge de la table peut clore une fenêtre.")
            return self._on_clock()
        if seat is None:
            raise IllegalAction("Seule l'horloge de la table agit sans siège.")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise MalformedAction("Siège inconnu.")
        if seat == self.arbiter_seat() and not isinstance(action, Judge):
            raise NotYourTurn("L'arbitre ne joue pas : il accepte ou rejette les arguments.")
        if isinstance(action, ClaimLiar):
            return self._claim(seat)
        if isinstance(action, Draw):
            return self._draw(seat, action.pile)
        if isinstance(action, Pass | Bid | Coinche):
            return self._bidding(seat, action)
        if isinstance(action, Play):
            return self._play(seat, action)
        if isinstance(action, Contest | LetPass):
            return self._contest(seat, action)
        if isinstance(action, Vote):
            return self._vote(seat, action.counts)
        if isinstance(action, Judge):
            return self._judge(seat, action.counts)
        raise MalformedAction("Action inconnue pour la parlote coinchée.")

    def _on_clock(self) -> list[Event]:
        if self.phase == LIAR:
            return self._choose_first_reader()
        if self.phase == DRAW:
            pile = 0 if self.piles[0] else 1
            return self._start_deal(pile)
        if self.phase == BIDDING:
            return self._pass(self.turn, timeout=True)
        if self.window is None:
            # any card of the hand, drawn at random: a fixed pick (the first in the hand's
            # order) would tell the table which colours the late player does not hold
            code = self.rng.choice(self.hands[self.turn])
            events = [Event("clock", "Temps écoulé !", self.turn)]
            return events + self._put_card(self.turn, code, "")
        if self.window.kind == CONTEST:
            return self._close_contest()
        if self.window.kind == VOTE:
            return self._resolve_vote()
        return self._set_status(COUNTS, judge=None)

    # liar ---------------------------------------------------------------

    def _claim(self, seat: int) -> list[Event]:
        if self.phase != LIAR:
            raise WindowClosed("Le premier piocheur est déjà désigné.")
        if seat in self.claims:
            raise IllegalAction("Vous avez déjà avoué !")
        self.claims.append(seat)
        events = [
            Event(
                "claim",
                f"{who(seat)} : «\u00a0Moi ! C'est moi qui ai menti en dernier !\u00a0»",
                seat,
            )
        ]
        if len(self.claims) == 4:
            events += self._choose_first_reader()
        return events

    def _choose_first_reader(self) -> list[Event]:
        candidates = sorted(self.claims) or [0, 1, 2, 3]
        self.reader = self.rng.choice(candidates)
        self.chance.append({"first_reader": self.reader})
        self.phase = DRAW
        return [Event("reader", f"Premier piocheur : {who(self.reader)}.", self.reader)]

    # draw ---------------------------------------------------------------

    def _draw(self, seat: int, pile: int) -> list[Event]:
        if self.phase != DRAW:
            raise WindowClosed("Ce n'est pas le moment de piocher un scénario.")
        if seat != self.reader:
            raise NotYourTurn("Seul le piocheur tire le scénario.")
        if pile not in (0, 1):
            raise IllegalAction("Il n'y a que deux pioches : 0 (gauche) et 1 (droite).")
        if not self.piles[pile]:
            raise IllegalAction("Cette pioche est vide : piochez dans l'autre.")
        return self._start_deal(pile)

    def _start_deal(self, pile: int) -> list[Event]:
        assert self.reader is not None
        self._clear_deal()
        self.scenario = self.piles[pile].pop()
        order = list(self.selection)
        self.rng.shuffle(order)
        for seat in range(4):
            hand = order[seat * data.HAND_SIZE : (seat + 1) * data.HAND_SIZE]
            self.hands[seat] = sorted(hand, key=_sort_key)
        self.chance.append({"scenario": self.scenario, "deal": order})
        self.phase = BIDDING
        self.turn = self.leader = rules.next_seat(self.reader)
        scenario = scenarios_index()[self.scenario]
        return [
            Event(
                "scenario",
                f"Scénario lu par {who(self.reader)}, «\u00a0{scenario.title}\u00a0» : {scenario.injonction}",
                self.reader,
                {"scenario": self.scenario},
            ),
            Event("deal", "Les cartes sont distribuées : sept arguments fallacieux chacun."),
        ]

    def _refill_piles(self) -> None:
        if self.piles[0] or self.piles[1]:
            return
        # the scenario just played stays aside, so that it cannot come back at once
        keep = self.discard[-1:]
        ids = sorted(self.discard[:-1])
        self.rng.shuffle(ids)
        self.piles = [ids[0::2], ids[1::2]]
        self.discard = keep
        self.chance.append({"piles": [list(p) for p in self.piles]})

    # bidding ------------------------------------------------------------

    def _bidding(self, seat: int, action: Action) -> list[Event]:
        if self.phase != BIDDING:
            raise WindowClosed("Les enchères ne sont pas ouvertes.")
        if isinstance(action, Coinche):
            return self._coinche(seat)
        if seat != self.turn:
            raise NotYourTurn("Ce n'est pas votre tour d'enchérir.")
        if isinstance(action, Pass):
            return self._pass(seat, timeout=False)
        assert isinstance(action, Bid)
        current = self.high.amount if self.high is not None else None
        rules.check_bid(action.amount, action.colours, current, content().colour_ids())
        colours = tuple(sorted(action.colours, key=content().colour_ids().index))
        entry = BidEntry(seat, "bid", action.amount, colours)
        self.bids.append(entry)
        self.high = entry
        self.passes = 0
        self.turn = rules.next_seat(seat)
        names = " et ".join(content().colour_by_id[c].name for c in colours)
        amount = "capot" if action.amount == data.CAPOT else str(action.amount)
        return [
            Event(
                "bid", f"Enchère de {who(seat)} : {amount}, atouts {names}.", seat, entry.to_json()
            )
        ]

    def _pass(self, seat: int, timeout: bool) -> list[Event]:
        self.bids.append(BidEntry(seat, "pass"))
        self.passes += 1
        text = f"{who(seat)} : passe{' (temps écoulé)' if timeout else ''}."
        events = [Event("pass", text, seat)]
        if self.high is not None and self.passes >= 3:
            return events + self._end_bidding(coinched_by=None)
        if self.high is None and self.passes >= 4:
            assert self.scenario is not None
            self.discard.append(self.scenario)
            self.redeals += 1
            self._clear_deal()
            self.phase = DRAW
            self._refill_piles()
            events.append(Event("redeal", "Quatre passes : on redistribue, même piocheur."))
            return events
        self.turn = rules.next_seat(seat)
        return events

    def _coinche(self, seat: int) -> list[Event]:
        if self.high is None:
            raise IllegalAction("Il n'y a encore aucune enchère à coincher.")
        if not rules.may_coinche(seat, self.high.seat):
            raise IllegalAction(
                "Seule l'équipe qui ne tient pas l'enchère peut coincher : "
                "on ne coinche pas son propre camp."
            )
        self.bids.append(BidEntry(seat, "coinche"))
        events = [
            Event(
                "coinche",
                f"{who(seat)} : «\u00a0Je coinche !\u00a0» L'enjeu de la manche est doublé.",
                seat,
            )
        ]
        return events + self._end_bidding(coinched_by=seat)

    def _end_bidding(self, coinched_by: int | None) -> list[Event]:
        assert self.high is not None and self.high.amount is not None
        first, second = self.high.colours
        self.contract = Contract(
            self.high.seat, self.high.amount, (first, second), coinched_by is not None, coinched_by
        )
        self.phase = PLAY
        assert self.reader is not None
        self.turn = self.leader = rules.next_seat(self.reader)
        return [
            Event(
                "contract",
                "Les enchères sont closes : à vous de parler !",
                None,
                self.contract.to_json(),
            )
        ]

    # play ---------------------------------------------------------------

    def _play(self, seat: int, action: Play) -> list[Event]:
        if self.phase != PLAY:
            raise WindowClosed("Ce n'est pas le moment de jouer une carte.")
        if self.window is not None:
            raise WindowClosed("Attendez la fin de la discussion sur l'argument précédent.")
        if seat != self.turn:
            raise NotYourTurn("Ce n'est pas votre tour de jouer.")
        if action.card not in self.hands[seat]:
            raise IllegalAction("Vous n'avez pas cette carte en main.")
        argument = rules.check_argument(action.argument)
        if self.argument_required and not argument:
            raise IllegalAction(
                "À cette table, l'argument est obligatoire : tapez-en un pour jouer votre carte."
            )
        return self._put_card(seat, action.card, argument)

    def _put_card(self, seat: int, code: str, argument: str) -> list[Event]:
        self.hands[seat].remove(code)
        author_team = rules.team_of(seat)
        window: Window | None = None
        if not argument:
            status = NONE
        elif self.mode == "honneur":
            status = COUNTS
        elif self.mode == "jury":
            if self.contests_left[1 - author_team] > 0:
                status, window = PENDING, Window(CONTEST)
            else:
                status = COUNTS
        elif rules.readers_argument_goes_to_vote(seat, self.reader, self.arbiter_seat()):
            status, window = PENDING, Window(VOTE)
        else:
            status, window = PENDING, Window(JUDGE)
        self.trick.append(PlayedCard(seat, code, argument, status))
        self.window = window
        name = _card(code).name
        with_argument = "avec un argument" if argument else "sans argument"
        events = [
            Event(
                "play",
                f"Carte de {who(seat)} : «\u00a0{name}\u00a0», {with_argument}.",
                seat,
                {"card": code, "argument": argument},
            )
        ]
        if window is None:
            events += self._advance()
        return events

    def _advance(self) -> list[Event]:
        if len(self.trick) < 4:
            self.turn = rules.next_seat(self.trick[-1].seat)
            return []
        return self._finish_trick()

    def _finish_trick(self) -> list[Event]:
        assert self.contract is not None
        cards = [_card(p.card) for p in self.trick]
        index, why = rules.trick_winner(
            cards, [p.counts() for p in self.trick], self.contract.colours
        )
        winner = self.trick[index].seat
        points = sum(rules.card_points(c, self.contract.colours) for c in cards)
        self.tricks.append(Trick(self.leader, tuple(self.trick), winner, why, points))
        self.trick = []
        self.leader = self.turn = winner
        events = [
            Event(
                "trick",
                f"Pli pour {who(winner)} ({points} points) : {why.lower()}.",
                winner,
                {"points": points},
            )
        ]
        if len(self.tricks) == data.TRICKS:
            events += self._finish_deal()
        return events

    def _contest(self, seat: int, action: Action) -> list[Event]:
        if self.phase != PLAY:
            raise WindowClosed("Aucun argument n'est ouvert à la contestation.")
        team = rules.team_of(seat)
        if isinstance(action, Contest) and self.contests_left[team] <= 0:
            raise IllegalAction(
                f"Votre équipe a déjà utilisé ses {data.CONTESTS_PER_DEAL} contestations "
                "pour cette manche."
            )
        if self.window is None or self.window.kind != CONTEST:
            raise WindowClosed("Aucun argument n'est ouvert à la contestation.")
        author = self.author()
        assert author is not None
        if seat == author or rules.team_of(seat) == rules.team_of(author):
            raise IllegalAction("Seuls les adversaires de l'auteur peuvent contester son argument.")
        if seat in self.window.declined:
            raise IllegalAction("Vous avez déjà laissé passer cet argument.")
        if isinstance(action, LetPass):
            self.window = Window(CONTEST, (*self.window.declined, seat))
            if not self.contesters():
                return self._close_contest()
            return []
        self.contests_left[team] -= 1
        self.trick[-1] = PlayedCard(
            author, self.trick[-1].card, self.trick[-1].argument, PENDING, contester=seat
        )
        self.window = Window(VOTE)
        return [
            Event(
                "contest",
                f"Contestation de {who(seat)} contre l'argument de {who(author)} : on vote !",
                seat,
            )
        ]

    def _close_contest(self) -> list[Event]:
        return self._set_status(COUNTS, judge=None)

    def _vote(self, seat: int, counts: bool) -> list[Event]:
        if self.phase != PLAY or self.window is None or self.window.kind != VOTE:
            raise WindowClosed("Aucun vote n'est ouvert.")
        played = self.trick[-1]
        if seat == played.seat:
            raise IllegalAction("On ne vote pas sur son propre argument.")
        if any(s == seat for s, _ in played.votes):
            raise IllegalAction("Vous avez déjà voté.")
        self.trick[-1] = PlayedCard(
            played.seat,
            played.card,
            played.argument,
            played.status,
            played.contester,
            (*played.votes, (seat, counts)),
        )
        if len(self.trick[-1].votes) == 3:
            return self._resolve_vote()
        return []

    def _resolve_vote(self) -> list[Event]:
        votes = [v for _, v in self.trick[-1].votes]
        rejected = rules.vote_rejects(votes)
        tally = Event("vote_closed", rules.vote_tally(votes), self.trick[-1].seat)
        return [tally, *self._set_status(REJECTED if rejected else COUNTS, judge=None)]

    def _judge(self, seat: int, counts: bool) -> list[Event]:
        if self.phase != PLAY or self.window is None or self.window.kind != JUDGE:
            raise WindowClosed("Aucun argument n'attend l'arbitre.")
        if seat != self.arbiter():
            raise NotYourTurn("Seul l'arbitre de cette manche juge cet argument.")
        return self._set_status(COUNTS if counts else REJECTED, judge=seat)

    def _set_status(self, status: str, judge: int | None) -> list[Event]:
        played = self.trick[-1]
        self.trick[-1] = PlayedCard(
            played.seat, played.card, played.argument, status, played.contester, played.votes, judge
        )
        self.window = None
        text = f"L'argument de {who(played.seat)} est {'retenu' if status == COUNTS else 'rejeté'}."
        return [Event("verdict", text, played.seat, {"status": status}), *self._advance()]

    # end of a deal ------------------------------------------------------

    def team_points(self) -> tuple[list[int], list[int]]:
        """Card points and tricks won by each team in this deal so far."""
        points, won = [0, 0], [0, 0]
        for trick in self.tricks:
            points[rules.team_of(trick.winner)] += trick.points
            won[rules.team_of(trick.winner)] += 1
        return points, won

    def _finish_deal(self) -> list[Event]:
        assert self.contract is not None and self.scenario is not None and self.reader is not None
        points, won = self.team_points()
        deal, made = rules.deal_scores(
            self.contract.team, self.contract.amount, self.contract.coinched, points, won
        )
        self.scores = [self.scores[0] + deal[0], self.scores[1] + deal[1]]
        self.recap = build_recap(
            deal_number=self.deals_played + 1,
            reader=self.reader,
            scenario_id=self.scenario,
            contract=self.contract,
            deal_tricks=self.tricks,
            points=points,
            won=won,
            deal=list(deal),
            totals=self.scores,
            made=made,
        )
        self.results.append(
            {
                "deal": self.deals_played + 1,
                "reader": self.reader,
                "scenario": scenarios_index()[self.scenario].title,
                "theme": scenarios_index()[self.scenario].theme,
                "contract": self.contract.to_json(),
                "points": points,
                "made": made,
                "scores": list(deal),
            }
        )
        self.deals_played += 1
        self.discard.append(self.scenario)
        verdict = "réussi" if made else "chuté"
        events = [
            Event(
                "deal_end",
                f"Fin de la manche : contrat {verdict}. Manche : {deal[0]} à {deal[1]} ; "
                f"total : {self.scores[0]} à {self.scores[1]}.",
                None,
                {"scores": list(deal), "made": made},
            )
        ]
        self.winner = rules.game_winner(self.scores, self.target)
        if self.winner is not None:
            self._clear_deal()
            self.phase = OVER
            a, b = rules.team_seats(self.winner)
            events.append(Event("game_end", f"Victoire de {who(a)} et {who(b)} !"))
            return events
        self.reader = rules.next_seat(self.reader)
        self._clear_deal()
        self.phase = DRAW
        self._refill_piles()
        events.append(Event("reader", f"Nouveau piocheur : {who(self.reader)}.", self.reader))
        return events

    # ------------------------------------------------------------------ end

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = [self.scores[rules.team_of(s)] for s in range(4)]
        ranks = [1 if rules.team_of(s) == self.winner else 2 for s in range(4)]
        if self.arbiter_seat() is not None:  # the referee neither wins nor scores
            scores.append(0)
            ranks.append(3)
        assert self.winner is not None
        return Outcome(
            tuple(scores),
            tuple(ranks),
            # the winners' score first: « 0 à 480 » read as a defeat on the winners' page
            f"Objectif de {self.target} points dépassé : {self.scores[self.winner]} à "
            f"{self.scores[1 - self.winner]}",
        )

    # ------------------------------------------------------------------ views

    def objection_visible(self, seat: int | None) -> bool:
        return seat is not None and seat == self.reader

    def secrets(self, seat: int | None) -> set[str]:
        hidden: set[str] = set()
        for other in range(4):
            if other != seat:
                hidden.update(self.hands[other])
        if self.scenario is not None and not self.objection_visible(seat):
            hidden.add(scenarios_index()[self.scenario].objection)
        for pile in self.piles:
            hidden.update(pile)
        return hidden

    def card_view(self, code: str) -> dict[str, JSON]:
        card = _card(code)
        view = card_json(card)
        view["points"] = (
            rules.card_points(card, self.contract.colours) if self.contract is not None else None
        )
        return view

    def play_view(self, played: PlayedCard) -> dict[str, JSON]:
        view = played.to_json()
        view["card"] = self.card_view(played.card)
        view["status_label"] = STATUS_LABELS[played.status]
        vote_open = (
            self.window is not None and self.window.kind == VOTE and played is self.trick[-1]
        )
        view["votes"] = rules.votes_shown(played.votes, vote_open)
        view["votes_cast"] = len(played.votes)
        return view

    def scenario_view(self, seat: int | None) -> dict[str, JSON] | None:
        if self.scenario is None:
            return None
        scenario = scenarios_index()[self.scenario]
        return {"id": scenario.id, **scenario_json(scenario, self.objection_visible(seat))}

    def seat_count(self) -> int:
        return self.players

    def board_view(self, seat: int | None) -> ParloteBoard:
        stock = content()
        points, won = self.team_points()
        deadline = self.deadline()
        window: WindowView | None = None
        if self.window is not None and self.trick:
            window = {
                "kind": self.window.kind,
                "author": self.trick[-1].seat,
                "play": self.play_view(self.trick[-1]),
                "eligible": list(self.actors()),
                "declined": list(self.window.declined),
            }
        piles: list[JSON] = []
        for pile in self.piles:
            theme = stock.theme_by_id[scenarios_index()[pile[-1]].theme] if pile else None
            piles.append(
                {
                    "count": len(pile),
                    "theme": theme.id if theme else None,
                    "theme_name": theme.name if theme else None,
                    "hue": theme.hue if theme else None,
                }
            )
        current = self.high.amount if self.high is not None else None
        return {
            "phase": self.phase,
            "phase_label": PHASE_LABELS[self.phase],
            "mode": self.mode,
            "target": self.target,
            "argument_required": self.argument_required,
            "teams": [[0, 2], [1, 3]],
            "team": rules.team_of(seat) if seat is not None and seat < data.PLAYERS else None,
            "players": self.players,
            "arbiter": self.arbiter_seat(),
            "scores": list(self.scores),
            "reader": self.reader,
            "deadline": (
                {
                    "seconds": deadline.seconds,
                    "kind": self.window.kind if self.window else self.phase,
                }
                if deadline is not None
                else None
            ),
            "claims": list(self.claims),
            "piles": piles,
            "scenario": self.scenario_view(seat),
            "hand": [self.card_view(c) for c in self.hands[seat]]
            if seat is not None and seat < data.PLAYERS
            else [],
            "hand_sizes": [len(h) for h in self.hands],
            "bidding": {
                "history": [b.to_json() for b in self.bids],
                "turn": self.turn if self.phase == BIDDING else None,
                "high": self.high.to_json() if self.high is not None else None,
                "amounts": [a for a in rules.bid_amounts() if current is None or a > current]
                if current != data.CAPOT
                else [],
                # four passes redeal: the pages say so when this grows
                "redeals": self.redeals,
            },
            "contract": self.contract.to_json() if self.contract is not None else None,
            "trick": {
                "number": len(self.tricks) + 1,
                "leader": self.leader,
                "plays": [self.play_view(p) for p in self.trick],
            }
            if self.phase == PLAY
            else None,
            "last_trick": self._trick_view(self.tricks[-1]) if self.tricks else None,
            "tricks_won": won,
            "deal_points": points,
            "contests_left": list(self.contests_left),
            "window": window,
            "deal_number": self.deals_played + (0 if self.phase == OVER else 1),
            "recap": self.recap,
            "results": cast(JSON, list(self.results)),
            "winner": self.winner,
            "colours": [
                {"id": c.id, "name": c.name, "hue": c.hue, "summary": c.summary}
                for c in stock.colours
            ],
            "memo": cast(JSON, memo(frozenset(self.selection))),
        }

    def _trick_view(self, trick: Trick) -> dict[str, JSON]:
        return {
            "leader": trick.leader,
            "plays": [self.play_view(p) for p in trick.plays],
            "winner": trick.winner,
            "why": trick.why,
            "points": trick.points,
        }

    # ------------------------------------------------------------------ copies

    def snapshot(self) -> dict[str, JSON]:
        return {
            "mode": self.mode,
            "players": self.players,
            "play_seconds": self.play_seconds,
            "target": self.target,
            "argument_required": self.argument_required,
            "rng": rng_fingerprint(self.rng),
            "chance": list(self.chance),
            "phase": self.phase,
            "scores": list(self.scores),
            "reader": self.reader,
            "claims": list(self.claims),
            "deals_played": self.deals_played,
            "redeals": self.redeals,
            "selection": list(self.selection),
            "piles": [list(p) for p in self.piles],
            "discard": list(self.discard),
            "scenario": self.scenario,
            "hands": [list(h) for h in self.hands],
            "bids": [b.to_json() for b in self.bids],
            "high": self.high.to_json() if self.high is not None else None,
            "passes": self.passes,
            "turn": self.turn,
            "contract": self.contract.to_json() if self.contract is not None else None,
            "leader": self.leader,
            "trick": [p.to_json() for p in self.trick],
            "tricks": [t.to_json() for t in self.tricks],
            "contests_left": list(self.contests_left),
            "window": self.window.to_json() if self.window is not None else None,
            "recap": self.recap,
            "results": cast(JSON, list(self.results)),
            "winner": self.winner,
        }

    def clone(self) -> ParloteState:
        twin = ParloteState.__new__(ParloteState)
        twin.__dict__.update(self.__dict__)
        twin.rng = copy_rng(self.rng)
        twin.chance = list(self.chance)
        twin.scores = list(self.scores)
        twin.claims = list(self.claims)
        twin.results = list(self.results)
        twin.piles = [list(p) for p in self.piles]
        twin.discard = list(self.discard)
        twin.hands = [list(h) for h in self.hands]
        twin.bids = list(self.bids)
        twin.trick = list(self.trick)
        twin.tricks = list(self.tricks)
        twin.contests_left = list(self.contests_left)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> ParloteState:
        """Re-deal the cards `seat` cannot see among the other hands (same sizes)."""
        twin = self.clone()
        others = [s for s in range(4) if s != seat]
        pool = [code for s in others for code in self.hands[s]]
        rng.shuffle(pool)
        for s in others:
            size = len(self.hands[s])
            twin.hands[s] = sorted(pool[:size], key=_sort_key)
            pool = pool[size:]
        twin.rng = random.Random(rng.getrandbits(64))
        return twin

    def check_invariants(self) -> None:
        assert all(0 <= c <= data.CONTESTS_PER_DEAL for c in self.contests_left)
        if self.phase in (BIDDING, PLAY):
            seen = [c for h in self.hands for c in h]
            seen += [p.card for p in self.trick]
            seen += [p.card for t in self.tricks for p in t.plays]
            assert sorted(seen) == sorted(self.selection), "cards lost or duplicated"
            played = len(self.tricks)
            in_trick = {p.seat for p in self.trick}
            for s in range(4):
                expected = data.HAND_SIZE - played - (1 if s in in_trick else 0)
                assert len(self.hands[s]) == expected, f"seat {s} holds a wrong number of cards"
        if self.phase == PLAY:
            assert self.contract is not None
        assert len(self.results) == self.deals_played
