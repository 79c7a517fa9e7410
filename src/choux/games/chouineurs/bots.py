"""The Chouineurs bot levels: greedy (`greedy.py`) and the expert (`search.py`)."""

from __future__ import annotations

import random

from choux.engine.base import Seat, State
from choux.games.chouineurs.greedy import (
    CRY_VALUE,
    FACE_WIN,
    LOWER_SHARE,
    GreedyBot,
    expected_points,
    trick_distribution,
)
from choux.games.chouineurs.search import ChouineursSearch
from choux.games.chouineurs.state import OVER, ChouineursState

# --------------------------------------------------------------------------- expert

#: rollouts per decision of the "expert" level and its wall-clock cap (seconds): the cap
#: leaves room for the world under way when it bites, so a decision stays under 0.3 s
EXPERT_SIMULATIONS = 400
EXPERT_SECONDS = 0.25


def round_over(root: State, now: State) -> bool:
    """The search's horizon: the round being played at `root` has been scored."""
    assert isinstance(root, ChouineursState) and isinstance(now, ChouineursState)
    return now.phase == OVER or now.round != root.round


def round_value(state: State, seat: Seat) -> float:
    """Points after the round, against the others': half against their mean, half
    against the best of them (what decides the winner)."""
    assert isinstance(state, ChouineursState)
    scores = state.scores
    others = [scores[s] for s in range(state.n) if s != seat]
    mine = scores[seat]
    return mine - 0.5 * (sum(others) / len(others) + max(others))


def expert_bot(
    rng: random.Random,
    simulations: int = EXPERT_SIMULATIONS,
    seconds: float | None = EXPERT_SECONDS,
) -> ChouineursSearch:
    """The "expert" level: determinized search over the round, integer greedy rollouts,
    the last tricks of every world solved exactly (`search.py`, `endgame.py`)."""
    return ChouineursSearch(rng, simulations=simulations, seconds=seconds)


__all__ = [
    "CRY_VALUE",
    "EXPERT_SECONDS",
    "EXPERT_SIMULATIONS",
    "FACE_WIN",
    "LOWER_SHARE",
    "GreedyBot",
    "expected_points",
    "expert_bot",
    "round_over",
    "round_value",
    "trick_distribution",
]
