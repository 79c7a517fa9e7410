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

# ------------------------------------------------------------------ integer action ids
# The fast path of the contract (`legal_action_ids` / `apply_id`): an action is also a
# small int. 0-31: play that card (see cards.py); 32 * (1 + k) + card: play it declaring
# the k-th kind of `DECLARE_KINDS`; then the seven exchange and the next deal.
DECLARE_KINDS = ("mariage", "tierce", "quarteron", "chouine", "cinquante", "quinte", "trente")
EXCHANGE_ID = 32 * (1 + len(DECLARE_KINDS))
NEXT_DEAL_ID = EXCHANGE_ID + 1
#: one shared Play per card without declaration (legal_actions allocates nothing)
PLAIN: tuple[Play, ...] = tuple(Play(code) for code in CODES)
EXCHANGE = Exchange()
NEXT_DEAL = NextDeal()
#: the action of every id, built once
ACTIONS: tuple[Action, ...] = (
    *PLAIN,
    *(Play(code, kind) for kind in DECLARE_KINDS for code in CODES),
    EXCHANGE,
    NEXT_DEAL,
)
#: the index in `DECLARE_KINDS` of each kind (its id is 32 * (1 + index) + card)
KIND_INDEX = {kind: k for k, kind in enumerate(DECLARE_KINDS)}


def action_id(action: Action) -> int:
    """The int of an action (ValueError for one that is not a Chouine action)."""
    if isinstance(action, Play) and action.card in CODE_INDEX:
        if action.declare is None:
            return CODE_INDEX[action.card]
        if action.declare in KIND_INDEX:
            return 32 * (1 + KIND_INDEX[action.declare]) + CODE_INDEX[action.card]
    elif isinstance(action, Exchange):
        return EXCHANGE_ID
    elif isinstance(action, NextDeal):
        return NEXT_DEAL_ID
    raise ValueError(f"not a Chouine action: {action!r}")
