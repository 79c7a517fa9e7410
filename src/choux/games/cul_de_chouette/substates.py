"""The parts of a turn that live only while a step lasts: a race, a Sirotage, a challenge, a
Bleu-Rouge, a tie-break. Frozen values: a step replaces them, never edits them, so a
`clone` may share them and a snapshot reads them as they are.

>>> race = Race("suite", 10, (0, 1, 2)).shouted(1)
>>> race.order, race.silent()
((1,), (0, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Bets(Generic[V]):
    """Side bets of 5 points, one per player, in the order they were made."""

    items: tuple[tuple[int, V], ...] = ()

    def __contains__(self, seat: object) -> bool:
        return any(s == seat for s, _ in self.items)

    def placed(self, seat: int, guess: V) -> Bets[V]:
        item: tuple[int, V] = (seat, guess)
        return Bets((*self.items, item))

    def without(self, seat: int) -> Bets[V]:
        return Bets(tuple(item for item in self.items if item[0] != seat))

    def by_seat(self) -> list[tuple[int, V]]:
        """The bets in seat order (how they are settled and shown)."""
        return sorted(self.items)

    def to_json(self) -> dict[str, V]:
        return {str(s): guess for s, guess in self.by_seat()}


@dataclass(frozen=True, slots=True)
class Race:
    """« First (or last) to click »: `kind` is the race's step, `value` the points at stake."""

    kind: str
    value: int
    eligible: tuple[int, ...]
    order: tuple[int, ...] = ()
    wrong: tuple[int, ...] = ()
    #: who shouted the right cry a second time while the race ran on (a Suite): already
    #: counted, no Bévue, once
    again: tuple[int, ...] = ()

    def shouted(self, seat: int) -> Race:
        return replace(self, order=(*self.order, seat))

    def repeated(self, seat: int) -> Race:
        return replace(self, again=(*self.again, seat))

    def erred(self, seat: int) -> Race:
        return replace(self, wrong=(*self.wrong, seat))

    def silent(self) -> tuple[int, ...]:
        """Who has not shouted the right cry yet."""
        return tuple(s for s in self.eligible if s not in self.order)


@dataclass(frozen=True, slots=True)
class LateCry:
    """A race just ended: until the next roll is complete, its own cry from one of its players
    is not out of place (it applies to the dice it was about), it only came too late: until
    that roll's Cul die thrown on its own, or, when the site throws the three dice at once,
    until the dice after that roll. `seats`: who may still shout it once; `heard`: who had
    shouted it in time; `spared`: it lived through a throw of the three dice at once."""

    cry: str
    seats: tuple[int, ...]
    heard: tuple[int, ...] = ()
    spared: bool = False

    def used(self, seat: int) -> LateCry:
        return replace(self, seats=tuple(s for s in self.seats if s != seat))


@dataclass(frozen=True, slots=True)
class Sirotage:
    """After a Chouette of `value`: the others' bets on the face of the sipped die."""

    value: int
    bets: Bets[int] = Bets()


@dataclass(frozen=True, slots=True)
class Challenge:
    """A Soufflette or a Grelottine challenge. `origin` is the first target (a Passe-Grelot
    moves `target`; both Grelottines spent are the challenger's and the origin's)."""

    kind: str  # "soufflette" or "grelottine"
    challenger: int
    target: int
    origin: int
    combination: str
    stake: int
    throw: int = 0
    kept: tuple[int, ...] = ()
    bets: Bets[bool] = Bets()
    pair: int | None = None  # Sirop-Grelot: the Chouette to sip


@dataclass(frozen=True, slots=True)
class BleuRouge:
    """The roller's announced totals (three at most, impossible ones counted) and the bets."""

    totals: tuple[int, ...] = ()
    announced: int = 0
    bets: Bets[int] = Bets()


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """One die each, the lowest loses (opening roll: the lowest starts); ties roll again."""

    purpose: str  # "ouverture" or "suite"
    pending: tuple[int, ...]
    values: tuple[tuple[int, int], ...] = ()

    def rolled(self, seat: int, value: int) -> Tiebreak:
        return replace(
            self,
            pending=tuple(s for s in self.pending if s != seat),
            values=(*self.values, (seat, value)),
        )
