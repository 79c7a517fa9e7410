"""The workload that trains the compiled engine's profile (gcc's profile-guided build).

`make setup` compiles the engine instrumented, runs `train` once, and compiles it again
with the counts (see choux/engine/native.py): gcc then keeps the hot paths together and
moves the error handling of mypyc's code out of the way, so that the per-move code takes
fewer instruction-cache lines and mispredicts fewer branches. Code that `train` never runs
keeps the plain -O3 build (``-fprofile-partial-training``): the workload has to be typical
(random playouts, tables with events and views, the search bots and the exact solver, two
to four players, both presets), not complete. The profile changes the machine code's
layout, never what it computes. Deterministic; a few seconds.
"""

from __future__ import annotations

import random

from choux.engine.base import State
from choux.games.chouine import GAME, NATIVE, ChouineState
from choux.games.chouine.actions import NEXT_DEAL_ID
from choux.games.chouine.bots import GreedyBot
from choux.games.chouine.search import ChouineSearch


def _random_match(state: State, rng: random.Random) -> None:
    """A random match through the integer fast path (playouts, `choux simulate`)."""
    assert isinstance(state, ChouineState)
    while True:
        seat = state.turn
        ids = state.legal_action_ids(seat)
        if ids:
            state.apply_id(seat, rng.choice(ids))
        elif state.is_over():
            return
        else:
            state.apply_id(None, NEXT_DEAL_ID)


def train() -> None:
    """Run the typical work of the compiled modules once (raises if they are not compiled:
    an interpreted run would train nothing)."""
    if not NATIVE:
        raise RuntimeError("the Chouine engine is not compiled: nothing to train")
    rng = random.Random(2026)
    for seed in range(3000):
        _random_match(GAME.new(2, seed), rng)
    for players in (3, 4):
        for seed in range(300):
            _random_match(GAME.new(players, seed), rng)
    for seed in range(300):
        _random_match(GAME.new(2, seed, {"preset": "lavardin"}), rng)
    # tables: `apply` with events, views of every seat and a spectator
    for players in (2, 3, 4):
        for seed in range(20):
            state = GAME.new(players, seed)
            while not state.is_over():
                for seat in (*range(players), None):
                    state.view(seat)
                actors = state.actors()
                if actors:
                    state.apply(actors[0], rng.choice(state.legal_actions(actors[0])))
                else:
                    deadline = state.deadline()
                    assert deadline is not None
                    state.apply(None, deadline.action)
    # the bots: greedy (the exact solver once the talon is empty) and the search
    greedy, search = GreedyBot(rng), ChouineSearch(rng, simulations=60, seconds=None)
    for seed in range(6):
        state = GAME.new(2, seed)
        assert isinstance(state, ChouineState)
        while not state.is_over():
            actors = state.actors()
            if not actors:
                state.apply_id(None, NEXT_DEAL_ID)
                continue
            bot = search if actors[0] == 0 else greedy
            move = bot.choose(state, actors[0])
            assert move is not None
            state.apply(actors[0], move.action)
