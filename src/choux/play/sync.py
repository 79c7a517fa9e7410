"""Several processes serving the same tables (Redis): catch-up and claims.

A process applies the changes other processes made from their messages when it can, and
reloads from the store otherwise (a gap, a lost message); a periodic resync asks the store
which held tables it has a newer version of (the answer names only those; a table still
behind at the next resync is caught up, the others had their message on its way). Presence at
other processes is read back when they say it changed, and all of it once per presence
lifetime (what a process that died left expires). Each version's bot move and clock action
is played by one process only, the one that takes the Redis claim (`_take_turn`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from choux.play.base import ServiceBase
from choux.play.pubsub import Mark, claim_key
from choux.play.tables import LiveTable

log = logging.getLogger("choux.play")


class Sync(ServiceBase):
    async def _on_remote_change(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Another process changed table `code`: catch up if we hold it.

        A message that carries the next action (`change`: version, seat, action, client id,
        all committed) is applied from the message, without a read of the store. Anything
        else (a seat, a gap in versions, a catch-up under way) reloads from the store; the
        listener does not wait for it: one catch-up task per table, and messages arriving
        meanwhile fold into one more pass."""
        table = self.tables.get(code)
        if table is None:
            if code in self._loading:  # `get` is reading it: the read may miss this change
                self._loading[code] = True
            return
        if change is not None and code not in self._dirty and table.status == "live":
            if not table.lock.locked() and change.get("v") == table.version + 1:
                if self._absorb_now(table, change):  # nobody else is at it: no task
                    if table.status == "over" and table.record_id is None:
                        self._background(self._read_record_id(table))
                    return
            self._background(self._absorb_or_catch_up(table, change))
            return
        self._mark_dirty(table)

    async def _absorb_or_catch_up(self, table: LiveTable, change: dict[str, Any]) -> None:
        async with table.lock:  # FIFO: the messages of one table are absorbed in order
            if table.code not in self._dirty:
                if change.get("v") == table.version + 1 and await self._absorb(table, change):
                    return
                if isinstance(change.get("v"), int) and change["v"] <= table.version:
                    return  # already here (a catch-up read it first)
        self._mark_dirty(table)

    def _mark_dirty(self, table: LiveTable) -> None:
        code = table.code
        if code in self._dirty:
            self._dirty[code] = True
            return
        self._dirty[code] = True
        self._background(self._catch_up_while_dirty(table))

    async def _catch_up_while_dirty(self, table: LiveTable) -> None:
        try:
            while self._dirty.get(table.code):
                self._dirty[table.code] = False
                async with table.lock:
                    await self._catch_up(table)
        except Exception as error:
            log.warning("table %s: catch-up failed: %s", table.code, error)
        finally:
            self._dirty.pop(table.code, None)

    async def _catch_up(self, table: LiveTable) -> None:
        """Under the lock: seats, status and the actions this copy has not seen yet."""
        epoch = self.pubsub.epoch  # before the read: what is published after it is heard
        row = await self.store.load_table(table.code, since=table.version)
        if row is None:
            return
        table.synced_epoch = epoch
        before = (table.version, table.row.status)
        changed = row.actions or (row.status, row.seats) != (table.row.status, table.row.seats)
        table.row.seats = row.seats
        table.row.status = row.status
        table.row.next_code = row.next_code
        self._make_bots(table)
        for seat, data, client_id in row.actions:
            action = table.game.action_from_json(data)
            seq = table.version + 1
            table.log.extend((seq, e) for e in table.state.apply(seat, action))
            table.actions.append((seat, action.to_json()))
            table.version = seq
            if client_id:
                table.client_ids[(seat, client_id)] = seq
        if table.status == "over" and table.record_id is None:
            table.record_id = await self.store.record_id_for_table(table.row.id)
        if not changed and row.next_code == table.row.next_code:
            return
        table.meta += 1
        if (table.version, table.row.status) != before:
            self._after_change(table)  # re-arm clocks and bots for the new version
        else:
            table.wake_all()

    async def _resync_loop(self) -> None:
        """Several processes: catch up the tables whose change messages were lost (Redis
        restarted or away), and tell the others which seats have a socket open here."""
        interval = self.settings.resync_seconds
        while not self._closing:
            await asyncio.sleep(interval)
            try:
                await self.resync()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("resync failed: %s", error)

    async def resync(self) -> None:
        """Catch up the tables the store holds newer versions of; meanwhile, in a task of
        its own, say which seats have a socket open here (they expire unless said again)
        and read the others' when due (a Redis that hangs takes its timeouts there, not
        out of the catch-up)."""
        task = self._presence_sync
        if task is None or task.done():
            task = self._presence_sync = asyncio.get_running_loop().create_task(
                self._sync_presence()
            )
            self.background.add(task)
            task.add_done_callback(self.background.discard)
        held = {c: t for c, t in self.tables.items() if t.status != "over"}
        if not held:
            return
        # a table found behind is caught up only if it still is at the next resync: most
        # are behind by a message on its way (the store answers before Redis delivers it);
        # a lost one is made up one interval later
        suspects, self._behind = self._behind, {}
        for code, stored in suspects.items():
            table = held.get(code)
            if table is not None and (table.version, table.status) != stored:
                if table.version <= stored[0]:
                    async with table.lock:
                        await self._catch_up(table)
        known = {code: (t.version, t.status) for code, t in held.items()}
        self._behind = await self.store.newer(known)

    async def _sync_presence(self) -> None:
        """The resync's presence: this process's open seats told to Redis, and the others'
        read back when due."""
        present: list[Mark] = [
            (t.code, seat, True)
            for t in list(self.tables.values())
            for seat, count in t.connections.items()
            if count > 0
        ]
        await self.pubsub.mark_present(present, self.presence_ttl)
        held = [t for t in list(self.tables.values()) if t.status != "over"]
        now = time.monotonic()
        if held and (
            now - self._presence_read_at >= self.presence_ttl
            or not self.pubsub.heard_all_since(self._presence_read_epoch)
        ):  # changes are told at once: a full read only for expiries and lost messages
            self._presence_read_at, self._presence_read_epoch = now, self.pubsub.epoch
            await self._refresh_presence(held)

    async def _absorb(self, table: LiveTable, change: dict[str, Any]) -> bool:
        """Under the lock: apply the next action as another process stored it (False: the
        message is not usable, reload from the store instead)."""
        if not self._absorb_now(table, change):
            return False
        if table.status == "over" and table.record_id is None:  # not told: read it
            await self._read_record_id(table)
        return True

    async def _read_record_id(self, table: LiveTable) -> None:
        """The record of a game another process ended, when its message did not say it."""
        table.record_id = await self.store.record_id_for_table(table.row.id)
        table.meta += 1
        table.wake_all()

    def _absorb_now(self, table: LiveTable, change: dict[str, Any]) -> bool:
        """Apply the next action from its message, with no await between the check of the
        version and the swap (so without the lock when nobody holds it). The message
        carries what the store would say: the action, its seat and client id, and the
        game's record id when it ended; the record id missing is read by the caller."""
        try:
            seat, data, client_id = change["seat"], change["action"], change.get("client_id")
            action = table.game.action_from_json(data)
            new = table.state.clone()
            events = new.apply(seat, action)
        except Exception:
            return False
        seq = table.version + 1
        table.state = new
        table.version = seq
        table.actions.append((seat, data))  # as the writer stored it: `to_json` of the action
        table.log.extend((seq, e) for e in events)
        if isinstance(client_id, str):
            table.client_ids[(seat, client_id)] = seq
        if new.is_over():
            table.row.status = "over"
            record_id = change.get("record_id")
            table.record_id = record_id if isinstance(record_id, int) else None
        self._after_change(table)
        return True

    async def _on_remote_presence(self, codes: list[str]) -> None:
        """Other processes opened seats' first sockets or closed their last ones: the
        tables told of during one loop turn are read back from Redis together."""
        self._presence_due.update(c for c in codes if c in self.tables)
        if self._presence_due and (self._presence_reader is None or self._presence_reader.done()):
            self._presence_reader = asyncio.get_running_loop().create_task(self._read_presence())
            self.background.add(self._presence_reader)
            self._presence_reader.add_done_callback(self.background.discard)

    async def _read_presence(self) -> None:
        while self._presence_due:
            await asyncio.sleep(0)  # the messages already received join this read
            due, self._presence_due = self._presence_due, set()
            tables = [self.tables[c] for c in due if c in self.tables]
            await self._refresh_presence([t for t in tables if t.status != "over"])

    async def _refresh_presence(self, tables: list[LiveTable]) -> None:
        """Read which seats of `tables` have a socket open on other processes (shown as
        connected in the seat lists); Redis away: what was last known stays."""
        seen = await self.pubsub.seats_elsewhere([t.code for t in tables])
        if seen is None:
            return
        for table in tables:
            remote = seen.get(table.code, set())
            if remote != table.remote:
                gone, table.remote = table.remote - remote, remote
                for seat in gone:  # absent everywhere now: this process's pages count down too
                    if not table.connections.get(seat) and f"grace{seat}" not in table.tasks:
                        self._arm_grace(table, seat)
                table.meta += 1
                table.wake_all()

    async def _take_turn(self, table: LiveTable, version: int, what: str) -> str | None:
        """Several processes: may this one compute and play the `what` ("bots", "clock",
        "move") of `version`? Returns the claim's key if so (None: another process does it,
        or the table moved on).

        The first process to take the Redis claim does it. The others wait until the claim
        lapses (the holder's move normally arrives well before, and cancels this wait), then
        catch up from the store: if the table is still at `version` the holder died or
        stalled, and they try to take the claim in turn. Without Redis, or when Redis
        cannot answer, every process goes ahead (the first write wins, as before claims)."""
        key = claim_key(table.code, version, what)
        if not self.settings.redis_url:
            return key
        while not self._closing:
            won, left = await self.pubsub.claim(key, self.settings.claim_seconds)
            if won is not False:
                return key
            await asyncio.sleep(left + 0.05)
            try:
                async with table.lock:
                    if table.version == version and table.status == "live":
                        await self._catch_up(table)
            except Exception as error:  # the store away: ask again after the next claim
                log.warning("table %s: catch-up after a claim failed: %s", table.code, error)
            if table.version != version or table.status != "live":
                return None
        return None
