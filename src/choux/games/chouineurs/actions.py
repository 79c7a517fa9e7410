"""The three moves of Chouineurs and their French labels.

`Prepare` is the simultaneous hidden choice of a round (orientation of the whole hand and
bet card), `Play` lays a card, `Cry` is a crybaby's bonus (turn one card, or take a token).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from choux.engine.base import Action, ActionCodec
from choux.games.chouineurs.deck import (
    BET_INDEX,
    BET_TITLES,
    CARD_CODES,
    CARD_COUNT,
    CARDS,
    COLOUR_NAMES,
    bet_description,
)

AS_DEALT = "endroit"
TURNED = "envers"
ORIENTATIONS = (AS_DEALT, TURNED)


@dataclass(frozen=True, slots=True)
class Prepare(Action):
    """Orientation of the hand ("endroit": as dealt, "envers": every card turned) and the
    bet card (None only for a player who has none left)."""

    kind: ClassVar[str] = "prepare"
    orientation: str
    bet: str | None

    def label(self) -> str:
        hand = "Main à l'endroit" if self.orientation == AS_DEALT else "Main retournée"
        if self.bet is None or self.bet not in BET_INDEX:
            return f"{hand}, sans pari"
        index = BET_INDEX[self.bet]
        return f"{hand}, pari {BET_TITLES[index]} ({bet_description(index)})"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the card `card` (its code, "c17") with the end it shows now."""

    kind: ClassVar[str] = "play"
    card: str

    def label(self) -> str:
        return f"Jouer {card_label(self.card)}"


@dataclass(frozen=True, slots=True)
class Cry(Action):
    """A crybaby's bonus: `turn` a card of the hand (its code) or take a `token` (1 point)."""

    kind: ClassVar[str] = "cry"
    turn: str | None = None
    token: bool = False

    def label(self) -> str:
        if self.token:
            return "Pleurer pour 1 point (prendre un jeton)"
        return f"Pleurer sur sa main : retourner {card_label(self.turn or '')}"


def card_label(code: str) -> str:
    """« la carte c17 (12 bleu ↕ 5 rouge) »: both ends, for labels (the view says which
    end shows)."""
    index = CARD_CODES.index(code) if code in CARD_CODES else -1
    if index < 0:
        return f"la carte {code}"
    (c1, v1), (c2, v2) = CARDS[index]
    return f"la carte {code} ({v1} {COLOUR_NAMES[c1]} ↕ {v2} {COLOUR_NAMES[c2]})"


CODEC = ActionCodec(Prepare, Play, Cry)

#: one interned action per card, so legal_actions builds no new objects
PLAY: tuple[Play, ...] = tuple(Play(code) for code in CARD_CODES)
CRY_TURN: tuple[Cry, ...] = tuple(Cry(turn=code) for code in CARD_CODES)
CRY_TOKEN = Cry(token=True)
assert len(PLAY) == CARD_COUNT
