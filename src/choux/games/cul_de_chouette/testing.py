"""Automation for tests and tutorials: set a table precisely, then type the dice.

>>> state = arrange(3, scores=[10, 20, 30])
>>> _ = dice(state, 2, 2)
>>> state.step
<Step.ACHAT: 'achat'>
>>> others_pass(state)
>>> state.step
<Step.CUL: 'cul'>
"""

from __future__ import annotations

from collections.abc import Sequence

from choux.engine.base import JSON, Event
from choux.games.cul_de_chouette import rotation
from choux.games.cul_de_chouette.actions import EnterDice, Pass
from choux.games.cul_de_chouette.legality import dice_duty, pending, typer
from choux.games.cul_de_chouette.state import CulDeChouetteState

#: per-seat flags `arrange` may set
SHEET_FLAGS = ("grelottine", "civet", "boucliette", "pg_used", "pg_earned")


def arrange(
    players: int,
    *,
    seed: int = 0,
    options: dict[str, JSON] | None = None,
    scores: Sequence[int] | None = None,
    roller: int = 0,
    **sheets: Sequence[bool],
) -> CulDeChouetteState:
    """A game with real dice (typed by the tests) at the start of `roller`'s turn, with these
    `scores` and per-seat flags (`sheets`: grelottine, civet, boucliette, pg_used, pg_earned).
    Options default to real dice; any option given is added."""
    state = CulDeChouetteState(players, seed, {"des": "reels", **(options or {})})
    state.tiebreak = None
    state.roller = roller
    rotation.start_turn(state)
    if scores is not None:
        assert len(scores) == players, "one score per seat"
        state.scores = list(scores)
    for name, values in sheets.items():
        assert name in SHEET_FLAGS, f"unknown position field: {name}"
        assert len(values) == players, f"one {name} flag per seat"
        setattr(state, name, list(values))
    state._fresh()
    return state


def dice(state: CulDeChouetteState, *values: int) -> list[Event]:
    """Type the dice the game awaits, as whoever must type them."""
    if state.tiebreak is not None:
        waiting = state.tiebreak.pending
        seat = state.scribe if state.scribe is not None else waiting[0]
        return state.apply(seat, EnterDice(tuple(values)))
    duty = dice_duty(state)
    assert duty is not None, f"no dice awaited in step {state.step}"
    return state.apply(typer(state, duty[0]), EnterDice(tuple(values)))


def others_pass(state: CulDeChouetteState) -> None:
    """Everyone who may still act in the open fair window says « Je passe », except the
    owner of the awaited dice (who rolls instead)."""
    duty = dice_duty(state)
    owner = duty[0] if duty is not None else None
    while waiting := [s for s in pending(state) if s != owner]:
        state.apply(waiting[0], Pass())
