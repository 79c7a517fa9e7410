"""An account's data: the copy its owner may download, and its erasure.

Erasing an account keeps the games it played (the other players' history and ratings
depend on them) but nothing that points to the person: the pseudonym becomes
`ERASED_NAME` wherever it was written (seats, records' names, chat), the identity at its
seats becomes a fresh random one that no cookie holds, its chat messages lose their text,
and its ratings, follows, push subscriptions, e-mail address, sessions and the account
itself are deleted, all in one transaction. Arguments it typed into a game's moves (La
parlote) are replaced by a notice, in the moves and the records (`typed_texts`): the
games replay the same.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, or_, select, update

from choux import games
from choux.engine.record import robot_name
from choux.play.accounts import Account
from choux.play.chat import person_key
from choux.play.chat_store import chat_messages_t
from choux.play.push_store import email_notifications_t, push_subscriptions_t
from choux.play.store import (
    Store,
    account_sessions_t,
    accounts_t,
    actions_t,
    follows_t,
    ratings_t,
    records_t,
    seats_t,
    tables_t,
)
from choux.play.typed_texts import games_with_texts, remove_texts_of_seats, typed_text

#: what is shown where the erased account's name was
ERASED_NAME = "Compte supprimé"
#: what is shown instead of its chat messages
ERASED_TEXT = "(message effacé avec le compte de son auteur)"
#: a copy lists at most this many games, chat messages and typed arguments (the newest)
MAX_EXPORTED = 5000


@dataclass(frozen=True)
class Erased:
    """What an erasure changed that a running server may hold in memory."""

    #: the identity that was erased, and the one its seats hold now
    player: str
    stranger: str
    #: tables where it sat, and tables whose chat lost its lines
    tables: list[str]
    chats: list[str]
    #: tables whose moves lost the texts it typed
    moves: list[str] = field(default_factory=list)


def erased_name(kind: str) -> str:
    """The name at an erased person's seat: a bot finishing their game says so."""
    return robot_name(ERASED_NAME) if kind == "bot" else ERASED_NAME


@dataclass(frozen=True)
class Unfinished:
    """A table where the identity still holds a seat in a game not over."""

    code: str
    game: str
    status: str  # "open" (waiting for players) or "live"


async def unfinished_tables(store: Store, player: str) -> list[Unfinished]:
    """Tables that stop an erasure: the identity plays there (a seat a bot took over no
    longer counts), and the game is not over. Erasing under a running game would leave
    its seat to nobody."""
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(tables_t.c.code, tables_t.c.game, tables_t.c.status)
            .join(seats_t, seats_t.c.table_id == tables_t.c.id)
            .where(
                seats_t.c.player == player,
                seats_t.c.kind == "human",
                tables_t.c.status.in_(("open", "live")),
            )
            .order_by(tables_t.c.updated_at.desc())
        )
        return [Unfinished(r.code, r.game, r.status) for r in rows]


async def _spectator_authors(conn: Any, player: str) -> list[tuple[int, str]]:
    """(table id, author key) of `player` at every table with lines written without a
    seat (as a spectator, or at a seat left before the start: `chat.person_key`): the key
    is a digest of the table's code and the identity, so each table is tried in turn."""
    watched = await conn.execute(
        select(tables_t.c.id, tables_t.c.code).where(
            tables_t.c.id.in_(
                select(chat_messages_t.c.table_id).where(chat_messages_t.c.author.like("v%"))
            )
        )
    )
    return [(t.id, person_key(t.code, player)) for t in watched.all()]


def scrub(line: str, names: set[str]) -> str:
    """A journal line with each of the erased person's `names` (whole words) replaced by
    ERASED_NAME, the longest first.

    >>> scrub("Eve (robot) suit Eve ; Evelyne reste.", {"Eve", "Eve (robot)"})
    'Compte supprimé suit Compte supprimé ; Evelyne reste.'
    """
    for name in sorted(names, key=len, reverse=True):
        line = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", ERASED_NAME, line)
    return line


def _renamed(record_text: str, seats: set[int]) -> str:
    """A record's JSON with the names at `seats` replaced by ERASED_NAME."""
    data = json.loads(record_text)
    names = data.get("names")
    if isinstance(names, list):
        data["names"] = [ERASED_NAME if i in seats else n for i, n in enumerate(names)]
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


async def erase_account(store: Store, account: Account) -> Erased:
    """Erase `account` (see the module's docstring). The caller checks
    `unfinished_tables` first; this re-checks inside the transaction and erases nothing if
    a game started meanwhile (ValueError)."""
    player = account.player
    stranger = "erased-" + secrets.token_urlsafe(12)
    async with store.db.begin() as conn:
        held = (
            await conn.execute(
                select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, tables_t.c.status)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(seats_t.c.player == player)
            )
        ).all()
        if any(r.kind == "human" and r.status in ("open", "live") for r in held):
            raise ValueError("the identity holds a seat in a game not over")
        seats_by_table: dict[int, set[int]] = {}
        for row in held:
            seats_by_table.setdefault(row.table_id, set()).add(row.seat)
        await _rename_seats(conn, player, stranger, {row.kind for row in held})
        records = await conn.execute(
            select(records_t.c.id, records_t.c.table_id, records_t.c.record).where(
                records_t.c.table_id.in_(list(seats_by_table))
            )
        )
        for record in records.all():
            text = _renamed(record.record, seats_by_table[record.table_id])
            await conn.execute(
                update(records_t).where(records_t.c.id == record.id).values(record=text)
            )
        played = dict(
            (
                await conn.execute(
                    select(tables_t.c.id, tables_t.c.game).where(
                        tables_t.c.id.in_(list(seats_by_table))
                    )
                )
            ).all()
        )
        typed = [
            table_id
            for table_id, seats in seats_by_table.items()
            if await remove_texts_of_seats(conn, table_id, played[table_id], seats)
        ]
        authors = [
            (table_id, f"s{seat}") for table_id, seats in seats_by_table.items() for seat in seats
        ]
        authors += await _spectator_authors(conn, player)
        chats: set[int] = set()
        for table_id, author in authors:
            changed = await conn.execute(
                update(chat_messages_t)
                .where(chat_messages_t.c.table_id == table_id, chat_messages_t.c.author == author)
                .values(name=ERASED_NAME, text=ERASED_TEXT)
            )
            if changed.rowcount:
                chats.add(table_id)
        await conn.execute(delete(ratings_t).where(ratings_t.c.player == player))
        await conn.execute(
            delete(follows_t).where(
                or_(follows_t.c.follower == player, follows_t.c.followed == player)
            )
        )
        await conn.execute(
            delete(push_subscriptions_t).where(push_subscriptions_t.c.player == player)
        )
        await conn.execute(
            delete(email_notifications_t).where(email_notifications_t.c.player == player)
        )
        await conn.execute(
            delete(account_sessions_t).where(account_sessions_t.c.account_id == account.id)
        )
        await conn.execute(delete(accounts_t).where(accounts_t.c.id == account.id))
        codes = dict(
            (
                await conn.execute(
                    select(tables_t.c.id, tables_t.c.code).where(
                        tables_t.c.id.in_(list(set(seats_by_table) | chats))
                    )
                )
            ).all()
        )
    return Erased(
        player=player,
        stranger=stranger,
        tables=[codes[i] for i in seats_by_table],
        chats=[codes[i] for i in chats],
        moves=[codes[i] for i in typed],
    )


async def rename_leftovers(store: Store, erased: Erased) -> list[str]:
    """Seats that took the erased identity after the erasure's transaction (a request of
    another device already past its session check): renamed like the others; their tables'
    codes."""
    async with store.db.begin() as conn:
        rows = (
            await conn.execute(
                select(seats_t.c.kind, tables_t.c.code)
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .where(seats_t.c.player == erased.player)
            )
        ).all()
        await _rename_seats(conn, erased.player, erased.stranger, {row.kind for row in rows})
    return sorted({row.code for row in rows})


async def _rename_seats(conn: Any, player: str, stranger: str, kinds: set[str]) -> None:
    """Every seat of `player` (of these kinds) under ERASED_NAME and identity `stranger`."""
    for kind in kinds:
        await conn.execute(
            update(seats_t)
            .where(seats_t.c.player == player, seats_t.c.kind == kind)
            .values(name=erased_name(kind), player=stranger, token_hash=None)
        )


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


async def export_account(store: Store, account: Account) -> dict[str, Any]:
    """Everything the site keeps about `account`, as its owner may read it (a JSON
    document; the keys in French, like the site)."""
    player = account.player
    async with store.db.connect() as conn:
        row = (await conn.execute(select(accounts_t).where(accounts_t.c.id == account.id))).one()
        email = (
            await conn.execute(
                select(email_notifications_t.c.address).where(
                    email_notifications_t.c.player == player
                )
            )
        ).scalar_one_or_none()
        ratings = await conn.execute(select(ratings_t).where(ratings_t.c.player == player))
        follows = await conn.execute(
            select(follows_t.c.followed, accounts_t.c.pseudo)
            .outerjoin(accounts_t, accounts_t.c.player == follows_t.c.followed)
            .where(follows_t.c.follower == player)
        )
        devices = await conn.execute(
            select(push_subscriptions_t.c.created_at).where(push_subscriptions_t.c.player == player)
        )
        seats = (
            await conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.code,
                    tables_t.c.game,
                    tables_t.c.status,
                    tables_t.c.created_at,
                    tables_t.c.updated_at,
                    seats_t.c.seat,
                    seats_t.c.name,
                    records_t.c.result,
                )
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .outerjoin(records_t, records_t.c.table_id == tables_t.c.id)
                .where(seats_t.c.player == player)
                .order_by(tables_t.c.updated_at.desc())
                .limit(MAX_EXPORTED)
            )
        ).all()
        codes = {r.id: r.code for r in seats}
        wanted = {(r.id, f"s{r.seat}") for r in seats}
        for table_id, author in await _spectator_authors(conn, player):
            wanted.add((table_id, author))
        tables = {table_id for table_id, _ in wanted}
        missing = tables - set(codes)
        if missing:
            found_codes = await conn.execute(
                select(tables_t.c.id, tables_t.c.code).where(tables_t.c.id.in_(list(missing)))
            )
            codes.update({t.id: t.code for t in found_codes})
        messages = []
        if wanted:
            found = await conn.execute(
                select(
                    chat_messages_t.c.table_id,
                    chat_messages_t.c.author,
                    chat_messages_t.c.room,
                    chat_messages_t.c.text,
                    chat_messages_t.c.created_at,
                )
                .where(chat_messages_t.c.table_id.in_(list(tables)))
                .order_by(chat_messages_t.c.id.desc())
            )
            for message in found:
                if (message.table_id, message.author) not in wanted:
                    continue
                messages.append(
                    {
                        "table": codes[message.table_id],
                        "salon": "joueurs" if message.room == "players" else "spectateurs",
                        "texte": message.text,
                        "date": _when(message.created_at),
                    }
                )
                if len(messages) >= MAX_EXPORTED:
                    break
        arguments = await _typed_by(conn, [(r.id, r.code, r.game, r.seat) for r in seats])
    return {
        "format": "choux-donnees/1",
        "compte": {
            "pseudonyme": row.pseudo,
            "cree_le": _when(row.created_at),
            "suspendu_le": _when(row.suspended_at),
        },
        "adresse_email": email,
        "appareils_notifies": [_when(d.created_at) for d in devices],
        "cotes": [
            {
                "jeu": r.game,
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "parties": r.games,
                "victoires": r.wins,
            }
            for r in ratings
        ],
        "suivis": [f.pseudo for f in follows if f.pseudo is not None],
        "parties": [
            {
                "table": s.code,
                "jeu": s.game,
                "etat": {"open": "en attente", "live": "en cours"}.get(s.status, "terminée"),
                "place": s.seat + 1,
                "nom": s.name,
                "creee_le": _when(s.created_at),
                "modifiee_le": _when(s.updated_at),
                "resultat": json.loads(s.result) if s.result else None,
            }
            for s in seats
        ],
        "messages": messages,
        "arguments": arguments,
    }


async def _typed_by(conn: Any, seats: list[tuple[int, str, str, int]]) -> list[dict[str, Any]]:
    """The texts typed into moves at these seats (table id, code, game, seat), newest
    first, `MAX_EXPORTED` at most."""
    typed_games = games_with_texts()
    wanted = {(t, seat): (code, game) for t, code, game, seat in seats if game in typed_games}
    if not wanted:
        return []
    moves = await conn.execute(
        select(actions_t.c.table_id, actions_t.c.seq, actions_t.c.seat, actions_t.c.action)
        .add_columns(actions_t.c.created_at)
        .where(actions_t.c.table_id.in_(sorted({t for t, _ in wanted})))
        .order_by(actions_t.c.created_at.desc())
    )
    typed = []
    for move in moves:
        found = wanted.get((move.table_id, move.seat))
        text = typed_text(games.get(found[1]), json.loads(move.action)) if found else ""
        if found and text:
            typed.append(
                {"table": found[0], "coup": move.seq, "texte": text, "date": _when(move.created_at)}
            )
            if len(typed) >= MAX_EXPORTED:
                break
    return typed
