"""A second reading of the rules of Cul de Chouette, for `test_cdc_referee.py`.

Written from shared/rules/cul-de-chouette.md (the decisions where the document is silent),
shared/sources/cul-de-chouette.txt (the document) and docs/races.md (shouts and races), not
from the engine: it imports nothing from `choux`. It follows a game one applied action at a
time, given as the engine's view before the action (where the turn stands: its ``step``,
``roller`` and ``order``), the action as JSON (`Action.to_json()`), the dice that fell
(entries of the chance log) and the view after it; it keeps its own scores, tokens, bets,
races, challenges and Banque, and lists every difference with the view after the action
(`Referee.follow`). It also names the moves the rules forbid if the engine lets one through.

Step names and action types are the view's and the JSON's (a stable contract of the UI).
Where the documents are silent and the decisions file says nothing either, the choice is
written where it is used ("reading:").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

View = dict[str, Any]

TARGET = 343  # win, with points of one's own roll on one's own turn
CAP = 332  # points won any other way stop here
BEVUE = 10
PURCHASE = 30  # Achat de dé: price, and the score needed to buy
SIDE_STAKE, SIDE_GAIN = 5, 25  # Sirotage, Grelottine and Bleu-Rouge side bets
CIVET_MAX = 102
SOUFFLETTE_GAINS = (50, 40, 30)  # made on throw 1, 2, 3
SOUFFLETTE_FAIL = 30
GRELOTTINE_PERCENT = {
    "Chouette": 33,
    "Velute": 25,
    "Sirop-Grelot": 20,
    "Cul de Chouette": 16,
    "Chouette Velute": 8,
}
CUL_SIROTAGE = "Cul de Chouette (avec Sirotage)"
BANK_TIER, BANK_INTEREST, BANK_FEES = 16, 17, 21  # Banque card: tiers of 16, 17 %, 21 %

PELICAN_CRY = "Pélican !"
PAS_MOU = "Pas mou le caillou !"
GRELOTTE = "Grelotte ça picote !"
CONTRE_SIROP = "J'apprécie les fruits au sirop !"
GRELOTTINE_CRY = "Grelottine !"
RAITOURNELLE = "Raitournelle !"
ARTICHETTE = "Artichette !"
#: the races (the view's step) and the cry each is run with
RACE_CRY = {
    "pelican": PELICAN_CRY,
    "chouette_velute": PAS_MOU,
    "suite": GRELOTTE,
    "contre_sirop": CONTRE_SIROP,
}
FIRST_WINS = ("pelican", "chouette_velute", "contre_sirop")  # the Suite's last one loses


# --------------------------------------------------------------------------- dice


def read(dice: Sequence[int]) -> tuple[str, int]:
    """The combination of three dice, order irrelevant, and the roller's points from the
    reading itself (decisions, « Reading a roll »: first match wins)."""
    a, b, c = sorted(dice)
    if a == b == c:
        return ("Pélican", 172) if a == 6 else ("Cul de Chouette", 40 + 10 * a)
    if (a, b, c) == (3, 3, 4):
        return "Bleu-Rouge", 9
    if a == b and a + b == c:
        return "Chouette Velute", 0  # 2v² go to the first shout
    if a == b or b == c:
        return "Chouette", b * b
    if (a, b, c) == (1, 2, 4):
        return "Soufflette", 0
    if b == a + 1 and c == b + 1:
        return "Suite", 18 if a == 1 else 0  # 1-2-3 is also a Velute of 3
    if a + b == c:
        return "Velute", 2 * c * c
    return "Néant", 0


def points_without_race(dice: Sequence[int]) -> int:
    """What a roll scores where no race is held (a Grelottine challenge's roll, a
    Bleu-Rouge's re-roll): a Chouette Velute stays with the roller (2v², commit f552c27 and
    the rules page); the Pélican's 28 and a Suite's race are not played."""
    name, points = read(dice)
    return 2 * max(dice) ** 2 if name == "Chouette Velute" else points


def pair_of(dice: Sequence[int]) -> int | None:
    """The value of the pair when exactly two dice are equal."""
    a, b, c = sorted(dice)
    if (a == b) == (b == c):
        return None
    return b


def holds(dice: Sequence[int], name: str) -> bool:
    """Whether the dice hold a combination as a Civet or a challenge counts it: a Chouette
    Velute is « une Chouette et une Velute », a Bleu-Rouge « also a Chouette of 3 », 1-2-3
    « also a Velute of 3 »; three equal dice are a Cul de Chouette (the Pélican too)."""
    a, b, c = sorted(dice)
    chouette = pair_of(dice) is not None
    velute = a + b == c
    return {
        "Chouette": chouette,
        "Velute": velute,
        "Chouette Velute": chouette and velute,
        "Cul de Chouette": a == b == c,
        CUL_SIROTAGE: a == b == c,
        "Suite": b == a + 1 and c == b + 1,
        "Soufflette": (a, b, c) == (1, 2, 4),
        "Néant": read(dice)[0] == "Néant",
    }[name]


def grelottine_limit(combination: str, score_a: int, score_b: int) -> int:
    """The highest stake: the smaller score times the combination's percent, rounded down."""
    return min(score_a, score_b) * GRELOTTINE_PERCENT[combination] // 100


# --------------------------------------------------------------------------- a turn's parts


@dataclass
class Race:
    """« First to shout » wins (the Suite: the last loses); `kind` is the view's step."""

    kind: str
    value: int
    eligible: tuple[int, ...]
    order: list[int] = field(default_factory=list)
    wrong: list[int] = field(default_factory=list)  # a wrong cry: a Bévue, once a race
    again: list[int] = field(default_factory=list)  # « déjà compté », once

    def silent(self) -> list[int]:
        return [s for s in self.eligible if s not in self.order]


@dataclass
class LateCry:
    """A race just ended: its cry is only « trop tard », once each, until the next roll is
    complete: until its Cul thrown on its own, or, when the site throws the three dice at
    once, until the dice after that roll (`spared`: it lived through such a throw)."""

    cry: str
    seats: list[int]
    spared: bool = False


@dataclass
class Challenge:
    """A Soufflette or a Grelottine challenge; `origin`: the first target (the roller)."""

    kind: str
    challenger: int
    target: int
    origin: int
    combination: str = ""
    stake: int = 0
    bets: dict[int, bool] = field(default_factory=dict)
    throws: int = 0
    kept: list[int] = field(default_factory=list)
    pair: int | None = None  # Sirop-Grelot: the Chouette to sip


@dataclass
class Tiebreak:
    """One die each, the lowest loses; a tie among the lowest rolls again."""

    seats: list[int]
    values: dict[int, int] = field(default_factory=dict)

    def die(self, seat: int, value: int) -> int | None:
        """Record a die; the loser once everyone still in has rolled and one is lowest."""
        self.values[seat] = value
        if set(self.values) != set(self.seats):
            return None
        low = min(self.values.values())
        lowest = [s for s in self.seats if self.values[s] == low]
        if len(lowest) == 1:
            return lowest[0]
        self.seats, self.values = lowest, {}
        return None


# --------------------------------------------------------------------------- the referee


class Referee:
    """Follows one game and says, after each action, what the table must show."""

    def __init__(self, view: View, *, button: bool, banque: bool, real: bool) -> None:
        n = view["players"]
        self.n, self.button, self.banque, self.real = n, button, banque, real
        self.scores = [sheet["score"] for sheet in view["sheets"]]
        self.over = False
        self.grelottine = [False] * n
        self.civet = [False] * n
        self.boucliette = [True] * n  # « each player starts with one »
        self.pg_earned = [False] * n
        self.pg_used = [False] * n
        self.bank = [0] * n
        self.tier = BANK_TIER
        self.late: LateCry | None = None  # outlives the turn: until the next roll's Cul
        self.seen: Counter[str] = Counter()  # which rules were exercised
        self.roller = view["roller"]
        self.order: list[int] = list(view["order"])
        self.new_turn(self.roller)

    def new_turn(self, roller: int) -> None:
        self.roller = roller
        self.buyer: int | None = None
        self.chouettes: list[int] = []
        self.civet_bet: tuple[str, int] | None = None
        self.civet_pending: tuple[str, int] | None = None
        self.sip: int | None = None
        self.sip_bets: dict[int, int] = {}
        self.race: Race | None = None
        self.challenge: Challenge | None = None
        self.totals: list[int] = []
        self.announced = 0
        self.total_bets: dict[int, int] = {}
        self.tiebreak: Tiebreak | None = None
        self.shouted_out: set[int] = set()  # a shout out of place: once a turn
        self.erred: set[int] = set()  # « Grelottine ! » without one
        self.pressed: set[tuple[int, int]] = set()  # (presser, target) of the −10 button
        balance = self.bank[roller]  # « 17 % d'intérêt par tour », on one's own turn
        self.bank[roller] = balance + balance * BANK_INTEREST // 100

    @property
    def scorer(self) -> int:
        """Who plays the roll: the roller, or the buyer of the Cul."""
        return self.roller if self.buyer is None else self.buyer

    def next_after(self, seat: int) -> int:
        """The next player in playing order (counter-clockwise, as the view orders it)."""
        return self.order[(self.order.index(seat) + 1) % len(self.order)]

    # ------------------------------------------------------------------ scores

    def own(self, seat: int, points: int) -> None:
        """Points of the roller's own roll on their own turn: no cap, 343 wins at once."""
        assert seat == self.roller
        if self.over or points <= 0:
            return
        self.scores[seat] += points
        if self.scores[seat] >= TARGET:
            self.over = True
            self.seen["win"] += 1

    def capped(self, seat: int, points: int) -> None:
        """Any other gain stops at 332 (and never lowers a score already above it)."""
        if self.over or points <= 0:
            return
        before = self.scores[seat]
        if before + points > CAP:
            self.seen["cap"] += 1
        self.scores[seat] = before + points if before + points <= CAP else max(before, CAP)

    def gain(self, seat: int, points: int) -> None:
        """A roll's points: the roller's own, anybody else's capped."""
        if seat == self.roller:
            self.own(seat, points)
        else:
            self.capped(seat, points)

    def lose(self, seat: int, points: int) -> None:
        """Scores never go below 0."""
        if self.over or points <= 0:
            return
        if self.scores[seat] < points:
            self.seen["floor"] += 1
        self.scores[seat] = max(0, self.scores[seat] - points)

    def settle_bets(self, bets: dict[int, Any], outcome: object) -> None:
        """Side bets of 5: a right one wins 25 (capped), a wrong one loses its 5."""
        for bettor, guess in sorted(bets.items()):
            if guess == outcome:
                self.capped(bettor, SIDE_GAIN)
            else:
                self.lose(bettor, SIDE_STAKE)
            self.seen["side bet"] += 1

    # ------------------------------------------------------------------ following

    def follow(
        self,
        before: View,
        seat: int | None,
        action: dict[str, Any],
        dice: Sequence[dict[str, Any]],
        after: View,
    ) -> list[str]:
        """Play one applied action; the differences with the view after it (none: agreed).
        `dice`: the chance log's entries the action added, in order."""
        self.problems: list[str] = []
        self.step: str = before["step"]
        self.order = list(before["order"])
        self.expect_step: tuple[str, ...] = ()  # where the turn may stand now ("debut": ended)
        self.expect_roll: tuple[int, list[int], str, int] | None = None
        self.rolls = [list(entry["dice"]) for entry in dice if "seat" not in entry]
        # the site's Suite tie-break dice: one die each, with its seat
        self.tiebreak_rolls = [
            (entry["seat"], entry["dice"][0]) for entry in dice if "seat" in entry
        ]
        kind = action["type"]
        handler = getattr(self, "on_" + kind, None)
        if handler is None:
            raise NotImplementedError(f"the referee does not follow {kind!r}")
        handler(seat, action)
        if not after["over"] and after["turn"] != before["turn"]:
            if before["step"] != "ouverture" and after["roller"] != self.next_after(self.roller):
                self.problems.append(f"turn passed to {after['roller']}, not the next player")
            self.new_turn(after["roller"])
        self.compare(before, after)
        return self.problems

    def refuse(self, why: str) -> None:
        self.problems.append(f"the rules forbid this move: {why}")

    def expect(self, *steps: str) -> None:
        """Where the turn must stand after the action (several: a fair window that nobody
        can act in closes at once)."""
        self.expect_step = steps

    def end_turn(self) -> None:
        self.expect("debut")

    def compare(self, before: View, after: View) -> None:
        """The view after the action against the referee's table."""
        got = [sheet["score"] for sheet in after["sheets"]]
        if got != self.scores:
            self.problems.append(f"scores {got}, the rules say {self.scores}")
        if after["over"] != self.over or (self.over and after["winner"] != self.roller):
            self.problems.append(
                f"over={after['over']} winner={after['winner']}, the rules say over={self.over}"
            )
        tokens = {
            "grelottine": self.grelottine,
            "civet": self.civet,
            "boucliette": self.boucliette,
            "passe_grelot_earned": self.pg_earned,
            "passe_grelot_used": self.pg_used,
        }
        for key, mine in tokens.items():
            theirs = [sheet[key] for sheet in after["sheets"]]
            if theirs != mine:
                self.problems.append(f"{key} {theirs}, the rules say {mine}")
        if self.banque:
            bank = after["banque"]
            if bank["balances"] != self.bank or bank["tier"] != self.tier:
                self.problems.append(f"Banque {bank}, the rules say {self.bank}, tier {self.tier}")
        if self.expect_roll is not None and not self.over:
            seat, rolled, name, points = self.expect_roll
            last = after["last_roll"]
            reading = {"seat": seat, "dice": rolled, "name": name, "points": points}
            if last != reading:
                self.problems.append(f"roll read as {last}, the rules say {reading}")
        if self.over:
            return
        if self.expect_step and after["step"] not in self.expect_step:
            self.problems.append(f"step {after['step']!r}, the rules say {self.expect_step}")
        ended = after["turn"] != before["turn"]
        if self.expect_step and ended != (self.expect_step == ("debut",)):
            self.problems.append(f"the turn {'ended' if ended else 'goes on'}, the rules disagree")
        if ended and not self.expect_step and self.step not in ("ouverture", "grelottine"):
            # a fair window that nobody can act in any more closes by itself: only the
            # Grelottine window then ends the turn
            self.problems.append("the turn ended, the rules see no reason")

    # ------------------------------------------------------------------ buttons

    def on_bevue(self, seat: int | None, action: dict[str, Any]) -> None:
        """The −10 button under another player, once per presser per target per turn."""
        assert seat is not None
        target = action["target"]
        if not self.button or target == seat or (seat, target) in self.pressed:
            self.refuse(f"−10 button of {seat} on {target}")
        self.pressed.add((seat, target))
        self.lose(target, BEVUE)
        self.seen["bevue button"] += 1

    def on_passer(self, seat: int | None, action: dict[str, Any]) -> None:
        """« Je passe »: nothing happens to anyone's score."""

    def on_civet(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        stake = action["stake"]
        if seat != self.roller or not self.civet[seat] or not 1 <= stake <= CIVET_MAX:
            self.refuse(f"Civet bet of {seat}: {stake}")
        self.civet[seat] = False
        self.civet_bet = (action["combination"], stake)

    def on_deposer(self, seat: int | None, action: dict[str, Any]) -> None:
        """Banque: points leave the score for the Bank, by tiers."""
        assert seat is not None
        amount = action["amount"]
        if amount % self.tier or not 0 < amount <= self.scores[seat]:
            self.refuse(f"deposit of {amount} (tier {self.tier})")
        self.scores[seat] -= amount
        self.bank[seat] += amount
        self.seen["deposit"] += 1

    def on_retirer(self, seat: int | None, action: dict[str, Any]) -> None:
        """Banque: the whole balance back, less 21 % of fees (rounded down); not points of
        one's roll, so capped."""
        assert seat is not None
        balance, self.bank[seat] = self.bank[seat], 0
        self.capped(seat, balance - balance * BANK_FEES // 100)
        self.seen["withdraw"] += 1

    # ------------------------------------------------------------------ dice

    def on_lancer(self, seat: int | None, action: dict[str, Any]) -> None:
        self.dice_fell(seat)

    def on_des(self, seat: int | None, action: dict[str, Any]) -> None:
        self.dice_fell(seat)

    def dice_fell(self, seat: int | None) -> None:
        """The dice the step awaited (several entries: the Chouettes, then the Cul)."""
        step = self.step
        if step == "ouverture":
            return  # who starts: no points
        if step == "departage":
            assert seat is not None and self.tiebreak is not None
            self.tiebreak_dice([(seat, self.rolls[0][0])])
            return
        if step != "debut" or (self.late is not None and self.late.spared):
            self.late = None  # the next roll is complete: the last race's cry is out of place
        if step == "debut":
            self.chouettes = self.rolls.pop(0)
            self.after_chouettes(together=True)
        elif step in ("achat", "cul"):
            self.cul_fell()
        elif step in ("paris_sirotage", "sirotage"):
            self.sip_fell(self.rolls[0][0])
        elif step in ("annonce", "defi"):
            self.throw_fell(self.rolls[0])
        elif step == "sirop_grelot":
            self.sirop_grelot_fell(self.rolls[0][0])
        elif step in ("bleu_rouge", "bleu_rouge_jet"):
            self.reroll_fell(self.rolls[0])
        else:
            raise AssertionError(f"dice at step {step}")

    def after_chouettes(self, together: bool = False) -> None:
        """Banque: more than 10 with the Chouettes opens the « Raitournelle ! » window
        (reading: only if someone else has a balance to take); else the Cul (`together`:
        in the same throw as the Chouettes, if nobody may buy it)."""
        others = any(self.bank[p] for p in self.order if p != self.roller)
        if self.banque and sum(self.chouettes) > 10 and others:
            self.expect("raitournelle")
            return
        self.cul_for_sale(together)

    def cul_for_sale(self, together: bool = False) -> None:
        """Another player with 30 points may buy the Cul; else the site rolls it at once."""
        buyers = any(self.scores[p] >= PURCHASE for p in self.order if p != self.roller)
        if buyers or self.real:
            self.expect("achat" if buyers else "cul")
            if self.rolls:
                self.problems.append("the Cul was rolled before its window")
            return
        if not self.rolls:
            self.problems.append("nobody may buy the Cul, yet it was not rolled")
            return
        self.cul_fell(together)

    def cul_fell(self, together: bool = False) -> None:
        """The roll's Cul: the last race is forgotten, unless the Cul came in the same throw
        as the Chouettes (then it lives until the next dice)."""
        if together and self.late is not None:
            self.late.spared = True
        else:
            self.late = None
        self.resolve_roll([*self.chouettes, self.rolls.pop(0)[0]])

    def resolve_roll(self, dice: list[int]) -> None:
        """The turn's three dice: the roller whose Cul was bought keeps a pair of Chouettes
        (their own roll: it may win), the Civet is settled, then the combination scores and
        opens its window. Reading: a Civet bets on the turn's three dice, bought Cul or not,
        and is settled before the combination's points (the order only matters at 343)."""
        s = self.scorer
        name, points = read(dice)
        self.expect_roll = (s, dice, name, points)
        self.seen["roll " + name] += 1
        if self.buyer is not None and self.chouettes[0] == self.chouettes[1]:
            self.own(self.roller, self.chouettes[0] ** 2)
        if self.civet_bet is not None:
            combination, stake = self.civet_bet
            self.civet_bet = None
            if combination == CUL_SIROTAGE and name == "Chouette":
                self.civet_pending = (combination, stake)  # settled by the Sirotage
                self.seen["civet pending"] += 1
            else:
                self.settle_civet(holds(dice, combination), stake)
        if self.over:
            return
        every = tuple(self.order)
        if name == "Pélican":
            self.gain(s, points)
            self.open_race("pelican", 28, every)
        elif name in ("Cul de Chouette", "Velute"):
            self.gain(s, points)
            self.end_turn()
        elif name == "Bleu-Rouge":
            self.boucliette[s] = True
            self.gain(s, points)
            self.expect("bleu_rouge")
        elif name == "Chouette Velute":
            self.open_race("chouette_velute", 2 * max(dice) ** 2, every)
        elif name == "Chouette":
            self.sip = pair_of(dice)
            self.expect("siroter")
        elif name == "Soufflette":
            self.expect("soufflette_cible")
        elif name == "Suite":
            self.gain(s, points)
            self.open_race("suite", BEVUE, every)
        else:
            self.neant(s)

    def neant(self, s: int) -> None:
        """A Grelottine (one at most); a challenge window if another holder could stake at
        least 1 point (the Chouette's 33 % is the largest)."""
        self.grelottine[s] = True
        if any(
            c != s
            and self.grelottine[c]
            and grelottine_limit("Chouette", self.scores[c], self.scores[s])
            for c in self.order
        ):
            self.expect("grelottine")
        else:
            self.end_turn()

    def settle_civet(self, success: bool, stake: int) -> None:
        """The roller's Civet: the stake won (capped) or lost; the dice points stay."""
        if success:
            self.capped(self.roller, stake)
        else:
            self.lose(self.roller, stake)
        self.seen[f"civet {'won' if success else 'lost'}"] += 1

    # ------------------------------------------------------------------ Achat de dé

    def on_acheter(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        if seat == self.roller or self.scores[seat] < PURCHASE:
            self.refuse(f"{seat} buys the Cul with {self.scores[seat]}")
        self.scores[seat] -= PURCHASE
        self.buyer = seat
        self.seen["purchase"] += 1
        if self.real:
            self.expect("cul")
        else:
            self.cul_fell()

    # ------------------------------------------------------------------ Sirotage

    def on_siroter(self, seat: int | None, action: dict[str, Any]) -> None:
        if seat != self.scorer:
            self.refuse(f"{seat} decides another's Sirotage")
        if action["yes"]:
            self.seen["sip"] += 1
            return
        self.keep_the_chouette()

    def keep_the_chouette(self) -> None:
        assert self.sip is not None
        if self.civet_pending is not None:
            self.settle_civet(False, self.civet_pending[1])
            self.civet_pending = None
        self.gain(self.scorer, self.sip**2)
        self.seen["keep the Chouette"] += 1
        self.end_turn()

    def on_parier_face(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        if seat == self.scorer:
            self.refuse("betting on one's own Sirotage")
        self.sip_bets[seat] = action["face"]

    def sip_fell(self, die: int) -> None:
        """Hit: the Cul de Chouette (40 + 10v, also on a pair of 6: the Contre-Sirop's
        « 10 à 20 points » values that one at 100). Miss: −v², the Contre-Sirop race for the
        others, and a Civet on a pair of 6."""
        v, s = self.sip, self.scorer
        assert v is not None
        self.settle_bets(self.sip_bets, die)
        if self.civet_pending is not None:
            self.settle_civet(die == v, self.civet_pending[1])
            self.civet_pending = None
        if die == v:
            self.seen["sip hit"] += 1
            self.gain(s, 40 + 10 * v)
            self.end_turn()
            return
        self.seen["sip missed"] += 1
        self.lose(s, v * v)
        if v == 6:
            self.civet[s] = True
        others = tuple(p for p in self.order if p != s)
        self.open_race("contre_sirop", 2 * (40 + 10 * v) // 10, others)

    # ------------------------------------------------------------------ races and shouts

    def open_race(self, kind: str, value: int, eligible: tuple[int, ...]) -> None:
        if self.over:
            return
        self.race = Race(kind, value, eligible)
        self.expect(kind)

    def end_race(self) -> None:
        """Its cry is still heard, too late, once each, until the next dice."""
        race = self.race
        assert race is not None
        self.race = None
        self.late = LateCry(RACE_CRY[race.kind], [s for s in race.eligible if s not in race.again])

    def on_crier(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        cry, race, step = action["cry"], self.race, self.step
        if race is not None and step == race.kind and seat in race.eligible:
            if cry == RACE_CRY[race.kind] and seat not in race.order:
                self.right_cry(seat, race)
                return
            if cry == RACE_CRY[race.kind] and seat not in race.again:
                race.again.append(seat)  # « déjà compté »
                self.seen["cry repeated"] += 1
                return
            if cry in RACE_CRY.values() and seat not in race.order:
                if seat in race.wrong:
                    self.refuse(f"a second wrong cry from {seat} in one race")
                race.wrong.append(seat)
                self.lose(seat, BEVUE)
                self.seen["wrong cry"] += 1
                return
        late = self.late
        if race is None and late is not None and cry == late.cry and seat in late.seats:
            late.seats.remove(seat)  # « trop tard » (or « déjà compté »): no points, no Bévue
            self.seen["late cry"] += 1
            return
        if step == "raitournelle" and cry == (RAITOURNELLE if seat == self.roller else ARTICHETTE):
            self.bank_cry(cry)
            return
        if step == "grelottine" and cry == GRELOTTINE_CRY and seat != self.scorer:
            if not self.grelottine[seat]:  # « challenge without a Grelottine »: a Bévue
                if seat in self.erred:
                    self.refuse(f"a second « Grelottine ! » without one from {seat}")
                self.erred.add(seat)
                self.shouted_out.add(seat)
                self.lose(seat, BEVUE)
                self.seen["Grelottine without one"] += 1
                return
        # « A shout when it does not apply is a Bévue »: once a turn, with the −10 button
        if not self.button or seat in self.shouted_out:
            self.refuse(f"a shout out of place from {seat}: {cry}")
        self.shouted_out.add(seat)
        self.lose(seat, BEVUE)
        self.seen["shout out of place"] += 1

    def right_cry(self, seat: int, race: Race) -> None:
        race.order.append(seat)
        if race.kind in FIRST_WINS:
            self.end_race()
            self.seen[f"race {race.kind} won"] += 1
            # the roller's own roll when they shout first on their own dice (not the
            # Contre-Sirop, which is the others' race)
            mine = seat == self.roller and self.buyer is None and race.kind != "contre_sirop"
            if mine:
                self.own(seat, race.value)
            else:
                self.capped(seat, race.value)
            self.end_turn()
        elif not race.silent():
            self.end_race()
            self.lose(seat, race.value)  # the last to shout
            self.seen["suite: last shout"] += 1
            self.end_turn()
        else:
            self.expect(race.kind)

    def close_race(self) -> None:
        """Nobody won in time: a Chouette Velute stays with its roller, the Pélican's 28
        and a Contre-Sirop go to nobody; a Suite's silent players are the last."""
        race = self.race
        assert race is not None
        self.end_race()
        if race.kind == "chouette_velute":
            self.gain(self.scorer, race.value)
            self.seen["race chouette_velute unclaimed"] += 1
        if race.kind in FIRST_WINS:
            self.end_turn()
            return
        silent = race.silent()
        if len(silent) == 1:
            self.lose(silent[0], race.value)
            self.seen["suite: one silent"] += 1
            self.end_turn()
            return
        self.tiebreak = Tiebreak(silent)
        self.seen["suite: tie-break"] += 1
        if self.real:
            self.expect("departage")
        else:
            self.tiebreak_dice(self.tiebreak_rolls)

    def tiebreak_dice(self, dice: Iterable[tuple[int, int]]) -> None:
        """Suite tie-break: the lowest die loses 10, ties roll again."""
        assert self.tiebreak is not None
        for seat, value in dice:
            loser = self.tiebreak.die(seat, value)
            if loser is not None:
                self.tiebreak = None
                self.lose(loser, BEVUE)
                self.end_turn()
                return
        if not self.real:
            self.problems.append("the site's tie-break dice named no loser")
        self.expect("departage")

    def bank_cry(self, cry: str) -> None:
        """« Raitournelle ! »: the whole Banque to the roller, tiers go up by one;
        « Artichette ! »: it stays. Then the Cul."""
        if cry == RAITOURNELLE:
            total = sum(self.bank)
            self.bank = [0] * self.n
            self.bank[self.roller] = total
            self.tier += 1
        self.seen[cry] += 1
        self.cul_for_sale()

    # ------------------------------------------------------------------ challenges

    def on_souffler(self, seat: int | None, action: dict[str, Any]) -> None:
        """The author of the 4-2-1 names another player (the clock: the next one)."""
        assert seat is not None
        if seat != self.scorer or action["target"] == seat:
            self.refuse(f"Soufflette of {seat} on {action['target']}")
        self.challenge = Challenge("soufflette", seat, action["target"], action["target"])
        self.expect("annonce", "defi")

    def on_grelottine(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        combination, stake, s = action["combination"], action["stake"], self.scorer
        top = grelottine_limit(combination, self.scores[seat], self.scores[s])
        if seat == s or not self.grelottine[seat] or not 1 <= stake <= top:
            self.refuse(f"Grelottine of {seat}: {combination} for {stake} (at most {top})")
        self.challenge = Challenge("grelottine", seat, s, s, combination, stake)
        self.expect("annonce", "defi")

    def on_passe_grelot(self, seat: int | None, action: dict[str, Any]) -> None:
        """The challenge moves to another opponent; the stake comes down to their limit."""
        ch, target = self.challenge, action["target"]
        assert ch is not None and seat is not None
        if (
            self.n == 2
            or seat != ch.target
            or not self.pg_earned[seat]
            or self.pg_used[seat]
            or target in (seat, ch.challenger)
            or ch.target != ch.origin  # a passed challenge « doit être accepté »
        ):
            self.refuse(f"Passe-Grelot from {seat} to {target}")
        self.pg_used[seat] = True
        ch.target = target
        ch.bets.pop(target, None)  # who plays the challenge does not bet on it
        top = grelottine_limit(ch.combination, self.scores[ch.challenger], self.scores[target])
        ch.stake = min(ch.stake, top)
        self.seen["Passe-Grelot"] += 1

    def on_boucliette(self, seat: int | None, action: dict[str, Any]) -> None:
        ch = self.challenge
        assert ch is not None and seat is not None
        if not self.boucliette[seat] or seat == ch.challenger or seat == ch.target != ch.origin:
            self.refuse(f"Boucliette from {seat}")
        self.boucliette[seat] = False
        self.challenge = None
        self.seen["Boucliette"] += 1
        self.end_turn()

    def on_parier_defi(self, seat: int | None, action: dict[str, Any]) -> None:
        ch = self.challenge
        assert ch is not None and seat is not None
        if seat in (ch.challenger, ch.target) or ch.kind != "grelottine":
            self.refuse(f"bet of {seat} on a challenge")
        ch.bets[seat] = action["made"]

    def throw_fell(self, new: list[int]) -> None:
        ch = self.challenge
        assert ch is not None
        if len(new) != 3 - len(ch.kept):
            self.problems.append(f"{len(new)} dice thrown with {ch.kept} kept")
        dice = [*ch.kept, *new]
        ch.throws += 1
        if ch.kind == "soufflette":
            self.soufflette_throw(ch, dice)
            return
        if ch.combination == "Sirop-Grelot":
            pair = pair_of(dice)
            if pair is not None and read(dice)[0] != "Chouette Velute":  # now the Sirotage
                ch.pair = pair
                self.expect("sirop_grelot")
                return
            # reading: three equal dice at once are the Cul de Chouette imposed
            self.settle_grelottine(len(set(dice)) == 1, self.off_race(dice))
            return
        self.settle_grelottine(holds(dice, ch.combination), self.off_race(dice))

    def off_race(self, dice: list[int]) -> int:
        """The points of a roll where no race is held."""
        if read(dice)[0] == "Chouette Velute":
            self.seen["Chouette Velute off a race"] += 1
        return points_without_race(dice)

    def sirop_grelot_fell(self, die: int) -> None:
        """Reading: a hit scores the Cul de Chouette; a miss scores nothing (the documents
        do not say the Sirotage's −v² applies in a challenge, whose stake is the price)."""
        ch = self.challenge
        assert ch is not None and ch.pair is not None
        made = die == ch.pair
        self.seen["Sirop-Grelot sip"] += 1
        self.settle_grelottine(made, 40 + 10 * ch.pair if made else 0)

    def settle_grelottine(self, made: bool, points: int) -> None:
        """Made: the challenged wins the stake from the challenger, else the reverse; the
        bets; both Grelottines spent; the challenged keeps the points of the roll."""
        ch = self.challenge
        assert ch is not None
        self.challenge = None
        t, c = ch.target, ch.challenger
        if made:
            self.capped(t, ch.stake)
            self.lose(c, ch.stake)
            self.pg_earned[t] = True
        else:
            self.lose(t, ch.stake)
            self.capped(c, ch.stake)
        self.seen[f"Grelottine {'made' if made else 'missed'}"] += 1
        self.settle_bets(ch.bets, made)
        self.grelottine[c] = self.grelottine[ch.origin] = False
        self.gain(t, points)
        self.end_turn()

    def soufflette_throw(self, ch: Challenge, dice: list[int]) -> None:
        """Keep a 4, a 2 and a 1; 421 on throw 1/2/3: +50/40/30 taken from the challenger;
        three throws missed: the challenged pays 30."""
        ch.kept = [v for v in (4, 2, 1) if v in dice]
        if len(ch.kept) == 3:
            gain = SOUFFLETTE_GAINS[ch.throws - 1]
            self.challenge = None
            self.capped(ch.target, gain)
            self.lose(ch.challenger, gain)
            self.seen["Soufflette made"] += 1
            self.end_turn()
        elif ch.throws == 3:
            self.challenge = None
            self.lose(ch.target, SOUFFLETTE_FAIL)
            self.capped(ch.challenger, SOUFFLETTE_FAIL)
            self.seen["Soufflette missed"] += 1
            self.end_turn()
        else:
            self.expect("defi")

    # ------------------------------------------------------------------ Bleu-Rouge

    def on_annoncer_total(self, seat: int | None, action: dict[str, Any]) -> None:
        """Up to three totals; an impossible one (outside 3..18) is a Bévue."""
        assert seat is not None
        total = action["total"]
        if seat != self.scorer or self.announced >= 3 or total in self.totals:
            self.refuse(f"total {total} announced by {seat}")
        self.announced += 1
        if 3 <= total <= 18:
            self.totals.append(total)
        else:
            self.lose(seat, BEVUE)
            self.seen["impossible total"] += 1

    def on_parier_total(self, seat: int | None, action: dict[str, Any]) -> None:
        assert seat is not None
        if seat == self.scorer:
            self.refuse("betting on one's own Bleu-Rouge")
        self.total_bets[seat] = action["total"]

    def reroll_fell(self, dice: list[int]) -> None:
        """Total announced: 36 + 2 × total (a bet won: capped) and the re-roll's points;
        else the re-roll scores nothing."""
        total, s = sum(dice), self.scorer
        self.settle_bets(self.total_bets, total)
        if total in self.totals:
            self.capped(s, 36 + 2 * total)
            self.gain(s, self.off_race(dice))
            self.seen["Bleu-Rouge total made"] += 1
        else:
            self.seen["Bleu-Rouge total missed"] += 1
        self.end_turn()

    # ------------------------------------------------------------------ the clock

    def on_fermer(self, seat: int | None, action: dict[str, Any]) -> None:
        """The table clock closes the open window with its default."""
        step = self.step
        self.seen["clock " + step] += 1
        if step in RACE_CRY:
            self.close_race()
        elif step == "siroter":
            self.keep_the_chouette()
        elif step == "soufflette_cible":
            target = self.next_after(self.scorer)
            self.challenge = Challenge("soufflette", self.scorer, target, target)
            self.expect("annonce", "defi")
        elif step == "grelottine":
            self.end_turn()
        elif step == "raitournelle":
            self.cul_for_sale()
        elif self.rolls:  # the window's default is the roll: the site rolls
            self.dice_fell(None)
        elif not self.real:
            self.problems.append(f"the clock closed {step!r} without rolling")
