"""The table service: create and join tables, find them, restore them after a restart.

`TableService` is assembled from one part per seam, each in its own module:
- `writes.WritePath`: the single write path (`act`, `_apply`), acknowledged only once stored;
- `scheduler.Scheduler`: deadlines, bots and the move clock through one helper, expiry
  of open tables nobody completes and eviction of finished ones;
- `sync.Sync`: several processes (Redis): catch-up from messages or the store, claims;
- `presence.Presence`: sockets per seat, and a bot for a person gone too long.
This module keeps what ties them together: the lifecycle, lookups and seats.

Tables are loaded lazily: at start-up the open ones, and (one process) the newest public
live ones, rebuilt but left asleep, so that the lobby lists them as before the restart; any
other live table is rebuilt from its action log the first time someone asks for it. A live
table left by the previous run wakes at its first visit, and then stays quiet for
`restore_quiet_seconds` (or until every person's page is back) so that people's pages
reconnect before bots move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from choux import games
from choux.engine.base import JSON, ChouxError, Event, InvalidOptions, State
from choux.engine.fairness import new_seed
from choux.engine.record import ROBOT_SUFFIX, robot_name
from choux.play.accounts import Accounts, look_key, pseudo_key, twin_refusal
from choux.play.base import ServiceBase, cancel_running
from choux.play.chat import ChatRoom
from choux.play.correspondence import Correspondence
from choux.play.errors import TableError
from choux.play.moderation import Moderation
from choux.play.names import BadName, bot_name, clean_name
from choux.play.peers import Peers
from choux.play.presence import Presence
from choux.play.scheduler import Scheduler, preferred_level
from choux.play.seating import EVERYONE_HERE, Seating
from choux.play.settings import Settings
from choux.play.store import SeatRow, Store, TableRow
from choux.play.sync import Sync
from choux.play.tables import LiveTable, hash_token
from choux.play.writes import WritePath

__all__ = ["CLOCK_CHOICES", "SeatSpec", "TableError", "TableService", "preferred_level"]

log = logging.getLogger("choux.play")

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
#: the lobby lists at most this many tables: as many restored live ones are rebuilt at start
LOBBY_TABLES = 40
CLOCK_CHOICES = (0, 30, 60, 120, 300)
#: how long a stop waits for its cancelled tasks: longer than a SQLite write waits for a
#: lock (`sqlite_appends.PRAGMAS`' busy timeout), the longest a query there can take
STOP_SECONDS = 15.0


@dataclass(frozen=True)
class SeatSpec:
    """How the creator wants a seat filled: a person ("human") or a bot of some level."""

    kind: str
    level: str | None = None


def seated_line(name: str, seat: int) -> str:
    return f"{name} s'installe à la place {seat + 1}."


def opening_lines(row: TableRow, title: str, state: State) -> list[Event | str]:
    """The log's lines before the first move: the table opened, then who sat down after
    its host and the start, then what the game did as it was made (the site's dice rolling
    who starts) (a table read back from the store says them again, who sat in the order of
    seats)."""
    seated = [s for s in row.seats if s.kind == "human" and s.name and not s.host]
    lines: list[Event | str] = [
        f"Table ouverte : {title}.",
        *(seated_line(s.name or "", s.seat) for s in seated),
    ]
    started = row.status == "live" or bool(row.actions)  # not an open table that expired
    if not started:
        return lines
    return [*lines, *([EVERYONE_HERE] if seated else []), *state.opening_events()]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


class TableService(
    Moderation, Correspondence, Seating, Presence, Sync, Scheduler, WritePath, ServiceBase
):
    def __init__(self, settings: Settings, store: Store) -> None:
        super().__init__(settings, store)
        #: live tables left by the previous run, not rebuilt yet (rebuilt on first access)
        self.restored: set[str] = set()
        #: several processes: who else writes into the store, and on which Redis
        self.peers: Peers | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Load the open tables and (one process) the newest public live ones: the lobby
        lists them. Live ones sleep until a first visit (`get`) wakes them."""
        await self.pubsub.start(self._on_remote_change, self._on_remote_presence)
        self.restored = set(await self.store.table_codes(("live",)))
        rows = await self.store.load_tables(("open",))
        if not self.settings.redis_url:  # with several, each process holds only what it serves
            rows += await self.store.load_tables(("live",), public_newest=LOBBY_TABLES)
        await self.know_rules([row.id for row in rows])
        for row in rows:
            try:
                table = self._rebuild(row)
            except Exception:  # a broken or missing game must not stop the others
                log.exception("cannot restore table %s (%s)", row.code, row.game)
                continue
            await self.recall_rule(table)
            self.tables[row.code] = table
            if row.status != "open":
                continue  # asleep: no bot, no clock until its first visit
            self._arm_expiry(table)
            if not self.settings.redis_url:  # one process: it alone keeps quick play's timers
                self._arm_fill(table)
        if self.settings.redis_url and self.settings.resync_seconds > 0:
            self._background(self._resync_loop())
        if self.settings.redis_url:
            self.peers = Peers(self.store, self.pubsub)
            self._background(self.peers.run())
        self.start_deadlines()

    async def stop(self) -> None:
        """Cancel every task of the service and wait until they have unwound, before the
        store closes: a task cancelled inside a query still needs its connection to roll
        back, and an engine disposed under it leaves it waiting forever (the process then
        hangs at exit)."""
        self._closing = True
        if self.peers is not None:
            with contextlib.suppress(Exception):  # the store away: the row ages out
                await self.peers.leave()
        await self.stop_deadlines()
        tasks = cancel_running(self.background)
        await self.pubsub.stop()
        for table in self.tables.values():
            tasks += cancel_running(table.tasks.values())
            table.wake_all()
        self.pool.shutdown(wait=False, cancel_futures=True)
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=STOP_SECONDS)
            if pending:
                log.warning("%d tasks still running at shutdown", len(pending))

    def _rebuild(self, row: TableRow) -> LiveTable:
        game = games.get(row.game)
        state = game.new(row.players, row.seed, row.options)
        table = LiveTable(row=row, game=game, state=state)
        self._make_bots(table)
        table.log.extend((0, line) for line in opening_lines(row, game.title, state))
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

    def _resume(self, table: LiveTable) -> None:
        """A live table rebuilt here: arm its clocks and bots. Left by a previous run, it
        first stays quiet a moment (people's pages reconnect before any bot moves) and
        each person's seat gets its grace period as if they had just left."""
        if table.code in self.restored:
            self.restored.discard(table.code)
            table.quiet_until = time.time() + self.settings.restore_quiet_seconds
            for seat in table.seats:
                if seat.kind == "human":
                    self._arm_grace(table, seat.seat)
        self._after_change(table)

    # ------------------------------------------------------------------ lookups

    async def get(self, code: str) -> LiveTable:
        """A table by its invite code, loaded (and replayed) on first access."""
        if not isinstance(code, str) or not 0 < len(code) <= 16:
            raise TableError("Cette table n'existe pas.", "not_found")
        table = self.tables.get(code)
        if table is not None:
            if code in self.restored and table.status == "live":  # listed asleep since start
                self._resume(table)
            if (
                self.settings.redis_url
                and table.status != "over"
                and not self.pubsub.heard_all_since(table.synced_epoch)
            ):
                async with table.lock:  # another process may have moved on, messages lost
                    await self._catch_up(table)
            return table
        epoch = self.pubsub.epoch  # before the read: what is published after it is heard
        self._loading.setdefault(code, False)
        try:
            row = await self.store.load_table(code)
        finally:
            # a change heard during the read may be missing from it (True; also when a
            # request loading the same table at once took the flag first)
            heard = self._loading.pop(code, True)
        if row is None:
            raise TableError("Cette table n'existe pas.", "not_found")
        try:
            table = self._rebuild(row)
        except ChouxError as error:
            raise TableError(f"Cette table ne peut pas être rechargée : {error}", "gone") from error
        await self.recall_rule(table)
        other = self.tables.get(code)
        if other is not None:  # loaded meanwhile by another request
            return other
        table.synced_epoch = epoch
        self.tables[code] = table
        if row.status == "over":
            table.record_id = await self.store.record_id_for_table(row.id)
            self._finished(table)
        elif table.status == "live":  # restored, or created by another process
            self._resume(table)
        else:
            self._arm_expiry(table)
        if self.settings.redis_url and table.status != "over":
            if heard:
                self._mark_dirty(table)
            self._background(self._refresh_presence([table]))
        return table

    def listed(self) -> list[LiveTable]:
        """Public tables to show in the lobby, newest first."""
        rows = [
            t for t in self.tables.values() if t.status in ("open", "live") and not t.row.private
        ]
        return sorted(rows, key=lambda t: t.row.id, reverse=True)

    def _check_bot_tables(self, client: str | None, in_total: bool = True) -> None:
        """Bot-only tables cost CPU without anyone waiting: a few per client, some in all."""
        live = [t for t in self.tables.values() if t.bot_only and t.status == "live"]
        if in_total and len(live) >= self.settings.max_bot_tables:
            raise TableError(
                "Trop de tables de robots en cours sur ce serveur : réessayez plus tard.", "busy"
            )
        mine = [t for t in live if client is not None and t.client == client]
        if client is not None and len(mine) >= self.settings.max_bot_tables_per_client:
            raise TableError(
                "Vous avez déjà assez de tables de robots en cours : attendez qu'une se termine.",
                "busy",
            )

    def _check_open_tables(self, client: str | None) -> None:
        """A client's tables still waiting for players are capped: the lobby lists the newest
        ones only, and a stream of empty tables from one address would hide everyone else's."""
        cap = self.settings.max_open_tables_per_client
        if client is None or not cap:
            return
        waiting = sum(t.status == "open" and t.client == client for t in self.tables.values())
        if waiting >= cap:
            raise TableError(
                f"Vous avez déjà {waiting} tables qui attendent des joueurs : fermez-en une "
                "(« Fermer la table », sur sa page) avant d'en ouvrir une autre.",
                "busy",
            )

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
        client: str | None = None,
        seed: int | None = None,
        private: bool = False,
    ) -> tuple[LiveTable, str | None]:
        """A new table; the creator takes the first human seat. Returns it and their token.
        `creator_player` is the creator's guest identity, which the rating ladder follows;
        `client` who asks (an address), for the limit on bot-only tables; `seed` is for
        prepared deals (the guided first game, whose deal is public anyway), else a fresh
        secret one: a deal known in advance is never rated; a `private` table is not listed
        and its invite link carries a secret."""
        if game_name not in games.names():
            raise TableError("Ce jeu n'est pas disponible.", "not_found")
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
            await self._check_owner(name, creator_player)
            free = [r for r in rows if r.kind == "open"]
            if free:
                token = secrets.token_urlsafe(18)
                first = free[0]
                first.kind, first.name, first.token_hash = "human", name, hash_token(token)
                first.host = True
                first.player = creator_player
        status = "open" if any(r.kind == "open" for r in rows) else "live"
        if all(r.kind == "bot" for r in rows):
            self._check_bot_tables(client)
        elif sum(r.kind != "bot" for r in rows) == 1:
            # its creator and bots: abandoned, bots play it, and a client's such tables count
            # as its bot tables (a script made them by the dozen, each one played out)
            self._check_bot_tables(client, in_total=False)
        if status == "open":
            self._check_open_tables(client)
        row = TableRow(
            id=0,
            code=new_code(),
            game=game_name,
            players=players,
            seed=new_seed() if seed is None else seed,
            options=full,
            clock=clock,
            status=status,
            version=0,
            seats=rows,
            prev_code=prev_code,
            private=private,
            secret=secrets.token_urlsafe(12) if private else None,
            rated=seed is None,
        )
        epoch = self.pubsub.epoch
        await self.store.create_table(row)
        table = LiveTable(row=row, game=game, state=game.create(players, row.seed, full))
        table.synced_epoch = epoch  # nobody else knew it before: nothing to have missed
        table.client = client
        self._make_bots(table)
        self.tables[row.code] = table
        self.chat_rooms[row.code] = ChatRoom()  # a new table's chat is empty: nothing to read
        table.log.extend((0, line) for line in opening_lines(row, game.title, table.state))
        if status == "live":
            self._after_change(table)
            # its creator and bots: a creator who never opens the page is replaced in time,
            # as anyone absent (such a table held a lobby line and memory for ever)
            self.arm_absent_graces(table)
        else:
            self._arm_expiry(table)
        return table, token

    async def _check_owner(self, name: str, player: str | None) -> None:
        """An account's pseudonym is its own: nobody else sits under it (a guest named
        « Germaine » beside the account Germaine would pass for her, on the ladder too)."""
        accounts = Accounts(self.store)
        account = await accounts.by_pseudo(name)
        if account is not None and account.player != player:
            raise TableError(
                f"« {name} » est le pseudonyme d'un compte : connectez-vous pour jouer sous "
                "ce nom, ou choisissez-en un autre.",
                "conflict",
            )
        twin = await accounts.twin_of(name)  # « Сосо » in Cyrillic beside « Coco »
        if twin is not None and twin.player != player:
            raise TableError(twin_refusal(twin), "conflict")

    async def join(
        self, table: LiveTable, seat: int | None, name: object, player: str | None = None
    ) -> tuple[int, str]:
        """Take a free seat with a pseudonym (and the guest identity `player`, rated if
        given); the last free seat starts the game."""
        try:
            clean = clean_name(name)
        except BadName as error:
            raise TableError(str(error)) from error
        await self._check_owner(clean, player)
        async with table.lock:
            if table.status == "over":
                raise TableError("Cette table est fermée : créez-en une nouvelle.", "gone")
            free = table.open_seats()
            if not free:
                raise TableError("Cette table est complète.", "conflict")
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise TableError("Cette place est déjà prise.", "conflict")
            taken = {look_key(n.removesuffix(ROBOT_SUFFIX)): n for n in table.names()}
            if look_key(clean) in taken:
                if pseudo_key(clean) == pseudo_key(taken[look_key(clean)]):
                    raise TableError("Ce pseudonyme est déjà pris à cette table.", "conflict")
                raise TableError(
                    f"Ce pseudonyme se lit comme « {taken[look_key(clean)]} », déjà à cette "
                    "table : choisissez-en un autre.",
                    "conflict",
                )
            token = secrets.token_urlsafe(18)
            row = table.seats[seat]
            claimed = SeatRow(seat, "human", clean, None, hash_token(token), player=player)
            if not await self.store.claim_seat(table.row.id, claimed):
                await self._catch_up(table)
                raise TableError("Cette place vient d'être prise.", "conflict")
            row.kind, row.name, row.token_hash = "human", clean, claimed.token_hash
            row.player = player
            table.log.append((table.version, seated_line(clean, seat)))
            await self._start_if_full(table)
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
            old = row.name or f"Place {seat + 1}"
            new = replace(
                row,
                kind="bot",
                level=preferred_level(table.game),
                token_hash=None,
                name=robot_name(old),
            )
            await self.store.update_seat(table.row.id, new)  # first: a failure changes nothing
            table.keep_past_names()  # what the person did stays theirs, not « X (robot) »'s
            row.kind, row.level, row.token_hash, row.name = new.kind, new.level, None, new.name
            self._make_bots(table)
            table.log.append((table.version, f"{old} est remplacé·e par un robot ({reason})."))
            table.meta += 1
            if table.status == "live":
                self._after_change(table)
            table.wake_all()
            self._publish(table.code)

    async def rematch(self, table: LiveTable, seat: int) -> LiveTable:
        """The same table again: same game, options and bots, same person at `seat`. It is
        private whatever the first one was: each former player gets their seat back through
        the old table's « Rejouer », and the lobby must not hand a stranger a seat that
        waits for one of them."""
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
                private=True,
            )
            rule = await self.rule_for(table)
            if rule is not None:  # a game over days asks for its rematch over days too
                await self.make_correspondence(new, rule)
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
