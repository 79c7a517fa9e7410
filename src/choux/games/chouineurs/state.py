"""The Chouineurs state machine: 4 rounds of 7 tricks, bets, crybabies.

Phases of a round: ``choix`` (every player at once, hidden: orientation of the hand and bet
card), ``jeu`` (tricks), ``chouine`` (the crybabies of the last trick choose their bonus, in
play order, before the next lead), then scoring and a new deal; ``fin`` when the game ends.

View keys (`view(seat)`, seat None = spectator), stable for the web UI:

- ``game`` "chouineurs"; ``seat`` the viewer (None); ``players`` number of seats.
- ``phase``: "choix" | "jeu" | "chouine" | "fin".
- ``round`` (1-based) and ``rounds``; ``trick_number``: the trick being played, 1..7.
- ``actors``: seats that may act; ``legal``: the viewer's moves,
  ``[{"action": {...}, "label": "..."}]``. Actions: ``{"type": "prepare", "orientation":
  "endroit"|"envers", "bet": name|null}``, ``{"type": "play", "card": "c17", "shows":
  "12 bleu"}``, ``{"type": "cry", "turn": "c17", "token": false, "shows": "12 bleu"}`` or
  ``{"type": "cry", "turn": null, "token": true, "shows": ""}`` (``shows`` only words the
  label; it may be left out).
- ``hand``: the viewer's cards in hand, each ``{"card": "c17", "top": {"colour": "bleu",
  "value": 15}, "bottom": {"colour": "rouge", "value": 1}}`` (``top`` is the end in play).
- ``hand_counts``: cards in hand per seat; ``reserve``: cards left in the reserve.
- ``bets_left``: per seat, names of the bet cards still owned ("orange", "vert", "rouge",
  "bleu", "violet"); ``bet_cards``: the five bet cards ``{"name", "title", "points":
  {"0": 8, ...}, "or_more": tricks or None, "description"}``.
- ``ready``: per seat, True once the round's choice is made.
- ``my_choice``: the viewer's own hidden choice before the reveal, ``{"orientation":
  "endroit"|"envers", "bet": name|None, "code": ...}``, else None.
- ``revealed``: True from the first lead of the round; ``bets`` and ``orientations``: per
  seat, the revealed bet name (None: no bet) and "endroit"/"envers", all None before.
- ``tokens``: tokens taken per seat this round; ``tricks_won``: tricks per seat this round.
- ``leader``: seat leading the current trick; ``round_leader``: who led the round's first trick;
  ``turn``: seat to play a card (None outside ``jeu``).
- ``trick``: cards of the current trick in play order, ``{"seat", "card", "end":
  {"colour", "value"}}``; ``led_colour``: colour name or None.
- ``last_trick``: the trick just finished (at the start of a round: the previous round's
  last trick), ``{"cards": [{"seat", "end"}], "winner": seat, "crybabies": [seats]}`` or
  None. It names no card code: only the ends that were played.
- ``crybaby``: during ``chouine``, ``{"seat": who chooses now, "waiting": [seats after]}``,
  else None.
- ``scores``: total points per seat; ``sheet``: one entry per finished round, ``{"round",
  "rows": [{"bet", "tricks", "bet_points", "hit", "tokens", "total"}]}`` per seat.
- ``outcome``: None, or ``{"scores", "ranks", "reason"}`` at the end.

Event kinds: ready, lead_wait, reveal, play (data: card, end), trick, crybaby (data: seats),
token, turn, score (data: tricks, bet_points, tokens, total), round, end.

Chance log (records): ``{"first_leader": seat}``, then per round ``{"round": r, "deal":
[44 card ids: 7 per seat in seat order, then the reserve, its top last], "sides": mask}``
where bit c of ``sides`` set means card c was dealt showing its end B (see `deck.CARDS`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from choux.engine.base import (
    JSON,
    Action,
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
from choux.games.chouineurs.actions import (
    AS_DEALT,
    CRY_FACE,
    CRY_TOKEN,
    PLAY_FACE,
    TURNED,
    Cry,
    Play,
    Prepare,
)
from choux.games.chouineurs.deck import (
    BET_AT_LEAST,
    BET_CARDS,
    BET_INDEX,
    BET_NAMES,
    BET_TITLES,
    BLACK,
    CARD_CODES,
    CARD_COUNT,
    CODE_TO_CARD,
    COLOUR_NAMES,
    FACE_COLOUR,
    FACE_VALUE,
    HAND_SIZE,
    MAX_PLAYERS,
    ROUNDS,
    TOKEN_POINTS,
    bet_description,
    end_text,
)
from choux.games.chouineurs.rules import (
    bet_points,
    crybabies,
    final_ranks,
    legal_cards,
    round_leader,
    score_round,
    trick_winner,
)
from choux.games.chouineurs.view_types import (
    ChouineursBoard,
    End,
    HandCard,
    LastTrick,
    MyChoice,
)

CHOOSING, PLAYING, CRYING, OVER = 0, 1, 2, 3
PHASE_NAMES = ("choix", "jeu", "chouine", "fin")
NOT_CHOSEN = -2
NO_BET = -1
ALL_BETS = (1 << len(BET_CARDS)) - 1


def _prepare_actions(mask: int) -> tuple[Prepare, ...]:
    bets: list[str | None] = [n for i, n in enumerate(BET_NAMES) if mask >> i & 1]
    if not bets:
        bets = [None]
    return tuple(Prepare(o, b) for o in (AS_DEALT, TURNED) for b in bets)


#: bet cards still owned (bit mask) -> every Prepare action, interned
PREPARE_BY_MASK = tuple(_prepare_actions(mask) for mask in range(ALL_BETS + 1))
ROUND_WORDS = ("première", "deuxième", "troisième", "quatrième", "cinquième", "sixième")


def end_json(face: int) -> End:
    return {"colour": COLOUR_NAMES[FACE_COLOUR[face]], "value": FACE_VALUE[face]}


def card_json(face: int) -> HandCard:
    """A card in hand: its code, the end in play (top) and the other end (bottom)."""
    return {"card": CARD_CODES[face >> 1], "top": end_json(face), "bottom": end_json(face ^ 1)}


_SEATS = range(MAX_PLAYERS)
#: players -> seat -> (next seat,)
NEXT_ACTOR = {n: tuple(((s + 1) % n,) for s in range(n)) for n in range(1, MAX_PLAYERS + 1)}
# Events are immutable: the frequent ones are built once.
PLAY_EVENTS = tuple(
    tuple(
        Event(
            "play",
            f"{{p{s}}} : {end_text(f)}.",
            s,
            {"card": CARD_CODES[f >> 1], "end": end_json(f)},
        )
        for f in range(2 * CARD_COUNT)
    )
    for s in _SEATS
)
READY_EVENTS = tuple(Event("ready", f"{{p{s}}} a fait son choix.", s) for s in _SEATS)
TRICK_EVENTS = tuple(Event("trick", f"Pli pour {{p{s}}}.", s) for s in _SEATS)
TOKEN_EVENTS = tuple(
    Event(
        "token",
        f"{{p{s}}} pleure pour 1 point : une carte de la réserve sous son pari.",
        s,
    )
    for s in _SEATS
)
TURN_EVENTS = tuple(
    Event("turn", f"{{p{s}}} pleure sur sa main : une carte retournée.", s) for s in _SEATS
)
_CRYBABY_EVENTS: dict[tuple[int, ...], Event] = {}
CRY_CHOICE = "Choisissez : retourner une carte de votre main ou prendre une carte de la réserve."


def _crybaby_event(seats: tuple[int, ...]) -> Event:
    event = _CRYBABY_EVENTS.get(seats)
    if event is None:
        names = ", ".join(f"{{p{s}}}" for s in seats)
        title = "Chouineurs" if len(seats) > 1 else "Chouineur"
        event = Event("crybaby", f"{title} : {names}.", seats[0], {"seats": list(seats)})
        _CRYBABY_EVENTS[seats] = event
    return event


BET_CARDS_JSON: list[JSON] = [
    {
        "name": name,
        "title": BET_TITLES[i],
        "points": {str(k): v for k, v in points.items()},
        "or_more": BET_AT_LEAST.get(name),
        "description": bet_description(i),
    }
    for i, (name, points) in enumerate(BET_CARDS)
]


class ChouineursState(State):
    """A game of Chouineurs. Hands hold faces (``card * 2 + side``); see `deck.py`."""

    game_name = "chouineurs"

    __slots__ = (
        "_actors",
        "bets_left",
        "chance",
        "choice_bet",
        "choice_turned",
        "cry_queue",
        "hands",
        "last_trick",
        "leader",
        "n",
        "phase",
        "played",
        "reserve",
        "revealed",
        "rng",
        "round",
        "round_leader",
        "scores",
        "sheet",
        "token_cards",
        "trick",
        "trick_no",
        "tricks_won",
        "voids",
        "waiting",
    )

    n: int
    phase: int
    round: int
    hands: list[list[int]]
    reserve: list[int]
    played: list[int]
    token_cards: list[list[int]]
    tricks_won: list[int]
    bets_left: list[int]
    choice_bet: list[int]
    choice_turned: list[bool]
    waiting: int
    revealed: bool
    leader: int
    round_leader: int
    trick: list[int]
    trick_no: int
    last_trick: tuple[list[int], list[int], int, list[int]] | None
    cry_queue: list[int]
    scores: list[int]
    sheet: list[list[tuple[int, int, int, int, int]]]
    voids: list[int]
    _actors: tuple[int, ...]

    def __init__(self, players: int, seed: int, deal: bool = True) -> None:
        n = players
        self.n = n
        self.rng = random.Random(seed)
        self.chance = []
        self.round = 0
        self.scores = [0] * n
        self.sheet = []
        self.bets_left = [ALL_BETS] * n
        self.hands = [[] for _ in range(n)]
        self.reserve = []
        self.last_trick = None
        self.round_leader = 0
        self._open_round()
        self._actors = ()
        first = self.rng.randrange(n)
        self.chance.append({"first_leader": first})
        self.leader = self.round_leader = first
        if deal:
            self._deal()

    # ------------------------------------------------------------------ set-up

    def _deal(self) -> None:
        """A new round: shuffle, orient every card at random, deal 7 each, open the choice."""
        n = self.n
        rng = self.rng
        keys = [rng.random() for _ in range(CARD_COUNT)]
        deck = sorted(range(CARD_COUNT), key=keys.__getitem__)  # a shuffle, cheaper
        sides = rng.getrandbits(CARD_COUNT)
        self.round += 1
        self.chance.append({"round": self.round, "deal": deck, "sides": sides})
        self.hands = [
            [c * 2 + (sides >> c & 1) for c in deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]]
            for s in range(n)
        ]
        self.reserve = deck[n * HAND_SIZE :]
        self._open_round()

    def _open_round(self) -> None:
        n = self.n
        self.played = []
        self.token_cards = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.choice_bet = [NOT_CHOSEN] * n
        self.choice_turned = [False] * n
        self.waiting = n
        self.revealed = False
        self.trick = []
        self.trick_no = 0
        self.voids = [0] * n
        self.cry_queue = []  # last_trick stays: the previous round's last trick, for the UI
        self.phase = CHOOSING
        self.leader = self.round_leader
        self._actors = tuple(range(n))

    def set_round(
        self,
        hands: list[list[int]],
        reserve: list[int],
        leader: int,
        bets_left: list[int] | None = None,
        scores: list[int] | None = None,
        tricks_won: list[int] | None = None,
    ) -> None:
        """Test automation: replace the deal of the current round with exact faces. Short
        hands stand for a round already under way (7 − cards tricks played)."""
        self.hands = [list(h) for h in hands]
        self.reserve = list(reserve)
        self.round_leader = leader
        if bets_left is not None:
            self.bets_left = list(bets_left)
        if scores is not None:
            self.scores = list(scores)
        if self.round == 0:
            self.round = 1
        self._open_round()
        self.trick_no = HAND_SIZE - len(self.hands[0])
        if tricks_won is not None:
            self.tricks_won = list(tricks_won)

    # ------------------------------------------------------------------ contract

    def trick_seats(self) -> list[int]:
        """Seats of the cards on the table, in play order (the leader first)."""
        n, leader = self.n, self.leader
        return [(leader + i) % n for i in range(len(self.trick))]

    def actors(self) -> tuple[Seat, ...]:
        return self._actors

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == PLAYING:
            if seat != self._actors[0]:
                return []
            trick = self.trick
            hand: Sequence[int] = self.hands[seat]
            if trick:
                hand = legal_cards(hand, FACE_COLOUR[trick[0]])
            return [PLAY_FACE[f] for f in hand]
        if phase == CHOOSING:
            if seat not in self._actors:
                return []
            return list(PREPARE_BY_MASK[self.bets_left[seat]])
        if phase == CRYING:
            if seat != self._actors[0]:
                return []
            actions: list[Action] = [CRY_FACE[f] for f in self.hands[seat]]
            if self.reserve:
                actions.append(CRY_TOKEN)
            return actions
        return []

    def apply(self, seat: Seat | None, action: Action) -> list[Event]:
        if isinstance(action, Play):
            return self._apply_play(seat, action)
        if isinstance(action, Cry):
            return self._apply_cry(seat, action)
        if isinstance(action, Prepare):
            return self._apply_prepare(seat, action)
        raise MalformedAction("Ce coup n'existe pas aux Chouineurs.")

    # ------------------------------------------------------------------ the choice

    def verify_prepare(self, seat: Seat | None, action: Prepare) -> int:
        """Check a hidden choice; returns the bet index (NO_BET: none). Raises in French."""
        if seat is None or not 0 <= seat < self.n:
            raise NotYourTurn("Ce n'est pas à vous de jouer.")
        if self.phase != CHOOSING:
            raise WindowClosed("Les choix de la manche sont déjà faits : la manche est en cours.")
        if self.choice_bet[seat] != NOT_CHOSEN:
            raise IllegalAction(
                "Vous avez déjà choisi l'orientation de votre main et votre pari pour cette manche."
            )
        if action.orientation not in (AS_DEALT, TURNED):
            raise MalformedAction("Orientation inconnue : « endroit » ou « envers » attendu.")
        mask = self.bets_left[seat]
        if action.bet is None:
            if mask:
                raise IllegalAction("Choisissez une de vos cartes de pari.")
            return NO_BET
        bet = BET_INDEX.get(action.bet)
        if bet is None:
            raise MalformedAction(f"Carte de pari inconnue : {action.bet!r}.")
        if not mask >> bet & 1:
            raise IllegalAction(
                f"Votre carte de pari {BET_TITLES[bet]} est déjà gagnée : elle a quitté le jeu."
            )
        return bet

    def _apply_prepare(self, seat: Seat | None, action: Prepare) -> list[Event]:
        bet = self.verify_prepare(seat, action)
        assert seat is not None
        self.choice_bet[seat] = bet
        turned = action.orientation == TURNED
        self.choice_turned[seat] = turned
        if turned:
            self.hands[seat] = [f ^ 1 for f in self.hands[seat]]
        self.waiting -= 1
        events = [READY_EVENTS[seat]]
        if self.waiting:
            self._actors = tuple(s for s in self._actors if s != seat)
        else:
            self.phase = PLAYING
            self._actors = (self.leader,)
            events.append(
                Event(
                    "lead_wait",
                    f"Tout le monde a choisi : à {{p{self.leader}}} d'entamer le premier pli.",
                    self.leader,
                )
            )
        return events

    # ------------------------------------------------------------------ tricks

    def _apply_play(self, seat: Seat | None, action: Play) -> list[Event]:
        if self.phase != PLAYING or seat is None or seat != self._actors[0]:
            self._refuse_out_of_turn(seat, "Ce n'est pas le moment de jouer une carte.")
        assert seat is not None
        hand = self.hands[seat]
        face = CODE_TO_CARD.get(action.card, -1) * 2
        if face not in hand:
            face += 1
            if face not in hand:
                raise IllegalAction("Cette carte n'est pas dans votre main.")
        trick = self.trick
        if trick:
            led = FACE_COLOUR[trick[0]]
            colour = FACE_COLOUR[face]
            if colour != led and colour != BLACK:
                for f in hand:
                    if FACE_COLOUR[f] == led:
                        name = COLOUR_NAMES[led]
                        raise IllegalAction(
                            f"Vous avez du {name} : fournissez la couleur demandée ({name}) "
                            "ou jouez un dragon noir."
                        )
                self.voids[seat] |= 1 << led  # public: this hand shows no `led` end now
        # valid: mutate
        hand.remove(face)
        trick.append(face)
        if self.revealed:
            events = [PLAY_EVENTS[seat][face]]
        else:
            self.revealed = True
            events = [self._reveal_event(), PLAY_EVENTS[seat][face]]
        if len(trick) < self.n:
            self._actors = NEXT_ACTOR[self.n][seat]
            return events
        self._finish_trick(events)
        return events

    def _refuse_out_of_turn(self, seat: Seat | None, reason: str) -> None:
        """Raise the right refusal for a move made out of its phase or turn."""
        if self.phase == CHOOSING:
            raise WindowClosed(
                "Attendez que chacun ait choisi l'orientation de sa main et son pari."
            )
        if self.phase == OVER:
            raise WindowClosed("La partie est terminée.")
        if seat is not None and seat in self._actors:
            raise NotYourTurn(reason)
        if self.phase == CRYING and seat is not None and seat in self.cry_queue:
            raise NotYourTurn("Un autre chouineur choisit avant vous.")
        raise NotYourTurn("Ce n'est pas à vous de jouer.")

    def _reveal_event(self) -> Event:
        parts = []
        for s in range(self.n):
            bet = self.choice_bet[s]
            title = BET_TITLES[bet] if bet >= 0 else "aucun"
            hand = "retournée" if self.choice_turned[s] else "à l'endroit"
            parts.append(f"{{p{s}}} : pari {title}, main {hand}")
        return Event("reveal", "Révélation des paris. " + " ; ".join(parts) + ".")

    def _finish_trick(self, events: list[Event]) -> None:
        trick = self.trick
        seats = self.trick_seats()
        winner = seats[trick_winner(trick)]
        cry = [seats[i] for i in crybabies(trick)]
        self.tricks_won[winner] += 1
        self.trick_no += 1
        played = self.played
        for f in trick:
            played.append(f >> 1)
        self.last_trick = (seats, trick, winner, cry)
        self.trick = []
        self.leader = winner
        events.append(TRICK_EVENTS[winner])
        events.append(_crybaby_event(tuple(cry)))
        if self.trick_no >= HAND_SIZE:
            # hands are empty: a crybaby can only take a token, while the reserve lasts
            reserve = self.reserve
            for s in cry:
                if reserve:
                    self.token_cards[s].append(reserve.pop())
                    events.append(TOKEN_EVENTS[s])
            self._end_round(events)
            return
        self.cry_queue = cry.copy()  # last_trick keeps its own list
        self.phase = CRYING
        self._actors = (cry[0],)

    def _apply_cry(self, seat: Seat | None, action: Cry) -> list[Event]:
        if self.phase != CRYING or seat is None or seat != self._actors[0]:
            if self.phase == PLAYING or self.phase == CRYING:
                if seat is not None and seat not in self.cry_queue:
                    raise NotYourTurn("Vous n'êtes pas chouineur sur ce pli.")
            self._refuse_out_of_turn(seat, "Ce n'est pas le moment de chouiner.")
        assert seat is not None
        if action.token:
            if action.turn is not None:
                raise MalformedAction(CRY_CHOICE)
            if not self.reserve:
                raise IllegalAction("La réserve est vide : vous devez retourner une carte.")
            self.token_cards[seat].append(self.reserve.pop())
            events = [TOKEN_EVENTS[seat]]
        else:
            if action.turn is None:
                raise MalformedAction(CRY_CHOICE)
            hand = self.hands[seat]
            face = CODE_TO_CARD.get(action.turn, -1) * 2
            if face in hand:
                index = hand.index(face)
            elif face + 1 in hand:
                index = hand.index(face + 1)
            else:
                raise IllegalAction("Cette carte n'est pas dans votre main.")
            hand[index] ^= 1
            self.voids[seat] = 0  # the turned card may show any colour now
            events = [TURN_EVENTS[seat]]
        queue = self.cry_queue
        del queue[0]
        if queue:
            self._actors = (queue[0],)
        else:
            self.phase = PLAYING
            self._actors = (self.leader,)
        return events

    # ------------------------------------------------------------------ scoring

    def _end_round(self, events: list[Event]) -> None:
        rows = []
        for s in range(self.n):
            bet = self.choice_bet[s]
            tricks = self.tricks_won[s]
            tokens = len(self.token_cards[s])
            total, spent = score_round(bet, tricks, tokens)
            if spent:
                self.bets_left[s] &= ~(1 << bet)
            self.scores[s] += total
            points = bet_points(bet, tricks)
            rows.append((bet, tricks, points, tokens, total))
            events.append(_score_event(s, bet, tricks, points, tokens))
        self.sheet.append(rows)
        if self.round >= ROUNDS:
            self.phase = OVER
            self._actors = ()
            self.cry_queue = []
            outcome = self.outcome()
            assert outcome is not None
            events.append(Event("end", outcome.reason))
            return
        self.round_leader = round_leader(self.scores, self.round_leader)
        self._deal()
        events.append(
            Event(
                "round",
                f"Manche {self.round} : à {{p{self.round_leader}}} d'entamer. Chacun choisit "
                "l'orientation de sa main et son pari.",
                self.round_leader,
            )
        )

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        last = [row[4] for row in self.sheet[-1]] if self.sheet else [0] * self.n
        ranks = final_ranks(self.scores, last)
        winners = [s for s in range(self.n) if ranks[s] == 1]
        top = max(self.scores)
        tied = [s for s in range(self.n) if self.scores[s] == top]
        if len(tied) == 1:
            reason = f"Fin de la {ROUND_WORDS[len(self.sheet) - 1]} manche : le plus de points l'emporte."
        elif len(winners) == 1:
            reason = "Égalité aux points, départagée par la dernière manche."
        else:
            reason = "Égalité parfaite : victoire partagée."
        return Outcome(tuple(self.scores), ranks, reason)

    # ------------------------------------------------------------------ views

    def seat_count(self) -> int:
        return self.n

    def board_view(self, seat: Seat | None) -> ChouineursBoard:
        n = self.n
        revealed = self.revealed
        my_choice: MyChoice | None = None
        if seat is not None and not revealed and self.choice_bet[seat] != NOT_CHOSEN:
            my_choice = {
                "orientation": TURNED if self.choice_turned[seat] else AS_DEALT,
                "bet": self._bet_name(seat),
                "code": self._choice_code(seat),
            }
        last: LastTrick | None = None
        if self.last_trick is not None:
            seats, faces, winner, cry = self.last_trick
            last = {
                "cards": [
                    {"seat": s, "end": end_json(f)} for s, f in zip(seats, faces, strict=True)
                ],
                "winner": winner,
                "crybabies": list(cry),
            }
        outcome = self.outcome()
        return {
            "players": n,
            "phase": PHASE_NAMES[self.phase],
            "round": self.round,
            "rounds": ROUNDS,
            "trick_number": min(self.trick_no + 1, HAND_SIZE),
            "hand": [card_json(f) for f in self.hands[seat]] if seat is not None else [],
            "hand_counts": [len(h) for h in self.hands],
            "reserve": len(self.reserve),
            "bets_left": [
                [name for i, name in enumerate(BET_NAMES) if mask >> i & 1]
                for mask in self.bets_left
            ],
            "bet_cards": BET_CARDS_JSON,
            "ready": [b != NOT_CHOSEN for b in self.choice_bet],
            "my_choice": my_choice,
            "revealed": revealed,
            "bets": [self._bet_name(s) if revealed else None for s in range(n)],
            "orientations": [
                (TURNED if self.choice_turned[s] else AS_DEALT) if revealed else None
                for s in range(n)
            ],
            "tokens": [len(t) for t in self.token_cards],
            "tricks_won": list(self.tricks_won),
            "leader": self.leader,
            "round_leader": self.round_leader,
            "turn": self._actors[0] if self.phase == PLAYING else None,
            "trick": [
                {"seat": s, "card": CARD_CODES[f >> 1], "end": end_json(f)}
                for s, f in zip(self.trick_seats(), self.trick, strict=True)
            ],
            "led_colour": COLOUR_NAMES[FACE_COLOUR[self.trick[0]]] if self.trick else None,
            "last_trick": last,
            "crybaby": (
                {"seat": self.cry_queue[0], "waiting": self.cry_queue[1:]}
                if self.phase == CRYING
                else None
            ),
            "scores": list(self.scores),
            "sheet": [
                {
                    "round": r + 1,
                    "rows": [
                        {
                            "bet": BET_NAMES[b] if b >= 0 else None,
                            "tricks": t,
                            "bet_points": p,
                            "hit": p > 0,
                            "tokens": k,
                            "total": total,
                        }
                        for b, t, p, k, total in rows
                    ],
                }
                for r, rows in enumerate(self.sheet)
            ],
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def _bet_name(self, seat: int) -> str | None:
        bet = self.choice_bet[seat]
        return BET_NAMES[bet] if bet >= 0 else None

    def _choice_code(self, seat: int) -> str:
        """A token naming a hidden choice, so the tests can prove others never see it."""
        orientation = TURNED if self.choice_turned[seat] else AS_DEALT
        return f"choix-{seat}-m{self.round}-{self._bet_name(seat)}-{orientation}"

    def secrets(self, seat: Seat | None) -> set[str]:
        hidden: set[str] = set()
        for s in range(self.n):
            if s != seat:
                hidden.update(CARD_CODES[f >> 1] for f in self.hands[s])
                if not self.revealed and self.choice_bet[s] != NOT_CHOSEN:
                    hidden.add(self._choice_code(s))
        hidden.update(CARD_CODES[c] for c in self.reserve)
        for tokens in self.token_cards:
            hidden.update(CARD_CODES[c] for c in tokens)
        return hidden

    # ------------------------------------------------------------------ copies

    def snapshot(self) -> dict[str, JSON]:
        return {
            "players": self.n,
            "phase": self.phase,
            "round": self.round,
            "hands": [list(h) for h in self.hands],
            "reserve": list(self.reserve),
            "played": list(self.played),
            "token_cards": [list(t) for t in self.token_cards],
            "tricks_won": list(self.tricks_won),
            "bets_left": list(self.bets_left),
            "choice_bet": list(self.choice_bet),
            "choice_turned": list(self.choice_turned),
            "waiting": self.waiting,
            "revealed": self.revealed,
            "leader": self.leader,
            "round_leader": self.round_leader,
            "trick": list(self.trick),
            "trick_no": self.trick_no,
            "last_trick": [list(x) if isinstance(x, list) else x for x in self.last_trick]
            if self.last_trick is not None
            else None,
            "cry_queue": list(self.cry_queue),
            "voids": list(self.voids),
            "scores": list(self.scores),
            "sheet": [[list(row) for row in rows] for rows in self.sheet],
            "actors": list(self._actors),
            "chance": list(self.chance),
            "rng": rng_fingerprint(self.rng),
        }

    def clone(self) -> ChouineursState:
        twin = ChouineursState.__new__(ChouineursState)
        twin.n = self.n
        twin.rng = copy_rng(self.rng)
        twin.chance = list(self.chance)
        twin.phase = self.phase
        twin.round = self.round
        twin.hands = [list(h) for h in self.hands]
        twin.reserve = list(self.reserve)
        twin.played = list(self.played)
        twin.token_cards = [list(t) for t in self.token_cards]
        twin.tricks_won = list(self.tricks_won)
        twin.bets_left = list(self.bets_left)
        twin.choice_bet = list(self.choice_bet)
        twin.choice_turned = list(self.choice_turned)
        twin.waiting = self.waiting
        twin.revealed = self.revealed
        twin.leader = self.leader
        twin.round_leader = self.round_leader
        twin.trick = list(self.trick)
        twin.trick_no = self.trick_no
        twin.last_trick = self.last_trick
        twin.cry_queue = list(self.cry_queue)
        twin.voids = list(self.voids)
        twin.scores = list(self.scores)
        twin.sheet = [list(rows) for rows in self.sheet]
        twin._actors = self._actors
        return twin

    def determinize(self, seat: Seat, rng: random.Random) -> ChouineursState:
        """Re-deal every card `seat` cannot see (others' hands, reserve, tokens) with random
        ends, keeping the colours a player has shown to lack (`voids`) out of its hand, and
        re-draw others' hidden choices before the reveal."""
        twin = self.clone()
        twin.rng = random.Random(rng.getrandbits(64))  # future deals are unknown too
        unseen: list[int] = []
        others = [s for s in range(self.n) if s != seat]
        for s in others:
            unseen.extend(f >> 1 for f in twin.hands[s])
        unseen.extend(twin.reserve)
        for tokens in twin.token_cards:
            unseen.extend(tokens)
        unseen.sort()  # the sample depends on what the seat knows only, not on the real deal
        hands = _deal_respecting_voids(
            unseen, [(len(twin.hands[s]), self.voids[s]) for s in others], rng
        )
        for s, hand in zip(others, hands, strict=True):
            twin.hands[s] = hand
        pos = 0
        size = len(twin.reserve)
        twin.reserve = unseen[pos : pos + size]
        pos += size
        for s in range(self.n):
            size = len(twin.token_cards[s])
            twin.token_cards[s] = unseen[pos : pos + size]
            pos += size
        if not twin.revealed:
            for s in others:
                if twin.choice_bet[s] != NOT_CHOSEN:
                    bets = [i for i in range(len(BET_NAMES)) if twin.bets_left[s] >> i & 1]
                    twin.choice_bet[s] = rng.choice(bets) if bets else NO_BET
                    twin.choice_turned[s] = rng.random() < 0.5
        return twin

    def check_invariants(self) -> None:
        cards = [f >> 1 for h in self.hands for f in h]
        cards += self.reserve + self.played + [f >> 1 for f in self.trick]
        for tokens in self.token_cards:
            cards += tokens
        assert sorted(cards) == list(range(CARD_COUNT)), "a card was lost or duplicated"
        on_table = self.trick_seats()
        sizes = {len(h) + (1 if s in on_table else 0) for s, h in enumerate(self.hands)}
        assert sizes == {HAND_SIZE - self.trick_no}, "hands of unequal sizes"
        assert len(self.trick) < self.n
        assert sum(self.tricks_won) == self.trick_no
        assert 1 <= self.round <= ROUNDS
        for mask in self.bets_left:
            assert 0 <= mask <= ALL_BETS


def _score_event(seat: int, bet: int, tricks: int, points: int, tokens: int) -> Event:
    """« Anne : 2 plis, pari Rouge réussi (8) + 2 points de chouineur = 10 points. »
    (without a crybaby's point: « Anne : 2 plis, pari Rouge réussi : 8 points. »)"""
    plural = "s" if tricks > 1 else ""
    if bet < 0:
        told = "sans pari (0)"
    elif points:
        told = f"pari {BET_TITLES[bet]} réussi ({points})"
    else:
        told = f"pari {BET_TITLES[bet]} manqué (0)"
    total = points + tokens * TOKEN_POINTS
    if tokens:
        cried = f" + {points_text(tokens)} de chouineur ="
    else:
        told = told.rsplit(" (", 1)[0]  # « pari Rouge réussi : 8 points », not « (8) = 8 »
        cried = " :"
    return Event(
        "score",
        f"{{p{seat}}} : {tricks} pli{plural}, {told}{cried} {points_text(total)}.",
        seat,
        {"tricks": tricks, "bet_points": points, "tokens": tokens, "total": total},
    )


def _deal_respecting_voids(
    pool: list[int], wants: list[tuple[int, int]], rng: random.Random
) -> list[list[int]]:
    """Hands of faces for (size, void colours mask) from the cards of `pool`, which keeps
    the cards left over (shuffled). Each face shows a colour its holder may still have;
    after a few failed draws the voids are ignored (they are hints, not certainties)."""
    for attempt in range(20):
        rng.shuffle(pool)
        rest = list(pool)
        hands: list[list[int]] = []
        for size, voids in wants:
            hand: list[int] = []
            keep: list[int] = []
            for card in rest:
                if len(hand) == size:
                    keep.append(card)
                    continue
                sides = [
                    side
                    for side in (0, 1)
                    if attempt == 19 or not voids >> FACE_COLOUR[card * 2 + side] & 1
                ]
                if sides:
                    hand.append(card * 2 + (sides[0] if len(sides) == 1 else rng.getrandbits(1)))
                else:
                    keep.append(card)
            if len(hand) < size:
                break
            hands.append(hand)
            rest = keep
        else:
            pool[:] = rest
            return hands
    raise AssertionError("unreachable: the last draw ignores the voids")
