"""`ChouineState.clone` copies every attribute by name (a compiled state has no
`__dict__`): a forgotten attribute, or a list shared with the original, is a bug."""

from __future__ import annotations

import random

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import NEXT_DEAL_ID

#: attributes a clone may share with its original: never mutated in place
SHARED = {"variant", "options", "_rng", "last_result", "final", "dealer_draw"}


def attribute_names(state: ChouineState) -> list[str]:
    compiled = getattr(type(state), "__mypyc_attrs__", None)
    names = compiled if compiled is not None else vars(state)
    return sorted(n for n in names if not n.startswith("__"))


def test_a_clone_has_every_attribute_equal_and_no_mutable_one_shared() -> None:
    rng = random.Random(5)
    for seed in range(12):
        state = GAME.new(2 + seed % 3, seed, {"preset": ("classique", "lavardin")[seed % 2]})
        assert isinstance(state, ChouineState)
        for _ in range(rng.randrange(40)):  # somewhere in the match
            if state.is_over():
                break
            ids = state.legal_action_ids(state.turn)
            if ids:
                state.apply_id(state.turn, rng.choice(ids))
            else:
                state.apply_id(None, NEXT_DEAL_ID)
        twin = state.clone()
        names = attribute_names(state)
        assert {"hands", "talon", "_mask1", "_unlikely1", "chance"} <= set(names)
        for name in names:
            mine, theirs = getattr(state, name), getattr(twin, name)
            if name not in ("_rng_shared",):
                assert mine == theirs, name
            if isinstance(mine, list) and name not in SHARED:
                assert mine is not theirs, f"{name} is shared with the clone"
        assert twin.snapshot() == state.snapshot()
        # playing on the clone leaves the original as it was
        before = state.snapshot()
        while not twin.is_over():
            ids = twin.legal_action_ids(twin.turn)
            twin.apply_id(twin.turn if ids else None, rng.choice(ids) if ids else NEXT_DEAL_ID)
        assert state.snapshot() == before
