"""What every part of the table service shares: settings, store, the tables in memory,
and small helpers to run tasks and to tell other processes about a change.

`TableService` is assembled from one part per seam (writes, scheduler, sync, presence);
each part inherits this base, and the methods one part calls on another are declared here.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from choux.engine.base import Action, Seat
from choux.play.pubsub import PubSub, make_pubsub
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import LiveTable

log = logging.getLogger("choux.play")


def cancel_running(tasks: Iterable[asyncio.Task[Any]]) -> list[asyncio.Task[Any]]:
    """Cancel the tasks still running; returns them, for the caller to wait until they have
    unwound (before the store closes: one may be in the middle of a query)."""
    running = [task for task in tasks if not task.done()]
    for task in running:
        task.cancel()
    return running


class ServiceBase:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.pool = ThreadPoolExecutor(max(1, settings.bot_threads), "choux-bot")
        self._closing = False
        self.pubsub: PubSub = make_pubsub(settings.redis_url)
        self.background: set[asyncio.Task[None]] = set()
        #: tables with a catch-up running; True: another change arrived meanwhile
        self._dirty: dict[str, bool] = {}
        #: seats whose first socket opened or last one closed here, not yet told to Redis
        #: (one writer sends them together, in order: `Presence._flush_presence`)
        self._presence_marks: dict[tuple[str, int], LiveTable] = {}
        self._presence_writer: asyncio.Task[None] | None = None
        #: tables whose presence another process changed, to read back together
        self._presence_due: set[str] = set()
        self._presence_reader: asyncio.Task[None] | None = None
        #: tables being read from the store by `get`, and whether a change was heard meanwhile
        self._loading: dict[str, bool] = {}
        #: tables the last resync found behind the store, with the stored (version, status)
        self._behind: dict[str, tuple[int, str]] = {}
        #: the resync's last full read of presence elsewhere: when, under which subscription
        self._presence_read_at = float("-inf")
        self._presence_read_epoch = -1
        #: the resync's presence work (Redis), apart: a Redis that hangs must not hold back
        #: the catch-up from the store for its timeouts
        self._presence_sync: asyncio.Task[None] | None = None
        #: bot decisions computed by this process (each runs every bot actor of a version)
        self.bot_decisions = 0
        #: bot-only tables think one decision at a time (the scheduler's budget), so that
        #: a crowd of them cannot starve the bots of tables where people wait
        self.bot_only_gate = asyncio.Semaphore(1)

    @property
    def presence_ttl(self) -> float:
        """Seconds a seat stays "connected" elsewhere after its process stopped saying so."""
        resync = self.settings.resync_seconds
        return max(1.0, 3 * resync) if resync > 0 else 3600.0

    def _make_bots(self, table: LiveTable) -> None:
        """A bot for every bot seat that has none yet, seeded from the table's seed."""
        for seat in table.seats:
            if seat.kind == "bot" and seat.seat not in table.bots:
                rng = random.Random(table.row.seed * 31 + seat.seat)
                table.bots[seat.seat] = table.game.make_bot(seat.level or "random", rng)

    # ------------------------------------------------------------------ tasks

    def _background(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    @staticmethod
    def _spawn(table: LiveTable, name: str, coro: Any) -> None:
        table.tasks[name] = asyncio.get_running_loop().create_task(coro)

    @staticmethod
    def _cancel(table: LiveTable, name: str) -> None:
        task = table.tasks.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Tell the other processes, without holding the table's lock while Redis answers."""
        if self.settings.redis_url:
            self.pubsub.post(code, change)

    # ------------------------------------------------------------------ across the parts

    async def _catch_up(self, table: LiveTable) -> None:  # sync.Sync
        raise NotImplementedError

    def _mark_dirty(self, table: LiveTable) -> None:  # sync.Sync
        raise NotImplementedError

    async def _take_turn(self, table: LiveTable, version: int, what: str) -> str | None:
        raise NotImplementedError  # sync.Sync

    def _after_change(self, table: LiveTable) -> None:  # scheduler.Scheduler
        raise NotImplementedError

    def _finished(self, table: LiveTable) -> None:  # scheduler.Scheduler
        raise NotImplementedError

    async def _close_waiting(self, table: LiveTable, why: str) -> None:  # scheduler.Scheduler
        raise NotImplementedError

    async def rekey_seat_lines(self, table: LiveTable, seat: int, player: str) -> None:
        raise NotImplementedError  # chat.Chat

    async def _apply(
        self,
        table: LiveTable,
        seat: Seat | None,
        action: Action,
        client_id: str | None,
        retry: bool = True,
    ) -> bool:
        raise NotImplementedError  # writes.WritePath

    def _arm_grace(self, table: LiveTable, seat: int) -> None:  # presence.Presence
        raise NotImplementedError

    def arm_absent_graces(self, table: LiveTable) -> None:  # presence.Presence
        raise NotImplementedError

    async def replace_with_bot(self, table: LiveTable, seat: int, reason: str) -> None:
        raise NotImplementedError  # service.TableService
