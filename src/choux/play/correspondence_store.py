"""Where correspondence tables keep their rule and their pending deadline (migration
0006). The deadline lives in the store, not in a process: it survives
restarts, and any process can find the deadlines that are due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)

from choux.play.store import Store, metadata, tables_t

correspondence_t = Table(
    "correspondence",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("move_seconds", Integer, nullable=False),
    Column("on_timeout", String(10), nullable=False),  # "bot" or "abandon"
    Column("due_version", Integer, nullable=False),  # the version the deadline belongs to
    Column("due_at", DateTime(timezone=True), nullable=True),  # None: nobody is waited for
    Index("ix_correspondence_due", "due_at"),
)


@dataclass(frozen=True)
class Rule:
    """A correspondence table's pace: seconds per move, and what a timeout does."""

    move_seconds: int
    on_timeout: str


@dataclass(frozen=True)
class Due:
    code: str
    table_id: int
    version: int
    due_at: datetime
    rule: Rule


async def create(store: Store, table_id: int, rule: Rule) -> None:
    async with store.db.begin() as conn:
        await conn.execute(
            insert(correspondence_t).values(
                table_id=table_id,
                move_seconds=rule.move_seconds,
                on_timeout=rule.on_timeout,
                due_version=-1,
                due_at=None,
            )
        )


async def rule_of(store: Store, table_id: int) -> Rule | None:
    return (await rules_of(store, [table_id]))[table_id]


async def rules_of(store: Store, table_ids: list[int]) -> dict[int, Rule | None]:
    """The rule of each of `table_ids` (None: not a correspondence table), in one query."""
    found: dict[int, Rule | None] = dict.fromkeys(table_ids)
    if not table_ids:
        return found
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(
                correspondence_t.c.table_id,
                correspondence_t.c.move_seconds,
                correspondence_t.c.on_timeout,
            ).where(correspondence_t.c.table_id.in_(table_ids))
        )
        for row in rows:
            found[int(row.table_id)] = Rule(int(row.move_seconds), str(row.on_timeout))
    return found


async def set_due(
    store: Store, table_id: int, version: int, due_at: datetime | None
) -> datetime | bool | None:
    """The deadline of `version`. The first writer of a version sets it and gets True; a
    later one (another process, a restart) leaves it and gets the stored deadline back."""
    async with store.db.begin() as conn:
        result = await conn.execute(
            update(correspondence_t)
            .where(
                correspondence_t.c.table_id == table_id,
                correspondence_t.c.due_version < version,
            )
            .values(due_version=version, due_at=due_at)
        )
        if result.rowcount == 1:
            return True
        row = (
            await conn.execute(
                select(correspondence_t.c.due_at, correspondence_t.c.due_version).where(
                    correspondence_t.c.table_id == table_id
                )
            )
        ).first()
    if row is None or row.due_version != version or row.due_at is None:
        return None
    return aware(row.due_at)


async def clear_due(store: Store, table_id: int) -> None:
    async with store.db.begin() as conn:
        await conn.execute(
            update(correspondence_t)
            .where(correspondence_t.c.table_id == table_id)
            .values(due_at=None)
        )


async def due(store: Store, now: datetime, limit: int = 500) -> list[Due]:
    """Deadlines passed at `now` of live tables, the most overdue first."""
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(
                tables_t.c.code,
                correspondence_t.c.table_id,
                correspondence_t.c.due_version,
                correspondence_t.c.due_at,
                correspondence_t.c.move_seconds,
                correspondence_t.c.on_timeout,
            )
            .join(tables_t, tables_t.c.id == correspondence_t.c.table_id)
            .where(correspondence_t.c.due_at <= now, tables_t.c.status == "live")
            .order_by(correspondence_t.c.due_at)
            .limit(limit)
        )
        return [
            Due(
                str(r.code),
                int(r.table_id),
                int(r.due_version),
                aware(r.due_at),
                Rule(int(r.move_seconds), str(r.on_timeout)),
            )
            for r in rows
        ]


def aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
