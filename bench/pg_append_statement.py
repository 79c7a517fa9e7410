"""CPU of one batch of plain appends on PostgreSQL, the store's way against the former one.

The former way (kept here only to compare): SQLAlchemy's async engine and five arrays that
psycopg adapts item by item. The store's way (`choux.play.pg_appends.PgAppends`): psycopg's
own connection and the batch as one JSON text. Each statement appends one action to one of
100 tables, in autocommit (it commits as it runs), on a scratch schema dropped afterwards.
Prints the CPU time of this process per statement (what the server pays) and the wall time.

    .venv/bin/python bench/pg_append_statement.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from datetime import UTC, datetime

import psycopg
from sqlalchemy.ext.asyncio import create_async_engine

from choux.play.pg_appends import PgAppends, libpq_url

FORMER = """
with v as (
    select * from unnest(
        %(ids)s::integer[], %(seqs)s::integer[], %(seats)s::integer[],
        %(actions)s::text[], %(clients)s::varchar[]
    ) as v(table_id, seq, seat, action, client_id)
), bumped as (
    update tables set version = v.seq, updated_at = %(now)s
    from v where tables.id = v.table_id and tables.version = v.seq - 1
    returning tables.id
)
insert into actions (table_id, seq, seat, action, client_id, created_at)
select v.table_id, v.seq, v.seat, v.action, v.client_id, %(now)s
from v join bumped on bumped.id = v.table_id
returning table_id
"""

SCHEMA = """
create table tables (id serial primary key, version integer, updated_at timestamptz);
create table actions (
    id bigserial primary key, table_id integer, seq integer, seat integer, action text,
    client_id varchar(64), created_at timestamptz
);
insert into tables (version) select 0 from generate_series(1, 100);
"""

ACTION = {"type": "play", "card": "as-pique"}


async def former(url: str, count: int, versions: list[int]) -> tuple[float, float]:
    engine = create_async_engine(
        url.replace("postgresql://", "postgresql+psycopg://", 1),
        pool_size=1,
        isolation_level="AUTOCOMMIT",
    )
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(count):
        table = i % 100 + 1
        versions[table] += 1
        params = {
            "ids": [table],
            "seqs": [versions[table]],
            "seats": [0],
            "actions": [json.dumps(ACTION, separators=(",", ":"))],
            "clients": [uuid.uuid4().hex],
            "now": datetime.now(UTC),
        }
        async with engine.connect() as conn:
            stored = {int(row[0]) for row in await conn.exec_driver_sql(FORMER, params)}
        assert stored == {table}
    result = time.process_time() - cpu, time.perf_counter() - wall
    await engine.dispose()
    return result


async def current(url: str, count: int, versions: list[int]) -> tuple[float, float]:
    appends = PgAppends(url, 1)
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(count):
        table = i % 100 + 1
        versions[table] += 1
        batch = [(table, versions[table], 0, ACTION, uuid.uuid4().hex)]
        assert await appends.append(batch, datetime.now(UTC)) == {table}
    result = time.process_time() - cpu, time.perf_counter() - wall
    await appends.close()
    return result


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--statements", type=int, default=2000)
    args = parser.parse_args()
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    base = libpq_url(args.db)
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"create schema {schema}")
        admin.execute(f"set search_path = {schema}")
        admin.execute(SCHEMA)
    url = f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}"
    try:
        versions = [0] * 101
        for name, run in (
            ("former (SQLAlchemy, arrays)", former),
            ("store (psycopg, JSON)", current),
        ):
            await run(url, 100, versions)  # warm up: connections, prepared statements
            cpu, wall = await run(url, args.statements, versions)
            print(
                f"{name}: {cpu * 1e6 / args.statements:.0f} µs of CPU a statement, "
                f"{wall * 1e6 / args.statements:.0f} µs wall"
            )
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"drop schema {schema} cascade")


if __name__ == "__main__":
    asyncio.run(main())
