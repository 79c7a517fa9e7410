"""What the site's moderators (`CHOUX_MODERATORS`) may do beyond a table's host: stop any
game (it ends unrated, the journal says so), and take an abusive chat line off every page
(its text is replaced; the pages get their room again in full)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from choux.play import chat_store
from choux.play import correspondence_store as cs
from choux.play.chat import Chat
from choux.play.errors import TableError
from choux.play.scheduler import Scheduler
from choux.play.store import Store, seats_t, tables_t
from choux.play.tables import LiveTable

STOPPED = "Partie arrêtée par la modération"
REMOVED = "(message retiré par la modération)"


def stop_line(reason: str) -> str:
    """The journal's line for a game stopped, with the moderator's reason if any."""
    return f"{STOPPED} : {reason}" if reason else f"{STOPPED}."


@dataclass
class TableInPlay:
    """A table not over, as the moderators' page lists it (read from the store: listing
    does not wake a table that sleeps)."""

    code: str
    game: str
    status: str
    private: bool
    updated_at: datetime
    names: list[str] = field(default_factory=list)


async def tables_in_play(store: Store, limit: int = 200) -> list[TableInPlay]:
    """The tables waiting for players or being played, most recently changed first."""
    async with store.db.connect() as conn:
        rows = (
            await conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.code,
                    tables_t.c.game,
                    tables_t.c.status,
                    tables_t.c.private,
                    tables_t.c.updated_at,
                )
                .where(tables_t.c.status.in_(("open", "live")))
                .order_by(tables_t.c.updated_at.desc())
                .limit(limit)
            )
        ).all()
        found = {r.id: TableInPlay(r.code, r.game, r.status, r.private, r.updated_at) for r in rows}
        if found:
            seats = await conn.execute(
                select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.name, seats_t.c.kind)
                .where(seats_t.c.table_id.in_(list(found)))
                .order_by(seats_t.c.table_id, seats_t.c.seat)
            )
            for seat in seats:
                name = seat.name or ("place libre" if seat.kind == "open" else "?")
                found[seat.table_id].names.append(name)
    return list(found.values())


class Moderation(Chat, Scheduler):
    async def stop_table(self, table: LiveTable, reason: str = "") -> None:
        """End the table now: one waiting for players closes, a game being played ends
        without a result (not rated). TableError when it is already over."""
        line = stop_line(reason)
        async with table.lock:
            if table.status == "open":
                await self._close_waiting(table, line)
                self._cancel(table, "expire")
            elif table.status == "live":
                await self._end_unrated(table, line)
                await cs.clear_due(self.store, table.row.id)
            else:
                raise TableError("Cette partie est déjà finie.", "conflict")
        self._publish(table.code)
        self._finished(table)

    async def remove_chat_line(self, line_id: int) -> str | None:
        """Replace a chat line's text on every page; the code of its table (None: there is
        no such line)."""
        code = await chat_store.replace_text(self.store, line_id, REMOVED)
        if code is not None:
            await self.chat_changed(code)
        return code
