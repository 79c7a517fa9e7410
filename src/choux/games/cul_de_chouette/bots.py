"""Bots for Cul de Chouette: expected values for the choices, reaction delays for races.

Three levels: "easy" (slow, shouts the wrong cry now and then, bets on a whim), "medium",
"hard" (quick, never errs, picks the best expected value). "random" is the baseline.
Each decision comes with the delay a person would take, for the table service.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product

from choux.ai.random import RandomBot
from choux.engine.base import Action, BotFactory, BotMove, Seat, State
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
    DeclareBevue,
    EnterDice,
    Pass,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
)
from choux.games.cul_de_chouette.legality import gate_shout
from choux.games.cul_de_chouette.rules import total_is_possible
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.steps import RACE_CRY

ALL_ROLLS = tuple(product(range(1, 7), repeat=3))


@cache
def probability(name: str) -> float:
    """Chance that one roll of three dice holds a combination (Sirop-Grelot: with the sip)."""
    if name == C.SIROP_GRELOT:
        pair = sum(1 for d in ALL_ROLLS if C.odd_die(d) is not None) / 216
        return probability(C.CUL_DE_CHOUETTE) + pair / 6
    if name == C.CUL_SIROTAGE:
        return probability(C.SIROP_GRELOT)
    return sum(1 for d in ALL_ROLLS if C.has_combination(d, name)) / 216


@cache
def total_probability(total: int) -> float:
    return sum(1 for d in ALL_ROLLS if sum(d) == total) / 216


@cache
def soufflette_success() -> float:
    """Chance to make 421 again within three throws, keeping 4, 2 and 1."""

    def chance(kept: frozenset[int], throws: int) -> float:
        if len(kept) == 3:
            return 1.0
        if throws == 0:
            return 0.0
        missing = 3 - len(kept)
        total = 0.0
        for roll in product(range(1, 7), repeat=missing):
            new = kept | ({4, 2, 1} & set(roll))
            total += chance(frozenset(new), throws - 1)
        return float(total / 6**missing)

    return chance(frozenset(), 3)


def cul_value(chouettes: tuple[int, int], room: int | None = None) -> float:
    """Expected points of the Cul for whoever rolls it, given the two Chouettes; with
    `room`, each outcome counted up to it (what a buyer can gain under the cap)."""
    total = 0.0
    for die in range(1, 7):
        name, points, value = C.read_full((*chouettes, die))
        if name == C.CHOUETTE_VELUTE:
            points = C.chouette_velute_points(value) // 2
        total += points if room is None else min(points, room)
    return total / 6


@cache
def bleu_rouge_value(total: int) -> float:
    """Expected gain of announcing `total` after a Bleu-Rouge: when the re-roll makes it,
    the bonus, twice the total and the re-roll's own points. (The chance alone ranks 9 and
    12 equal; 12 is worth 12.7 points, 9 only 6.9.)

    >>> sorted(range(3, 19), key=bleu_rouge_value)[-3:]
    [11, 10, 12]
    """
    gained = sum(
        C.BLEU_ROUGE_BONUS + 2 * total + C.roll_points(C.read_full(d))
        for d in ALL_ROLLS
        if sum(d) == total
    )
    return gained / 216


#: an expected gain below this is no reason to bet (a face of the Sirotage: 0, give or take
#: the last bits of a float)
EVEN = 0.01


def side_bet_value(chance: float) -> float:
    """Expected gain of a side bet (5 staked, 25 won) that is right with this chance: a
    total after a Bleu-Rouge never pays (27/216 at best: −1.25), a face of the Sirotage
    breaks even, the likelier outcome of a challenge always pays."""
    return chance * C.SIDE_BET_GAIN - (1 - chance) * C.SIDE_BET_STAKE


@dataclass(frozen=True)
class Level:
    reaction: float  # seconds before shouting in a race
    think: float  # seconds before a decision
    error: float  # chance of shouting the wrong cry
    whim: float  # chance of a side bet or a purchase made on a whim
    greed: float  # minimum expected gain before buying or challenging

    @property
    def whimsical(self) -> bool:
        """The easy level: it chooses on a whim where the others weigh expected values."""
        return self.whim > 0.2


#: reactions are a person's, who sees the dice, finds the cry and clicks: at 0.3–0.8 s the
#: robots won every race against people (an audit: eight of eight, all levels alike)
LEVELS = {
    "easy": Level(reaction=2.2, think=1.5, error=0.12, whim=0.25, greed=10.0),
    "medium": Level(reaction=1.5, think=1.0, error=0.03, whim=0.1, greed=5.0),
    "hard": Level(reaction=1.0, think=0.6, error=0.0, whim=0.0, greed=0.0),
}


class ChouetteBot:
    """A bot of one level. Returns None to let a window pass."""

    def __init__(self, rng: random.Random, level: Level) -> None:
        self.rng = rng
        self.level = level

    def delay(self, base: float) -> float:
        return round(base * (0.7 + 0.6 * self.rng.random()), 3)

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        legal = state.legal_actions(seat)
        if not legal or isinstance(legal[0], DeclareBevue):
            return None
        view = state.view(None)
        kinds: dict[type[Action], list[Action]] = {}
        for action in legal:
            kinds.setdefault(type(action), []).append(action)
        move = self.decide(view, seat, kinds)
        if move is None and Pass in kinds:
            # nothing worth doing in this window: say so, the others need not wait
            return BotMove(kinds[Pass][0], self.delay(self.level.think))
        return move

    def decide(
        self, view: dict[str, object], seat: Seat, kinds: dict[type[Action], list[Action]]
    ) -> BotMove | None:
        race = view["race"]
        if Shout in kinds and isinstance(race, dict) and seat not in race["order"]:
            return self.shout(view, kinds[Shout])  # (once heard, a bot does not shout again)
        if Shout in kinds and view["step"] == "raitournelle":
            # the roller grabs the Bank, the others try to stop it
            return BotMove(kinds[Shout][0], self.delay(self.level.reaction))
        if UseBoucliette in kinds or PasseGrelot in kinds:
            move = self.defend(view, seat, kinds)
            if move is not None:
                return move
        if CivetBet in kinds:
            move = self.civet(view, seat)
            if move is not None:
                return move
        if Sip in kinds:
            return BotMove(Sip(self.sip(view, seat)), self.delay(self.level.think))
        if ChallengeSoufflette in kinds:
            return self.soufflette(view, kinds[ChallengeSoufflette])
        if ChallengeGrelottine in kinds:
            return self.grelottine(view, seat, kinds[ChallengeGrelottine])
        if AnnounceTotal in kinds:
            return self.announce(view, kinds[AnnounceTotal])
        if BuyCul in kinds:
            return self.buy(view, seat)
        if BetFace in kinds or BetTotal in kinds or BetChallenge in kinds:
            return self.side_bet(view, seat, kinds)
        if Roll in kinds:
            return BotMove(kinds[Roll][0], self.roll_delay(view))
        if EnterDice in kinds:
            return BotMove(self.rng.choice(kinds[EnterDice]), self.roll_delay(view))
        grelottine = [a for a in kinds.get(Shout, ()) if a == Shout(C.CRI_GRELOTTINE)]
        if grelottine and self.rng.random() < self.level.error / 4:
            # « Grelottine ! » without one: a Bévue, now and then (easy; medium rarely)
            return BotMove(grelottine[0], self.delay(self.level.reaction))
        return None

    def roll_delay(self, view: dict[str, object]) -> float:
        # leave the others time to buy or bet before rolling on
        wait = 2.0 if view["windows"] else 0.5
        return self.delay(wait + self.level.think / 2)

    # ---------------------------------------------------------------- races

    def shout(self, view: dict[str, object], shouts: list[Action]) -> BotMove:
        race = view["race"]
        assert isinstance(race, dict)
        right = Shout(RACE_CRY[race["kind"]])
        wrong = [s for s in shouts if isinstance(s, Shout) and s != right and s.cry in C.RACE_CRIES]
        if wrong and self.rng.random() < self.level.error:
            return BotMove(self.rng.choice(wrong), self.delay(self.level.reaction * 0.8))
        return BotMove(right, self.delay(self.level.reaction))

    # ---------------------------------------------------------------- decisions

    def sip(self, view: dict[str, object], seat: Seat) -> bool:
        sirotage = view["sirotage"]
        assert isinstance(sirotage, dict)
        v = sirotage["value"]
        score = self._score(view, seat)
        target = view["target"]
        assert isinstance(target, int)
        if score + v * v >= target:
            return False
        if score + C.cul_de_chouette_points(v) >= target and self.level.error == 0:
            return True
        if self.level.whimsical:
            return self.rng.random() < 0.5
        keep = int(v) * int(v)
        sip = C.cul_de_chouette_points(int(v)) / 6 - 5 * keep / 6
        return bool(sip > keep)

    def civet(self, view: dict[str, object], seat: Seat) -> BotMove | None:
        """A Civet bet, or None to keep it and roll as usual."""
        score = self._score(view, seat)
        best = max(C.CIVET_COMBINATIONS, key=probability)
        if self.level.whimsical:
            best = self.rng.choice(C.CIVET_COMBINATIONS)
        edge = 2 * probability(best) - 1
        if edge <= 0 and not self.level.whimsical:
            return None  # even money on less than an even chance: keep it
        stake = max(1, min(C.CIVET_MAX, score, int(score * max(edge, 0.02))))
        return BotMove(CivetBet(best, stake), self.delay(self.level.think))

    def buy(self, view: dict[str, object], seat: Seat) -> BotMove | None:
        chouettes = view["chouettes"]
        assert isinstance(chouettes, list)
        room = int(view["cap"]) - self._score(view, seat)  # type: ignore[call-overload]
        value = cul_value((chouettes[0], chouettes[1]), max(room, 0))
        if value - C.PURCHASE_PRICE > self.level.greed or self.rng.random() < self.level.whim / 4:
            return BotMove(BuyCul(), self.delay(self.level.reaction))
        return None

    def side_bet(
        self, view: dict[str, object], seat: Seat, kinds: dict[type[Action], list[Action]]
    ) -> BotMove | None:
        whimsical = self.level.whimsical
        if whimsical and self.rng.random() > 0.3 + self.level.whim:
            return None
        action: Action
        if BetChallenge in kinds:
            challenge = view["challenge"]
            assert isinstance(challenge, dict)
            made = probability(challenge["combination"])
            chance, action = max(made, 1 - made), BetChallenge(made > 0.5)
        elif BetTotal in kinds:
            total = self.rng.choice((10, 11))  # the likeliest totals
            chance, action = total_probability(total), BetTotal(total)
        else:
            chance, action = 1 / 6, self.rng.choice(kinds[BetFace])
        if whimsical or side_bet_value(chance) > EVEN:
            return BotMove(action, self.delay(self.level.think))
        return None

    def soufflette(self, view: dict[str, object], targets: list[Action]) -> BotMove:
        sheets = view["sheets"]
        assert isinstance(sheets, list)

        def score(action: Action) -> int:
            assert isinstance(action, ChallengeSoufflette)
            return int(sheets[action.target]["score"])

        choice = max(targets, key=score) if not self.level.whimsical else self.rng.choice(targets)
        return BotMove(choice, self.delay(self.level.think))

    def grelottine(
        self, view: dict[str, object], seat: Seat, options: list[Action]
    ) -> BotMove | None:
        best: Action | None = None
        best_value = float(self.level.greed) / 4
        for action in options:
            assert isinstance(action, ChallengeGrelottine)
            value = action.stake * (1 - 2 * probability(action.combination))
            if value > best_value:
                best, best_value = action, value
        if best is None:
            return None
        if self.level.whimsical:
            best = self.rng.choice(options)
        return BotMove(best, self.delay(self.level.reaction))

    def defend(
        self, view: dict[str, object], seat: Seat, kinds: dict[type[Action], list[Action]]
    ) -> BotMove | None:
        challenge = view["challenge"]
        assert isinstance(challenge, dict)
        if challenge["target"] != seat:
            return None
        if PasseGrelot in kinds:
            sheets = view["sheets"]
            assert isinstance(sheets, list)

            def score(action: Action) -> int:
                assert isinstance(action, PasseGrelot)
                return int(sheets[action.target]["score"])

            return BotMove(max(kinds[PasseGrelot], key=score), self.delay(self.level.reaction))
        if UseBoucliette not in kinds:
            return None
        if challenge["kind"] == "soufflette":
            p = soufflette_success()
            value = p * 40 - (1 - p) * C.SOUFFLETTE_FAIL
        else:
            p = probability(challenge["combination"])
            value = challenge["stake"] * (2 * p - 1)
        if value < -self.level.greed - 5:
            return BotMove(UseBoucliette(), self.delay(self.level.reaction))
        return None

    def announce(self, view: dict[str, object], options: list[Action]) -> BotMove:
        if self.level.whimsical and self.rng.random() < self.level.error:
            return BotMove(self.rng.choice(options), self.delay(self.level.think))

        def gain(action: Action) -> float:
            assert isinstance(action, AnnounceTotal)
            return bleu_rouge_value(action.total) if total_is_possible(action.total) else -C.BEVUE

        return BotMove(max(options, key=gain), self.delay(self.level.think))

    @staticmethod
    def _score(view: dict[str, object], seat: Seat) -> int:
        sheets = view["sheets"]
        assert isinstance(sheets, list)
        return int(sheets[seat]["score"])


#: the « au hasard » robot shouts like a slow, distracted person: a delay drawn uniformly in
#: this range (seconds), never quicker than the easy level's quickest shout (2.2 × 0.7 =
#: 1.54 s) and within the 4 s of a Pélican's or a Chouette Velute's race. Until 2026-12-06 it
#: shouted at once, held back by `CHOUX_BOT_PACE` alone, and won the races against people.
RANDOM_REACTION = (2.0, 3.8)


class TableRandomBot(RandomBot):
    """The baseline at a real table: any of its own decisions at random (the dice, bets,
    purchases, a race's cries, right or wrong), but never the table's police: no −10 on
    another player and no shout out of place, which a uniform choice would press at every
    turn, fining the people at the table for nothing. Its shouts come late (`RANDOM_REACTION`)."""

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        actions = [a for a in state.legal_actions(seat) if not self.polices(state, seat, a)]
        if not actions:
            return None
        action = self.pick(state, seat, actions)
        if isinstance(action, Shout):
            return BotMove(action, round(self.rng.uniform(*RANDOM_REACTION), 3))
        return BotMove(action)

    @staticmethod
    def polices(state: State, seat: Seat, action: Action) -> bool:
        """A −10 on someone else, or a shout that does not apply now."""
        if isinstance(action, DeclareBevue):
            return True
        if not isinstance(action, Shout) or not isinstance(state, CulDeChouetteState):
            return False
        proper = gate_shout(state, seat)
        return not (isinstance(proper, tuple) and action in proper)


def _level(name: str) -> BotFactory:
    def make(rng: random.Random) -> ChouetteBot:
        return ChouetteBot(rng, LEVELS[name])

    return make


BOTS: dict[str, BotFactory] = {
    "random": TableRandomBot,
    "easy": _level("easy"),
    "medium": _level("medium"),
    "hard": _level("hard"),
}
