"""The server's collector: survivors frozen out of the young generation, cycles still
collected by the periodic full collection."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref
from collections.abc import Iterator

import pytest

from choux.web.gc_tuning import full_collection, keep_live_set_frozen


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture
def collector_restored() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.collect()


def cycle() -> weakref.ref[Node]:
    """A reference cycle nobody holds: only a collection frees it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def test_survivors_are_frozen_and_cycles_freed_by_the_full_collection(
    collector_restored: None,
) -> None:
    gc.disable()  # no automatic pass: only the keeper collects here
    try:
        before = gc.get_freeze_count()
        kept = [[i] for i in range(1000)]  # live: frozen, never freed
        garbage = cycle()
        keeper = asyncio.create_task(keep_live_set_frozen(every=0.01, full_every=3600))
        await asyncio.sleep(0.05)
        assert gc.get_freeze_count() >= before + len(kept)
        assert garbage() is not None  # frozen with the rest: it waits for a full collection
        keeper.cancel()
        keeper = asyncio.create_task(keep_live_set_frozen(every=0.01, full_every=0.02))
        await asyncio.sleep(0.1)
        keeper.cancel()
        assert garbage() is None
        assert all(len(item) == 1 for item in kept)
    finally:
        gc.enable()


def test_a_full_collection_finds_frozen_cycles_and_freezes_again(
    collector_restored: None,
) -> None:
    garbage = cycle()
    gc.freeze()
    assert garbage() is not None
    found, pause, cpu = full_collection()
    assert garbage() is None and found >= 2 and pause >= 0 and 0 <= cpu <= pause + 0.01
    assert gc.get_count()[0] < 100  # what survived is frozen again


async def test_growth_triggers_a_full_collection_only_when_large_and_with_garbage(
    monkeypatch: pytest.MonkeyPatch, collector_restored: None
) -> None:
    """Half as much memory again is not enough if it is a few megabytes (tables and
    sockets opening): the pause would buy nothing; 128 MiB more is, once cycles were
    probably frozen meanwhile."""
    from choux.web import gc_tuning

    mib = 2**20
    memory = [100 * mib]
    passes: list[float] = []
    monkeypatch.setattr(gc_tuning, "resident_bytes", lambda: memory[0])
    monkeypatch.setattr(gc_tuning, "full_collection", lambda: passes.append(1.0) or (0, 0.0, 0.0))
    garbage = gc_tuning.FrozenGarbage()
    keeper = asyncio.create_task(
        gc_tuning.keep_live_set_frozen(every=0.01, full_every=3600, garbage=garbage)
    )
    await asyncio.sleep(0.03)
    memory[0] = 220 * mib  # 2.2 times, but 120 MiB more
    await asyncio.sleep(0.05)
    assert passes == []
    memory[0] = 240 * mib  # 140 MiB more, but no sign of frozen cycles: live data
    await asyncio.sleep(0.05)
    assert passes == []
    garbage.frozen = gc_tuning.FULL_FOUND_ENOUGH  # cycles were probably frozen
    await asyncio.sleep(0.05)
    keeper.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await keeper
    assert len(passes) == 1  # and the baseline moved to 240 MiB: no second pass
    assert garbage.frozen == 0.0
    assert garbage.on_gc not in gc.callbacks


def test_the_estimate_learns_from_young_passes(collector_restored: None) -> None:
    """Young passes that find cycles raise the share; the objects then frozen without a
    look count as probable garbage in that share; live objects alone keep it near 0."""
    from choux.web.gc_tuning import FrozenGarbage

    garbage = FrozenGarbage()
    gc.callbacks.append(garbage.on_gc)
    gc.disable()  # only the passes below: the youngest generation fills as it would
    try:
        gc.collect()
        kept = [[i] for i in range(5000)]  # live, no cycle
        gc.collect(0)
        assert garbage.share < 0.05
        for _ in range(10):
            for _ in range(3000):
                cycle()
            gc.collect(0)
        assert garbage.share > 0.3
        for _ in range(2000):
            cycle()
        garbage.before_freeze()
        assert garbage.frozen > 0.3 * 4000  # two objects a cycle
    finally:
        gc.enable()
        gc.callbacks.remove(garbage.on_gc)
    assert len(kept) == 5000
