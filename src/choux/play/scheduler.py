"""The scheduler: what happens at a table without anyone asking (clocks, bots, expiry).

Each version of a live table arms at most three timers: the game's deadline (a window that
closes, a pause between deals), the bots' move, and the move clock of a person who takes
too long. All three go through one helper, `_play_at`: sleep, take the claim (several
processes), compute the move, lock, check the table is still at that version, apply. If
the store could not write, the same move is tried again a little later.

Bots of tables without people think one decision at a time (`bot_only_gate`), so a crowd
of bot-only tables cannot starve the bots of tables where people wait.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from choux.engine.base import Action, Game, IllegalAction, Seat, State
from choux.engine.playout import first_mover
from choux.play.base import ServiceBase
from choux.play.errors import TableError
from choux.play.tables import LiveTable

log = logging.getLogger("choux.play")

#: claim names (several processes) of each timer, by task name
CLAIMS = {"deadline": "clock", "bots": "bots", "move": "move"}


@dataclass(frozen=True)
class Planned:
    """A move a timer is about to play: by `seat`, not before `pause` seconds after the
    timer woke (bots wait so people can follow), with a line for the log if any."""

    seat: Seat | None
    action: Action
    pause: float = 0.0
    note: str | None = None


def preferred_level(game: Game) -> str:
    """The level that stands in for a person who left: the first that is not random."""
    levels = list(game.bots())
    return next((lv for lv in levels if lv != "random"), levels[0])


def _choose_all(state: State, bots: Mapping[int, Any], seats: Sequence[int]) -> list[Any]:
    """Runs in the worker pool: every bot actor's decision on a private copy."""
    return [(seat, bots[seat].choose(state, seat)) for seat in seats]


class Scheduler(ServiceBase):
    def _after_change(self, table: LiveTable) -> None:
        """Wake subscribers, then arm the clock, the bots and the move clock of this version.
        In the same window as before (`State.window_key`), the clocks keep the time they had:
        a bet, a pass or a −10 while a window is open neither lengthens it nor gives an idle
        player a new move clock (an audit kept a 4 s race open 15 s by pressing −10)."""
        table.wake_all()
        for name in ("deadline", "bots", "move"):
            self._cancel(table, name)
        before_deadline, before_move, before_key = table.deadline_at, table.move_at, table.window
        table.deadline_at = None
        table.move_at = None
        table.window = None
        if table.status != "live" or self._closing:
            return
        version = table.version
        now = time.time()
        quiet = max(0.0, table.quiet_until - now)  # just restored: people reconnect
        key = table.state.window_key()
        same = before_key is not None and key is not None and key == before_key[0]
        table.window = (key, None) if key is not None else None
        deadline = table.state.deadline()
        if deadline is not None:
            seconds = deadline.seconds * self.settings.deadline_scale + quiet
            if same and before_deadline is not None:
                seconds = max(0.0, before_deadline - now)
            table.deadline_at = now + seconds
            self._arm(table, "deadline", version, seconds, self._deadline_move(table))
        actors = table.state.actors()
        bot_actors = [s for s in actors if table.seats[s].kind == "bot"]
        if bot_actors:
            self._arm(table, "bots", version, quiet, self._bot_move(table, bot_actors))
        humans = tuple(s for s in actors if table.seats[s].kind == "human")
        if table.row.clock and humans:
            seconds = table.row.clock + quiet
            if key is not None:
                table.window = (key, humans)
                if before_key == table.window and before_move is not None:
                    seconds = max(0.0, before_move - now)
            table.move_at = now + seconds
            self._arm(table, "move", version, seconds, self._clock_move(table))

    def _arm(
        self,
        table: LiveTable,
        name: str,
        version: int,
        delay: float,
        choose: Callable[[], Awaitable[Planned | None]],
    ) -> None:
        self._spawn(table, name, self._play_at(table, name, version, delay, choose))

    async def _play_at(
        self,
        table: LiveTable,
        name: str,
        version: int,
        delay: float,
        choose: Callable[[], Awaitable[Planned | None]],
    ) -> bool:
        """Sleep, claim, compute, lock, check the version, apply: the one path of timers.
        True if the move was written here."""
        if delay > 0:
            await asyncio.sleep(delay)
        loop = asyncio.get_running_loop()
        woke = loop.time()
        if table.version != version:
            return False
        key = await self._take_turn(table, version, CLAIMS[name])
        if key is None or table.version != version:
            return False
        try:
            planned = await choose()
        except RuntimeError:  # the pool shut down
            return False
        except Exception:
            log.exception("table %s: %s failed", table.code, name)
            return False
        if planned is None:
            return False
        wait = planned.pause - (loop.time() - woke)
        if wait > 0:
            if self.settings.redis_url and wait > self.settings.claim_seconds / 2:
                await self.pubsub.extend(key, wait + self.settings.claim_seconds)
            await asyncio.sleep(wait)
        async with table.lock:
            if table.version != version or table.status != "live":
                return False
            if planned.note:  # said before the move, as a person would see it
                table.log.append((table.version, planned.note))
            try:
                return await self._apply(table, planned.seat, planned.action, None, retry=False)
            except TableError as error:
                if error.kind == "unavailable":  # the store could not write: try again
                    retry = self.settings.store_retry_seconds
                    log.warning("table %s: %s not stored, again in %ss", table.code, name, retry)
                    self._arm(table, name, version, retry, choose)
                else:
                    log.warning("table %s: %s refused: %s", table.code, name, error)
                return False
            except IllegalAction as error:
                log.warning("table %s: %s refused: %s", table.code, name, error)
                return False
            except Exception:
                log.exception("table %s: %s failed", table.code, name)
                return False

    def _deadline_move(self, table: LiveTable) -> Callable[[], Awaitable[Planned | None]]:
        async def choose() -> Planned | None:
            deadline = table.state.deadline()
            return None if deadline is None else Planned(deadline.seat, deadline.action)

        return choose

    def _bot_move(
        self, table: LiveTable, seats: list[int]
    ) -> Callable[[], Awaitable[Planned | None]]:
        async def choose() -> Planned | None:
            state = table.state.clone()
            self.bot_decisions += 1
            loop = asyncio.get_running_loop()
            if table.bot_only:  # waits its turn behind other bot-only tables, not people
                async with self.bot_only_gate:
                    choices = await loop.run_in_executor(
                        self.pool, _choose_all, state, table.bots, seats
                    )
            else:
                choices = await loop.run_in_executor(
                    self.pool, _choose_all, state, table.bots, seats
                )
            first = first_mover(choices)
            if first is None:
                return None
            seat, move = first
            return Planned(seat, move.action, max(move.delay, self.settings.bot_pace))

        return choose

    def _clock_move(self, table: LiveTable) -> Callable[[], Awaitable[Planned | None]]:
        """A person who lets the move clock run out gets a bot's move played for them."""

        async def choose() -> Planned | None:
            version = table.version
            for seat in table.state.actors():
                if table.seats[seat].kind != "human":
                    continue
                bot = table.game.make_bot(preferred_level(table.game), random.Random(version))
                move = await asyncio.get_running_loop().run_in_executor(
                    self.pool, bot.choose, table.state.clone(), seat
                )
                if move is not None:
                    note = f"Temps écoulé pour {table.names()[seat]}."
                    return Planned(seat, move.action, note=note)
            return None

        return choose

    # ------------------------------------------------------------------ leaving memory

    def _finished(self, table: LiveTable) -> None:
        """A finished table leaves memory once nobody watches it (it reloads on demand)."""
        if "evict" not in table.tasks:
            self._spawn(table, "evict", self._evict_later(table))

    async def _evict_later(self, table: LiveTable) -> None:
        while True:
            await asyncio.sleep(self.settings.evict_seconds)
            if not table.subscribers:
                if self.tables.get(table.code) is table:
                    self.tables.pop(table.code, None)
                return

    def _arm_expiry(self, table: LiveTable) -> None:
        """An open table nobody completes closes after `open_table_seconds`."""
        limit = self.settings.open_table_seconds
        if limit <= 0 or table.status != "open" or self._closing:
            return
        created = table.row.created_at.timestamp() if table.row.created_at else time.time()
        self._spawn(table, "expire", self._expire(table, max(0.0, created + limit - time.time())))

    async def _expire(self, table: LiveTable, delay: float) -> None:
        await asyncio.sleep(delay)
        async with table.lock:
            if table.status != "open":
                return
            try:
                await self._close_waiting(table, "Table fermée : personne n'est venu la compléter.")
            except Exception as error:  # the store away: try again later
                log.warning("table %s: cannot expire: %s", table.code, error)
                self._spawn(table, "expire", self._expire(table, self.settings.store_retry_seconds))
                return
        self._publish(table.code)
        self._finished(table)

    async def _end_unrated(self, table: LiveTable, line: str) -> None:
        """Under the table's lock: a game being played ends here, without a record (not
        rated), and the journal says why (a correspondence deadline, a moderator)."""
        await self.store.set_status(table.row.id, "over")
        table.row.status = "over"
        table.move_at = None
        self._after_change(table)
        table.log.append((table.version, line))
        table.meta += 1
        table.wake_all()

    async def _close_waiting(self, table: LiveTable, why: str) -> None:
        """Under the table's lock: a table still waiting for players ends unplayed."""
        await self.store.set_status(table.row.id, "over")
        table.row.status = "over"
        table.log.append((table.version, why))
        table.meta += 1
        table.wake_all()
