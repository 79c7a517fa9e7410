"""Where table chat is kept: its messages and the people a host silenced (SQLAlchemy Core,
on the store's metadata, migration 0005). Apart from `store.py` so that the action log
stays the only thing that module writes in its hot path."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)

from choux.play.store import Store, metadata, records_t, tables_t

chat_messages_t = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("room", String(12), nullable=False),  # "players" or "spectators"
    Column("author", String(24), nullable=False),  # "s2" for seat 2, "v…" for a spectator
    Column("name", String(40), nullable=False),
    Column("text", String(280), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_messages_table", "table_id", "id"),
)

chat_mutes_t = Table(
    "chat_mutes",
    metadata,
    Column("table_id", Integer, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("author", String(24), nullable=False),
    PrimaryKeyConstraint("table_id", "author"),
)


@dataclass(frozen=True)
class ChatLine:
    """One message as everyone in its room sees it: no token, no session, only a name."""

    id: int
    room: str
    author: str
    name: str
    text: str
    at: datetime

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "room": self.room,
            "who": self.author,
            "name": self.name,
            "text": self.text,
            "at": self.at.isoformat(),
        }


async def add_message(
    store: Store, table_id: int, room: str, author: str, name: str, text: str
) -> ChatLine:
    now = datetime.now(UTC)
    async with store.db.begin() as conn:
        result = await conn.execute(
            insert(chat_messages_t).values(
                table_id=table_id, room=room, author=author, name=name, text=text, created_at=now
            )
        )
        key = result.inserted_primary_key
        assert key is not None
    return ChatLine(int(key[0]), room, author, name, text, now)


async def messages(store: Store, table_id: int, after: int = 0, limit: int = 200) -> list[ChatLine]:
    """The table's last `limit` messages with an id above `after`, oldest first."""
    async with store.db.connect() as conn:
        rows = (
            await conn.execute(
                select(chat_messages_t)
                .where(chat_messages_t.c.table_id == table_id, chat_messages_t.c.id > after)
                .order_by(chat_messages_t.c.id.desc())
                .limit(limit)
            )
        ).all()
    return [
        ChatLine(r.id, r.room, r.author, r.name, r.text, _aware(r.created_at))
        for r in reversed(rows)
    ]


async def messages_of_record(store: Store, record_id: int) -> list[ChatLine]:
    """The chat of the table a finished game was played at (for its replay)."""
    if not 0 < record_id < 2**31:
        return []
    async with store.db.connect() as conn:
        row = (
            await conn.execute(select(records_t.c.table_id).where(records_t.c.id == record_id))
        ).first()
    return [] if row is None else await messages(store, int(row.table_id), limit=1000)


async def muted(store: Store, table_id: int) -> set[str]:
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(chat_mutes_t.c.author).where(chat_mutes_t.c.table_id == table_id)
        )
        return {str(r.author) for r in rows}


async def set_muted(store: Store, table_id: int, author: str, mute: bool) -> None:
    async with store.db.begin() as conn:
        await conn.execute(
            delete(chat_mutes_t).where(
                chat_mutes_t.c.table_id == table_id, chat_mutes_t.c.author == author
            )
        )
        if mute:
            await conn.execute(insert(chat_mutes_t).values(table_id=table_id, author=author))


def _aware(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back: they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SiteLine:
    """A chat line with its table, as the moderators' page lists it."""

    line: ChatLine
    code: str


async def recent_site_lines(store: Store, limit: int = 100) -> list[SiteLine]:
    """The last `limit` chat lines of every table, newest first."""
    async with store.db.connect() as conn:
        rows = (
            await conn.execute(
                select(chat_messages_t, tables_t.c.code)
                .join(tables_t, tables_t.c.id == chat_messages_t.c.table_id)
                .order_by(chat_messages_t.c.id.desc())
                .limit(limit)
            )
        ).all()
    return [
        SiteLine(ChatLine(r.id, r.room, r.author, r.name, r.text, _aware(r.created_at)), r.code)
        for r in rows
    ]


async def replace_text(store: Store, line_id: int, text: str) -> str | None:
    """Replace one line's text (a moderator's removal); the code of its table, None if no
    such line."""
    async with store.db.begin() as conn:
        row = (
            await conn.execute(
                select(tables_t.c.code)
                .join(chat_messages_t, chat_messages_t.c.table_id == tables_t.c.id)
                .where(chat_messages_t.c.id == line_id)
            )
        ).first()
        if row is None:
            return None
        await conn.execute(
            update(chat_messages_t).where(chat_messages_t.c.id == line_id).values(text=text)
        )
        return str(row.code)


async def rekey(store: Store, table_id: int, old: str, new: str) -> bool:
    """Lines and silence of author `old` at a table become `new`'s; whether any line moved."""
    async with store.db.begin() as conn:
        moved = await conn.execute(
            update(chat_messages_t)
            .where(chat_messages_t.c.table_id == table_id, chat_messages_t.c.author == old)
            .values(author=new)
        )
        silenced = (
            await conn.execute(
                select(chat_mutes_t.c.author).where(
                    chat_mutes_t.c.table_id == table_id, chat_mutes_t.c.author == old
                )
            )
        ).first()
        if silenced is not None:
            await conn.execute(
                delete(chat_mutes_t).where(
                    chat_mutes_t.c.table_id == table_id, chat_mutes_t.c.author.in_((old, new))
                )
            )
            await conn.execute(insert(chat_mutes_t).values(table_id=table_id, author=new))
        return bool(moved.rowcount) or silenced is not None
