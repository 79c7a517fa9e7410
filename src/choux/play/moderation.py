"""What the site's moderators (`choux admin moderator`) may do beyond a table's host: stop any
game (it ends unrated, the journal says so), and take an abusive chat line or argument off
every page (its text is replaced; the pages get their room, or the game's view, again)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from choux.play import chat_store
from choux.play import correspondence_store as cs
from choux.play.chat import Chat
from choux.play.errors import TableError
from choux.play.scheduler import Scheduler
from choux.play.store import Store, seats_t, tables_t
from choux.play.tables import LiveTable
from choux.play.typed_texts import REMOVED_BY_MODERATION, remove_typed_text

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

    async def remove_argument(self, code: str, seq: int) -> bool:
        """Replace the text typed into move `seq` of table `code` on every page, in the
        store and in the record; whether there was such a text."""
        if not await remove_typed_text(self.store, code, seq, REMOVED_BY_MODERATION):
            return False
        await self.moves_changed(code)
        return True

    async def moves_changed(self, code: str) -> None:
        """Moves already played changed in the store (their typed text): every process
        that holds the table rebuilds its state from them, and open pages get the view."""
        await self._replay_stored_moves(code)
        self._publish(code, {"moves": "reread"})

    async def _replay_stored_moves(self, code: str) -> None:
        """The state of a table held here rebuilt from its stored moves, up to the version
        it is at (the same game: only typed texts may differ)."""
        table = self.tables.get(code)
        if table is None:
            return
        async with table.lock:
            row = await self.store.load_table(code)
            if row is None or len(row.actions) < table.version:
                return
            state = table.game.new(row.players, row.seed, row.options)
            actions: list[tuple[int | None, dict[str, Any]]] = []
            for seat, data, _ in row.actions[: table.version]:
                action = table.game.action_from_json(data)
                state.apply(seat, action)
                actions.append((seat, action.to_json()))
            table.state = state
            table.actions = actions
            table.meta += 1
        table.wake_all()

    async def _on_remote_change(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Several processes: moves changed elsewhere are read back from the store."""
        if change is not None and change.get("moves") == "reread":
            await self._replay_stored_moves(code)
            return
        await super()._on_remote_change(code, change)
