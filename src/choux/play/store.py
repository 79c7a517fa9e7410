"""Persistence: tables, seats, the action log, finished game records and the rating ladder
(SQLAlchemy Core).

The action log is the source of truth. An action is appended in the same transaction that
bumps the table's version, guarded by the previous version, so two writers can never both
apply "the next action" to a table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from choux import games
from choux.engine.record import bot_seats
from choux.play.pg_appends import PgAppends, action_text
from choux.play.ratings import Standing, entrants, rate
from choux.play.sqlite_appends import PRAGMAS as SQLITE_PRAGMAS
from choux.play.sqlite_appends import SqliteAppends
from choux.play.sqlite_files import make_private

log = logging.getLogger(__name__)

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), nullable=False, unique=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),  # low 62 bits (before: the whole seed)
    Column("seed_text", String(64), nullable=True),  # the whole seed, in decimal
    Column("options", Text, nullable=False),
    Column("clock", Integer, nullable=False, default=0),
    Column("status", String(10), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("prev_code", String(16), nullable=True),
    Column("next_code", String(16), nullable=True),
    # a private table is not listed; its invite link carries `secret`
    Column("private", Boolean, nullable=False, default=False, server_default=text("false")),
    Column("secret", String(32), nullable=True),
    # a guided first game, on a deal known in advance, is not rated
    Column("rated", Boolean, nullable=False, default=True, server_default=text("true")),
    Column("fill_at", DateTime(timezone=True), nullable=True),  # quick play: bots come then
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_tables_status", "status"),
)

seats_t = Table(
    "seats",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("name", String(40), nullable=True),
    Column("level", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("host", Boolean, nullable=False, default=False),
    Column("player", String(40), nullable=True),  # the guest identity that sat here
    # the host put a bot in this person's place: they do not take it back by coming back
    Column("excluded", Boolean, nullable=False, default=False, server_default=text("false")),
    PrimaryKeyConstraint("table_id", "seat"),
    Index("ix_seats_player", "player"),  # a person's games (« Mes parties », profiles)
)

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", Text, nullable=False),
    Column("client_id", String(64), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("table_id", "seq"),
)

records_t = Table(
    "records",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(40), nullable=False),
    Column("record", Text, nullable=False),
    Column("result", Text, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Index("ix_records_table", "table_id"),
)

ratings_t = Table(
    "ratings",
    metadata,
    Column("game", String(40), nullable=False),
    Column("player", String(40), nullable=False),
    Column("name", String(40), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("game", "player"),
)

accounts_t = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pseudo", String(24), nullable=False),
    Column("pseudo_key", String(24), nullable=False, unique=True),  # casefolded
    Column("player", String(40), nullable=False, unique=True),  # the identity it owns
    Column("password_hash", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # the operator's suspension (`choux admin suspend`): no log-in, no session, off the ladder
    Column("suspended_at", DateTime(timezone=True), nullable=True),
    Column("suspended_reason", String(200), nullable=True),
    # named by the operator (`choux admin moderator`): « Modération » (/moderation)
    Column("moderator", Boolean, nullable=False, default=False, server_default=text("false")),
)

account_sessions_t = Table(
    "account_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_account_sessions_account", "account_id"),
)

follows_t = Table(
    "follows",
    metadata,
    Column("follower", String(40), nullable=False),  # identities, guests or accounts
    Column("followed", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("follower", "followed"),
)

meta_t = Table(
    "meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

# the hot path's statements, built once
_BUMP = (
    update(tables_t)
    .where(tables_t.c.id == bindparam("b_id"), tables_t.c.version == bindparam("old"))
    .values(version=bindparam("seq"), updated_at=bindparam("now"))
)
_BUMP_OVER = _BUMP.values(status="over")
_INSERT_ACTION = insert(actions_t)

#: PostgreSQL: a whole batch of plain appends in ONE statement (one round trip, whatever the
#: batch's size, committed as it runs: see `Store.open`): each table is bumped if it is still at the version before its append, and
#: the action is inserted only for the tables bumped; the ids returned are the appends stored
#: (a missing one is a version conflict). Arrays, so that the text is the same for every
#: batch and the server prepares it once.
#: PostgreSQL: the held tables whose stored version or status differs from memory's
#: (one JSON text: psycopg would adapt arrays of a thousand items one by one in Python)
_PG_NEWER = """
select t.code, t.version, t.status from tables t
join jsonb_to_recordset(%(known)s::jsonb) as h(code varchar, version integer, status varchar)
    on t.code = h.code
where t.version <> h.version or t.status <> h.status
"""

#: PostgreSQL: batches of appends committing at once, each on its own connection (with 4,
#: appends waited for a free writer up to 50 ms at p99 whenever the disk's flush was slow;
#: with 8, 13 ms: each batch is still its own committed statement; docs/perf.md)
APPEND_WRITERS = 8

#: the `seed` column keeps the low bits of seeds too large for it (the whole in seed_text)
SEED_LOW_BITS = (1 << 62) - 1


def _migrations() -> Path:
    """The Alembic scripts: the checkout's, or the copy an installed wheel carries."""
    here = Path(__file__).resolve()
    checkout = here.parents[3] / "migrations"
    return checkout if (checkout / "env.py").exists() else here.parents[1] / "migrations"


MIGRATIONS = _migrations()


def stamp_meta(key: str) -> tuple[Any, Any]:
    """The two statements that write the time now under `key` in `meta`: a real write, to
    prove that the database takes them (at start-up, and for the health check)."""
    now = datetime.now(UTC).isoformat()
    return delete(meta_t).where(meta_t.c.key == key), insert(meta_t).values(key=key, value=now)


class VersionConflict(Exception):
    """Another writer appended an action first: reload the table from the log."""


class StoreUnavailable(Exception):
    """A write did not reach the database (disk full, connection lost): nothing changed."""


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human", "bot" or "open"
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    host: bool = False
    player: str | None = None  # the guest identity of the person (ratings); None for bots
    excluded: bool = False  # replaced by the host's decision: the seat does not come back


@dataclass
class TableRow:
    id: int
    code: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    clock: int
    status: str  # "open" (waiting for people), "live", "over"
    version: int
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int | None, dict[str, Any], str | None]] = field(default_factory=list)
    prev_code: str | None = None
    next_code: str | None = None
    created_at: datetime | None = None
    private: bool = False
    secret: str | None = None
    fill_at: datetime | None = None
    rated: bool = True  # False: the ladder ignores its end (a guided first game)


def async_url(url: str) -> str:
    """The async driver for a plain URL: aiosqlite for SQLite, psycopg 3 for PostgreSQL."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


def sync_url(url: str) -> str:
    """The sync driver of the same database, for Alembic."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite").render_as_string(hide_password=False)
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


#: key of the PostgreSQL advisory lock held while a process migrates the schema
MIGRATION_LOCK = 0x43484F5558


def migrate(url: str) -> None:
    """Bring the schema to the latest Alembic revision (create_all when not in a checkout).

    On PostgreSQL, under an advisory lock: several processes started together would
    otherwise all create the tables at once, and all but one would fail to start."""
    if make_url(url).get_backend_name() != "postgresql":
        make_private(url)  # a new SQLite file: mode 600 before anything creates it
        _migrate(url)
        return
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(text("select pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                _migrate(url)
            finally:
                conn.execute(text("select pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
    finally:
        engine.dispose()


def _migrate(url: str) -> None:
    if (MIGRATIONS / "env.py").exists():
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["url"] = sync_url(url)
        if _made_without_migrations(url):
            command.stamp(config, "head")
        command.upgrade(config, "head")
        return
    from sqlalchemy import create_engine

    engine = create_engine(sync_url(url))
    metadata.create_all(engine)
    engine.dispose()


class OldSchema(Exception):
    """A database made without migrations, at a schema older than this code's."""


def _made_without_migrations(url: str) -> bool:
    """Was this database made by `create_all` (an installed server of a release that
    carried no migrations) at the current schema? Then it is stamped: upgrading it from
    revision 0001 failed on « table tables already exists ». At an older schema nobody can
    tell its revision: `OldSchema` says what is missing."""
    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        found = inspect(engine)
        names = set(found.get_table_names())
        if "alembic_version" in names or "tables" not in names:
            return False
        missing = [t.name for t in metadata.sorted_tables if t.name not in names]
        for table in metadata.sorted_tables:
            if table.name in names:
                have = {column["name"] for column in found.get_columns(table.name)}
                missing += [f"{table.name}.{c.name}" for c in table.columns if c.name not in have]
    finally:
        engine.dispose()
    if missing:
        raise OldSchema(
            "base créée sans migrations, à un schéma plus ancien (il manque "
            f"{', '.join(missing[:4])}) : marquez sa révision à la main "
            "(alembic stamp <révision>), puis relancez"
        )
    return True


def _rate_in(conn: Any, table_id: int, record: dict[str, Any], now: datetime) -> None:
    """Update the ladder for a game that just ended, in the transaction that stores its
    record: each finished game is rated exactly once, whichever process ends it."""
    result = record.get("result") or {}
    ranks = result.get("ranks")
    name = record.get("game")
    if not isinstance(ranks, list) or name not in games.names():
        return
    rated = conn.execute(select(tables_t.c.rated).where(tables_t.c.id == table_id)).scalar()
    if rated is False:
        return  # a guided first game: its deal was known in advance
    competitors = games.get(name).competitors(int(record["players"]), record.get("options") or {})
    seats = conn.execute(
        select(seats_t.c.kind, seats_t.c.name, seats_t.c.level, seats_t.c.player)
        .where(seats_t.c.table_id == table_id)
        .order_by(seats_t.c.seat)
    ).all()
    # who moved: a person's own moves carry their page's client id; the clock's moves (a
    # correspondence timeout, a move clock) and the bots' carry none
    moves = conn.execute(
        select(actions_t.c.seat, func.count(actions_t.c.client_id), func.count())
        .where(actions_t.c.table_id == table_id, actions_t.c.seat.is_not(None))
        .group_by(actions_t.c.seat)
    ).all()
    people = {i for i, s in enumerate(seats) if s.kind == "human"}
    if not any(own for seat, own, _ in moves if seat in people):
        return  # nobody played: the clock made every person's move
    clocked = {int(seat) for seat, own, total in moves if total and not own}
    found = entrants([tuple(s) for s in seats], ranks, competitors, clocked)
    if not found:
        return
    keys = [e.player for e in found]
    before = {
        r.player: Standing(r.player, r.name, r.mu, r.sigma, r.games, r.wins)
        for r in conn.execute(
            select(ratings_t).where(ratings_t.c.game == name, ratings_t.c.player.in_(keys))
        )
    }
    for standing in rate(found, before):
        values = {
            "name": standing.name[:40],
            "mu": standing.mu,
            "sigma": standing.sigma,
            "games": standing.games,
            "wins": standing.wins,
            "updated_at": now,
        }
        if standing.player in before:
            conn.execute(
                update(ratings_t)
                .where(ratings_t.c.game == name, ratings_t.c.player == standing.player)
                .values(**values)
            )
        else:
            conn.execute(insert(ratings_t).values(game=name, player=standing.player, **values))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Async access to the database; one instance per process."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine | None = None
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[int | None]]] = []
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.writer_engine: Engine | None = None
        #: PostgreSQL only: the batches of plain appends, written by psycopg on the loop
        self.appends: PgAppends | None = None
        #: SQLite only: the batches of plain appends, written by sqlite3 on the loop
        self.sqlite_appends: SqliteAppends | None = None
        self._checkpoint: asyncio.Task[None] | None = None
        #: batches committing at once (PostgreSQL: a batch's COMMIT waits for the disk, the
        #: next batch need not wait for it; SQLite has one writer)
        self._writers = asyncio.Semaphore(1)
        self._batches: set[asyncio.Task[None]] = set()
        #: monotonic time since which every append has failed (None: the last one worked)
        self.failing_since: float | None = None

    async def health(self) -> str | None:
        """None if the database answers and the last append was stored, else why not (in
        French): a health check must not send players to a process that stores nothing."""
        try:
            async with asyncio.timeout(2.0):
                async with self.db.connect() as conn:
                    await conn.execute(text("select 1"))
        except Exception as error:
            return f"la base de données ne répond pas ({type(error).__name__})"
        if self.failing_since is not None:
            # the last append failed: is writing possible again? (a balancer that took the
            # process out sends no player to try: the 503 would last until a restart)
            try:
                async with asyncio.timeout(2.0):
                    async with self.db.begin() as conn:
                        for statement in stamp_meta("health"):
                            await conn.execute(statement)
            except Exception:
                seconds = time.monotonic() - self.failing_since
                return f"les coups ne sont plus enregistrés depuis {seconds:.0f} s"
            self.failing_since = None
        return None

    async def open(self) -> None:
        warning = make_private(self.url)
        if warning:
            log.warning("%s", warning)
        await asyncio.to_thread(migrate, self.url)
        url = async_url(self.url)
        is_sqlite = make_url(url).get_backend_name() == "sqlite"
        engine = create_async_engine(url, pool_pre_ping=not is_sqlite)
        # the action log is written by one thread with a plain (sync) engine: one thread hop
        # per batch of appends instead of one per statement
        writer = create_engine(sync_url(self.url), pool_pre_ping=not is_sqlite, pool_size=1)
        if is_sqlite:
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
            event.listen(writer, "connect", _sqlite_pragmas)
            path = make_url(sync_url(self.url)).database
            if path and path != ":memory:":
                self.sqlite_appends = SqliteAppends(path)
                await asyncio.to_thread(self.sqlite_appends.open)
        else:
            # plain appends need no thread on PostgreSQL: one statement and its COMMIT are
            # awaited on the loop (a thread waits for the GIL after each round trip while
            # the loop is busy: milliseconds per statement under load). No ping: a batch
            # that fails on a dead connection is written again one append at a time.
            self.appends = PgAppends(self.url, APPEND_WRITERS)
            self._writers = asyncio.Semaphore(APPEND_WRITERS)
        self.engine = engine
        self.writer_engine = writer

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            self._writer = None
        if self._batches:  # batches committing: their callers get their outcome
            await asyncio.wait(set(self._batches), timeout=5)
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self.writer_engine is not None:
            self.writer_engine.dispose()
            self.writer_engine = None
        if self.appends is not None:
            await self.appends.close()
            self.appends = None
        if self._checkpoint is not None:
            await asyncio.wait({self._checkpoint}, timeout=5)
            self._checkpoint = None
        if self.sqlite_appends is not None:
            self.sqlite_appends.close()
            self.sqlite_appends = None

    @property
    def db(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("store not opened")
        return self.engine

    async def secret(self, key: str, make: Any) -> str:
        """A value stored once for the whole installation (the cookie signing key)."""
        async with self.db.begin() as conn:
            row = (await conn.execute(select(meta_t.c.value).where(meta_t.c.key == key))).first()
            if row is not None:
                return str(row.value)
            value = str(make())
            await conn.execute(insert(meta_t).values(key=key, value=value))
            return value

    # ------------------------------------------------------------------ tables

    async def create_table(self, row: TableRow) -> int:
        now = _now()
        async with self.db.begin() as conn:
            result = await conn.execute(
                insert(tables_t).values(
                    code=row.code,
                    game=row.game,
                    players=row.players,
                    seed=row.seed & SEED_LOW_BITS,
                    seed_text=str(row.seed),
                    options=json.dumps(row.options),
                    clock=row.clock,
                    status=row.status,
                    version=0,
                    prev_code=row.prev_code,
                    private=row.private,
                    secret=row.secret,
                    rated=row.rated,
                    created_at=now,
                    updated_at=now,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            table_id = int(key[0])
            await conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "level": s.level,
                        "token_hash": s.token_hash,
                        "host": s.host,
                        "player": s.player,
                        "excluded": s.excluded,
                    }
                    for s in row.seats
                ],
            )
        row.id = table_id
        row.created_at = now
        return table_id

    async def update_seat(self, table_id: int, seat: SeatRow) -> None:
        async with self.db.begin() as conn:
            await conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    level=seat.level,
                    token_hash=seat.token_hash,
                    host=seat.host,
                    player=seat.player,
                    excluded=seat.excluded,
                )
            )

    async def claim_seat(self, table_id: int, seat: SeatRow) -> bool:
        """Give a free seat to a person; False if another process took it first.

        The last free seat starts the game in the same transaction: a process killed
        between two commits, or two processes taking the last two seats at once, would
        otherwise leave a full table waiting for players for ever. The table's row is
        written first, so that claims of one table's seats are taken one after the other
        (each sees the seats the previous one took; on SQLite, a write first also takes
        the write lock at once, where a read first could not wait for it)."""
        async with self.db.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(updated_at=_now())
            )
            result = await conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat.seat,
                    seats_t.c.kind == "open",
                )
                .values(
                    kind=seat.kind, name=seat.name, token_hash=seat.token_hash, player=seat.player
                )
            )
            if result.rowcount != 1:
                return False
            free = await conn.execute(
                select(seats_t.c.seat).where(
                    seats_t.c.table_id == table_id, seats_t.c.kind == "open"
                )
            )
            if free.first() is None:
                await conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id == table_id, tables_t.c.status == "open")
                    .values(status="live", updated_at=_now())
                )
            return True

    async def set_status(self, table_id: int, status: str) -> None:
        async with self.db.begin() as conn:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=status, updated_at=_now())
            )

    async def set_next(self, table_id: int, next_code: str) -> None:
        async with self.db.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(next_code=next_code)
            )

    async def append_action(
        self,
        table_id: int,
        seq: int,
        seat: int | None,
        action: dict[str, Any],
        client_id: str | None,
        record: dict[str, Any] | None = None,
    ) -> int | None:
        """Append action `seq` and bump the version to it, in one transaction.

        With `record` (the game just ended), the record is stored in the same transaction
        and its id returned. Appends from many tables that arrive together are committed
        together (group commit): one commit, hence one disk flush, for the whole batch.
        """
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._pending.append(((table_id, seq, seat, action, client_id, record), future))
        self._wake.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        return await future

    async def _write_loop(self) -> None:
        """Commit the queued appends, batch after batch; it never dies on a failed write
        (each append's caller gets its own outcome, and the next batch is tried afresh).
        On PostgreSQL up to APPEND_WRITERS batches commit at once: what arrives while a
        COMMIT waits for the disk goes in the next batch at once."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self._writers.acquire()
            batch, self._pending = self._pending, []
            if not batch:
                self._writers.release()
                continue
            task = asyncio.get_running_loop().create_task(self._commit(batch))
            self._batches.add(task)
            task.add_done_callback(self._batches.discard)

    async def _commit(
        self, batch: list[tuple[tuple[Any, ...], asyncio.Future[int | None]]]
    ) -> None:
        """One batch: its outcomes are set on its callers' futures, whatever happens."""
        try:
            outcomes = await self._outcomes([args for args, _ in batch])
        except Exception as error:  # the thread could not even run: fail the whole batch
            log.warning("the writer could not run a batch: %s", error)
            outcomes = [StoreUnavailable(str(error))] * len(batch)
        finally:
            self._writers.release()
        if any(not isinstance(outcome, BaseException) for outcome in outcomes):
            self.failing_since = None
        elif any(isinstance(outcome, StoreUnavailable) for outcome in outcomes):
            self.failing_since = self.failing_since or time.monotonic()
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def _outcomes(self, batch: list[tuple[Any, ...]]) -> list[int | BaseException | None]:
        """The plain appends on the loop (PostgreSQL: one statement; SQLite: one
        transaction), then the game ends (their record and ratings) in the writer thread."""
        plain = [i for i, args in enumerate(batch) if args[5] is None]
        on_loop = self.appends is not None or self.sqlite_appends is not None
        if not on_loop or len({batch[i][0] for i in plain}) < len(plain):
            # (one table twice in a batch: only a direct caller of the store does that)
            return await asyncio.to_thread(self._write_batch, batch)
        ends = [i for i, args in enumerate(batch) if args[5] is not None]
        outcomes: list[int | BaseException | None] = [None] * len(batch)
        if plain:
            done = await self._append_plain([batch[i] for i in plain])
            for i, outcome in zip(plain, done, strict=True):
                outcomes[i] = outcome
        if ends:
            try:
                done = await asyncio.to_thread(self._write_batch, [batch[i] for i in ends])
            except Exception as error:  # the thread could not even run
                done = [StoreUnavailable(str(error))] * len(ends)
            for i, outcome in zip(ends, done, strict=True):
                outcomes[i] = outcome
        return outcomes

    async def _append_plain(self, batch: list[tuple[Any, ...]]) -> list[int | BaseException | None]:
        """Appends without a record, all committed together on the loop (PostgreSQL: one
        statement, its own transaction in autocommit; SQLite: one transaction that never
        waits for a lock or the disk, see `sqlite_appends`); the answer comes only once
        that is committed.

        A table that is no longer at the version before its append is not bumped and its
        action not inserted: that append alone is a version conflict (checked as in the
        thread: it may be this very append, stored by an attempt whose answer was lost).
        If the write fails, nothing is known: each append is written
        again on its own in the thread, where a failed one is looked for in the store."""
        try:
            if self.sqlite_appends is not None:
                flags = self.sqlite_appends.append(batch, _now())
                # on the disk before any of them is acknowledged (a power cut loses nothing)
                await asyncio.to_thread(self.sqlite_appends.sync)
                self._checkpoint_if_due(self.sqlite_appends)
            else:
                assert self.appends is not None
                stored = await self.appends.append(batch, _now())
                flags = [args[0] in stored for args in batch]
        except Exception as error:
            log.info("a batch of %s appends failed (%s): one by one", len(batch), error)
            return await asyncio.to_thread(self._write_each, batch)
        if all(flags):
            return [None] * len(batch)  # only here, after the COMMIT, are these outcomes true
        return await asyncio.to_thread(self._with_conflicts, batch, flags)

    def _checkpoint_if_due(self, appends: SqliteAppends) -> None:
        """SQLite: copy the WAL into the database in a thread now and then (the loop's
        connection never does it: it would wait for the disk)."""
        if not appends.checkpoint_due() or (
            self._checkpoint is not None and not self._checkpoint.done()
        ):
            return
        self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint(appends))

    @staticmethod
    async def _run_checkpoint(appends: SqliteAppends) -> None:
        try:
            busy, pages, copied = await asyncio.to_thread(appends.checkpoint)
            log.debug("WAL checkpoint: busy %s, %s pages, %s copied", busy, pages, copied)
        except Exception as error:  # a full disk, say: the next one will try again
            log.warning("the WAL checkpoint failed: %s", error)

    def _with_conflicts(
        self, batch: list[tuple[Any, ...]], stored: list[bool]
    ) -> list[int | BaseException | None]:
        """The outcomes of a committed batch of plain appends, `stored` saying which were
        written; each one not written is a version conflict, checked as after a failure
        (it may be this very append, stored by an attempt whose answer was lost)."""
        return [
            None
            if written
            else self._after_failure(
                args, VersionConflict(f"table {args[0]} is no longer at version {args[1] - 1}")
            )
            for args, written in zip(batch, stored, strict=True)
        ]

    def _write_batch(self, batch: list[tuple[Any, ...]]) -> list[int | BaseException | None]:
        """In the writer thread: the whole batch in one transaction; if anything fails,
        each append again in its own transaction, so one bad append sinks nothing else.

        An outcome is a success only once its COMMIT returned. When a write fails, the
        store is asked whether the append is there after all (a connection lost at COMMIT
        leaves that unknown): found, it is a success; not found, the caller gets
        `StoreUnavailable` (or `VersionConflict`) and keeps its memory as it was."""
        assert self.writer_engine is not None
        try:
            with self.writer_engine.begin() as conn:
                done: list[int | BaseException | None] = [
                    self._append_in(conn, *args) for args in batch
                ]
            return done  # only here, after the COMMIT, are these outcomes true
        except Exception as error:
            if len(batch) > 1 or not isinstance(error, VersionConflict):
                log.info("a batch of %s appends failed (%s): one by one", len(batch), error)
        return self._write_each(batch)

    def _write_each(self, batch: list[tuple[Any, ...]]) -> list[int | BaseException | None]:
        """In the writer thread: each append in its own transaction."""
        assert self.writer_engine is not None
        outcomes: list[int | BaseException | None] = []
        for args in batch:
            try:
                with self.writer_engine.begin() as conn:
                    outcome = self._append_in(conn, *args)
                outcomes.append(outcome)
            except Exception as error:
                outcomes.append(self._after_failure(args, error))
        return outcomes

    def _after_failure(self, args: tuple[Any, ...], error: Exception) -> int | BaseException | None:
        """A failed append: its outcome if the store holds it anyway, else the error."""
        table_id, seq, _seat, action, client_id, record = args
        if isinstance(error, VersionConflict) and client_id is None:
            # a bot's or a clock's move: another process may well have stored the very same
            # move; the caller catches up from the store instead of guessing it was its own
            return error
        try:
            assert self.writer_engine is not None
            with self.writer_engine.connect() as conn:
                row = conn.execute(
                    select(actions_t.c.action, actions_t.c.client_id).where(
                        actions_t.c.table_id == table_id, actions_t.c.seq == seq
                    )
                ).first()
                if row is not None and (row.client_id, json.loads(row.action)) == (
                    client_id,
                    action,
                ):
                    if record is None:
                        return None
                    found = conn.execute(
                        select(records_t.c.id).where(records_t.c.table_id == table_id)
                    ).first()
                    if found is not None:
                        return int(found.id)
        except Exception as check:
            log.warning(
                "table %s: cannot check append %s after a failure: %s", table_id, seq, check
            )
        if isinstance(error, VersionConflict):
            return error
        log.warning("table %s: append %s not stored: %s", table_id, seq, error)
        return StoreUnavailable(str(error))

    @staticmethod
    def _append_in(
        conn: Any,
        table_id: int,
        seq: int,
        seat: int | None,
        action: dict[str, Any],
        client_id: str | None,
        record: dict[str, Any] | None,
    ) -> int | None:
        now = _now()
        values: dict[str, Any] = {"b_id": table_id, "old": seq - 1, "seq": seq, "now": now}
        bumped = conn.execute(_BUMP_OVER if record is not None else _BUMP, values)
        if bumped.rowcount != 1:
            raise VersionConflict(f"table {table_id} is no longer at version {seq - 1}")
        conn.execute(
            _INSERT_ACTION,
            {
                "table_id": table_id,
                "seq": seq,
                "seat": seat,
                "action": action_text(action),
                "client_id": client_id,
                "created_at": now,
            },
        )
        if record is None:
            return None
        result = conn.execute(
            insert(records_t).values(
                table_id=table_id,
                game=record["game"],
                record=json.dumps(record, ensure_ascii=False, separators=(",", ":")),
                result=json.dumps(record.get("result"), ensure_ascii=False),
                finished_at=now,
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        try:
            with conn.begin_nested():  # a failed rating must never sink the game's last action
                _rate_in(conn, table_id, record, now)
        except Exception:
            log.exception("table %s: the ratings were not updated", table_id)
        return int(key[0])

    # ------------------------------------------------------------------ ratings

    async def ladder(self, game: str, limit: int = 100) -> list[Standing]:
        """A game's ladder, best shown rating first."""
        async with self.db.connect() as conn:
            rows = (await conn.execute(select(ratings_t).where(ratings_t.c.game == game))).all()
        ladder = [Standing(r.player, r.name, r.mu, r.sigma, r.games, r.wins) for r in rows]
        ladder.sort(key=lambda s: (-s.score, -s.games, s.name.casefold()))
        return ladder[:limit]

    # ------------------------------------------------------------------ loading

    async def load_tables(
        self, statuses: tuple[str, ...], *, public_newest: int | None = None
    ) -> list[TableRow]:
        """Tables with one of `statuses`, with their seats and action logs; with
        `public_newest`, only that many public ones, the newest."""
        query = select(tables_t).where(tables_t.c.status.in_(statuses))
        if public_newest is not None:
            query = (
                query.where(tables_t.c.private.is_(False))
                .order_by(tables_t.c.id.desc())
                .limit(public_newest)
            )
        async with self.db.connect() as conn:
            rows = (await conn.execute(query)).all()
            return [await self._complete(conn, r) for r in rows]

    async def table_codes(self, statuses: tuple[str, ...]) -> list[str]:
        """The codes of the tables with one of `statuses` (no seats, no actions)."""
        async with self.db.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.code).where(tables_t.c.status.in_(statuses))
            )
            return [str(r.code) for r in rows]

    async def versions(self, codes: list[str]) -> dict[str, tuple[int, str]]:
        """The stored version and status of each table of `codes` (resync of held tables)."""
        result: dict[str, tuple[int, str]] = {}
        async with self.db.connect() as conn:
            for start in range(0, len(codes), 500):
                rows = await conn.execute(
                    select(tables_t.c.code, tables_t.c.version, tables_t.c.status).where(
                        tables_t.c.code.in_(codes[start : start + 500])
                    )
                )
                result.update((r.code, (int(r.version), str(r.status))) for r in rows)
        return result

    async def newer(self, known: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
        """The stored (version, status) of the tables of `known` (code: version, status held
        in memory) where they differ: on PostgreSQL the database compares, and only those
        come back."""
        if not known or self.appends is None:
            stored = await self.versions(list(known))
            return {c: stored[c] for c, held in known.items() if stored.get(c, held) != held}
        held = [{"code": c, "version": v, "status": s} for c, (v, s) in known.items()]
        async with self.db.connect() as conn:
            rows = await conn.exec_driver_sql(_PG_NEWER, {"known": orjson.dumps(held).decode()})
            found = [tuple(row) for row in rows]
            return {str(r[0]): (int(r[1]), str(r[2])) for r in found}

    async def load_table(self, code: str, since: int = 0) -> TableRow | None:
        """A table with its seats and its actions after `since` (all of them by default)."""
        async with self.db.connect() as conn:
            row = (await conn.execute(select(tables_t).where(tables_t.c.code == code))).first()
            if row is None:
                return None
            return await self._complete(conn, row, since)

    async def _complete(self, conn: Any, r: Any, since: int = 0) -> TableRow:
        table = TableRow(
            id=r.id,
            code=r.code,
            game=r.game,
            players=r.players,
            seed=int(r.seed_text) if r.seed_text else r.seed,
            options=json.loads(r.options),
            clock=r.clock,
            status=r.status,
            version=r.version,
            prev_code=r.prev_code,
            next_code=r.next_code,
            created_at=r.created_at,
            private=bool(r.private),
            secret=r.secret,
            fill_at=r.fill_at,
            rated=bool(r.rated),
        )
        seats = await conn.execute(
            select(seats_t).where(seats_t.c.table_id == r.id).order_by(seats_t.c.seat)
        )
        table.seats = [
            SeatRow(
                s.seat,
                s.kind,
                s.name,
                s.level,
                s.token_hash,
                bool(s.host),
                s.player,
                bool(s.excluded),
            )
            for s in seats
        ]
        actions = await conn.execute(
            select(actions_t)
            .where(actions_t.c.table_id == r.id, actions_t.c.seq > since)
            .order_by(actions_t.c.seq)
        )
        table.actions = [(a.seat, json.loads(a.action), a.client_id) for a in actions]
        return table

    async def record(self, record_id: int) -> dict[str, Any] | None:
        if not 0 < record_id < 2**31:  # beyond any id (and beyond what SQLite can bind)
            return None
        async with self.db.connect() as conn:
            row = (await conn.execute(select(records_t).where(records_t.c.id == record_id))).first()
        return None if row is None else dict(json.loads(row.record))

    async def record_id_for_table(self, table_id: int) -> int | None:
        async with self.db.connect() as conn:
            row = (
                await conn.execute(select(records_t.c.id).where(records_t.c.table_id == table_id))
            ).first()
        return None if row is None else int(row.id)

    async def recent_records(self, limit: int = 10) -> list[dict[str, Any]]:
        """The last games finished at public tables (the lobby shows them to everyone)."""
        async with self.db.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        records_t.c.id,
                        records_t.c.game,
                        records_t.c.record,
                        records_t.c.finished_at,
                    )
                    .join(tables_t, tables_t.c.id == records_t.c.table_id)
                    .where(tables_t.c.private.is_(False))
                    .order_by(records_t.c.id.desc())
                    .limit(limit)
                )
            ).all()
        result = []
        for row in rows:
            data = json.loads(row.record)
            result.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "names": data.get("names", []),
                    "bots": bot_seats(data.get("bots"), len(data.get("names", []))),
                    "result": data.get("result"),
                    "finished_at": row.finished_at,
                }
            )
        return result
