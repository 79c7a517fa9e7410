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
  ``scribe``: the seat typing the dice or None; ``bevue_button``: whether the table has
  the −10 button under each player (its option).
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
- ``awaiting``: {"seat", "owner", "count"} when dice are awaited: who rolls or types them,
  whose throw they are (not the typer when a scribe types them), how many.
- ``waiting``: the seats whose decision moves the game on (who must roll, type, choose, or
  the players a fair window still waits for); empty in a race and at the end. Unlike
  ``actors``, it leaves out the −10 buttons and the shouts out of place.
- ``race``: {"kind", "cry", "order", "wrong"} in a race, else None.
- ``late``: {"cry", "seats", "heard"} after a race, until the next roll's Cul: its cry from one
  of ``seats`` is « trop tard » (no points, no Bévue); ``heard``: who shouted it in time.
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

from choux.engine.base import (
    JSON,
    Action,
    Deadline,
    Event,
    Outcome,
    State,
    copy_rng,
    rng_fingerprint,
)
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import rotation, turn
from choux.games.cul_de_chouette.actions import (
    CloseWindow,
    DeclareBevue,
    Deposit,
    EnterDice,
    JoinSloubi,
    Roll,
    Withdraw,
)
from choux.games.cul_de_chouette.legality import (
    SURE,
    bevue_menu,
    check,
    deciders,
    dice_duty,
    late_seats,
    menus,
    pending,
)
from choux.games.cul_de_chouette.moves import HANDLERS
from choux.games.cul_de_chouette.rules import capped_score, floored_score
from choux.games.cul_de_chouette.steps import FAIR, SPECS, Step
from choux.games.cul_de_chouette.substates import (
    BleuRouge,
    Challenge,
    LateCry,
    Race,
    Sirotage,
    Tiebreak,
)
from choux.games.cul_de_chouette.view import board_view

CLOSE = CloseWindow()
DEADLINES = {
    step: Deadline(spec.seconds, CLOSE, None)
    for step, spec in SPECS.items()
    if spec.seconds is not None
}
#: fair windows that close by themselves once nobody is pending (the turn start does not)
SELF_CLOSING = frozenset(step for step in FAIR if SPECS[step].seconds is not None)


class CulDeChouetteState(State):
    """One game of Cul de Chouette (see the module docstring for the view keys).

    The state holds the table and the turn; the rules live in small modules that act on it:
    `legality` (who may do what, and why not), `moves` (what each action does), `turn`,
    `rotation`, `civet`, `sirotage`, `races`, `challenges`, `bleu_rouge`, and `view`. They
    see it as a `table.CdcTable` (they cannot import this module: it imports them) and change
    it through the few effects below (`say`, `roll`, `gain`, `lose`, `bevue`, `enter`)."""

    game_name = "cul-de-chouette"

    def __init__(
        self, players: int, seed: int, options: dict[str, JSON], *, blank: bool = False
    ) -> None:
        """A new game; `blank`: an empty shell that `clone` fills in."""
        self.n = players
        if blank:
            return
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
        self.windows = 0  # steps entered so far: names each window (`window_key`)
        self.over = False
        self.winner: int | None = None
        self.last_roll: dict[str, JSON] | None = None
        #: the race that just ended: its late cries are « trop tard », until the next Cul
        self.late: LateCry | None = None
        self.reset_turn()
        self.tiebreak: Tiebreak | None = Tiebreak("ouverture", self.seated)
        self._events: list[Event] = []
        self._cache: dict[int, list[tuple[Action, ...]]] = {}
        self._actors: tuple[int, ...] | None = None
        self._pending: tuple[int, ...] | None = None
        #: per step, the action kinds worth asking about at this table (its options)
        self.kinds = {step: self._relevant(spec.kinds) for step, spec in SPECS.items()}
        #: what the creation did: the site's dice rolled who starts (`opening_events`)
        self._opening: tuple[Event, ...] = ()
        if not self.real:
            rotation.auto_tiebreak(self)
            self._opening, self._events = tuple(self._events), []

    def opening_events(self) -> list[Event]:
        """The site's opening dice, rolled at the creation, and who starts."""
        return list(self._opening)

    def _relevant(self, kinds: tuple[type[Action], ...]) -> tuple[type[Action], ...]:
        """Leave out the kinds this table's options rule out (typed dice at a table with the
        site's dice, the Banque without the option...)."""
        ruled_out: set[type[Action]] = {EnterDice} if not self.real else {Roll}
        if not self.banque:
            ruled_out |= {Deposit, Withdraw}
        if len(self.seated) == self.n:
            ruled_out.add(JoinSloubi)
        return tuple(k for k in kinds if k not in ruled_out)

    def reset_turn(self) -> None:
        """Forget the last turn: its dice, its sub-states, its presses and passes."""
        self.dice: list[int] = []
        self.chouettes: list[int] = []
        self.reading: tuple[str, int] | None = None
        self.civet_bet: tuple[str, int] | None = None
        self.civet_pending: tuple[str, int] | None = None
        self.bought_by: int | None = None
        self.race: Race | None = None
        self.sip: Sirotage | None = None
        self.challenge: Challenge | None = None
        self.bleu: BleuRouge | None = None
        self.tiebreak = None
        self.bevue_pressed = [()] * self.n
        self.refresh_bevues()
        self.shouted_out = [False] * self.n
        self.passed = []
        self.bank_moved = False
        self.erred: list[int] = []  # shouted « Grelottine ! » without one, this turn

    def refresh_bevues(self) -> None:
        """The −10 buttons each seat may still press this turn (kept ready: every step
        lists them)."""
        on = self.bevue_button
        self.bevues: list[tuple[DeclareBevue, ...]] = [
            bevue_menu(self.seated, s, self.bevue_pressed[s]) if on and self.present[s] else ()
            for s in range(self.n)
        ]

    # ------------------------------------------------------------------ who acts

    @property
    def scorer(self) -> int:
        """Who plays the roll's consequences: the roller, or the buyer of the Cul."""
        return self.roller if self.bought_by is None else self.bought_by

    def _dice_duty(self) -> tuple[int, int] | None:
        """(seat whose dice these are, how many) when the game awaits dice now."""
        return dice_duty(self)

    def actors(self) -> tuple[int, ...]:
        """Seats with something to do: the step's deciders first (whoever must roll or type
        the dice first), then those with only the −10 button or a shout out of place."""
        if self._actors is not None:
            return self._actors
        if self.over:
            self._actors = ()
            return self._actors
        bevues = self.bevues  # a seat with a −10 button left acts, no need to look further
        if SPECS[self.step].who in SURE:
            found = list(deciders(self))
        else:
            found = [seat for seat in deciders(self) if bevues[seat] or menus(self, seat)]
        # the others act only through the −10 button or a shout out of place
        if self.bevue_button:
            present, shouted = self.present, self.shouted_out
            found += [
                s
                for s in range(self.n)
                if (bevues[s] or (present[s] and not shouted[s])) and s not in found
            ]
        # a race just ended: its cry is still heard (« trop tard ») from its players
        found += [s for s in late_seats(self) if s not in found]
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

    def window_key(self) -> object:
        """The step entered, and within a challenge its target and throw: a Passe-Grelot
        gives the new target a whole window, each throw of a challenge is a move of its own."""
        challenge = self.challenge
        if challenge is None:
            return self.windows
        return (self.windows, challenge.target, challenge.throw)

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        check(self, seat, action)
        self._events = []
        if isinstance(action, CloseWindow):
            turn.close(self)
        else:
            assert seat is not None
            HANDLERS[type(action)](self, seat, action)
        self._fresh()
        if self.step in SELF_CLOSING and not pending(self):
            turn.everyone_decided(self)
            self._fresh()
        events, self._events = self._events, []
        return events

    def _fresh(self) -> None:
        """The state changed: forget what was computed from it."""
        self._cache = {}
        self._actors = None
        self._pending = None

    # ------------------------------------------------------------------ effects

    def enter(self, step: Step) -> None:
        """Move the turn to `step`; a new window starts with nobody having passed."""
        self.step = step
        self.windows += 1
        self.passed = []
        self._pending = None

    def say(self, kind: str, text: str, seat: int | None = None, **data: JSON) -> None:
        self._events.append(Event(kind, text, seat, data))

    def roll(self, count: int) -> list[int]:
        """The site's dice, from the state's seeded RNG, recorded as chance."""
        rand = self.rng.random
        dice = [int(rand() * 6) + 1 for _ in range(count)]
        self.chance.append({"dice": dice})
        return dice

    def gain(self, seat: int, points: int, own: bool, why: str) -> None:
        """Add points. `own`: points of the roller's own roll on their own turn (uncapped,
        may win); anything else stops at the cap."""
        if points <= 0 or self.over:
            return
        before = self.scores[seat]
        if own and seat == self.roller:
            self.set_score(seat, before + points)
        else:
            self.set_score(seat, capped_score(before, points, self.cap))
        got = self.scores[seat] - before
        if got == points:
            told = f"+{got}"
        elif got:
            told = f"+{got} (plafonné à {self.cap})"
        else:  # « +0 (plafonné à 109) » read oddly: say that nothing is added, and why
            told = f"rien de plus, déjà au plafond de {self.cap}"
        self.say("points", f"{{p{seat}}} {why} : {told}", seat, points=got)
        if own and seat == self.roller and self.scores[seat] >= self.target:
            self.over = True
            self.winner = seat
            self.enter(Step.FIN)
            self.say("victoire", f"{{p{seat}}} atteint {self.scores[seat]} et gagne !", seat)

    def set_score(self, seat: int, value: int) -> None:
        """Doublette: partners share one score."""
        self.scores[seat] = value
        partner = self.partner[seat]
        if partner is not None:
            self.scores[partner] = value

    def lose(self, seat: int, points: int, why: str) -> None:
        if points <= 0 or self.over:
            return
        before = self.scores[seat]
        self.set_score(seat, floored_score(before, points))
        lost = before - self.scores[seat]
        if lost == points:
            self.say("points", f"{{p{seat}}} {why} : −{lost}", seat)
        else:  # the floor at 0 stops the loss: say so rather than print "−0"
            self.say(
                "points", f"{{p{seat}}} {why} : −{points} (le score ne descend pas sous 0)", seat
            )

    def bevue(self, seat: int, why: str) -> None:
        self.lose(seat, C.BEVUE, f"fait une Bévue ({why})")

    # ------------------------------------------------------------------ reading

    def board_view(self, seat: int | None) -> dict[str, JSON]:
        """The view without its envelope (game, seat, actors, legal): the same for all."""
        return board_view(self)

    def seat_count(self) -> int:
        return self.n

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
                "sip_bets": None if self.sip is None else self.sip.bets.by_seat(),
                "pair": None if self.challenge is None else self.challenge.pair,
                "origin": None if self.challenge is None else self.challenge.origin,
                "race_value": None if self.race is None else self.race.value,
                "race_eligible": None if self.race is None else list(self.race.eligible),
                "race_again": None if self.race is None else list(self.race.again),
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
        """An independent copy, attribute by attribute: the module may run compiled (mypyc),
        whose objects have no `__dict__`. Lists are copied; tuples, sub-states and the
        per-step `kinds` are never edited in place, so they are shared."""
        twin = CulDeChouetteState(self.n, 0, {}, blank=True)
        # the table
        twin.rng, twin.chance = copy_rng(self.rng), list(self.chance)
        twin.real, twin.scribe = self.real, self.scribe
        twin.target, twin.cap, twin.bevue_button = self.target, self.cap, self.bevue_button
        twin.scores = list(self.scores)
        twin.banque, twin.bank, twin.bank_tier = self.banque, list(self.bank), self.bank_tier
        twin.bank_moved = self.bank_moved
        twin.present, twin.seated, twin.partner = list(self.present), self.seated, self.partner
        twin.grelottine, twin.civet = list(self.grelottine), list(self.civet)
        twin.boucliette = list(self.boucliette)
        twin.pg_used, twin.pg_earned = list(self.pg_used), list(self.pg_earned)
        twin.roller, twin.turn, twin.step = self.roller, self.turn, self.step
        twin.windows = self.windows
        twin.over, twin.winner, twin.last_roll = self.over, self.winner, self.last_roll
        twin.late, twin.kinds = self.late, self.kinds
        # the turn
        twin.bevue_pressed, twin.bevues = list(self.bevue_pressed), list(self.bevues)
        twin.shouted_out, twin.passed = list(self.shouted_out), list(self.passed)
        twin.dice, twin.chouettes = list(self.dice), list(self.chouettes)
        twin.reading = self.reading
        twin.civet_bet, twin.civet_pending = self.civet_bet, self.civet_pending
        twin.bought_by, twin.race, twin.sip = self.bought_by, self.race, self.sip
        twin.challenge, twin.bleu, twin.tiebreak = self.challenge, self.bleu, self.tiebreak
        twin.erred = list(self.erred)
        # what is derived from the rest
        twin._events, twin._cache, twin._actors, twin._pending = [], {}, None, None
        twin._opening = self._opening
        return twin

    def determinize(self, seat: int, rng: random.Random) -> CulDeChouetteState:
        """Nothing is hidden in Cul de Chouette but the future dice: re-seed them."""
        twin = self.clone()
        twin.rng = random.Random(rng.getrandbits(64))
        return twin
