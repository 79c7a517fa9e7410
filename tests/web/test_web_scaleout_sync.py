"""Several processes, kept in sync cheaply: a socket opening reads nothing from the store
while every message has been heard, presence changes go out together, the resync asks the
store only for the tables it has newer versions of, a game's end carries its record."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from scaleout_helpers import free_port, redis_on
from web_fixtures import course_fixture, sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, join, other, postgres_or_skip, wait_for

from choux.play.pubsub import presence_key

ADD = {"type": "add", "n": 1}


@contextlib.contextmanager
def listening_process(sqlite_url: str) -> Iterator[Any]:
    """One server process with its own Redis, its listener subscribed, its periodic resync
    out of the way (60 s): what a test does next is all that moves."""
    with (
        redis_on(free_port()) as redis_url,
        client(sqlite_url, redis_url=redis_url, resync_seconds=60) as c,
    ):
        wait_for(lambda: c.app.state.service.pubsub.listening)
        yield c


def two_people_table(c: Any, course: str) -> str:
    """A live table of Alice (this client) and Bob (another visitor); its code."""
    code = create_table(c, course, ["human", "human"], "Alice")
    join(other(c), code, "Bob")
    return code


def counting_reads(service: Any) -> list[str]:
    """The codes of the tables `service` reads from its store from now on."""
    reads: list[str] = []
    load = service.store.load_table

    async def counted(code: str, since: int = 0) -> Any:
        reads.append(code)
        return await load(code, since)

    service.store.load_table = counted
    return reads


def test_a_table_in_sync_is_not_read_again_when_a_socket_opens(
    sqlite_url: str, course: str
) -> None:
    """While the listener stays subscribed, the copy made here has missed nothing: `get`
    (every socket opening) does not read the store. Once the listener subscribed again
    (messages may have been lost meanwhile), the next `get` catches up."""
    with listening_process(sqlite_url) as c:
        service = c.app.state.service
        code = two_people_table(c, course)
        table = service.tables[code]
        reads = counting_reads(service)
        # "another process" stores Alice's move; its message is lost
        c.portal.call(service.store.append_action, table.row.id, 1, 0, {"type": "add", "n": 1}, "x")
        assert c.portal.call(service.get, code) is table
        assert reads == [] and table.version == 0
        service.pubsub.epoch += 1  # as when the listener subscribes again after a failure
        c.portal.call(service.get, code)
        assert reads == [code] and table.version == 1 and table.state.total == 1
        c.portal.call(service.get, code)
        assert reads == [code]  # in sync again under the new subscription


def test_a_change_heard_while_the_table_is_being_read_is_caught_up(
    sqlite_url: str, course: str
) -> None:
    """`get` reads a table this process does not hold; another process's move is stored
    and announced during that read, too late for it: the table catches up by itself."""
    with listening_process(sqlite_url) as c:
        service = c.app.state.service
        code = two_people_table(c, course)
        table_id = service.tables.pop(code).row.id  # no longer held here
        load = service.store.load_table
        change = {"v": 1, "seat": 0, "action": {"type": "add", "n": 2}, "client_id": "x"}

        first = [True]

        async def racing(code_: str, since: int = 0) -> Any:
            row = await load(code_, since)
            if first.pop() if first else False:  # the move lands and is told right after
                await service.store.append_action(table_id, 1, 0, change["action"], "x")
                await service._on_remote_change(code_, change)
            return row

        service.store.load_table = racing
        table = c.portal.call(service.get, code)
        wait_for(lambda: table.version == 1)
        assert table.state.total == 2 and table.client_ids[(0, "x")] == 1


def test_presence_changes_of_a_moment_go_to_redis_together(sqlite_url: str, course: str) -> None:
    with listening_process(sqlite_url) as c:
        service = c.app.state.service
        codes = [create_table(c, course, ["human", "human"], "Alice") for _ in range(3)]
        marks: list[list[tuple[str, int, bool]]] = []
        told: list[tuple[str, ...]] = []
        mark, publish = service.pubsub.mark_present, service.pubsub.publish_presence

        async def marking(found: list[tuple[str, int, bool]], ttl: float) -> None:
            marks.append(list(found))
            await mark(found, ttl)

        async def telling(*codes_: str) -> None:
            told.append(codes_)
            await publish(*codes_)

        service.pubsub.mark_present, service.pubsub.publish_presence = marking, telling

        async def open_sockets() -> None:  # three seats' first sockets at once
            for code in codes:
                service.subscribe(service.tables[code], 0)

        c.portal.call(open_sockets)
        wait_for(lambda: len(told) == 1)
        assert marks == [[(code, 0, True) for code in codes]]
        assert told == [tuple(codes)]
        import redis

        with redis.Redis.from_url(c.app.state.settings.redis_url) as r:
            for code in codes:
                assert r.zrange(presence_key(code), 0, -1) == [
                    f"0:{service.pubsub.origin}".encode()
                ]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_store_names_only_the_tables_it_holds_newer_versions_of(
    backend: str, sqlite_url: str, course: str
) -> None:
    chosen = postgres_or_skip() if backend == "postgresql" else contextlib.nullcontext(sqlite_url)
    with chosen as db, client(db) as c:
        service = c.app.state.service
        codes = [create_table(c, course, ["human", "human"], "Alice") for _ in range(3)]
        for code in codes:
            join(other(c), code, "Bob")
        tables = [service.tables[code] for code in codes]
        c.portal.call(service.act, tables[1], 0, {"type": "add", "n": 1}, "a1")
        known = {t.code: (t.version, t.status) for t in tables}
        assert c.portal.call(service.store.newer, known) == {}
        known[codes[1]] = (0, "live")  # a copy one move behind
        known[codes[2]] = (0, "open")  # and one that missed the start
        assert c.portal.call(service.store.newer, known) == {
            codes[1]: (1, "live"),
            codes[2]: (0, "live"),
        }
        assert c.portal.call(service.store.newer, {}) == {}


def test_the_resync_reads_a_table_still_behind_at_the_next_pass_only(
    sqlite_url: str, course: str
) -> None:
    """A table the store holds a newer version of is usually one whose message is on its
    way: the resync reads it only if it is still behind one pass later."""
    with listening_process(sqlite_url) as c:
        service = c.app.state.service
        codes = [two_people_table(c, course) for _ in range(2)]
        lost, told = (service.tables[code] for code in codes)
        for table in (lost, told):  # "another process" plays; both messages are late
            c.portal.call(service.store.append_action, table.row.id, 1, 0, ADD, "x")
        reads = counting_reads(service)
        c.portal.call(service.resync)
        assert reads == [] and lost.version == told.version == 0
        change = {"v": 1, "seat": 0, "action": ADD, "client_id": "x"}
        c.portal.call(service._on_remote_change, told.code, change)  # one arrives
        assert told.version == 1
        c.portal.call(service.resync)
        assert reads == [lost.code] and lost.version == 1  # the other was lost: read
        c.portal.call(service.resync)
        assert reads == [lost.code]


@pytest.mark.postgres
def test_the_other_process_learns_the_record_of_a_game_from_its_message(course: str) -> None:
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=60) as a,
        client(db, redis_url=redis_url, resync_seconds=60) as b,
    ):
        service_a, service_b = a.app.state.service, b.app.state.service
        wait_for(lambda: service_a.pubsub.listening and service_b.pubsub.listening)
        code = create_table(a, course, ["human", "human"], "Alice")
        assert join(b, code, "Bob").status_code == 303
        table_a, table_b = service_a.tables[code], service_b.tables[code]
        wait_for(lambda: table_a.status == "live")
        asked: list[int] = []
        record_id_for_table = service_b.store.record_id_for_table

        async def counted(table_id: int) -> int | None:
            asked.append(table_id)
            return await record_id_for_table(table_id)

        service_b.store.record_id_for_table = counted
        reads = counting_reads(service_b)
        for index, seat in enumerate((0, 1, 0)):  # 2 + 2 + 2: seat 0 reaches 6 and wins
            a.portal.call(service_a.act, table_a, seat, {"type": "add", "n": 2}, f"m{index}")
        wait_for(lambda: table_b.status == "over")
        assert table_a.record_id is not None and table_b.record_id == table_a.record_id
        assert asked == [] and reads == []
