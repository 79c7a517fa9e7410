"""Small immutable records the state keeps: bids, contract, played cards, tricks, windows.

They are frozen so that `clone()` only copies lists, never their items.
"""

from __future__ import annotations

from dataclasses import dataclass

from choux.engine.base import JSON

# the status of an argument once played
NONE = "none"  # no argument typed: the card plays on its own
PENDING = "pending"  # a contest, vote or referee window is open on it
COUNTS = "counts"
REJECTED = "rejected"

STATUS_LABELS = {
    NONE: "sans argument",
    PENDING: "en discussion",
    COUNTS: "argument retenu",
    REJECTED: "argument rejeté",
}

# the windows that may open on the last argument played
CONTEST = "contest"
VOTE = "vote"
JUDGE = "judge"


@dataclass(frozen=True, slots=True)
class BidEntry:
    seat: int
    kind: str  # "bid", "pass" or "coinche"
    amount: int | None = None
    colours: tuple[str, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "amount": self.amount,
            "colours": list(self.colours),
        }


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    amount: int
    colours: tuple[str, str]
    coinched: bool
    coinched_by: int | None = None

    @property
    def team(self) -> int:
        return self.seat % 2

    def to_json(self) -> dict[str, JSON]:
        from choux.games.parlote import data

        return {
            "seat": self.seat,
            "team": self.team,
            "amount": self.amount,
            "capot": self.amount == data.CAPOT,
            "colours": list(self.colours),
            "coinched": self.coinched,
            "coinched_by": self.coinched_by,
        }


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: str
    argument: str
    status: str
    contester: int | None = None
    votes: tuple[tuple[int, bool], ...] = ()
    judge: int | None = None

    def counts(self) -> bool:
        return self.status == COUNTS

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "card": self.card,
            "argument": self.argument,
            "status": self.status,
            "contester": self.contester,
            "votes": [[s, v] for s, v in self.votes],
            "judge": self.judge,
        }


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[PlayedCard, ...]
    winner: int  # a seat
    why: str  # French
    points: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "leader": self.leader,
            "plays": [p.to_json() for p in self.plays],
            "winner": self.winner,
            "why": self.why,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class Window:
    """A window on the last argument played: who already declined to contest."""

    kind: str
    declined: tuple[int, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "declined": list(self.declined)}
