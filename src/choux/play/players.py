"""What the store knows about one person (an identity): their tables, their finished
games, their ratings, and whom they follow.

An identity is the random id a guest gets in the cookie; an account owns one, so the
same queries serve guests on one device and accounts on all of theirs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from choux.play.ratings import Standing
from choux.play.store import Store, follows_t, ratings_t, records_t, seats_t, tables_t

#: at most this many followed identities per follower (the lobby looks them all up)
MAX_FOLLOWS = 200


@dataclass
class MyTable:
    """One table where the identity holds (or held) a seat."""

    code: str
    game: str
    status: str
    seat: int
    kind: str  # the seat's kind now: "human", or "bot" when a bot took over
    names: list[str] = field(default_factory=list)
    record_id: int | None = None
    ranks: list[int] = field(default_factory=list)
    scores: list[Any] = field(default_factory=list)
    updated_at: datetime | None = None
    #: every seat was taken (the game started); an open table that closed never did
    started: bool = True
    #: a private table (its game replays only for those who sat there)
    private: bool = False

    @property
    def rank(self) -> int | None:
        return self.ranks[self.seat] if self.seat < len(self.ranks) else None

    @property
    def won(self) -> bool:
        return self.rank == 1


async def tables_of(store: Store, player: str, limit: int = 60) -> list[MyTable]:
    """The identity's tables, most recently changed first, with everyone's names and,
    for finished games, the result."""
    async with store.db.connect() as conn:
        rows = (
            await conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.code,
                    tables_t.c.game,
                    tables_t.c.status,
                    tables_t.c.updated_at,
                    tables_t.c.private,
                    seats_t.c.seat,
                    seats_t.c.kind,
                    records_t.c.id.label("record_id"),
                    records_t.c.result,
                )
                .select_from(
                    seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id).outerjoin(
                        records_t, records_t.c.table_id == tables_t.c.id
                    )
                )
                .where(seats_t.c.player == player)
                .order_by(tables_t.c.updated_at.desc(), tables_t.c.id.desc())
                .limit(limit)
            )
        ).all()
        ids = [r.id for r in rows]
        names: dict[int, list[str]] = {}
        waiting: set[int] = set()  # tables with a seat nobody took
        if ids:
            seats = await conn.execute(
                select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.name, seats_t.c.kind)
                .where(seats_t.c.table_id.in_(ids))
                .order_by(seats_t.c.table_id, seats_t.c.seat)
            )
            for s in seats:
                names.setdefault(s.table_id, []).append(s.name or f"Place {s.seat + 1}")
                if s.kind == "open":
                    waiting.add(s.table_id)
    found = []
    seen: set[int] = set()
    for r in rows:
        if r.id in seen:  # one seat per identity and table (the shared screen adds none)
            continue
        seen.add(r.id)
        result = json.loads(r.result) if r.result else None
        result = result if isinstance(result, dict) else {}
        found.append(
            MyTable(
                code=r.code,
                game=r.game,
                status=r.status,
                seat=r.seat,
                kind=r.kind,
                names=names.get(r.id, []),
                record_id=r.record_id,
                ranks=[int(x) for x in result.get("ranks") or []],
                scores=list(result.get("scores") or []),
                updated_at=r.updated_at,
                started=r.id not in waiting,
                private=bool(r.private),
            )
        )
    return found


async def standings_of(store: Store, player: str) -> dict[str, Standing]:
    """The identity's rating in each game it was rated in."""
    async with store.db.connect() as conn:
        rows = await conn.execute(select(ratings_t).where(ratings_t.c.player == player))
        return {r.game: Standing(r.player, r.name, r.mu, r.sigma, r.games, r.wins) for r in rows}


# ---------------------------------------------------------------------- follows


async def follow(store: Store, follower: str, followed: str) -> None:
    if follower == followed:
        return
    async with store.db.begin() as conn:
        count = len(
            (
                await conn.execute(
                    select(follows_t.c.followed).where(follows_t.c.follower == follower)
                )
            ).all()
        )
        if count >= MAX_FOLLOWS:
            return
        try:
            async with conn.begin_nested():
                await conn.execute(
                    insert(follows_t).values(
                        follower=follower, followed=followed, created_at=datetime.now(UTC)
                    )
                )
        except IntegrityError:  # already followed
            pass


async def unfollow(store: Store, follower: str, followed: str) -> None:
    async with store.db.begin() as conn:
        await conn.execute(
            delete(follows_t).where(
                follows_t.c.follower == follower, follows_t.c.followed == followed
            )
        )


async def followed_by(store: Store, follower: str) -> set[str]:
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(follows_t.c.followed).where(follows_t.c.follower == follower)
        )
        return {str(r.followed) for r in rows}


async def record_seat(store: Store, record_id: int, player: str) -> int | None:
    """The seat `player` held in the finished game `record_id` (None: not theirs), so that
    its replay opens on their own cards."""
    if not 0 < record_id < 2**31:
        return None
    async with store.db.connect() as conn:
        seat = (
            await conn.execute(
                select(seats_t.c.seat)
                .join(records_t, records_t.c.table_id == seats_t.c.table_id)
                .where(records_t.c.id == record_id, seats_t.c.player == player)
                .order_by(seats_t.c.seat)
            )
        ).first()
    return None if seat is None else int(seat.seat)


async def record_table(store: Store, record_id: int) -> tuple[str, bool, set[str]] | None:
    """The table of a finished game: its code, whether it is private, and the identities
    that sat there (who may replay a private game)."""
    if not 0 < record_id < 2**31:
        return None
    async with store.db.connect() as conn:
        row = (
            await conn.execute(
                select(tables_t.c.id, tables_t.c.code, tables_t.c.private)
                .join(records_t, records_t.c.table_id == tables_t.c.id)
                .where(records_t.c.id == record_id)
            )
        ).first()
        if row is None:
            return None
        seats = await conn.execute(
            select(seats_t.c.player).where(
                seats_t.c.table_id == row.id, seats_t.c.player.is_not(None)
            )
        )
        return str(row.code), bool(row.private), {str(s.player) for s in seats}
