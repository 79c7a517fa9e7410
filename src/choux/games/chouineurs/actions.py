"""The three moves of Chouineurs and their French labels.

`Prepare` is the simultaneous hidden choice of a round (orientation of the whole hand and
bet card), `Play` lays a card, `Cry` is a crybaby's bonus (turn one card, or take a token).
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    end_text,
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
    """Play the card `card` (its code, "c17") with the end it shows now.

    `shows` ("12 bleu") only words the label; it is never trusted nor compared.
    """

    kind: ClassVar[str] = "play"
    card: str
    shows: str = field(default="", compare=False)

    def label(self) -> str:
        if self.shows:
            return f"Jouer {self.shows} (dos : {other_end(self.card, self.shows)})"
        return f"Jouer {card_label(self.card)}"


@dataclass(frozen=True, slots=True)
class Cry(Action):
    """A crybaby's bonus: `turn` a card of the hand (its code) or take a `token` (1 point).

    `shows` ("12 bleu") only words the label; it is never trusted nor compared.
    """

    kind: ClassVar[str] = "cry"
    turn: str | None = None
    token: bool = False
    shows: str = field(default="", compare=False)

    def label(self) -> str:
        if self.token:
            return "Pleurer pour 1 point : prendre une carte de la réserve"
        if self.shows and self.turn:
            turned = other_end(self.turn, self.shows)
            return f"Pleurer sur sa main : retourner {self.shows} (devient {turned})"
        return f"Pleurer sur sa main : retourner {card_label(self.turn or '')}"


def _ends(code: str) -> list[str]:
    index = CARD_CODES.index(code) if code in CARD_CODES else -1
    if index < 0:
        return []
    return [f"{value} {COLOUR_NAMES[colour]}" for colour, value in CARDS[index]]


def other_end(code: str, shows: str) -> str:
    """The end of card `code` that is not `shows`, in words."""
    others = [end for end in _ends(code) if end != shows]
    return others[0] if others else "?"


def card_label(code: str) -> str:
    """« la carte c17 (12 bleu ↕ 5 rouge) »: both ends, when the end in play is unknown."""
    ends = _ends(code)
    if not ends:
        return f"la carte {code}"
    return f"la carte {code} ({ends[0]} ↕ {ends[1]})"


CODEC = ActionCodec(Prepare, Play, Cry)

#: one interned action per face (card * 2 + side), so legal_actions builds no new objects
PLAY_FACE: tuple[Play, ...] = tuple(
    Play(CARD_CODES[f >> 1], end_text(f)) for f in range(2 * CARD_COUNT)
)
CRY_FACE: tuple[Cry, ...] = tuple(
    Cry(turn=CARD_CODES[f >> 1], shows=end_text(f)) for f in range(2 * CARD_COUNT)
)
CRY_TOKEN = Cry(token=True)
