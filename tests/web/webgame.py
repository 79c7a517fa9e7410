"""A tiny game for the web tests: fast, with a hidden card per seat and a closing window.

"Course à 6": two players take turns adding 1 or 2 to a counter; whoever reaches 6 wins.
Each seat holds a secret card ("K1", "K2") that only it sees. After each move by seat 1 a
"window" opens for `window` seconds; the table clock closes it (seat None).
"""

from __future__ import annotations

import random
import sys
import types
from dataclasses import dataclass
from typing import Any, ClassVar

from choux.ai.random import RandomBot
from choux.engine.base import (
    Action,
    ActionCodec,
    BotMove,
    Deadline,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    State,
    rng_fingerprint,
)

NAME = "course"
WINDOW = {"value": 0.2}


@dataclass(frozen=True, slots=True)
class Add(Action):
    kind: ClassVar[str] = "add"
    n: int

    def label(self) -> str:
        return f"Ajouter {self.n}"


@dataclass(frozen=True, slots=True)
class Close(Action):
    kind: ClassVar[str] = "close"

    def label(self) -> str:
        return "Fermer"


class CourseState(State):
    def __init__(self, seed: int, window: bool) -> None:
        self.rng = random.Random(seed)
        self.chance: list[Any] = []
        cards = ["K1", "K2"]
        self.rng.shuffle(cards)
        self.chance.append({"deal": cards})
        self.cards = cards
        self.total = 0
        self.turn = 0
        self.open = False
        self.use_window = window

    def actors(self) -> tuple[int, ...]:
        if self.is_over() or self.open:
            return ()
        return (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        return [Add(1), Add(2)]

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        if isinstance(action, Close):
            if seat is not None or not self.open:
                raise IllegalAction("Rien à fermer.")
            self.open = False
            return [Event("close", "La fenêtre se ferme.")]
        self.require_legal(seat, action)
        assert isinstance(action, Add) and seat is not None
        self.total += action.n
        self.turn = 1 - seat
        self.open = self.use_window and seat == 1 and self.total < 6
        return [Event("add", f"{{p{seat}}} ajoute {action.n} (total {self.total}).", seat)]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "total": self.total,
            "actors": list(self.actors()),
            "card": self.cards[seat] if seat is not None else None,
            "scores": [self.total if self.turn == 1 else 0, self.total if self.turn == 0 else 0],
            "legal": [
                {"action": a.to_json(), "label": a.label()}
                for a in (self.legal_actions(seat) if seat is not None else [])
            ],
        }

    def is_over(self) -> bool:
        return self.total >= 6

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        winner = 1 - self.turn
        return Outcome.ranked([1 if s == winner else 0 for s in range(2)], "Six atteint")

    def snapshot(self) -> dict[str, Any]:
        return {
            "cards": self.cards,
            "total": self.total,
            "turn": self.turn,
            "open": self.open,
            "rng": rng_fingerprint(self.rng),
        }

    def deadline(self) -> Deadline | None:
        return Deadline(WINDOW["value"] / 0.02, Close()) if self.open else None

    def secrets(self, seat: int | None) -> set[str]:
        return {c for s, c in enumerate(self.cards) if s != seat}


class SlowBot:
    def __init__(self, rng: random.Random) -> None:
        self.inner = RandomBot(rng)

    def choose(self, state: State, seat: int) -> BotMove | None:
        move = self.inner.choose(state, seat)
        return None if move is None else BotMove(move.action, 0.05)


class CourseGame(Game):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "La Course"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = (
        Option("fenetre", "Fenêtre après chaque coup", False, kind="bool"),
    )
    codec: ClassVar[ActionCodec] = ActionCodec(Add, Close)

    def create(self, players: int, seed: int, options: dict[str, Any]) -> State:
        return CourseState(seed, bool(options["fenetre"]))

    def bots(self) -> dict[str, Any]:
        return {"random": RandomBot, "lent": SlowBot}


def install() -> None:
    """Register the game in the registry (tests undo it with monkeypatch)."""
    module = types.ModuleType("choux_webtest_course")
    module.GAME = CourseGame()  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
