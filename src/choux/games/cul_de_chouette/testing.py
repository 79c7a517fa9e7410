"""Automation for tests and tutorials: set a table precisely, then type the dice.

>>> state = table(3, scores=[10, 20, 30])
>>> _ = dice(state, 2, 2)
>>> state.step
'achat'
"""

from __future__ import annotations

from collections.abc import Sequence

from choux.engine.base import JSON, Event
from choux.games.cul_de_chouette.actions import EnterDice
from choux.games.cul_de_chouette.state import CulDeChouetteState


def table(
    players: int = 3,
    scores: Sequence[int] | None = None,
    roller: int = 0,
    options: dict[str, JSON] | None = None,
    **sheets: Sequence[bool],
) -> CulDeChouetteState:
    """A game with real dice (typed by the tests) at the start of `roller`'s turn.

    `sheets` sets per-seat flags: grelottine, civet, boucliette, pg_used, pg_earned."""
    state = CulDeChouetteState(players, 0, {"des": "reels", **(options or {})})
    state.tiebreak = None
    state.roller = roller
    state._start_turn()
    if scores is not None:
        state.scores = list(scores)
    for name, values in sheets.items():
        assert name in ("grelottine", "civet", "boucliette", "pg_used", "pg_earned"), name
        setattr(state, name, list(values))
    state._cache = {}
    state._actors = None
    return state


def dice(state: CulDeChouetteState, *values: int) -> list[Event]:
    """Type the dice the game awaits, as whoever must type them."""
    if state.tiebreak is not None:
        pending = state.tiebreak["pending"]
        seat = state.scribe if state.scribe is not None else pending[0]
        return state.apply(seat, EnterDice(tuple(values)))
    duty = state._dice_duty()
    assert duty is not None, f"no dice awaited in step {state.step}"
    return state.apply(state._typer(duty[0]), EnterDice(tuple(values)))
