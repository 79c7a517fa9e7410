"""Rule sets as data: the presets (classique, Lavardin) crossed with the player counts.

Everything a designer might tune lives here: hand sizes, combinations and their points,
the Chouine's cards, the name of the brisque combination, the trump seven's last call.
Logic asks a `Variant` instead of testing ``preset == ...``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from choux.games.chouine.cards import ACE, JACK, KING, QUEEN, TEN

CLASSIQUE = "classique"
LAVARDIN = "lavardin"
PRESETS = {CLASSIQUE: "Règles classiques", LAVARDIN: "Règles de Lavardin"}


@dataclass(frozen=True, slots=True)
class SuitCombo:
    """A combination within one suit (every one of them holds the king and the queen)."""

    kind: str
    name: str  # French, with its article: "un mariage"
    ranks: tuple[int, ...]
    points: int
    trump_points: int
    wins_partie: bool = False  # the Chouine


@dataclass(frozen=True, slots=True)
class BrisqueCombo:
    """Cinquante, Quinte or Trente: `size` brisques (aces and tens) of any suits."""

    kind: str
    name: str
    size: int
    points: int


MARIAGE = SuitCombo("mariage", "un mariage", (KING, QUEEN), 20, 40)
TIERCE = SuitCombo("tierce", "une tierce", (KING, QUEEN, JACK), 30, 60)
QUARTERON = SuitCombo("quarteron", "un quarteron", (ACE, KING, QUEEN, JACK), 40, 80)
CHOUINE_CLASSIQUE = SuitCombo("chouine", "la Chouine", (KING, QUEEN, JACK, TEN), 0, 0, True)
CHOUINE_LAVARDIN = SuitCombo("chouine", "la Chouine", (ACE, TEN, KING, QUEEN, JACK), 0, 0, True)
CHOUINE_SMALL = SuitCombo("chouine", "la Chouine", (KING, QUEEN, JACK), 0, 0, True)
CINQUANTE = BrisqueCombo("cinquante", "la Cinquante", 5, 50)
QUINTE = BrisqueCombo("quinte", "la Quinte", 5, 50)
TRENTE = BrisqueCombo("trente", "la Trente", 3, 30)

#: French names of every declaration kind, for labels
DECLARATION_NAMES = {
    c.kind: c.name
    for c in (MARIAGE, TIERCE, QUARTERON, CHOUINE_CLASSIQUE, CINQUANTE, QUINTE, TRENTE)
}


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules of one table: a preset at a number of players."""

    preset: str
    players: int
    hand_size: int
    suit_combos: tuple[SuitCombo, ...]
    brisque_combo: BrisqueCombo
    #: Lavardin: the trump seven may still be exchanged when 2 cards remain ("au sept")
    last_call: bool
    #: manches of the match when the table option says "selon les règles"
    default_manches: int
    #: the only match lengths the rules know: parties per manche, manches of the match
    #: (best of: 1 = one manche, 3 = two winning manches)
    parties_choices: tuple[int, ...] = (3, 5)
    manches_choices: tuple[int, ...] = (1,)

    @property
    def title(self) -> str:
        return PRESETS[self.preset]

    @property
    def chouine(self) -> SuitCombo:
        return next(c for c in self.suit_combos if c.wins_partie)


@functools.cache
def variant_for(preset: str, players: int) -> Variant:
    """The rule set for a preset and a number of players (2 to 4)."""
    lavardin = preset == LAVARDIN
    if players == 2:
        return Variant(
            preset,
            2,
            5,
            (
                MARIAGE,
                TIERCE,
                QUARTERON,
                CHOUINE_LAVARDIN if lavardin else CHOUINE_CLASSIQUE,
            ),
            QUINTE if lavardin else CINQUANTE,
            last_call=lavardin,
            default_manches=3 if lavardin else 1,
            # classique: manches of first to 2 parties, a match of 1 manche or best of 3;
            # Lavardin: manches of 3 or 5 parties, a match of 2 winning manches
            parties_choices=(3, 5) if lavardin else (3,),
            manches_choices=(3,) if lavardin else (1, 3),
        )
    return Variant(
        preset,
        players,
        3,
        (MARIAGE, CHOUINE_SMALL),
        TRENTE,
        last_call=lavardin,
        default_manches=1,
    )
