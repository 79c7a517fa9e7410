"""The Cul de Chouette state machine: turns, windows, races, bets and challenges.

A turn is a chain of steps (`step`). Some steps wait for one player (roll the dice, decide
to sip, name the Soufflette's target); others are *windows* where several players may act
and that the table clock closes (`deadline()`, action `CloseWindow()` for seat None).
"First" and "last" in races are the order in which actions are applied.

Dice come from `rng` (site's dice: the `Roll()` button) or are typed in by the roller or a
scribe (option ``des = "reels"``: `EnterDice`); everything else is identical.

Bévues: the server charges −10 for the errors it sees: a wrong race shout, « Grelottine ! »
shouted without a Grelottine, an impossible Bleu-Rouge total, a shout out of place. The −10
button under every player's sheet (`DeclareBevue`) and the shout buttons are open to a
player who has nothing else to decide at that moment, once per turn in all (option
``bouton_bevue``): random or malicious clicking cannot drain the table. In a race or a
window, a player may make one wrong shout.

View keys (`view(seat)`), stable for the web UI:

- ``game``: "cul-de-chouette"; ``players``: number of seats; ``seat``: the viewer (None:
  spectator); ``target`` (343) and ``cap`` (332); ``dice_mode``: "site" or "reels";
  ``scribe``: the seat typing the dice or None.
- ``turn``: the turn number (1 = first); ``roller``: whose turn it is; ``order``: seats in
  playing order from the roller (counter-clockwise).
- ``step``: the current step (see `windows.STEP_LABELS`) and ``step_label`` (French).
- ``dice``: the dice on the table now (list of ints, may be empty); ``chouettes``: the two
  first dice of the turn; ``reading``: {"name", "points"} of this turn's roll, or None;
  ``last_roll``: {"seat", "dice", "name", "points"} of the last roll read (kept after the
  turn ends, for the table to show).
- ``sheets``: one dict per seat: ``seat``, ``score``, ``grelottine``, ``civet``,
  ``boucliette`` (🛡), ``passe_grelot_used``, ``passe_grelot_earned``, ``bevue_pressed``,
  ``partner`` (Doublette: the team mate, who shares the score; else None), ``present``
  (False for a Chante-Sloubi seat not yet joined).
- ``windows``: the open windows, each {"kind", "label", "seconds"} (seconds = how long the
  clock keeps it open from now; empty list when the game waits for one player).
- ``awaiting``: {"seat", "count"} when dice are awaited (who rolls or types, how many).
- ``race``: {"kind", "cry", "order", "wrong"} in a race, else None.
- ``civet_bet``: {"combination", "stake"} or None; ``bought_by``: the buyer of the Cul or
  None; ``sirotage``: {"value", "bets": {seat: face}} or None; ``challenge``: {"kind",
  "challenger", "target", "combination", "stake", "throw", "kept", "bets"} or None;
  ``bleu_rouge``: {"totals", "announced", "bets"} or None; ``tiebreak``: {"purpose",
  "pending", "values"} or None.
- ``banque`` (option): {"balances": per seat, "tier": deposit step} or None.
- ``actors``: seats that may act now; ``legal``: the viewer's legal actions as
  [{"action": JSON, "label": French}] (``{pN}`` in labels stand for player names).
- ``over``, ``winner``: the end of the game.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import product
from typing import Any

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
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BetChallenge,
    BetFace,
    BetTotal,
    BuyCul,
    ChallengeGrelottine,
    ChallengeSoufflette,
    CivetBet,
    CloseWindow,
    DeclareBevue,
    Deposit,
    EnterDice,
    JoinSloubi,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
    Withdraw,
)
from choux.games.cul_de_chouette.rules import (
    capped_score,
    floored_score,
    lowest_seats,
    next_seat,
    soufflette_kept,
    total_is_possible,
)
from choux.games.cul_de_chouette.windows import (
    FIRST_WINS,
    RACE_CRY,
    STEP_LABELS,
    window_seconds,
)

ROLL = Roll()
CLOSE = CloseWindow()
BUY = BuyCul()
SIP_YES = Sip(True)
SIP_NO = Sip(False)
BOUCLIETTE = UseBoucliette()
JOINS = (JoinSloubi(False), JoinSloubi(True))
ENTER: dict[int, tuple[EnterDice, ...]] = {
    k: tuple(EnterDice(d) for d in product(range(1, 7), repeat=k)) for k in (1, 2, 3)
}
FACE_BETS = tuple(BetFace(f) for f in range(1, 7))
CHALLENGE_BETS = (BetChallenge(True), BetChallenge(False))
TOTAL_BETS = tuple(BetTotal(t) for t in range(3, 19))
SHOUTS = {
    cry: Shout(cry) for cry in (*C.RACE_CRIES, C.CRI_GRELOTTINE, C.RAITOURNELLE, C.ARTICHETTE)
}
WITHDRAW = Withdraw()
#: what a player with nothing to decide may still shout: out of place, a Bévue
IDLE_SHOUTS = tuple(SHOUTS[c] for c in (*C.RACE_CRIES, C.CRI_GRELOTTINE))
FALSE_GRELOTTINE = SHOUTS[C.CRI_GRELOTTINE]
RACES = frozenset(RACE_CRY)
DICE_STEPS = frozenset(
    {"debut", "achat", "cul", "paris_sirotage", "sirotage", "annonce", "defi"}
    | {"sirop_grelot", "bleu_rouge", "bleu_rouge_jet"}
)


DEADLINES = {
    step: Deadline(seconds, CLOSE, None)
    for step in STEP_LABELS
    if (seconds := window_seconds(step))
}


@lru_cache(maxsize=512)
def _grelottine_menu(smaller: int) -> tuple[ChallengeGrelottine, ...]:
    """Every (combination, stake) a challenger may impose when the smaller score is this."""
    return tuple(
        ChallengeGrelottine(combination, stake)
        for combination in C.GRELOTTINE_PERCENT
        for stake in range(1, C.grelottine_max_stake(combination, smaller, smaller) + 1)
    )


@lru_cache(maxsize=16)
def _bevue_menu(players: int) -> tuple[DeclareBevue, ...]:
    return tuple(DeclareBevue(t) for t in range(players))


def _civet_bets(score: int) -> list[Action]:
    top = min(C.CIVET_MAX, score)
    return [CivetBet(c, s) for c in C.CIVET_COMBINATIONS for s in range(1, top + 1)]


class CulDeChouetteState(State):
    """One game of Cul de Chouette (see the module docstring for the view keys)."""

    def __init__(self, players: int, seed: int, options: dict[str, JSON]) -> None:
        self.n = players
        self.rng = random.Random(seed)
        self.chance: list[JSON] = []
        self.real = options.get("des", "site") == "reels"
        scribe = options.get("scribe", -1)
        self.scribe: int | None = (
            scribe if isinstance(scribe, int) and 0 <= scribe < players else None
        )
        target = options.get("objectif", C.TARGET)
        self.target: int = target if isinstance(target, int) else C.TARGET
        self.cap = self.target - (C.TARGET - C.CAP)
        self.bevue_button = bool(options.get("bouton_bevue", True))
        self.scores = [0] * players
        self.banque = bool(options.get("banque", False))
        self.bank = [0] * players  # Banque: each player's balance
        self.bank_tier = C.BANK_TIER
        self.bank_moved = False  # one deposit or withdrawal per turn
        late = options.get("chante_sloubi", 0)
        late = late if isinstance(late, int) else 0
        self.present = [s < players - late for s in range(players)]
        self.seated = tuple(s for s in range(players) if self.present[s])
        half = players // 2
        self.partner: list[int | None] = [
            (s + half) % players if options.get("doublette") else None for s in range(players)
        ]
        self.grelottine = [False] * players
        self.civet = [False] * players
        self.boucliette = list(self.present)
        self.pg_used = [False] * players
        self.pg_earned = [False] * players
        self.bevue_pressed = [False] * players
        self.roller = 0
        self.turn = 0
        self.step = "ouverture"
        self.over = False
        self.winner: int | None = None
        self.last_roll: dict[str, JSON] | None = None
        self._reset_turn()
        self.tiebreak: dict[str, Any] | None = {
            "purpose": "ouverture",
            "pending": list(self.seated),
            "values": {},
        }
        self._events: list[Event] = []
        self._cache: dict[int, list[Action]] = {}
        self._actors: tuple[int, ...] | None = None
        if not self.real:
            self._auto_tiebreak()
            self._events = []

    def _reset_turn(self) -> None:
        self.dice: list[int] = []
        self.chouettes: list[int] = []
        self.reading: tuple[str, int] | None = None
        self.civet_bet: tuple[str, int] | None = None
        self.civet_pending: tuple[str, int] | None = None
        self.bought_by: int | None = None
        self.race: dict[str, Any] | None = None
        self.sip: dict[str, Any] | None = None
        self.challenge: dict[str, Any] | None = None
        self.bleu: dict[str, Any] | None = None
        self.tiebreak = None
        self.bevue_pressed = [False] * self.n
        self.bank_moved = False
        self.erred: list[int] = []  # shouted « Grelottine ! » without one, this turn

    # ------------------------------------------------------------------ who acts

    @property
    def scorer(self) -> int:
        """Who plays the roll's consequences: the roller, or the buyer of the Cul."""
        return self.roller if self.bought_by is None else self.bought_by

    def _dice_duty(self) -> tuple[int, int] | None:
        """(seat who rolls, how many dice) when the game awaits dice now."""
        step = self.step
        if step not in DICE_STEPS:
            return None
        if step == "debut":
            return self.roller, 2
        if step == "achat":
            return self.roller, 1
        if step in ("cul", "paris_sirotage", "sirotage", "bleu_rouge_jet"):
            return self.scorer, 1 if step != "bleu_rouge_jet" else 3
        if step == "bleu_rouge":
            assert self.bleu is not None
            return (self.scorer, 3) if self.bleu["announced"] else None
        assert self.challenge is not None
        if step == "sirop_grelot":
            return self.challenge["target"], 1
        return self.challenge["target"], 3 - len(self.challenge["kept"])

    def _typer(self, seat: int) -> int:
        return self.scribe if self.real and self.scribe is not None else seat

    def _moves(self, seat: int) -> list[Action]:
        """Every legal action of `seat` except the −10 button."""
        cached = self._cache.get(seat)
        if cached is not None:
            return cached
        moves = self._compute_moves(seat) if not self.over else []
        self._cache[seat] = moves
        return moves

    def _compute_moves(self, seat: int) -> list[Action]:
        moves: list[Action] = []
        step = self.step
        if not self.present[seat]:
            return list(JOINS) if step == "debut" else []
        if self.tiebreak is not None:
            pending = self.tiebreak["pending"]
            if pending and (seat == self.scribe or (self.scribe is None and seat in pending)):
                moves.extend(ENTER[1])
            return moves
        duty = self._dice_duty()
        if duty is not None:
            if self.real:
                if self._typer(duty[0]) == seat:
                    moves.extend(ENTER[duty[1]])
            elif duty[0] == seat:
                moves.append(ROLL)
        if step == "debut":
            if seat == self.roller and self.civet[seat] and self.civet_bet is None:
                moves.extend(_civet_bets(self.scores[seat]))
            if seat == self.roller and self.banque and not self.bank_moved:
                tier = self.bank_tier
                moves.extend(Deposit(k * tier) for k in range(1, self.scores[seat] // tier + 1))
                if self.bank[seat]:
                    moves.append(WITHDRAW)
        elif step == "raitournelle":
            cry = C.RAITOURNELLE if seat == self.roller else C.ARTICHETTE
            moves.append(SHOUTS[cry])
        elif step == "achat":
            if seat != self.roller and self.scores[seat] >= C.PURCHASE_PRICE:
                moves.append(BUY)
        elif step == "siroter":
            if seat == self.scorer:
                moves.extend((SIP_YES, SIP_NO))
        elif step == "paris_sirotage":
            assert self.sip is not None
            if self._may_bet(seat, self.sip["bets"], (self.scorer,)):
                moves.extend(FACE_BETS)
        elif step in RACES:
            race = self.race
            assert race is not None
            if seat in race["eligible"] and seat not in race["order"]:
                right = RACE_CRY[step]
                moves.append(SHOUTS[right])
                if seat not in race["wrong"]:
                    moves.extend(SHOUTS[c] for c in C.RACE_CRIES if c != right)
        elif step == "soufflette_cible":
            if seat == self.scorer:
                moves.extend(ChallengeSoufflette(t) for t in self.seated if t != seat)
        elif step == "grelottine":
            moves.extend(self._grelottine_challenges(seat))
            if self._may_false_grelottine(seat):
                moves.append(FALSE_GRELOTTINE)
        elif step == "annonce":
            ch = self.challenge
            assert ch is not None
            if ch["kind"] == "grelottine":
                if seat == ch["target"] and self._may_pass_grelot(seat):
                    moves.extend(
                        PasseGrelot(p) for p in self.seated if p not in (seat, ch["challenger"])
                    )
                if self._may_bet(seat, ch["bets"], (ch["challenger"], ch["target"])):
                    moves.extend(CHALLENGE_BETS)
            if self.boucliette[seat] and seat != ch["challenger"]:
                moves.append(BOUCLIETTE)
        elif step == "bleu_rouge":
            bleu = self.bleu
            assert bleu is not None
            if seat == self.scorer:
                if bleu["announced"] < C.BLEU_ROUGE_TOTALS:
                    moves.extend(
                        AnnounceTotal(t) for t in C.TOTAL_CHOICES if t not in bleu["totals"]
                    )
            elif self._may_bet(seat, bleu["bets"], (self.scorer,)):
                moves.extend(TOTAL_BETS)
        return moves

    def _may_bet(self, seat: int, bets: dict[int, Any], excluded: tuple[int, ...]) -> bool:
        return seat not in excluded and seat not in bets and self.scores[seat] >= C.SIDE_BET_STAKE

    def _may_false_grelottine(self, seat: int) -> bool:
        """The « Grelottine ! » button of a player who holds none: a Bévue, once."""
        return seat != self.scorer and not self.grelottine[seat] and seat not in self.erred

    def _may_pass_grelot(self, seat: int) -> bool:
        return self.n > 2 and self.pg_earned[seat] and not self.pg_used[seat]

    def _grelottine_challenges(self, seat: int) -> list[Action]:
        target = self.scorer
        if seat == target or not self.grelottine[seat]:
            return []
        return list(_grelottine_menu(min(self.scores[seat], self.scores[target])))

    def _bank_open(self, seat: int) -> bool:
        """Banque: the roller may deposit or withdraw before the dice."""
        return not self.bank_moved and (self.scores[seat] >= self.bank_tier or self.bank[seat] > 0)

    def _bevue_open(self, seat: int) -> bool:
        return (
            self.bevue_button
            and not self.over
            and not self.bevue_pressed[seat]
            and self.present[seat]
        )

    def _busy(self) -> list[int]:
        """Seats with a move other than the −10 button, the one who must act first: the
        same answer as `_moves(seat) != []` for each seat, without building the lists."""
        n, step, scores = self.n, self.step, self.scores
        if step == "debut":
            r = self.roller
            first = self.scribe if self.real and self.scribe is not None else r
            busy = [first]
            if r != first and (
                (self.civet[r] and self.civet_bet is None and scores[r] > 0)
                or (self.banque and self._bank_open(r))
            ):
                busy.append(r)
            if len(self.seated) < n:
                busy.extend(p for p in range(n) if not self.present[p])
            return busy
        if self.tiebreak is not None:
            pending = self.tiebreak["pending"]
            if not pending:
                return []
            return [self.scribe] if self.scribe is not None else list(pending)
        duty = self._dice_duty()
        first = self._typer(duty[0]) if duty is not None else self.scorer
        busy = [first] if duty is not None else []
        if step == "raitournelle":
            busy = [self.roller, *(p for p in self.seated if p != self.roller)]
        elif step == "achat":
            busy.extend(
                p for p in self.seated if p != self.roller and scores[p] >= C.PURCHASE_PRICE
            )
        elif step in ("siroter", "soufflette_cible"):
            busy = [first]
        elif step == "paris_sirotage":
            assert self.sip is not None
            bets = self.sip["bets"]
            busy.extend(self._bettors(bets, (self.scorer,)))
        elif step in RACES:
            assert self.race is not None
            order = self.race["order"]
            busy = [p for p in self.race["eligible"] if p not in order]
        elif step == "grelottine":
            target = self.scorer
            busy = [
                p
                for p in self.seated
                if p != target
                and self.grelottine[p]
                and min(scores[p], scores[target]) * C.GRELOTTINE_PERCENT[C.CHOUETTE] >= 100
            ]
            busy.extend(p for p in self.seated if self._may_false_grelottine(p))
        elif step == "annonce":
            ch = self.challenge
            assert ch is not None
            busy.extend(p for p in self.seated if self.boucliette[p] and p != ch["challenger"])
            if ch["kind"] == "grelottine":
                if self._may_pass_grelot(ch["target"]):
                    busy.append(ch["target"])
                busy.extend(self._bettors(ch["bets"], (ch["challenger"], ch["target"])))
        elif step == "bleu_rouge":
            assert self.bleu is not None
            if self.bleu["announced"] < C.BLEU_ROUGE_TOTALS:
                busy.append(self.scorer)
            busy.extend(self._bettors(self.bleu["bets"], (self.scorer,)))
        if len(busy) > 1:
            seen: set[int] = set()
            busy = [p for p in busy if not (p in seen or seen.add(p))]  # type: ignore[func-returns-value]
        return busy

    def _bettors(self, bets: dict[int, Any], excluded: tuple[int, ...]) -> list[int]:
        scores = self.scores
        return [
            p
            for p in self.seated
            if p not in excluded and p not in bets and scores[p] >= C.SIDE_BET_STAKE
        ]

    def actors(self) -> tuple[int, ...]:
        if self._actors is not None:
            return self._actors
        if self.over:
            self._actors = ()
            return self._actors
        busy = self._busy()
        if self.bevue_button:
            pressed = self.bevue_pressed
            for p in self.seated:
                if not pressed[p] and p not in busy:
                    busy.append(p)
        self._actors = tuple(busy)
        return self._actors

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return []
        moves = self._moves(seat)
        if moves:
            return list(moves)
        if self._bevue_open(seat):
            if len(self.seated) == self.n:
                return [*_bevue_menu(self.n), *IDLE_SHOUTS]
            return [*(DeclareBevue(t) for t in self.seated), *IDLE_SHOUTS]
        return []

    def deadline(self) -> Deadline | None:
        if self.over:
            return None
        return DEADLINES.get(self.step)

    # ------------------------------------------------------------------ validation

    def _validate(self, seat: int | None, action: Action) -> None:
        """Raise with a French reason unless `seat` may play `action` now."""
        if self.over:
            raise WindowClosed("La partie est terminée.")
        if isinstance(action, CloseWindow):
            if seat is not None:
                raise NotYourTurn("Seule l'horloge de la table ferme une fenêtre.")
            if self.deadline() is None:
                raise WindowClosed("Aucune fenêtre n'est ouverte.")
            return
        if seat is None:
            raise NotYourTurn("Seule l'horloge de la table joue sans siège.")
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise NotYourTurn("Ce siège n'existe pas à cette table.")
        if not self.present[seat]:
            if isinstance(action, JoinSloubi) and self.step == "debut":
                return
            raise NotYourTurn("Rejoignez d'abord la partie, entre deux tours.")
        if isinstance(action, JoinSloubi):
            raise IllegalAction("Vous êtes déjà à la table.")
        if isinstance(action, EnterDice):
            self._validate_dice(seat, action.dice)
            return
        if isinstance(action, DeclareBevue):
            if not self.bevue_button:
                raise IllegalAction("Le bouton Bévue n'est pas utilisé à cette table.")
            if not 0 <= action.target < self.n or not self.present[action.target]:
                raise IllegalAction("Ce joueur n'est pas à la table.")
            if self.bevue_pressed[seat]:
                raise IllegalAction("Vous avez déjà signalé une bévue ce tour-ci.")
            if self._moves(seat):
                raise IllegalAction("Décidez d'abord de votre coup, puis signalez la bévue.")
            return
        if isinstance(action, CivetBet):
            self._validate_civet(seat, action)
            return
        if isinstance(action, ChallengeGrelottine):
            self._validate_grelottine(seat, action)
            return
        if isinstance(action, Shout) and action.cry not in SHOUTS:
            raise MalformedAction("Ce cri n'existe pas.")
        moves = self._moves(seat)
        if isinstance(action, Shout) and not moves and self._bevue_open(seat):
            if action in IDLE_SHOUTS:
                return  # a shout out of place: a Bévue
        if action not in moves:
            raise self._refusal(seat, action)

    def _validate_dice(self, seat: int, dice: tuple[int, ...]) -> None:
        for d in dice:
            if not isinstance(d, int) or not 1 <= d <= 6:
                raise IllegalAction(f"Un dé montre 1 à 6 : {d} est impossible.")
        if not self.real:
            raise IllegalAction("À cette table, ce sont les dés du site qui roulent.")
        if self.tiebreak is not None:
            pending = self.tiebreak["pending"]
            if not pending or not (
                seat == self.scribe or (self.scribe is None and seat in pending)
            ):
                raise NotYourTurn("Ce n'est pas à vous de saisir ce dé.")
            if len(dice) != 1:
                raise IllegalAction("Un seul dé est attendu.")
            return
        duty = self._dice_duty()
        if duty is None:
            raise WindowClosed("Aucun dé n'est attendu maintenant.")
        if self._typer(duty[0]) != seat:
            raise NotYourTurn("Ce n'est pas à vous de saisir ces dés.")
        if len(dice) != duty[1]:
            raise IllegalAction(f"Il faut saisir {duty[1]} dé(s), pas {len(dice)}.")

    def _validate_civet(self, seat: int, action: CivetBet) -> None:
        if self.step != "debut" or seat != self.roller:
            raise NotYourTurn("On mise son Civet avant ses propres dés.")
        if not self.civet[seat]:
            raise IllegalAction("Vous n'avez pas de Civet.")
        if self.civet_bet is not None:
            raise IllegalAction("Votre Civet est déjà misé.")
        if action.combination not in C.CIVET_COMBINATIONS:
            raise IllegalAction(f"Combinaison inconnue : {action.combination}.")
        top = min(C.CIVET_MAX, self.scores[seat])
        if not 1 <= action.stake <= top:
            raise IllegalAction(f"Mise impossible : entre 1 et {top} points.")

    def _validate_grelottine(self, seat: int, action: ChallengeGrelottine) -> None:
        if self.step != "grelottine":
            raise WindowClosed("Trop tard : on ne lance une Grelottine qu'après un Néant.")
        if seat == self.scorer:
            raise IllegalAction("On ne se défie pas soi-même.")
        if not self.grelottine[seat]:
            raise IllegalAction("Vous n'avez pas de Grelottine.")
        if action.combination not in C.GRELOTTINE_PERCENT:
            raise IllegalAction(f"Combinaison non imposable : {action.combination}.")
        top = C.grelottine_max_stake(
            action.combination, self.scores[seat], self.scores[self.scorer]
        )
        if not 1 <= action.stake <= top:
            raise IllegalAction(f"Mise trop forte : {top} au plus pour {action.combination}.")

    def _refusal(self, seat: int, action: Action) -> IllegalAction:
        if isinstance(action, BetFace | BetTotal | BetChallenge):
            if self.scores[seat] < C.SIDE_BET_STAKE and self.step in (
                "paris_sirotage",
                "bleu_rouge",
                "annonce",
            ):
                return IllegalAction("Il faut au moins 5 points pour parier.")
            return WindowClosed("Les paris sont fermés, ou vous avez déjà parié.")
        if isinstance(action, BuyCul):
            if self.step == "achat" and self.scores[seat] < C.PURCHASE_PRICE:
                return IllegalAction("Il faut au moins 30 points pour acheter le Cul.")
            return WindowClosed("Le Cul n'est pas à vendre maintenant.")
        if isinstance(action, Shout):
            return WindowClosed("Aucune course ouverte pour vous maintenant.")
        if isinstance(action, PasseGrelot):
            if self.n == 2:
                return IllegalAction("Le Passe-Grelot est sans effet à deux joueurs.")
            return IllegalAction("Passe-Grelot impossible maintenant.")
        if isinstance(action, UseBoucliette):
            return IllegalAction("Pas de Boucliette ou pas de défi à annuler.")
        if isinstance(action, Deposit | Withdraw):
            if not self.banque:
                return IllegalAction("Pas de Banque à cette table.")
            if self.step != "debut" or seat != self.roller:
                return NotYourTurn("On passe à la Banque à son tour, avant ses dés.")
            if self.bank_moved:
                return IllegalAction("Un seul passage à la Banque par tour.")
            if isinstance(action, Withdraw):
                return IllegalAction("Vous n'avez rien à la Banque.")
            return IllegalAction(
                f"Dépôt par paliers de {self.bank_tier} points, dans la limite de votre score."
            )
        if isinstance(action, Roll) and self.real:
            return IllegalAction("À cette table, on saisit les vrais dés.")
        return NotYourTurn("Ce coup n'est pas permis maintenant.")

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._validate(seat, action)
        self._events = []
        if isinstance(action, CloseWindow):
            self._close()
        else:
            assert seat is not None
            self._play(seat, action)
        self._cache = {}
        self._actors = None
        events, self._events = self._events, []
        return events

    def _play(self, seat: int, action: Action) -> None:
        if isinstance(action, Roll):
            duty = self._dice_duty()
            assert duty is not None
            self._on_dice(self._roll(duty[1]))
        elif isinstance(action, EnterDice):
            self.chance.append({"dice": list(action.dice), "typed": True})
            if self.tiebreak is not None:
                target = self.tiebreak["pending"][0] if self.scribe == seat else seat
                self._tiebreak_value(target, action.dice[0])
            else:
                self._on_dice(list(action.dice))
        elif isinstance(action, DeclareBevue):
            self.bevue_pressed[seat] = True
            self._bevue(action.target, f"{{p{seat}}} signale une bévue de {{p{action.target}}}")
        elif isinstance(action, CivetBet):
            self.civet[seat] = False
            self.civet_bet = (action.combination, action.stake)
            self._say(
                "civet",
                f"{{p{seat}}} mise {action.stake} sur {action.combination} avec son Civet",
                seat,
            )
        elif isinstance(action, BuyCul):
            self._buy(seat)
        elif isinstance(action, Sip):
            self._decide_sip(action.yes)
        elif isinstance(action, BetFace):
            assert self.sip is not None
            self.sip["bets"][seat] = action.face
            self._say("pari", f"{{p{seat}}} parie 5 sur {C.BIRDS[action.face]}", seat)
        elif isinstance(action, Shout):
            if not self._moves(seat):
                self.bevue_pressed[seat] = True
                self._bevue(seat, f"« {action.cry} » hors de propos")
            else:
                self._shout(seat, action.cry)
        elif isinstance(action, ChallengeSoufflette):
            self._announce("soufflette", seat, action.target, C.SOUFFLETTE, 0)
        elif isinstance(action, ChallengeGrelottine):
            self._say("grelottine", f"{{p{seat}}} : « Grelottine ! »", seat)
            self._announce("grelottine", seat, self.scorer, action.combination, action.stake)
        elif isinstance(action, PasseGrelot):
            self._passe_grelot(seat, action.target)
        elif isinstance(action, UseBoucliette):
            self._use_boucliette(seat)
        elif isinstance(action, BetChallenge):
            assert self.challenge is not None
            self.challenge["bets"][seat] = action.made
            word = "réussi" if action.made else "raté"
            self._say("pari", f"{{p{seat}}} parie 5 sur un défi {word}", seat)
        elif isinstance(action, AnnounceTotal):
            self._announce_total(seat, action.total)
        elif isinstance(action, JoinSloubi):
            self._join(seat, action.sing)
        elif isinstance(action, Deposit):
            self.bank_moved = True
            self._set_score(seat, self.scores[seat] - action.amount)
            self.bank[seat] += action.amount
            self._say("banque", f"{{p{seat}}} dépose {action.amount} points à la Banque", seat)
        elif isinstance(action, Withdraw):
            self.bank_moved = True
            balance, self.bank[seat] = self.bank[seat], 0
            fees = balance * C.BANK_FEES // 100
            self._say(
                "banque", f"{{p{seat}}} retire {balance} de la Banque ({fees} de frais)", seat
            )
            self._gain(seat, balance - fees, False, "retire son dépôt")
        elif isinstance(action, BetTotal):
            assert self.bleu is not None
            self.bleu["bets"][seat] = action.total
            self._say("pari", f"{{p{seat}}} parie 5 sur un total de {action.total}", seat)
        else:  # pragma: no cover - the codec only builds known actions
            raise MalformedAction("Action inconnue.")

    def _close(self) -> None:
        """The clock closes the open window with its default."""
        step = self.step
        if step == "achat":
            self._await_or_roll("cul")
        elif step == "siroter":
            self._decide_sip(False)
        elif step == "paris_sirotage":
            self._await_or_roll("sirotage")
        elif step in RACES:
            self._close_race()
        elif step == "raitournelle":
            self._say("info", "Personne ne crie : la Banque ne bouge pas.")
            self._after_chouettes()
        elif step == "soufflette_cible":
            target = self._next(self.scorer)
            self._announce("soufflette", self.scorer, target, C.SOUFFLETTE, 0)
        elif step == "grelottine":
            self._say("info", "Personne ne lance de Grelottine.")
            self._end_turn()
        elif step == "annonce":
            self._await_or_roll("defi")
        elif step == "bleu_rouge":
            self._await_or_roll("bleu_rouge_jet")

    def _await_or_roll(self, waiting_step: str) -> None:
        """Closing a window whose default is the roll: the site rolls now; with real dice
        the game waits for them in `waiting_step`."""
        duty = (self.scorer, 3) if self.step == "bleu_rouge" else self._dice_duty()
        assert duty is not None
        if self.real:
            self.step = waiting_step
            return
        self._on_dice(self._roll(duty[1]))

    # ------------------------------------------------------------------ helpers

    def _say(self, kind: str, text: str, seat: int | None = None, **data: JSON) -> None:
        self._events.append(Event(kind, text, seat, data))

    def _roll(self, count: int) -> list[int]:
        rand = self.rng.random
        dice = [int(rand() * 6) + 1 for _ in range(count)]
        self.chance.append({"dice": dice})
        return dice

    def _gain(self, seat: int, points: int, own: bool, why: str) -> None:
        """Add points. `own`: points of the roller's own roll on their own turn (uncapped,
        may win); anything else stops at the cap."""
        if points <= 0 or self.over:
            return
        before = self.scores[seat]
        if own and seat == self.roller:
            self._set_score(seat, before + points)
        else:
            self._set_score(seat, capped_score(before, points, self.cap))
        got = self.scores[seat] - before
        note = "" if got == points else f" (plafonné à {self.cap})"
        self._say("points", f"{{p{seat}}} {why} : +{got}{note}", seat, points=got)
        if own and seat == self.roller and self.scores[seat] >= self.target:
            self.over = True
            self.winner = seat
            self.step = "fin"
            self._say("victoire", f"{{p{seat}}} atteint {self.scores[seat]} et gagne !", seat)

    def _set_score(self, seat: int, value: int) -> None:
        """Doublette: partners share one score."""
        self.scores[seat] = value
        partner = self.partner[seat]
        if partner is not None:
            self.scores[partner] = value

    def _lose(self, seat: int, points: int, why: str) -> None:
        if points <= 0 or self.over:
            return
        before = self.scores[seat]
        self._set_score(seat, floored_score(before, points))
        lost = before - self.scores[seat]
        if lost == points:
            self._say("points", f"{{p{seat}}} {why} : −{lost}", seat)
        else:  # the floor at 0 stops the loss: say so rather than print "−0"
            self._say(
                "points", f"{{p{seat}}} {why} : −{points} (le score ne descend pas sous 0)", seat
            )

    def _bevue(self, seat: int, why: str) -> None:
        self._lose(seat, C.BEVUE, f"fait une Bévue ({why})")

    # ------------------------------------------------------------------ ties (opening, Suite)

    def _auto_tiebreak(self) -> None:
        while self.tiebreak is not None and self.tiebreak["pending"]:
            seat = self.tiebreak["pending"][0]
            value = int(self.rng.random() * 6) + 1
            self.chance.append({"dice": [value], "seat": seat})
            self._tiebreak_value(seat, value)

    def _tiebreak_value(self, seat: int, value: int) -> None:
        tie = self.tiebreak
        assert tie is not None
        tie["pending"].remove(seat)
        tie["values"][seat] = value
        self._say("de", f"{{p{seat}}} lance un {value}", seat)
        if tie["pending"]:
            return
        low = lowest_seats(tie["values"])
        if len(low) > 1:
            self._say("info", "Égalité : on relance.")
            tie["pending"] = low
            tie["values"] = {}
            return
        loser = low[0]
        if tie["purpose"] == "ouverture":
            self.tiebreak = None
            self.roller = loser
            self._say("info", f"{{p{loser}}} a le plus petit dé et commence.", loser)
            self._start_turn()
        else:
            self.tiebreak = None
            self._lose(loser, C.SUITE_LAST_LOSES, "perd le départage de la Suite")
            self._end_turn()

    # ------------------------------------------------------------------ turn

    def _next(self, seat: int) -> int:
        """The next seated player, counter-clockwise."""
        seat = next_seat(seat, self.n)
        while not self.present[seat]:
            seat = next_seat(seat, self.n)
        return seat

    def _join(self, seat: int, sing: bool) -> None:
        """Chante-Sloubi: (1st − 2nd) × turns played ÷ 10, × 1.5 when sung, below the cap."""
        ranked = sorted((self.scores[s] for s in self.seated), reverse=True)
        played = max(self.turn - 1, 0)
        start = (ranked[0] - ranked[1]) * played * (3 if sing else 2) // 20
        self.present[seat] = True
        self.seated = tuple(s for s in range(self.n) if self.present[s])
        self.boucliette[seat] = True
        self.scores[seat] = min(start, self.cap)
        song = " en chantant" if sing else ""
        self._say(
            "sloubi", f"{{p{seat}}} rejoint la partie{song} avec {self.scores[seat]} points", seat
        )

    def _start_turn(self) -> None:
        self._reset_turn()
        self.turn += 1
        self.step = "debut"
        balance = self.bank[self.roller]
        if balance:
            interest = balance * C.BANK_INTEREST // 100
            self.bank[self.roller] = balance + interest
            self._say("banque", f"La Banque verse {interest} d'intérêts à {{p{self.roller}}}")

    def _end_turn(self) -> None:
        if self.over:
            return
        self.roller = self._next(self.roller)
        self._start_turn()

    def _on_dice(self, dice: list[int]) -> None:
        step = self.step
        if step == "debut":
            self._on_chouettes(dice)
        elif step in ("achat", "cul"):
            self._on_cul(dice[0])
        elif step in ("paris_sirotage", "sirotage"):
            self._on_sip(dice[0])
        elif step in ("annonce", "defi"):
            self._on_challenge_throw(dice)
        elif step == "sirop_grelot":
            self._on_sirop_grelot(dice[0])
        else:
            self._on_bleu_rouge_reroll(dice)

    def _on_chouettes(self, dice: list[int]) -> None:
        self.chouettes = list(dice)
        self.dice = list(dice)
        self._say(
            "des", f"{{p{self.roller}}} lance les Chouettes : {dice[0]} et {dice[1]}", self.roller
        )
        if (
            self.banque
            and sum(dice) > C.RAITOURNELLE_ABOVE
            and any(self.bank[p] for p in self.seated if p != self.roller)
        ):
            self.step = "raitournelle"
            return
        self._after_chouettes()

    def _after_chouettes(self) -> None:
        buyers = any(s != self.roller and self.scores[s] >= C.PURCHASE_PRICE for s in self.seated)
        if buyers:
            self.step = "achat"
        elif self.real:
            self.step = "cul"
        else:
            self._on_cul(self._roll(1)[0])

    def _buy(self, seat: int) -> None:
        self.bought_by = seat
        self._set_score(seat, self.scores[seat] - C.PURCHASE_PRICE)
        self._say("achat", f"{{p{seat}}} achète le Cul de {{p{self.roller}}} : −30", seat)
        if self.real:
            self.step = "cul"
        else:
            self._on_cul(self._roll(1)[0])

    def _on_cul(self, value: int) -> None:
        self.dice = [*self.chouettes, value]
        s = self.scorer
        self._say("des", f"{{p{s}}} lance le Cul : {value}", s)
        self._resolve_roll()

    def _resolve_roll(self) -> None:
        dice = tuple(self.dice)
        name, points, value = C.read_full(dice)
        self.reading = (name, points)
        s = self.scorer
        self.last_roll = {"seat": s, "dice": list(dice), "name": name, "points": points}
        own = s == self.roller
        self._say("combinaison", f"{{p{s}}} fait : {name}", s, combination=name)
        if self.bought_by is not None:
            a, b = self.chouettes
            if a == b:
                self._gain(self.roller, a * a, True, f"garde sa Chouette de {a}")
        if self.civet_bet is not None:
            combination, _stake = self.civet_bet
            if combination == C.CUL_SIROTAGE and name == C.CHOUETTE:
                self.civet_pending = self.civet_bet
            else:
                self._settle_civet(C.has_combination(dice, combination))
        if self.over:
            return
        if name == C.PELICAN:
            self._gain(s, points, own, "fait un Pélican")
            self._open_race("pelican", C.PELICAN_SHOUT, self.seated)
        elif name == C.CUL_DE_CHOUETTE:
            self._gain(s, points, own, f"fait un Cul de Chouette de {value}")
            self._end_turn()
        elif name == C.BLEU_ROUGE:
            self.boucliette[s] = True
            self._gain(s, points, own, "fait un Bleu-Rouge et regagne sa Boucliette")
            self.bleu = {"totals": [], "announced": 0, "bets": {}}
            if not self.over:
                self.step = "bleu_rouge"
        elif name == C.CHOUETTE_VELUTE:
            self._open_race("chouette_velute", C.chouette_velute_points(value), self.seated)
        elif name == C.CHOUETTE:
            self.sip = {"value": value, "bets": {}}
            self.step = "siroter"
        elif name == C.SOUFFLETTE:
            self.step = "soufflette_cible"
        elif name == C.SUITE:
            if points:
                self._gain(s, points, own, "fait la Velute de 1-2-3")
            if not self.over:
                self._open_race("suite", C.SUITE_LAST_LOSES, self.seated)
        elif name == C.VELUTE:
            self._gain(s, points, own, f"fait une Velute de {value}")
            self._end_turn()
        else:
            self._neant(s)

    def _settle_civet(self, success: bool) -> None:
        assert self.civet_bet is not None
        combination, stake = self.civet_bet
        self.civet_bet = None
        self.civet_pending = None
        if success:
            self._gain(self.roller, stake, False, f"gagne son Civet sur {combination}")
        else:
            self._lose(self.roller, stake, f"perd son Civet sur {combination}")

    def _neant(self, s: int) -> None:
        if not self.grelottine[s]:
            self.grelottine[s] = True
            self._say("grelottine", f"{{p{s}}} gagne une Grelottine", s)
        if any(self._grelottine_challenges(c) for c in self.seated if c != s):
            self.step = "grelottine"
        else:
            self._end_turn()

    # ------------------------------------------------------------------ Sirotage

    def _decide_sip(self, yes: bool) -> None:
        assert self.sip is not None
        s, v = self.scorer, self.sip["value"]
        if yes:
            self._say("sirotage", f"{{p{s}}} sirote sa Chouette de {v}", s)
            self.step = "paris_sirotage"
            return
        if self.civet_pending is not None:
            self._settle_civet(False)
        self._gain(s, v * v, s == self.roller, f"fait une Chouette de {v}")
        self._end_turn()

    def _on_sip(self, die: int) -> None:
        assert self.sip is not None
        s, v = self.scorer, self.sip["value"]
        self.dice = [v, v, die]
        hit = die == v
        self._say("des", f"{{p{s}}} sirote : {die}", s)
        for bettor, face in sorted(self.sip["bets"].items()):
            if face == die:
                self._gain(bettor, C.SIDE_BET_GAIN, False, f"gagne son pari ({C.BIRDS[face]})")
            else:
                self._lose(bettor, C.SIDE_BET_STAKE, "perd son pari")
        if self.civet_pending is not None:
            self._settle_civet(hit)
        if hit:
            self.reading = (C.CUL_DE_CHOUETTE, C.cul_de_chouette_points(v))
            self._gain(s, C.cul_de_chouette_points(v), s == self.roller, "réussit son Sirotage")
            self._end_turn()
            return
        self._lose(s, v * v, "rate son Sirotage")
        if v == 6 and not self.civet[s]:
            self.civet[s] = True
            self._say("civet", f"{{p{s}}} gagne un Civet", s)
        others = [p for p in self.seated if p != s]
        self._open_race("contre_sirop", C.contre_sirop_points(v), others)

    # ------------------------------------------------------------------ races

    def _open_race(self, kind: str, value: int, eligible: Any) -> None:
        if self.over:
            return
        self.race = {
            "kind": kind,
            "value": value,
            "eligible": list(eligible),
            "order": [],
            "wrong": [],
        }
        self.step = kind

    def _shout(self, seat: int, cry: str) -> None:
        if cry == C.RAITOURNELLE:
            total = sum(self.bank)
            self.bank = [0] * self.n
            self.bank[seat] = total
            self.bank_tier += 1
            self._say(
                "banque", f"{{p{seat}}} : « Raitournelle ! » La Banque ({total}) est à lui", seat
            )
            self._after_chouettes()
            return
        if cry == C.ARTICHETTE:
            self._say("banque", f"{{p{seat}}} : « Artichette ! » La Banque reste en place", seat)
            self._after_chouettes()
            return
        if cry == C.CRI_GRELOTTINE:
            self.erred.append(seat)
            self.bevue_pressed[seat] = True  # counts as this turn's −10 out of place
            self._bevue(seat, "« Grelottine ! » sans Grelottine")
            return
        race = self.race
        assert race is not None
        kind = race["kind"]
        if cry != RACE_CRY[kind]:
            race["wrong"].append(seat)
            self._bevue(seat, f"« {cry} » à tort")
            return
        race["order"].append(seat)
        self._say("cri", f"{{p{seat}}} : « {cry} »", seat)
        if kind in FIRST_WINS:
            self.race = None
            own = seat == self.roller and self.bought_by is None and kind != "contre_sirop"
            self._gain(seat, race["value"], own, f"crie le premier « {cry} »")
            self._end_turn()
        elif len(race["order"]) == len(race["eligible"]):
            last = race["order"][-1]
            self.race = None
            self._lose(last, race["value"], "crie le dernier")
            self._end_turn()

    def _close_race(self) -> None:
        race = self.race
        assert race is not None
        self.race = None
        if race["kind"] in FIRST_WINS:
            self._say("info", "Personne n'a crié à temps.")
            self._end_turn()
            return
        silent = [s for s in race["eligible"] if s not in race["order"]]
        if len(silent) == 1:
            self._lose(silent[0], race["value"], "n'a pas crié à temps")
            self._end_turn()
            return
        self._say("info", "Plusieurs muets : départage au dé, le plus petit perd.")
        self.tiebreak = {"purpose": "suite", "pending": silent, "values": {}}
        self.step = "departage"
        if not self.real:
            self._auto_tiebreak()

    # ------------------------------------------------------------------ challenges

    def _announce(
        self, kind: str, challenger: int, target: int, combination: str, stake: int
    ) -> None:
        self.challenge = {
            "kind": kind,
            "challenger": challenger,
            "target": target,
            "origin": target,
            "combination": combination,
            "stake": stake,
            "throw": 0,
            "kept": [],
            "bets": {},
        }
        if kind == "soufflette":
            self._say("defi", f"{{p{challenger}}} défie {{p{target}}} à la Soufflette", challenger)
        else:
            self._say(
                "defi",
                f"{{p{challenger}}} impose {combination} à {{p{target}}} pour {stake} points",
                challenger,
            )
        self.step = "annonce"

    def _passe_grelot(self, seat: int, target: int) -> None:
        ch = self.challenge
        assert ch is not None
        self.pg_used[seat] = True
        ch["target"] = target
        ch["bets"].pop(target, None)
        top = C.grelottine_max_stake(
            ch["combination"], self.scores[ch["challenger"]], self.scores[target]
        )
        ch["stake"] = min(ch["stake"], top)
        self._say("defi", f"{{p{seat}}} : « Passe-Grelot ! » Le défi passe à {{p{target}}}", seat)

    def _use_boucliette(self, seat: int) -> None:
        self.boucliette[seat] = False
        self.challenge = None
        self._say("boucliette", f"{{p{seat}}} brandit sa Boucliette : défi annulé", seat)
        self._end_turn()

    def _on_challenge_throw(self, new: list[int]) -> None:
        ch = self.challenge
        assert ch is not None
        t = ch["target"]
        dice = [*ch["kept"], *new]
        self.dice = dice
        ch["throw"] += 1
        self._say("des", f"{{p{t}}} lance : {'-'.join(map(str, dice))}", t)
        if ch["kind"] == "soufflette":
            self._soufflette_throw(dice)
            return
        combination = ch["combination"]
        name, points, _value = C.read_full(tuple(dice))
        if combination == C.SIROP_GRELOT:
            pair = C.odd_die(tuple(dice))
            if pair is not None:
                self.step = "sirop_grelot"
                ch["pair"] = pair
                return
            made = name in (C.CUL_DE_CHOUETTE, C.PELICAN)
        else:
            made = C.has_combination(tuple(dice), combination)
        self._settle_grelottine(made, points)

    def _on_sirop_grelot(self, die: int) -> None:
        ch = self.challenge
        assert ch is not None
        v = ch["pair"]
        self.dice = [v, v, die]
        self._say("des", f"{{p{ch['target']}}} sirote : {die}", ch["target"])
        made = die == v
        self._settle_grelottine(made, C.cul_de_chouette_points(v) if made else 0)

    def _settle_grelottine(self, made: bool, points: int) -> None:
        ch = self.challenge
        assert ch is not None
        t, c, stake = ch["target"], ch["challenger"], ch["stake"]
        self.challenge = None
        if made:
            self._say("defi", f"{{p{t}}} relève le défi", t)
            self._gain(t, stake, False, "gagne le défi Grelottine")
            self._lose(c, stake, "perd son défi")
            self.pg_earned[t] = True
        else:
            self._say("defi", f"{{p{t}}} échoue au défi", t)
            self._lose(t, stake, "rate le défi Grelottine")
            self._gain(c, stake, False, "gagne son défi")
        for bettor, guess in sorted(ch["bets"].items()):
            if guess == made:
                self._gain(bettor, C.SIDE_BET_GAIN, False, "gagne son pari")
            else:
                self._lose(bettor, C.SIDE_BET_STAKE, "perd son pari")
        self.grelottine[c] = False
        self.grelottine[ch["origin"]] = False
        self._gain(t, points, t == self.roller, "marque les points de son lancer")
        self._end_turn()

    def _soufflette_throw(self, dice: list[int]) -> None:
        ch = self.challenge
        assert ch is not None
        t, c = ch["target"], ch["challenger"]
        ch["kept"] = soufflette_kept(dice)
        if len(ch["kept"]) == 3:
            gain = C.SOUFFLETTE_GAINS[ch["throw"] - 1]
            self.challenge = None
            self._gain(t, gain, False, f"refait 421 au jet {ch['throw']}")
            self._lose(c, gain, "perd sa Soufflette")
            self._end_turn()
        elif ch["throw"] == 3:
            self.challenge = None
            self._lose(t, C.SOUFFLETTE_FAIL, "rate la Soufflette")
            self._gain(c, C.SOUFFLETTE_FAIL, False, "gagne sa Soufflette")
            self._end_turn()
        else:
            self.step = "defi"

    # ------------------------------------------------------------------ Bleu-Rouge

    def _announce_total(self, seat: int, total: int) -> None:
        bleu = self.bleu
        assert bleu is not None
        bleu["announced"] += 1
        if not total_is_possible(total):
            self._bevue(seat, f"total impossible : {total}")
            return
        bleu["totals"].append(total)
        self._say("annonce", f"{{p{seat}}} annonce un total de {total}", seat)

    def _on_bleu_rouge_reroll(self, dice: list[int]) -> None:
        bleu = self.bleu
        assert bleu is not None
        s = self.scorer
        self.dice = list(dice)
        total = sum(dice)
        name, points, _value = C.read_full(tuple(dice))
        self._say("des", f"{{p{s}}} relance : {'-'.join(map(str, dice))} (total {total})", s)
        for bettor, guess in sorted(bleu["bets"].items()):
            if guess == total:
                self._gain(bettor, C.SIDE_BET_GAIN, False, "gagne son pari sur le total")
            else:
                self._lose(bettor, C.SIDE_BET_STAKE, "perd son pari sur le total")
        if total in bleu["totals"]:
            bonus = C.BLEU_ROUGE_BONUS + 2 * total
            self._gain(s, bonus, False, f"gagne son pari Bleu-Rouge sur {total}")
            self._gain(s, points, s == self.roller, f"marque son {name}")
        else:
            self._say("info", "Total manqué : la relance ne compte pas.", s)
        self.bleu = None
        self._end_turn()

    # ------------------------------------------------------------------ reading

    def view(self, seat: int | None) -> dict[str, JSON]:
        duty = self._dice_duty() if not self.over and self.tiebreak is None else None
        seconds = self.deadline()
        legal = self.legal_actions(seat) if seat is not None else []
        race = self.race
        ch = self.challenge
        order = [self.roller]
        while len(order) < len(self.seated):
            order.append(self._next(order[-1]))
        return {
            "game": "cul-de-chouette",
            "players": self.n,
            "seat": seat,
            "target": self.target,
            "cap": self.cap,
            "dice_mode": "reels" if self.real else "site",
            "scribe": self.scribe,
            "turn": self.turn,
            "roller": self.roller,
            "order": order,
            "step": self.step,
            "step_label": STEP_LABELS[self.step],
            "dice": list(self.dice),
            "chouettes": list(self.chouettes),
            "last_roll": None if self.last_roll is None else dict(self.last_roll),
            "reading": None
            if self.reading is None
            else {"name": self.reading[0], "points": self.reading[1]},
            "sheets": [
                {
                    "seat": s,
                    "score": self.scores[s],
                    "grelottine": self.grelottine[s],
                    "civet": self.civet[s],
                    "boucliette": self.boucliette[s],
                    "passe_grelot_used": self.pg_used[s],
                    "passe_grelot_earned": self.pg_earned[s],
                    "bevue_pressed": self.bevue_pressed[s],
                    "partner": self.partner[s],
                    "present": self.present[s],
                }
                for s in range(self.n)
            ],
            "windows": []
            if seconds is None
            else [{"kind": self.step, "label": STEP_LABELS[self.step], "seconds": seconds.seconds}],
            "awaiting": None if duty is None else {"seat": self._typer(duty[0]), "count": duty[1]},
            "race": None
            if race is None
            else {
                "kind": race["kind"],
                "cry": RACE_CRY[race["kind"]],
                "order": list(race["order"]),
                "wrong": list(race["wrong"]),
            },
            "civet_bet": None
            if self.civet_bet is None
            else {"combination": self.civet_bet[0], "stake": self.civet_bet[1]},
            "bought_by": self.bought_by,
            "sirotage": None
            if self.sip is None
            else {
                "value": self.sip["value"],
                "bets": {str(k): v for k, v in self.sip["bets"].items()},
            },
            "challenge": None
            if ch is None
            else {
                "kind": ch["kind"],
                "challenger": ch["challenger"],
                "target": ch["target"],
                "combination": ch["combination"],
                "stake": ch["stake"],
                "throw": ch["throw"],
                "kept": list(ch["kept"]),
                "bets": {str(k): v for k, v in ch["bets"].items()},
            },
            "bleu_rouge": None
            if self.bleu is None
            else {
                "totals": list(self.bleu["totals"]),
                "announced": self.bleu["announced"],
                "bets": {str(k): v for k, v in self.bleu["bets"].items()},
            },
            "tiebreak": None
            if self.tiebreak is None
            else {
                "purpose": self.tiebreak["purpose"],
                "pending": list(self.tiebreak["pending"]),
                "values": {str(k): v for k, v in self.tiebreak["values"].items()},
            },
            "banque": None
            if not self.banque
            else {"balances": list(self.bank), "tier": self.bank_tier},
            "actors": list(self.actors()),
            "legal": [{"action": a.to_json(), "label": a.label()} for a in legal],
            "over": self.over,
            "winner": self.winner,
        }

    def is_over(self) -> bool:
        return self.over

    def _winners(self) -> tuple[int, ...]:
        """The winner and, in Doublette, their partner."""
        if self.winner is None:
            return ()
        partner = self.partner[self.winner]
        return (self.winner,) if partner is None else tuple(sorted((self.winner, partner)))

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        scores = tuple(self.scores)
        winners = self._winners()
        ranks = tuple(
            1
            if s in winners
            else 2 + sum(1 for o in range(self.n) if o not in winners and scores[o] > scores[s])
            for s in range(self.n)
        )
        return Outcome(scores, ranks, f"{self.target} points atteints sur ses propres dés")

    def snapshot(self) -> dict[str, JSON]:
        data = self.view(None)
        del data["legal"], data["seat"]
        data.update(
            {
                "rng": rng_fingerprint(self.rng),
                "chance": list(self.chance),
                "civet_pending": None if self.civet_pending is None else list(self.civet_pending),
                "sip_bets": None if self.sip is None else sorted(self.sip["bets"].items()),
                "pair": None if self.challenge is None else self.challenge.get("pair"),
                "origin": None if self.challenge is None else self.challenge["origin"],
                "race_value": None if self.race is None else self.race["value"],
                "race_eligible": None if self.race is None else list(self.race["eligible"]),
                "bevue_button": self.bevue_button,
                "erred": list(self.erred),
                "bank_moved": self.bank_moved,
            }
        )
        return data

    def check_invariants(self) -> None:
        busy = set(self._busy()) if not self.over else set()
        for s in range(self.n):
            assert bool(self._moves(s)) == (s in busy), f"seat {s}: busy and moves disagree"
        assert all(s >= 0 for s in self.scores), "a score fell below 0"
        winners = self._winners()
        for s in range(self.n):
            if s not in winners:
                assert self.scores[s] < self.target, "a player reached the target off turn"
            partner = self.partner[s]
            assert partner is None or self.scores[partner] == self.scores[s]
        if self.over:
            assert self.winner is not None and self.scores[self.winner] >= self.target

    # ------------------------------------------------------------------ copies

    def clone(self) -> CulDeChouetteState:
        twin = object.__new__(CulDeChouetteState)
        d = self.__dict__.copy()
        for key in (
            "present",
            "scores",
            "bank",
            "grelottine",
            "civet",
            "boucliette",
            "pg_used",
            "pg_earned",
            "bevue_pressed",
            "chance",
            "dice",
            "chouettes",
            "erred",
        ):
            d[key] = list(d[key])
        for key in ("race", "sip", "challenge", "bleu", "tiebreak"):
            value = d[key]
            if value is not None:
                d[key] = {
                    k: (v.copy() if isinstance(v, list | dict) else v) for k, v in value.items()
                }
        d["rng"] = copy_rng(self.rng)
        d["_cache"] = {}
        d["_actors"] = None
        d["_events"] = []
        twin.__dict__.update(d)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> CulDeChouetteState:
        """Nothing is hidden in Cul de Chouette but the future dice: re-seed them."""
        twin = self.clone()
        twin.rng = random.Random(rng.getrandbits(64))
        return twin
