"""Web push subscriptions kept per guest identity (migration 0007): a device that
opted in gets « À vous de jouer » for every seat that identity holds."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Index, String, Table, delete, insert, select, update

from choux.play.store import Store, metadata

push_subscriptions_t = Table(
    "push_subscriptions",
    metadata,
    Column("endpoint", String(1000), primary_key=True),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("player", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_push_subscriptions_player", "player"),
)


email_notifications_t = Table(
    "email_notifications",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    #: when its owner opened the link mailed to it (None: not yet; nothing else is sent)
    Column("confirmed_at", DateTime(timezone=True), nullable=True),
)


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, object]:
        """The shape pywebpush expects (the browser's PushSubscription.toJSON())."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


#: devices kept per person: the oldest subscriptions beyond it are dropped (a script cannot
#: make the server post to thousands of endpoints for one identity)
MAX_DEVICES = 10


async def save(store: Store, player: str, sub: Subscription) -> None:
    """Keep a device's subscription (the same endpoint again replaces the old row; beyond
    MAX_DEVICES for one person, the oldest go)."""
    async with store.db.begin() as conn:
        await conn.execute(
            delete(push_subscriptions_t).where(push_subscriptions_t.c.endpoint == sub.endpoint)
        )
        await conn.execute(
            insert(push_subscriptions_t).values(
                endpoint=sub.endpoint,
                p256dh=sub.p256dh,
                auth=sub.auth,
                player=player,
                created_at=datetime.now(UTC),
            )
        )
        kept = (
            select(push_subscriptions_t.c.endpoint)
            .where(push_subscriptions_t.c.player == player)
            .order_by(push_subscriptions_t.c.created_at.desc())
            .limit(MAX_DEVICES)
        )
        await conn.execute(
            delete(push_subscriptions_t).where(
                push_subscriptions_t.c.player == player,
                push_subscriptions_t.c.endpoint.not_in(kept.scalar_subquery()),
            )
        )


async def drop(store: Store, endpoint: str, player: str | None = None) -> None:
    async with store.db.begin() as conn:
        query = delete(push_subscriptions_t).where(push_subscriptions_t.c.endpoint == endpoint)
        if player is not None:
            query = query.where(push_subscriptions_t.c.player == player)
        await conn.execute(query)


#: the cookie that names a device's own push subscription (by `device_key`)
PUSH_COOKIE = "choux_push"


def device_key(endpoint: str) -> str:
    """What a device's own cookie keeps of its subscription (not the endpoint itself)."""
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


async def move(store: Store, old: str, new: str, key: str) -> None:
    """The device whose subscription has `key` changed identity (log-in, log-out): its
    « À vous de jouer » now follow the new one. Only `old`'s own subscriptions are looked
    at, so a made-up key moves nothing of anyone else's."""
    async with store.db.begin() as conn:
        rows = await conn.execute(
            select(push_subscriptions_t.c.endpoint).where(push_subscriptions_t.c.player == old)
        )
        for endpoint in [r.endpoint for r in rows if device_key(r.endpoint) == key]:
            await conn.execute(
                update(push_subscriptions_t)
                .where(push_subscriptions_t.c.endpoint == endpoint)
                .values(player=new)
            )


async def of_players(store: Store, players: list[str]) -> list[Subscription]:
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(push_subscriptions_t).where(push_subscriptions_t.c.player.in_(players))
        )
        return [Subscription(r.endpoint, r.p256dh, r.auth) for r in rows]


async def set_email(store: Store, player: str, address: str | None) -> bool:
    """The address « À vous de jouer » is mailed to for this identity (None: no more).
    True when it waits for its owner's confirmation (a new address, or one never
    confirmed); the same confirmed address again changes nothing."""
    async with store.db.begin() as conn:
        if address:
            row = (
                await conn.execute(
                    select(email_notifications_t).where(email_notifications_t.c.player == player)
                )
            ).first()
            if row is not None and row.address == address and row.confirmed_at is not None:
                return False
        await conn.execute(
            delete(email_notifications_t).where(email_notifications_t.c.player == player)
        )
        if not address:
            return False
        await conn.execute(
            insert(email_notifications_t).values(
                player=player, address=address, created_at=datetime.now(UTC)
            )
        )
        return True


def identity_digest(player: str) -> str:
    """What a confirmation link says of the identity it is for (not the identity)."""
    return hashlib.sha256(f"email-confirm:{player}".encode()).hexdigest()[:32]


async def confirm_email(store: Store, digest: str, address: str) -> bool:
    """The owner opened the link: the address, if it is still given by the identity the
    link was for (`identity_digest`), is confirmed. False when it no longer is (changed or
    cleared since the link left)."""
    async with store.db.begin() as conn:
        rows = (
            await conn.execute(
                select(email_notifications_t).where(email_notifications_t.c.address == address)
            )
        ).all()
        row = next((r for r in rows if identity_digest(r.player) == digest), None)
        if row is None:
            return False
        if row.confirmed_at is None:
            await conn.execute(
                update(email_notifications_t)
                .where(email_notifications_t.c.player == row.player)
                .values(confirmed_at=datetime.now(UTC))
            )
        return True


async def emails_of(store: Store, players: list[str]) -> dict[str, str]:
    """The confirmed address of each identity that has one: the only ones mailed."""
    async with store.db.connect() as conn:
        rows = await conn.execute(
            select(email_notifications_t).where(
                email_notifications_t.c.player.in_(players),
                email_notifications_t.c.confirmed_at.is_not(None),
            )
        )
        return {str(r.player): str(r.address) for r in rows}


@dataclass(frozen=True)
class GivenAddress:
    """The address an identity gave, as its owner sees it."""

    address: str
    confirmed: bool


async def address_of(store: Store, player: str) -> GivenAddress | None:
    async with store.db.connect() as conn:
        row = (
            await conn.execute(
                select(email_notifications_t).where(email_notifications_t.c.player == player)
            )
        ).first()
    return None if row is None else GivenAddress(str(row.address), row.confirmed_at is not None)
