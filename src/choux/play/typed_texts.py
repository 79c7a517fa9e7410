"""Text people typed into their moves (La parlote's arguments): listed for the moderators,
taken out of a game by one of them, or with the account of its author.

The move stays and the game replays the same: the text is replaced by a notice, never
emptied (an argument typed or not decides whether it is contested, voted or counted).
It is replaced in the store's moves and in the game's record; the states held in memory
are rebuilt from the moves by the service (`Moderation.moves_changed`)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update

from choux import games
from choux.engine.base import ChouxError, Game
from choux.play.store import Store, actions_t, records_t, seats_t, tables_t

#: what a moderator's removal leaves in the move
REMOVED_BY_MODERATION = "(argument retiré par la modération)"
#: what an erasure of its author's account leaves
REMOVED_WITH_ACCOUNT = "(argument effacé avec le compte de son auteur)"
REMOVED = (REMOVED_BY_MODERATION, REMOVED_WITH_ACCOUNT)
#: the moderators' list reads the moves of this many tables, the last changed first
TABLES_READ = 40


def games_with_texts() -> list[str]:
    """The games some of whose moves carry text a person typed (`Game.text_field`)."""
    return [n for n in games.names() if type(games.get(n)).text_field is not Game.text_field]


def typed_text(game: Game, data: object) -> str:
    """The text a person typed into the move `data` (action JSON), "" if none."""
    try:
        action = game.action_from_json(data)
    except ChouxError:
        return ""
    field = game.text_field(action)
    text = getattr(action, field, "") if field is not None else ""
    return text if isinstance(text, str) else ""


def without_text(game: Game, data: object, notice: str) -> dict[str, Any] | None:
    """The move `data` with its typed text replaced by `notice`; None when it holds none
    (or a notice already).

    >>> parlote = games.get("parlote")
    >>> without_text(parlote, {"type": "jouer", "card": "c01", "argument": "Tais-toi"}, "(x)")
    {'type': 'jouer', 'card': 'c01', 'argument': '(x)'}
    >>> without_text(parlote, {"type": "jouer", "card": "c01", "argument": ""}, "(x)") is None
    True
    """
    text = typed_text(game, data)
    if not text or text in REMOVED:
        return None
    action = game.action_from_json(data)
    field = game.text_field(action)
    assert field is not None
    result: dict[str, Any] = dataclasses.replace(action, **{field: notice}).to_json()
    return result


@dataclass(frozen=True)
class TypedText:
    """One typed text, as the moderators' page lists it."""

    code: str
    game: str
    seq: int
    name: str
    text: str
    at: datetime


async def recent_typed_texts(store: Store, limit: int = 100) -> list[TypedText]:
    """The last `limit` texts typed into moves, newest first, from the tables last changed
    (a bounded read: the moves of `TABLES_READ` tables)."""
    names = games_with_texts()
    if not names:
        return []
    async with store.db.connect() as conn:
        tables = (
            await conn.execute(
                select(tables_t.c.id, tables_t.c.code, tables_t.c.game)
                .where(tables_t.c.game.in_(names))
                .order_by(tables_t.c.updated_at.desc())
                .limit(TABLES_READ)
            )
        ).all()
        by_id = {t.id: t for t in tables}
        if not by_id:
            return []
        seat_names = {
            (s.table_id, s.seat): s.name or ""
            for s in await conn.execute(
                select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.name).where(
                    seats_t.c.table_id.in_(list(by_id))
                )
            )
        }
        moves = await conn.execute(
            select(actions_t.c.table_id, actions_t.c.seq, actions_t.c.seat, actions_t.c.action)
            .add_columns(actions_t.c.created_at)
            .where(actions_t.c.table_id.in_(list(by_id)))
        )
        found: list[TypedText] = []
        for move in moves:
            table = by_id[move.table_id]
            text = typed_text(games.get(table.game), json.loads(move.action))
            if text and text not in REMOVED:
                name = seat_names.get((move.table_id, move.seat), "")
                at = move.created_at
                at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
                found.append(TypedText(table.code, table.game, move.seq, name, text, at))
    found.sort(key=lambda t: t.at, reverse=True)
    return found[:limit]


async def remove_typed_text(store: Store, code: str, seq: int, notice: str) -> bool:
    """Replace the text typed into move `seq` of table `code` (and in its record, if the
    game is over); whether there was such a text."""
    async with store.db.begin() as conn:
        table = (
            await conn.execute(
                select(tables_t.c.id, tables_t.c.game).where(tables_t.c.code == code)
            )
        ).first()
        if table is None or table.game not in games.names():
            return False
        changed = await _remove(conn, games.get(table.game), table.id, notice, seq=seq)
        return bool(changed)


async def remove_texts_of_seats(conn: Any, table_id: int, game_name: str, seats: set[int]) -> bool:
    """Inside an erasure's transaction: the texts typed at `seats` of a table (moves and
    record) replaced; whether any was."""
    if game_name not in games_with_texts():
        return False
    game = games.get(game_name)
    return bool(await _remove(conn, game, table_id, REMOVED_WITH_ACCOUNT, seats=seats))


async def _remove(
    conn: Any,
    game: Game,
    table_id: int,
    notice: str,
    seq: int | None = None,
    seats: set[int] | None = None,
) -> dict[int, dict[str, Any]]:
    """The moves of a table (one, or those of `seats`) whose text was replaced, by number."""
    query = select(actions_t.c.seq, actions_t.c.seat, actions_t.c.action).where(
        actions_t.c.table_id == table_id
    )
    if seq is not None:
        query = query.where(actions_t.c.seq == seq)
    if seats is not None:
        query = query.where(actions_t.c.seat.in_(sorted(seats)))
    changed: dict[int, dict[str, Any]] = {}
    for move in (await conn.execute(query)).all():
        new = without_text(game, json.loads(move.action), notice)
        if new is None:
            continue
        changed[move.seq] = new
        await conn.execute(
            update(actions_t)
            .where(actions_t.c.table_id == table_id, actions_t.c.seq == move.seq)
            .values(action=json.dumps(new, separators=(",", ":")))
        )
    if changed:
        records = await conn.execute(
            select(records_t.c.id, records_t.c.record).where(records_t.c.table_id == table_id)
        )
        for record in records.all():
            await conn.execute(
                update(records_t)
                .where(records_t.c.id == record.id)
                .values(record=_record_without(record.record, changed))
            )
    return changed


def _record_without(text: str, changed: dict[int, dict[str, Any]]) -> str:
    """A record's JSON with the moves numbered in `changed` (from 1) replaced."""
    data = json.loads(text)
    moves = data.get("actions")
    if isinstance(moves, list):
        for seq, new in changed.items():
            if 0 < seq <= len(moves) and isinstance(moves[seq - 1], dict):
                moves[seq - 1]["action"] = new
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
