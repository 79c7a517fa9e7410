"""What the rule modules see of a Cul de Chouette table: the `CdcTable` protocol.

`legality`, `moves`, `turn`, `rotation`, `civet`, `sirotage`, `races`, `challenges`,
`bleu_rouge` and `view` act on the table through this protocol rather than on
`state.CulDeChouetteState` itself: the state imports them, so they must not import it back
(no import cycle, see tests/test_architecture.py). mypy checks that the state satisfies the
protocol wherever it hands itself to them.
"""

from __future__ import annotations

import random
from typing import Protocol

from choux.engine.base import JSON, Action, Deadline
from choux.games.cul_de_chouette.actions import DeclareBevue
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.substates import (
    BleuRouge,
    Challenge,
    LateCry,
    Race,
    Sirotage,
    Tiebreak,
)


class CdcTable(Protocol):
    """The table's data, and the few effects through which the rules change it."""

    # ------------------------------------------------------------------ the table's options
    n: int  # seats
    real: bool  # real dice typed in (option ``des = "reels"``), else the site's dice
    scribe: int | None  # the seat typing every real die, if any
    target: int  # the score that wins on one's own dice
    cap: int  # the score points won off one's own roll stop at
    banque: bool
    bevue_button: bool
    partner: list[int | None]  # Doublette: the team mate sharing the score
    #: per step, the action kinds worth asking about at this table (its options)
    kinds: dict[Step, tuple[type[Action], ...]]

    # ------------------------------------------------------------------ the game
    rng: random.Random  # the site's dice
    chance: list[JSON]  # every die that fell, for replays
    scores: list[int]
    bank: list[int]  # Banque: each player's balance
    bank_tier: int
    bank_moved: bool  # one deposit or withdrawal per turn
    present: list[bool]  # Chante-Sloubi: False for a seat not yet joined
    seated: tuple[int, ...]
    grelottine: list[bool]
    civet: list[bool]
    boucliette: list[bool]
    pg_used: list[bool]
    pg_earned: list[bool]
    roller: int
    turn: int
    step: Step
    windows: int
    over: bool
    winner: int | None
    last_roll: dict[str, JSON] | None
    late: LateCry | None  # the race that just ended, until the next roll's Cul

    # ------------------------------------------------------------------ this turn
    dice: list[int]
    chouettes: list[int]
    reading: tuple[str, int] | None
    civet_bet: tuple[str, int] | None
    civet_pending: tuple[str, int] | None
    bought_by: int | None
    race: Race | None
    sip: Sirotage | None
    challenge: Challenge | None
    bleu: BleuRouge | None
    tiebreak: Tiebreak | None
    passed: list[int]  # seats that said « Je passe » in the open fair window
    erred: list[int]  # shouted « Grelottine ! » without one
    shouted_out: list[bool]  # shouted out of place (a Bévue, once per turn)
    bevue_pressed: list[tuple[int, ...]]  # per seat, the seats it pressed −10 on
    bevues: list[tuple[DeclareBevue, ...]]  # per seat, the −10 buttons it may still press

    # ------------------------------------------------------------------ legality's memos
    _cache: dict[int, list[tuple[Action, ...]]]  # per seat, its menus
    _pending: tuple[int, ...] | None  # the seats pending in the fair window

    @property
    def scorer(self) -> int:
        """Who plays the roll's consequences: the roller, or the buyer of the Cul."""
        ...

    # ------------------------------------------------------------------ effects

    def deadline(self) -> Deadline | None: ...

    def reset_turn(self) -> None: ...

    def refresh_bevues(self) -> None: ...

    def enter(self, step: Step) -> None: ...

    def say(self, kind: str, text: str, seat: int | None = None, **data: JSON) -> None: ...

    def roll(self, count: int) -> list[int]: ...

    def gain(self, seat: int, points: int, own: bool, why: str) -> None: ...

    def set_score(self, seat: int, value: int) -> None: ...

    def lose(self, seat: int, points: int, why: str) -> None: ...

    def bevue(self, seat: int, why: str) -> None: ...
