"""The workload that trains the compiled Cul de Chouette modules' profile (gcc's
profile-guided build, see choux/games/chouine/pgo.py and choux/engine/native.py): random
games at the tables people set up (two to eight players, the options that change the turn),
with every seat's view, as the server and `choux simulate` run them. Deterministic; a few
seconds."""

from __future__ import annotations

import random

from choux.engine.base import JSON
from choux.games.cul_de_chouette import GAME, NATIVE

#: (players, options) of the tables the training plays
TABLES: tuple[tuple[int, dict[str, JSON]], ...] = (
    (4, {}),
    (2, {"bouton_bevue": False}),
    (3, {"des": "reels", "scribe": 1}),
    (4, {"banque": True, "objectif": 100}),
    (5, {"chante_sloubi": 1, "objectif": 100}),
    (8, {"doublette": True, "bouton_bevue": False, "objectif": 120}),
)


def train() -> None:
    """Random play through `apply`, the clock closing windows now and then, views included
    (raises if the modules are not compiled: an interpreted run would train nothing)."""
    if not NATIVE:
        raise RuntimeError("Cul de Chouette is not compiled: nothing to train")
    rng = random.Random(2026)
    for players, options in TABLES:
        full = GAME.validate_options(players, options)
        for seed in range(12):
            state = GAME.new(players, seed, full)
            for step in range(3000):
                if state.is_over():
                    break
                if step % 7 == 0:
                    for seat in (*range(players), None):
                        state.view(seat)
                actors, deadline = state.actors(), state.deadline()
                if actors and (deadline is None or rng.random() < 0.7):
                    seat = rng.choice(actors)
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                elif deadline is not None:
                    state.apply(deadline.seat, deadline.action)
