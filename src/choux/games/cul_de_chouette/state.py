"""The Cul de Chouette state machine: turns, windows, races, bets and challenges.

A turn is a chain of steps (`steps.Step`, one `steps.StepSpec` each). Some steps wait for
one player (roll the dice, decide to sip, name the Soufflette's target); others are
*windows* where several players may act and that the table clock closes (`deadline()`,
action `CloseWindow()` for seat None). "First" and "last" in races are the order in which
actions are applied. Who may do what, and why not, is computed in one place: `legality`.

Windows are fair: in the Achat de dé, the bets on a Sirotage, a Grelottine or a Bleu-Rouge,
the announced challenge (Boucliette, Passe-Grelot) and the Civet, the dice wait until every
player who may act has acted or said « Je passe » (`Pass`), or the clock closes the window.

Dice come from `rng` (site's dice: the `Roll()` button) or are typed in by the roller or a
scribe (option ``des = "reels"``: `EnterDice`); everything else is identical.

Bévues: the server charges −10 for the errors it sees: a wrong race shout, « Grelottine ! »
shouted without a Grelottine, an impossible Bleu-Rouge total, a shout out of place (once per
turn, for a player with nothing else to decide). The −10 button under each player's sheet
(`DeclareBevue`, option ``bouton_bevue``) is open to every other player at any time, once
per pressing player per target per turn.

View keys (`view(seat)`), stable for the web UI:

- ``game``: "cul-de-chouette"; ``players``: number of seats; ``seat``: the viewer (None:
  spectator); ``target`` (343) and ``cap`` (332); ``dice_mode``: "site" or "reels";
  ``scribe``: the seat typing the dice or None.
- ``turn``: the turn number (1 = first); ``roller``: whose turn it is; ``order``: seats in
  playing order from the roller (counter-clockwise).
- ``step``: the current step (see `steps.Step`) and ``step_label`` (French).
- ``dice``: the dice on the table now (list of ints, may be empty); ``chouettes``: the two
  first dice of the turn; ``reading``: {"name", "points"} of this turn's roll, or None;
  ``last_roll``: {"seat", "dice", "name", "points"} of the last roll read (kept after the
  turn ends, for the table to show).
- ``sheets``: one dict per seat: ``seat``, ``score``, ``grelottine``, ``civet``,
  ``boucliette`` (🛡), ``passe_grelot_used``, ``passe_grelot_earned``, ``bevue_pressed``
  (the seats this player pressed the −10 button on, this turn),
  ``partner`` (Doublette: the team mate, who shares the score; else None), ``present``
  (False for a Chante-Sloubi seat not yet joined).
- ``passed``: the seats that said « Je passe » in the open fair window.
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
from typing import Any

from choux.engine.base import (
    JSON,
    Action,
    Deadline,
    Event,
    MalformedAction,
    Outcome,
    State,
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
    Pass,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
    Withdraw,
)
from choux.games.cul_de_chouette.legality import (
    GATES,
    check,
    dice_duty,
    gate_shout,
    grelottine_menu,
    menus,
    pending,
    typer,
)
from choux.games.cul_de_chouette.rules import (
    capped_score,
    floored_score,
    lowest_seats,
    next_seat,
    soufflette_kept,
    total_is_possible,
)
from choux.games.cul_de_chouette.steps import FAIR, RACES, SPECS, STEP_LABELS, Step
from choux.games.cul_de_chouette.windows import FIRST_WINS, RACE_CRY

CLOSE = CloseWindow()
DEADLINES = {
    step: Deadline(spec.seconds, CLOSE, None)
    for step, spec in SPECS.items()
    if spec.seconds is not None
}
#: fair windows that close by themselves once nobody is pending (the turn start does not)
SELF_CLOSING = frozenset(step for step in FAIR if SPECS[step].seconds is not None)


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
        #: per seat, the players it has pressed the −10 button on this turn
        self.bevue_pressed: list[tuple[int, ...]] = [()] * players
        #: per seat, shouted out of place this turn (a Bévue, once per turn)
        self.shouted_out = [False] * players
        #: seats that said « Je passe » in the open fair window
        self.passed: list[int] = []
        self.roller = 0
        self.turn = 0
        self.step = Step.OUVERTURE
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
        self._cache: dict[int, list[tuple[Action, ...]]] = {}
        self._actors: tuple[int, ...] | None = None
        self._pending: tuple[int, ...] | None = None
        #: per step, the action kinds worth asking about at this table (its options)
        self.gates = {
            step: tuple(GATES[kind] for kind in self._relevant(spec.kinds))
            for step, spec in SPECS.items()
        }
        if not self.real:
            self._auto_tiebreak()
            self._events = []

    def _relevant(self, kinds: tuple[type[Action], ...]) -> tuple[type[Action], ...]:
        """Leave out the kinds this table's options rule out (typed dice at a table with the
        site's dice, the Banque without the option...)."""
        ruled_out: set[type[Action]] = {EnterDice} if not self.real else {Roll}
        if not self.banque:
            ruled_out |= {Deposit, Withdraw}
        if len(self.seated) == self.n:
            ruled_out.add(JoinSloubi)
        return tuple(k for k in kinds if k not in ruled_out)

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
        self.bevue_pressed = [()] * self.n
        self.shouted_out = [False] * self.n
        self.passed = []
        self.bank_moved = False
        self.erred: list[int] = []  # shouted « Grelottine ! » without one, this turn

    # ------------------------------------------------------------------ who acts

    @property
    def scorer(self) -> int:
        """Who plays the roll's consequences: the roller, or the buyer of the Cul."""
        return self.roller if self.bought_by is None else self.bought_by

    def _dice_duty(self) -> tuple[int, int] | None:
        """(seat whose dice these are, how many) when the game awaits dice now."""
        return dice_duty(self)

    def _typer(self, seat: int) -> int:
        return typer(self, seat)

    def actors(self) -> tuple[int, ...]:
        """Seats with something to do, whoever must roll or type the dice first. A seat
        with the −10 button still to press is one without looking further."""
        if self._actors is not None:
            return self._actors
        if self.over:
            self._actors = ()
            return self._actors
        found: list[int] = []
        bevue = self.bevue_button
        for seat in range(self.n):
            if (
                bevue
                and self.present[seat]
                and len(self.bevue_pressed[seat]) < len(self.seated) - 1
            ) or menus(self, seat):
                found.append(seat)
        duty = dice_duty(self)
        if duty is not None:
            first = typer(self, duty[0])
            if first in found and found[0] != first:
                found.remove(first)
                found.insert(0, first)
        self._actors = tuple(found)
        return self._actors

    def legal_actions(self, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            return []
        found = menus(self, seat)
        if len(found) == 1:
            return list(found[0])
        return [action for menu in found for action in menu]

    def deadline(self) -> Deadline | None:
        if self.over:
            return None
        return DEADLINES.get(self.step)

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        check(self, seat, action)
        self._events = []
        if isinstance(action, CloseWindow):
            self._close()
        else:
            assert seat is not None
            self._play(seat, action)
        self._fresh()
        if self.step in SELF_CLOSING and not pending(self):
            self._everyone_decided()
            self._fresh()
        events, self._events = self._events, []
        return events

    def _enter(self, step: Step) -> None:
        """Move the turn to `step`; a new window starts with nobody having passed."""
        self.step = step
        self.passed = []
        self._pending = None

    def _fresh(self) -> None:
        """The state changed: forget what was computed from it."""
        self._cache = {}
        self._actors = None
        self._pending = None

    def _everyone_decided(self) -> None:
        """A fair window where nobody may act any more closes at once: the dice are the
        owner's to roll (or type), or the turn ends."""
        after = SPECS[self.step].after
        if after is None:
            self._say("info", "Personne ne lance de Grelottine.")
            self._end_turn()
        else:
            self._enter(after)

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
            self.bevue_pressed[seat] = (*self.bevue_pressed[seat], action.target)
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
            proper = gate_shout(self, seat)
            if type(proper) is tuple and action in proper:
                self._shout(seat, action.cry)
            else:
                self.shouted_out[seat] = True
                self._bevue(seat, f"« {action.cry} » hors de propos")
        elif isinstance(action, Pass):
            self.passed.append(seat)
            self._say("passe", f"{{p{seat}}} passe", seat)
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
            self._await_or_roll(Step.CUL)
        elif step == "siroter":
            self._decide_sip(False)
        elif step == "paris_sirotage":
            self._await_or_roll(Step.SIROTAGE)
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
            self._await_or_roll(Step.DEFI)
        elif step == "bleu_rouge":
            self._await_or_roll(Step.BLEU_ROUGE_JET)

    def _await_or_roll(self, waiting_step: Step) -> None:
        """Closing a window whose default is the roll: the site rolls now; with real dice
        the game waits for them in `waiting_step`."""
        duty = (self.scorer, 3) if self.step == "bleu_rouge" else self._dice_duty()
        assert duty is not None
        if self.real:
            self._enter(waiting_step)
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
            self._enter(Step.FIN)
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
        self._enter(Step.DEBUT)
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
            self._enter(Step.RAITOURNELLE)
            return
        self._after_chouettes()

    def _after_chouettes(self) -> None:
        buyers = any(s != self.roller and self.scores[s] >= C.PURCHASE_PRICE for s in self.seated)
        if buyers:
            self._enter(Step.ACHAT)
        elif self.real:
            self._enter(Step.CUL)
        else:
            self._on_cul(self._roll(1)[0])

    def _buy(self, seat: int) -> None:
        self.bought_by = seat
        self._set_score(seat, self.scores[seat] - C.PURCHASE_PRICE)
        self._say("achat", f"{{p{seat}}} achète le Cul de {{p{self.roller}}} : −30", seat)
        if self.real:
            self._enter(Step.CUL)
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
                self._enter(Step.BLEU_ROUGE)
        elif name == C.CHOUETTE_VELUTE:
            self._open_race("chouette_velute", C.chouette_velute_points(value), self.seated)
        elif name == C.CHOUETTE:
            self.sip = {"value": value, "bets": {}}
            self._enter(Step.SIROTER)
        elif name == C.SOUFFLETTE:
            self._enter(Step.SOUFFLETTE_CIBLE)
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
        scores = self.scores
        if any(
            c != s and self.grelottine[c] and grelottine_menu(min(scores[c], scores[s]))
            for c in self.seated
        ):
            self._enter(Step.GRELOTTINE)
        else:
            self._end_turn()

    # ------------------------------------------------------------------ Sirotage

    def _decide_sip(self, yes: bool) -> None:
        assert self.sip is not None
        s, v = self.scorer, self.sip["value"]
        if yes:
            self._say("sirotage", f"{{p{s}}} sirote sa Chouette de {v}", s)
            self._enter(Step.PARIS_SIROTAGE)
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
        self._enter(Step(kind))

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
            self.shouted_out[seat] = True  # counts as this turn's shout out of place
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
            if race["kind"] == "chouette_velute":
                s = self.scorer  # « le lanceur garde ses points faute de 6 »
                own = s == self.roller
                self._gain(s, race["value"], own, "garde sa Chouette Velute")
            self._end_turn()
            return
        silent = [s for s in race["eligible"] if s not in race["order"]]
        if len(silent) == 1:
            self._lose(silent[0], race["value"], "n'a pas crié à temps")
            self._end_turn()
            return
        self._say("info", "Plusieurs muets : départage au dé, le plus petit perd.")
        self.tiebreak = {"purpose": "suite", "pending": silent, "values": {}}
        self._enter(Step.DEPARTAGE)
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
        self._enter(Step.ANNONCE)

    def _passe_grelot(self, seat: int, target: int) -> None:
        ch = self.challenge
        assert ch is not None
        self.pg_used[seat] = True
        ch["target"] = target
        if target in self.passed:  # a new challenge for them: their window opens again
            self.passed.remove(target)
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
                self._enter(Step.SIROP_GRELOT)
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
            self._enter(Step.DEFI)

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
                    "bevue_pressed": list(self.bevue_pressed[s]),
                    "partner": self.partner[s],
                    "present": self.present[s],
                }
                for s in range(self.n)
            ],
            "passed": list(self.passed),
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
                "shouted_out": list(self.shouted_out),
                "bank_moved": self.bank_moved,
            }
        )
        return data

    def check_invariants(self) -> None:
        actors = set(self.actors())
        for s in range(self.n):
            assert bool(self.legal_actions(s)) == (s in actors), f"seat {s}: actors disagree"
        if self.step in SELF_CLOSING and not self.over:
            assert pending(self), "a fair window stays open with nobody left to act"
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
            "shouted_out",
            "passed",
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
        d["_pending"] = None
        d["_events"] = []
        twin.__dict__.update(d)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> CulDeChouetteState:
        """Nothing is hidden in Cul de Chouette but the future dice: re-seed them."""
        twin = self.clone()
        twin.rng = random.Random(rng.getrandbits(64))
        return twin
