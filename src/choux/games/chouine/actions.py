"""The moves of Chouine: play a card (maybe declaring a combination), swap the trump seven,
and the table clock's "next deal"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from choux.engine.base import Action, ActionCodec
from choux.games.chouine.cards import CODE_INDEX, CODES, NAMES
from choux.games.chouine.variants import DECLARATION_NAMES


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play `card` (a code like "AH"); `declare` names the combination announced just
    before (mariage, tierce, quarteron, chouine, cinquante, quinte, trente)."""

    kind: ClassVar[str] = "play"
    card: str
    declare: str | None = None

    def label(self) -> str:
        name = NAMES[CODE_INDEX[self.card]] if self.card in CODE_INDEX else self.card
        if self.declare is None:
            return f"Jouer {name}"
        combo = DECLARATION_NAMES.get(self.declare, self.declare)
        return f"Annoncer {combo} et jouer {name}"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Swap the seven of trumps for the turned-up card."""

    kind: ClassVar[str] = "exchange"

    def label(self) -> str:
        return "Échanger le sept d'atout contre la retourne"


@dataclass(frozen=True, slots=True)
class NextDeal(Action):
    """The table clock deals the next partie after the pause that shows the result."""

    kind: ClassVar[str] = "next"

    def label(self) -> str:
        return "Donne suivante"


CODEC = ActionCodec(Play, Exchange, NextDeal)
#: one shared Play per card without declaration (legal_actions allocates nothing)
PLAIN: tuple[Play, ...] = tuple(Play(code) for code in CODES)
EXCHANGE = Exchange()
NEXT_DEAL = NextDeal()
