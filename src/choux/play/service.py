"""The table service: create and join tables, apply actions, run clocks and bots, restore.

Every change to a table goes through `_apply` under the table's lock: the game validates,
the store appends the action and bumps the version in one transaction, then subscribers
are woken and the clocks and bots of the new version are scheduled. Timers and bots carry
the version they were armed for and do nothing if the table has moved on.

With several processes (Redis), each version's bot move and clock action is computed by one
process only: the first to take the Redis claim of (table, version, bots/clock/move). The
others wait for its move to arrive; if it does not come by the time the claim lapses (the
holder died), they check the store and one of them takes the claim in turn.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from choux import games
from choux.engine.base import (
    JSON,
    Action,
    BotMove,
    ChouxError,
    Game,
    IllegalAction,
    InvalidOptions,
    Seat,
    State,
)
from choux.engine.record import Record
from choux.play.names import BadName, bot_name, clean_name
from choux.play.pubsub import LocalPubSub, Mark, RedisPubSub, claim_key
from choux.play.settings import Settings
from choux.play.store import SeatRow, Store, TableRow, VersionConflict
from choux.play.tables import LiveTable, Subscriber, hash_token

log = logging.getLogger("choux.play")

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CLOCK_CHOICES = (0, 30, 60, 120, 300)


class TableError(ChouxError):
    """A request the service refuses, with a French message and an HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class SeatSpec:
    """How the creator wants a seat filled: a person ("human") or a bot of some level."""

    kind: str
    level: str | None = None


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


def preferred_level(game: Game) -> str:
    """The level that stands in for a person who left: the first that is not random."""
    levels = list(game.bots())
    return next((lv for lv in levels if lv != "random"), levels[0])


def _choose_all(state: State, bots: Mapping[int, Any], seats: Sequence[int]) -> list[Any]:
    """Runs in the worker pool: every bot actor's decision on a private copy."""
    return [(seat, bots[seat].choose(state, seat)) for seat in seats]


class TableService:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.pool = ThreadPoolExecutor(max(1, settings.bot_threads), "choux-bot")
        self._closing = False
        self.pubsub: LocalPubSub | RedisPubSub = (
            RedisPubSub(settings.redis_url) if settings.redis_url else LocalPubSub()
        )
        self.background: set[asyncio.Task[None]] = set()
        #: tables with a catch-up running; True: another change arrived meanwhile
        self._dirty: dict[str, bool] = {}
        #: bot decisions computed by this process (each runs every bot actor of a version)
        self.bot_decisions = 0
        #: presence writes of this process go to Redis one at a time, in order
        self._presence_lock = asyncio.Lock()

    @property
    def presence_ttl(self) -> float:
        """Seconds a seat stays "connected" elsewhere after its process stopped saying so."""
        resync = self.settings.resync_seconds
        return max(1.0, 3 * resync) if resync > 0 else 3600.0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Rebuild every table that is not over from its action log, then resume it."""
        await self.pubsub.start(self._on_remote_change, self._on_remote_presence)
        for row in await self.store.load_tables(("open", "live")):
            try:
                table = self._rebuild(row)
            except Exception:  # a broken or missing game must not stop the others
                log.exception("cannot restore table %s (%s)", row.code, row.game)
                continue
            self.tables[row.code] = table
            if table.status == "live":
                self._after_change(table)
                for seat in table.seats:
                    if seat.kind == "human":
                        self._arm_grace(table, seat.seat)
        if self.settings.redis_url and self.settings.resync_seconds > 0:
            self._background(self._resync_loop())

    async def stop(self) -> None:
        self._closing = True
        for task in list(self.background):
            task.cancel()
        await self.pubsub.stop()
        for table in self.tables.values():
            for task in list(table.tasks.values()):
                task.cancel()
            table.wake_all()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _rebuild(self, row: TableRow) -> LiveTable:
        game = games.get(row.game)
        state = game.new(row.players, row.seed, row.options)
        table = LiveTable(row=row, game=game, state=state)
        self._make_bots(table)
        for index, (seat, data, client_id) in enumerate(row.actions, start=1):
            action = game.action_from_json(data)
            for event in state.apply(seat, action):
                table.log.append((index, event))
            table.actions.append((seat, action.to_json()))
            if client_id:
                table.client_ids[(seat, client_id)] = index
        table.version = len(row.actions)
        if row.version != table.version:
            log.warning("table %s: version %s but %s actions", row.code, row.version, table.version)
        return table

    def _make_bots(self, table: LiveTable) -> None:
        for seat in table.seats:
            if seat.kind == "bot" and seat.seat not in table.bots:
                rng = random.Random(table.row.seed * 31 + seat.seat)
                table.bots[seat.seat] = table.game.make_bot(seat.level or "random", rng)

    # ------------------------------------------------------------------ lookups

    async def get(self, code: str) -> LiveTable:
        """A table by its invite code, finished ones loaded (and replayed) on demand."""
        if not isinstance(code, str) or len(code) > 16:
            raise TableError("Cette table n'existe pas.", 404)
        table = self.tables.get(code)
        if table is not None:
            if self.settings.redis_url and table.status != "over":
                async with table.lock:  # another process may have moved on, messages lost
                    await self._catch_up(table)
            return table
        row = await self.store.load_table(code)
        if row is None:
            raise TableError("Cette table n'existe pas.", 404)
        try:
            table = self._rebuild(row)
        except ChouxError as error:
            raise TableError(f"Cette table ne peut pas être rechargée : {error}", 410) from error
        if row.status == "over":
            table.record_id = await self.store.record_id_for_table(row.id)
        self.tables[code] = table
        if table.status == "live":  # created by another process: clocks and bots here too
            self._after_change(table)
        if self.settings.redis_url and table.status != "over":
            self._background(self._refresh_presence([table]))
        return table

    # ------------------------------------------------------------------ several processes

    async def _on_remote_change(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Another process changed table `code`: catch up if we hold it.

        A message that carries the next action (`change`: version, seat, action, client id,
        all committed) is applied from the message, without a read of the store. Anything
        else (a seat, a gap in versions, a catch-up under way) reloads from the store; the
        listener does not wait for it: one catch-up task per table, and messages arriving
        meanwhile fold into one more pass."""
        table = self.tables.get(code)
        if table is None:
            return
        if change is not None and code not in self._dirty and table.status == "live":
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
        row = await self.store.load_table(table.code, since=table.version)
        if row is None:
            return
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
        present: list[Mark] = [
            (t.code, seat, True)
            for t in list(self.tables.values())
            for seat, count in t.connections.items()
            if count > 0
        ]
        await self.pubsub.mark_present(present, self.presence_ttl)
        held = {c: t for c, t in self.tables.items() if t.status != "over"}
        if not held:
            return
        await self._refresh_presence(list(held.values()))
        stored = await self.store.versions(list(held))
        for code, (version, status) in stored.items():
            table = held[code]
            if version != table.version or status != table.status:
                async with table.lock:
                    await self._catch_up(table)

    async def _absorb(self, table: LiveTable, change: dict[str, Any]) -> bool:
        """Under the lock: apply the next action as another process stored it (False: the
        message is not usable, reload from the store instead)."""
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
        table.actions.append((seat, action.to_json()))
        table.log.extend((seq, e) for e in events)
        if isinstance(client_id, str):
            table.client_ids[(seat, client_id)] = seq
        if new.is_over():
            table.row.status = "over"
            table.record_id = await self.store.record_id_for_table(table.row.id)
        self._after_change(table)
        return True

    async def _on_remote_presence(self, code: str) -> None:
        """Another process opened a seat's first socket or closed its last one."""
        table = self.tables.get(code)
        if table is not None and table.status != "over":
            self._background(self._refresh_presence([table]))

    async def _refresh_presence(self, tables: list[LiveTable]) -> None:
        """Read which seats of `tables` have a socket open on other processes (shown as
        connected in the seat lists); Redis away: what was last known stays."""
        seen = await self.pubsub.seats_elsewhere([t.code for t in tables])
        if seen is None:
            return
        for table in tables:
            remote = seen.get(table.code, set())
            if remote != table.remote:
                table.remote = remote
                table.meta += 1
                table.wake_all()

    def listed(self) -> list[LiveTable]:
        """Tables to show in the lobby, newest first."""
        rows = [t for t in self.tables.values() if t.status in ("open", "live")]
        return sorted(rows, key=lambda t: t.row.id, reverse=True)

    # ------------------------------------------------------------------ creation & seats

    async def create(
        self,
        game_name: str,
        players: int,
        options: Mapping[str, JSON],
        seats: Sequence[SeatSpec],
        clock: int = 0,
        creator: str | None = None,
        prev_code: str | None = None,
        creator_player: str | None = None,
        seed: int | None = None,
    ) -> tuple[LiveTable, str | None]:
        """A new table; the creator takes the first human seat. Returns it and their token.
        `creator_player` is the creator's guest identity, which the rating ladder follows;
        `seed` is for prepared deals (the guided first game), else a random one."""
        if game_name not in games.names():
            raise TableError("Ce jeu n'est pas disponible.", 404)
        game = games.get(game_name)
        try:
            full = game.validate_options(players, options)
        except InvalidOptions as error:
            raise TableError(str(error)) from error
        if len(seats) != players:
            raise TableError("Chaque place doit être attribuée (personne ou robot).")
        if clock not in CLOCK_CHOICES:
            raise TableError("Pendule impossible.")
        levels = game.bots()
        rows: list[SeatRow] = []
        token: str | None = None
        for index, spec in enumerate(seats):
            if spec.kind == "bot":
                level = spec.level or preferred_level(game)
                if level not in levels:
                    raise TableError(f"Niveau de robot inconnu : {level}.")
                rows.append(SeatRow(index, "bot", bot_name(index, level), level))
            elif spec.kind == "human":
                rows.append(SeatRow(index, "open"))
            else:
                raise TableError("Une place est soit une personne, soit un robot.")
        if creator is not None:
            try:
                name = clean_name(creator)
            except BadName as error:
                raise TableError(str(error)) from error
            free = [r for r in rows if r.kind == "open"]
            if free:
                token = secrets.token_urlsafe(18)
                first = free[0]
                first.kind, first.name, first.token_hash = "human", name, hash_token(token)
                first.host = True
                first.player = creator_player
        status = "open" if any(r.kind == "open" for r in rows) else "live"
        row = TableRow(
            id=0,
            code=new_code(),
            game=game_name,
            players=players,
            seed=secrets.randbits(31) if seed is None else seed,
            options=full,
            clock=clock,
            status=status,
            version=0,
            seats=rows,
            prev_code=prev_code,
        )
        await self.store.create_table(row)
        table = LiveTable(row=row, game=game, state=game.create(players, row.seed, full))
        self._make_bots(table)
        self.tables[row.code] = table
        table.log.append((0, f"Table ouverte : {game.title}."))
        if status == "live":
            self._start(table)
        return table, token

    async def join(
        self, table: LiveTable, seat: int | None, name: object, player: str | None = None
    ) -> tuple[int, str]:
        """Take a free seat with a pseudonym (and the guest identity `player`, rated if
        given); the last free seat starts the game."""
        try:
            clean = clean_name(name)
        except BadName as error:
            raise TableError(str(error)) from error
        async with table.lock:
            free = table.open_seats()
            if not free:
                raise TableError("Cette table est complète.", 409)
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise TableError("Cette place est déjà prise.", 409)
            taken = {n.casefold() for n in table.names()}
            if clean.casefold() in taken:
                raise TableError("Ce pseudonyme est déjà pris à cette table.", 409)
            token = secrets.token_urlsafe(18)
            row = table.seats[seat]
            claimed = SeatRow(seat, "human", clean, None, hash_token(token), player=player)
            if not await self.store.claim_seat(table.row.id, claimed):
                await self._catch_up(table)
                raise TableError("Cette place vient d'être prise.", 409)
            row.kind, row.name, row.token_hash = "human", clean, claimed.token_hash
            row.player = player
            table.log.append((table.version, f"{clean} s'installe à la place {seat + 1}."))
            if not table.open_seats() and table.status == "open":
                await self.store.set_status(table.row.id, "live")
                table.row.status = "live"
                table.log.append((table.version, "Tout le monde est là : la partie commence !"))
                self._start(table)
                for other in table.seats:
                    if other.kind == "human" and not table.connections.get(other.seat):
                        self._arm_grace(table, other.seat)
            table.meta += 1
            table.wake_all()
            self._publish(table.code)
            return seat, token

    async def replace_with_bot(self, table: LiveTable, seat: int, reason: str) -> None:
        """A person's seat goes to a bot so that the others can finish (host or grace)."""
        async with table.lock:
            row = table.seats[seat]
            if row.kind != "human" or table.status == "over":
                return
            level = preferred_level(table.game)
            old = row.name or f"Place {seat + 1}"
            row.kind, row.level, row.token_hash = "bot", level, None
            row.name = f"{old} (robot)"
            await self.store.update_seat(table.row.id, row)
            self._make_bots(table)
            table.log.append((table.version, f"{old} est remplacé·e par un robot ({reason})."))
            table.meta += 1
            if table.status == "live":
                self._after_change(table)
            table.wake_all()
            self._publish(table.code)

    async def rematch(self, table: LiveTable, seat: int) -> LiveTable:
        """The same table again: same game, options and bots, same person at `seat`."""
        async with table.lock:
            if table.row.next_code:
                return await self.get(table.row.next_code)
            specs = [
                SeatSpec("bot", s.level) if s.kind == "bot" else SeatSpec("human")
                for s in table.seats
            ]
            new, _ = await self.create(
                table.row.game,
                table.row.players,
                table.row.options,
                specs,
                table.row.clock,
                prev_code=table.code,
            )
            await self.store.set_next(table.row.id, new.code)
            table.row.next_code = new.code
            table.meta += 1
            table.wake_all()
            self._publish(table.code)
            return new

    async def claim(self, table: LiveTable, seat: int, name: str, player: str | None = None) -> str:
        """Take seat `seat` with a known name (a rematch keeps everyone's place)."""
        _, token = await self.join(table, seat, name, player)
        return token

    # ------------------------------------------------------------------ actions

    async def act(
        self, table: LiveTable, seat: int, action_json: object, client_id: str | None = None
    ) -> int:
        """Apply a person's action; the same client id twice is applied once."""
        async with table.lock:
            if client_id is not None and (seat, client_id) in table.client_ids:
                return table.client_ids[(seat, client_id)]
            if table.status == "open":
                raise TableError("La partie n'a pas encore commencé : il manque des joueurs.")
            if table.status == "over":
                raise TableError("La partie est terminée.")
            action = table.game.action_from_json(action_json)
            await self._apply(table, seat, action, client_id)
            return table.version

    async def _apply(
        self,
        table: LiveTable,
        seat: Seat | None,
        action: Action,
        client_id: str | None,
        retry: bool = True,
    ) -> None:
        """Validate on a copy, persist, then swap: a failure anywhere changes nothing.

        If another process wrote first (version conflict), catch up and try once more: the
        action is validated again against the newer state. Not so for the clock's and the
        bots' moves (`retry=False`): they were chosen for the version they were armed at,
        and the other process serving the table has most likely just played that very move;
        applying it again could play a bot twice or close a window twice."""
        try:
            await self._apply_once(table, seat, action, client_id)
        except VersionConflict:
            await self._catch_up(table)
            if not retry:
                return
            if client_id is not None and (seat, client_id) in table.client_ids:
                return
            try:
                await self._apply_once(table, seat, action, client_id)
            except VersionConflict as error:
                raise TableError("La table a changé entre-temps : réessayez.", 409) from error
        _, data = table.actions[-1]  # the action just stored (an early return publishes nothing)
        change = {"v": table.version, "seat": seat, "action": data, "client_id": client_id}
        self._publish(table.code, change)

    def _publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Tell the other processes, without holding the table's lock while Redis answers."""
        if self.settings.redis_url:
            self._background(self.pubsub.publish(code, change))

    def _background(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _apply_once(
        self, table: LiveTable, seat: Seat | None, action: Action, client_id: str | None
    ) -> None:
        new = table.state.clone()
        events = new.apply(seat, action)
        seq = table.version + 1
        data = action.to_json()
        record = None
        if new.is_over():
            rec = Record(
                table.game.name,
                table.row.players,
                table.row.seed,
                dict(table.row.options),
                table.game.rules_version,
                table.names(),
                actions=[*table.actions, (seat, data)],
            )
            rec.close(new)
            record = rec.to_json()
        record_id = await self.store.append_action(table.row.id, seq, seat, data, client_id, record)
        table.state = new
        table.version = seq
        table.actions.append((seat, data))
        table.log.extend((seq, event) for event in events)
        if client_id is not None:
            table.client_ids[(seat, client_id)] = seq
        if record is not None:
            table.row.status = "over"
            table.record_id = record_id
            self._spawn(table, "evict", self._evict_later(table))
            outcome = new.outcome()
            if outcome is not None:
                table.log.append((seq, f"Partie terminée : {outcome.reason}"))
        self._after_change(table)

    # ------------------------------------------------------------------ scheduling

    def _start(self, table: LiveTable) -> None:
        self._after_change(table)

    def _after_change(self, table: LiveTable) -> None:
        """Wake subscribers, then arm the clock, the bots and the move clock of this version."""
        table.wake_all()
        for name in ("deadline", "bots", "move"):
            self._cancel(table, name)
        table.deadline_at = None
        table.move_at = None
        if table.status != "live" or self._closing:
            return
        deadline = table.state.deadline()
        if deadline is not None:
            seconds = deadline.seconds * self.settings.deadline_scale
            table.deadline_at = time.time() + seconds
            self._spawn(table, "deadline", self._fire_deadline(table, table.version, seconds))
        actors = table.state.actors()
        bot_actors = [s for s in actors if table.seats[s].kind == "bot"]
        if bot_actors:
            self._spawn(table, "bots", self._run_bots(table, table.version, bot_actors))
        if table.row.clock and any(table.seats[s].kind == "human" for s in actors):
            table.move_at = time.time() + table.row.clock
            self._spawn(table, "move", self._move_clock(table, table.version))

    def _spawn(self, table: LiveTable, name: str, coro: Any) -> None:
        table.tasks[name] = asyncio.get_running_loop().create_task(coro)

    @staticmethod
    def _cancel(table: LiveTable, name: str) -> None:
        task = table.tasks.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

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

    async def _fire_deadline(self, table: LiveTable, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if table.version != version or await self._take_turn(table, version, "clock") is None:
            return
        async with table.lock:
            if table.version != version or table.status != "live":
                return
            deadline = table.state.deadline()
            if deadline is None:
                return
            try:
                await self._apply(table, deadline.seat, deadline.action, None, retry=False)
            except (IllegalAction, TableError) as error:
                log.warning("table %s: deadline action refused: %s", table.code, error)
            except Exception:
                log.exception("table %s: deadline action failed", table.code)

    async def _run_bots(self, table: LiveTable, version: int, seats: list[int]) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        key = await self._take_turn(table, version, "bots")
        if key is None or table.version != version:
            return
        state = table.state.clone()
        self.bot_decisions += 1
        try:
            choices = await loop.run_in_executor(self.pool, _choose_all, state, table.bots, seats)
        except RuntimeError:  # pool shut down
            return
        except Exception:
            log.exception("table %s: a bot failed", table.code)
            return
        best: BotMove | None = None
        best_seat = -1
        for seat, move in choices:
            if move is not None and (best is None or move.delay < best.delay):
                best, best_seat = move, seat
        if best is None:
            return
        wait = max(best.delay, self.settings.bot_pace) - (loop.time() - started)
        if wait > 0:
            if self.settings.redis_url and wait > self.settings.claim_seconds / 2:
                await self.pubsub.extend(key, wait + self.settings.claim_seconds)
            await asyncio.sleep(wait)
        async with table.lock:
            if table.version != version or table.status != "live":
                return
            try:
                await self._apply(table, best_seat, best.action, None, retry=False)
            except (IllegalAction, TableError) as error:
                log.warning("table %s: bot action refused: %s", table.code, error)
            except Exception:
                log.exception("table %s: bot action failed", table.code)

    async def _move_clock(self, table: LiveTable, version: int) -> None:
        """A person who lets the move clock run out gets a bot's move played for them."""
        await asyncio.sleep(table.row.clock)
        if table.version != version or await self._take_turn(table, version, "move") is None:
            return
        async with table.lock:
            if table.version != version or table.status != "live":
                return
            for seat in table.state.actors():
                if table.seats[seat].kind != "human":
                    continue
                bot = table.game.make_bot(preferred_level(table.game), random.Random(version))
                move = await asyncio.get_running_loop().run_in_executor(
                    self.pool, bot.choose, table.state.clone(), seat
                )
                if move is None:
                    continue
                table.log.append((table.version, f"Temps écoulé pour {table.names()[seat]}."))
                try:
                    await self._apply(table, seat, move.action, None, retry=False)
                except (IllegalAction, TableError) as error:
                    log.warning("table %s: clock move refused: %s", table.code, error)
                return

    async def _evict_later(self, table: LiveTable) -> None:
        """A finished table leaves memory once nobody watches it (it reloads on demand)."""
        while True:
            await asyncio.sleep(self.settings.evict_seconds)
            if not table.subscribers:
                self.tables.pop(table.code, None)
                return

    # ------------------------------------------------------------------ presence

    def subscribe(self, table: LiveTable, seat: int | None) -> Subscriber:
        sub = Subscriber(seat)
        table.subscribers.add(sub)
        if seat is not None:
            table.connections[seat] = table.connections.get(seat, 0) + 1
            self._cancel(table, f"grace{seat}")
            if table.connections[seat] == 1:
                self._share_presence(table, seat)
            table.meta += 1
            table.wake_all()
        return sub

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
        if self.settings.redis_url and not self._closing:
            self._background(self._write_presence(table, seat))

    async def _write_presence(self, table: LiveTable, seat: int) -> None:
        async with self._presence_lock:  # in order, and saying what is true when written
            here = table.connections.get(seat, 0) > 0
            await self.pubsub.mark_present([(table.code, seat, here)], self.presence_ttl)
        await self.pubsub.publish_presence(table.code)

    def _arm_grace(self, table: LiveTable, seat: int) -> None:
        if self.settings.grace_seconds <= 0 or table.status != "live" or self._closing:
            return
        self._cancel(table, f"grace{seat}")
        self._spawn(table, f"grace{seat}", self._grace(table, seat))

    async def _grace(self, table: LiveTable, seat: int) -> None:
        while True:
            await asyncio.sleep(self.settings.grace_seconds)
            if table.connections.get(seat, 0) > 0 or table.status != "live":
                return
            # the person may be playing through another process (None: Redis cannot say,
            # and a person is not replaced on a guess)
            if await self.pubsub.present(table.code, seat) is False:
                break
        await self.replace_with_bot(table, seat, "absence prolongée")
