"""The moves of La parlote coinchée, with their French labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from choux.engine.base import Action, ActionCodec
from choux.games.parlote import data
from choux.games.parlote.content import cards_index, content
from choux.games.parlote.rules import clean_argument


def colour_name(colour: str) -> str:
    found = content().colour_by_id.get(colour)
    return found.name if found is not None else colour


@dataclass(frozen=True, slots=True)
class ClaimLiar(Action):
    """Before the first deal: « c'est moi qui ai menti en dernier ! »"""

    kind: ClassVar[str] = "moi"

    def label(self) -> str:
        return "Moi ! C'est moi qui ai menti en dernier"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """The reader draws the top scenario of pile 0 (left) or 1 (right)."""

    kind: ClassVar[str] = "piocher"
    pile: int

    def label(self) -> str:
        side = "de gauche" if self.pile == 0 else "de droite"
        return f"Piocher un scénario dans la pioche {side}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    kind: ClassVar[str] = "passer"

    def label(self) -> str:
        return "Passer"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """An amount (80 to 150 by tens, or 250 for the capot) and two trump colours."""

    kind: ClassVar[str] = "encherir"
    amount: int
    colours: tuple[str, str]

    def label(self) -> str:
        amount = "Capot" if self.amount == data.CAPOT else str(self.amount)
        first, second = (colour_name(c) for c in self.colours)
        return f"{amount} : atouts {first} et {second}"


@dataclass(frozen=True, slots=True)
class Coinche(Action):
    kind: ClassVar[str] = "coincher"

    def label(self) -> str:
        return "Je coinche !"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """A card and the argument that illustrates it (untrusted text, may be empty)."""

    kind: ClassVar[str] = "jouer"
    card: str
    argument: str = ""

    def __post_init__(self) -> None:
        # the text as the game reads it (control and direction characters out): what is
        # stored, replayed and listed for the moderators is what the players were shown
        if isinstance(self.argument, str):
            object.__setattr__(self, "argument", clean_argument(self.argument))

    def label(self) -> str:
        card = cards_index().get(self.card)
        return f"Jouer «\u00a0{card.name if card is not None else self.card}\u00a0»"


@dataclass(frozen=True, slots=True)
class Contest(Action):
    kind: ClassVar[str] = "contester"

    def label(self) -> str:
        return "Contester cet argument"


@dataclass(frozen=True, slots=True)
class LetPass(Action):
    kind: ClassVar[str] = "laisser"

    def label(self) -> str:
        return "Laisser passer"


@dataclass(frozen=True, slots=True)
class Vote(Action):
    kind: ClassVar[str] = "voter"
    counts: bool

    def label(self) -> str:
        return "L'argument compte" if self.counts else "L'argument ne compte pas"


@dataclass(frozen=True, slots=True)
class Judge(Action):
    """The referee's decision in the Arbitre mode."""

    kind: ClassVar[str] = "arbitrer"
    counts: bool

    def label(self) -> str:
        return "Accepter l'argument" if self.counts else "Rejeter l'argument"


@dataclass(frozen=True, slots=True)
class Clock(Action):
    """The table clock closes the open window (seat None only)."""

    kind: ClassVar[str] = "horloge"

    def label(self) -> str:
        return "Fin du temps imparti"


CODEC = ActionCodec(ClaimLiar, Draw, Pass, Bid, Coinche, Play, Contest, LetPass, Vote, Judge, Clock)
