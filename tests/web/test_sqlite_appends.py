"""SQLite's plain appends through sqlite3 directly (`choux.play.sqlite_appends`): rows that
read back like SQLAlchemy's, one transaction a batch, a failed batch that stores nothing
and leaves the next one working, hostile action text stored exactly."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import event
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401
from webhelpers import settings

from choux.play import sqlite_appends
from choux.play.service import SeatSpec, TableService
from choux.play.sqlite_appends import SqliteAppends, sqlite_time
from choux.play.store import Store, StoreUnavailable, VersionConflict


async def open_tables(
    url: str, course: str, count: int
) -> tuple[Store, TableService, list[int], list[str]]:
    """A store, its service and `count` new tables (their ids and codes)."""
    store = Store(url)
    await store.open()
    service = TableService(settings(url), store)
    specs = [SeatSpec("human"), SeatSpec("human")]
    tables = [(await service.create(course, 2, {}, specs, creator="A"))[0] for _ in range(count)]
    return store, service, [t.row.id for t in tables], [t.code for t in tables]


def rows(path: str, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


def test_a_moment_is_stored_as_sqlalchemy_stores_it() -> None:
    moment = datetime(2026, 12, 2, 6, 5, 4, 0, tzinfo=UTC)
    assert sqlite_time(moment) == "2026-12-02 06:05:04.000000"


async def test_the_store_writes_plain_appends_through_sqlite3(
    sqlite_url: str, course: str, tmp_path: Path
) -> None:
    store, service, ids, codes = await open_tables(sqlite_url, course, 3)
    try:
        assert store.sqlite_appends is not None and store.writer_engine is not None
        commits: list[object] = []  # SQLAlchemy's writer must not be the one writing
        event.listen(store.writer_engine, "commit", commits.append)
        hostile = {"type": "add", "n": 1, "note": "« é »\u0000'; DROP TABLE actions; --\U0001f600"}
        before = datetime.now(UTC)
        results = await asyncio.gather(
            store.append_action(ids[0], 1, 0, hostile, "c0"),
            store.append_action(ids[1], 1, 1, {"type": "add", "n": 2}, None),
            store.append_action(ids[2], 7, 0, {"type": "add", "n": 3}, "c2"),  # not at 6
            return_exceptions=True,
        )
        assert results[0] is None and results[1] is None
        assert isinstance(results[2], VersionConflict)
        assert commits == []
        first = await store.load_table(codes[0])
        assert first is not None and first.version == 1
        assert first.actions == [(0, hostile, "c0")]  # the exact text, read back as sent
        third = await store.load_table(codes[2])
        assert third is not None and third.version == 0 and third.actions == []
        path = str(tmp_path / "choux.sqlite3")
        stamp = rows(path, f"select created_at from actions where table_id = {ids[1]}")[0][0]
        assert isinstance(stamp, str)
        stored = datetime.fromisoformat(stamp).replace(tzinfo=UTC)
        assert before <= stored <= datetime.now(UTC)
        await service.stop()
    finally:
        await store.close()


async def test_a_failed_batch_stores_nothing_and_the_next_one_works(
    sqlite_url: str, course: str, tmp_path: Path
) -> None:
    store, service, ids, _ = await open_tables(sqlite_url, course, 2)
    path = str(tmp_path / "choux.sqlite3")
    appends = SqliteAppends(path)
    try:
        # an action row at seq 1 behind the store's back: the second insert must fail
        with sqlite3.connect(path) as connection:
            connection.execute(
                "insert into actions (table_id, seq, seat, action, client_id, created_at) "
                "values (?, 1, 0, '{}', null, '2026-01-01 00:00:00.000000')",
                (ids[1],),
            )
        now = datetime.now(UTC)
        batch = [(ids[0], 1, 0, {"n": 1}, None), (ids[1], 1, 0, {"n": 1}, None)]
        with pytest.raises(sqlite3.IntegrityError):
            appends.append(batch, now)
        assert rows(path, f"select version from tables where id = {ids[0]}") == [(0,)]
        assert rows(path, f"select count(*) from actions where table_id = {ids[0]}") == [(0,)]
        assert appends.append(batch[:1], now) == [True]  # a fresh connection, a clean state
        assert appends.append(batch[:1], now) == [False]  # the same version again: refused
        assert rows(path, f"select version from tables where id = {ids[0]}") == [(1,)]
        # through the store: the batch fails, each append is tried on its own
        outcomes = await store._append_plain(
            [(ids[0], 2, 1, {"n": 2}, "x", None), (ids[1], 1, 0, {"n": 1}, "y", None)]
        )
        assert outcomes[0] is None and isinstance(outcomes[1], StoreUnavailable)
        assert rows(path, f"select version from tables where id = {ids[0]}") == [(2,)]
        assert rows(path, f"select version from tables where id = {ids[1]}") == [(0,)]
        await service.stop()
    finally:
        appends.close()
        await store.close()


async def test_the_loop_never_waits_for_a_lock_another_connection_holds(
    sqlite_url: str, course: str, tmp_path: Path
) -> None:
    """While another connection holds the write lock, the loop's write fails at once and
    the append is written in the thread once the lock is free; the loop runs meanwhile."""
    store, service, ids, _ = await open_tables(sqlite_url, course, 1)
    path = str(tmp_path / "choux.sqlite3")
    try:
        appends = store.sqlite_appends
        assert appends is not None
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            appends.append([(ids[0], 1, 0, {"n": 1}, None)], datetime.now(UTC))
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        async def release() -> None:
            await asyncio.sleep(0.3)
            holder.execute("COMMIT")

        ticker = asyncio.create_task(tick())
        releaser = asyncio.create_task(release())
        assert await store.append_action(ids[0], 1, 0, {"n": 1}, "c") is None
        await releaser
        ticker.cancel()
        assert ticks >= 10  # the loop was free while the thread waited for the lock
        assert rows(path, f"select version from tables where id = {ids[0]}") == [(1,)]
        holder.close()
        await service.stop()
    finally:
        await store.close()


async def test_the_wal_is_checkpointed_in_a_thread(
    sqlite_url: str, course: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_appends, "CHECKPOINT_EVERY", 3)
    store, service, ids, _ = await open_tables(sqlite_url, course, 1)
    try:
        appends = store.sqlite_appends
        assert appends is not None and appends._connection is not None
        assert appends._connection.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        assert appends._connection.execute("PRAGMA busy_timeout").fetchone() == (0,)
        for seq in range(1, 4):
            await store.append_action(ids[0], seq, 0, {"n": seq}, None)
        assert store._checkpoint is not None  # the third commit asked for one
        await store._checkpoint
        busy, pages, copied = appends.checkpoint()
        assert busy == 0 and copied == pages  # nothing was left to copy but what is new
        await store.append_action(ids[0], 4, 0, {"n": 4}, None)
        row = await store.load_table((await store.table_codes(("live", "open")))[0])
        assert row is not None and row.version == 4 and len(row.actions) == 4
        await service.stop()
    finally:
        await store.close()
