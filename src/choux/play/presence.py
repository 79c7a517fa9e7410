"""Presence: which seats have a page open, and a bot for a person gone too long.

A seat's first socket and last socket are told to the other processes (Redis), those that
come while a write is on its way together (one script call, one message); a person whose last socket closed keeps
the seat for `grace_seconds`, then a bot takes it.
"""

from __future__ import annotations

import asyncio
import logging
import time

from choux.play.base import ServiceBase
from choux.play.tables import LiveTable, Subscriber

log = logging.getLogger("choux.play")


class Presence(ServiceBase):
    def subscribe(self, table: LiveTable, seat: int | None) -> Subscriber:
        sub = Subscriber(seat)
        table.subscribers.add(sub)
        if seat is not None:
            table.connections[seat] = table.connections.get(seat, 0) + 1
            self._cancel(table, f"grace{seat}")
            if table.connections[seat] == 1:
                # the seat comes online: every page shows it. A second socket of a seat
                # already online changes nothing anyone sees (opening and dropping sockets
                # in a loop sent a state to every page at the table each time)
                self._share_presence(table, seat)
                table.meta += 1
                table.wake_all()
            self._end_quiet_if_all_back(table)
        return sub

    def _end_quiet_if_all_back(self, table: LiveTable) -> None:
        """A restored table waits for people's pages to reconnect; once every person's page
        is back, there is nothing more to wait for: clocks and bots resume at once."""
        if table.quiet_until <= 0 or table.status != "live":
            return
        people = [s.seat for s in table.seats if s.kind == "human"]
        if all(table.connections.get(seat, 0) > 0 or seat in table.remote for seat in people):
            table.quiet_until = 0.0
            self._after_change(table)

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        table.subscribers.discard(sub)
        seat = sub.seat
        if seat is not None:
            table.connections[seat] = max(0, table.connections.get(seat, 0) - 1)
            if table.connections[seat] == 0:
                self._arm_grace(table, seat)
                self._share_presence(table, seat)
                table.meta += 1
                table.wake_all()

    def _share_presence(self, table: LiveTable, seat: int) -> None:
        """Several processes: the seat's first socket opened here or its last one closed."""
        if not self.settings.redis_url or self._closing:
            return
        self._presence_marks[(table.code, seat)] = table
        if self._presence_writer is None or self._presence_writer.done():
            self._presence_writer = asyncio.get_running_loop().create_task(self._flush_presence())
            self.background.add(self._presence_writer)
            self._presence_writer.add_done_callback(self.background.discard)

    async def _flush_presence(self) -> None:
        """The one writer of this process's presence: what changed while the previous
        write was on its way (or during this loop turn) goes to Redis in one call, saying
        what is true when written, then one message tells the other processes which tables
        to read back. A lone change goes at once: the others see a seat come promptly."""
        while self._presence_marks:
            await asyncio.sleep(0)
            marks, self._presence_marks = self._presence_marks, {}
            found = [
                (code, seat, table.connections.get(seat, 0) > 0)
                for (code, seat), table in marks.items()
            ]
            await self.pubsub.mark_present(found, self.presence_ttl)
            await self.pubsub.publish_presence(*dict.fromkeys(code for code, _ in marks))

    def arm_absent_graces(self, table: LiveTable) -> None:
        """A game that starts: each person with no page open has the grace to come."""
        for seat in table.seats:
            if seat.kind == "human" and not table.connections.get(seat.seat):
                self._arm_grace(table, seat.seat)

    def _arm_grace(self, table: LiveTable, seat: int) -> None:
        if self.settings.grace_seconds <= 0 or table.status != "live" or self._closing:
            return
        self._cancel(table, f"grace{seat}")
        self._spawn(table, f"grace{seat}", self._grace(table, seat))

    async def _grace(self, table: LiveTable, seat: int) -> None:
        try:
            await self._wait_then_replace(table, seat)
        finally:  # back, replaced, or the table ended: nobody waits for a bot any more
            if table.bot_at.pop(seat, None) is not None:
                table.meta += 1
                table.wake_all()

    async def _wait_then_replace(self, table: LiveTable, seat: int) -> None:
        delay = self.settings.grace_seconds
        while True:
            table.bot_at[seat] = time.time() + delay  # the others' pages say when
            table.meta += 1
            table.wake_all()
            await asyncio.sleep(delay)
            delay = self.settings.grace_seconds
            if table.connections.get(seat, 0) > 0 or table.status != "live":
                return
            # the person may be playing through another process (None: Redis cannot say,
            # and a person is not replaced on a guess)
            if not await self._absent_everywhere(table, seat):
                continue
            try:
                await self.replace_with_bot(table, seat, "absence prolongée")
                return
            except Exception as error:  # the store could not write it: nothing changed
                retry = self.settings.store_retry_seconds
                log.warning(
                    "table %s: seat %s not replaced (%s), again in %ss",
                    table.code,
                    seat,
                    error,
                    retry,
                )
                delay = retry

    async def _absent_everywhere(self, table: LiveTable, seat: int) -> bool:
        """No socket of `seat` here nor, as Redis says twice, `presence_ttl` apart, on
        another process: a Redis just restarted (or stalled past the marks' lifetime) says
        « nobody » of everyone until each process has marked its sockets again, which it
        does within that time."""
        if await self.pubsub.present(table.code, seat) is not False:
            return False
        if not self.settings.redis_url:
            return True
        await asyncio.sleep(self.presence_ttl)
        if table.connections.get(seat, 0) > 0 or table.status != "live":
            return False
        return await self.pubsub.present(table.code, seat) is False
