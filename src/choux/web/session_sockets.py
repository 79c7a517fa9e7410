"""The open table sockets of account sessions on this process, so that a session closed
(« se déconnecter », « déconnecter tous mes appareils », a new password) stops playing at
once: a socket proves its seat with the session it opened with, and an old device's open
page kept playing its seat after its session was closed (found by an audit).

Closed with SESSION_CLOSED, the page reconnects with its cookie, which is now a guest's.
Several processes: the closing one tells the others through Redis, each closes its own.
What another program closes in the database (`choux admin suspend` or `reset-password`)
reaches the open sockets at the next sweep (`sweep`, every `CHOUX_SESSION_SWEEP` seconds).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from choux.play.pubsub import PubSub

#: the close code of a socket whose account session was closed
SESSION_CLOSED = 4401

log = logging.getLogger("choux.web")


class Closable(Protocol):
    async def close(self, code: int, reason: str) -> None: ...


class SessionSockets:
    """Open sockets by the account's player identity, each with the session token it
    opened with."""

    def __init__(self) -> None:
        self.by_player: dict[str, dict[Closable, str]] = {}
        #: the other processes, told of each closing (None: one process)
        self.pubsub: PubSub | None = None

    def connect(self, pubsub: PubSub) -> None:
        """Close here what other processes closed, and tell them what closes here."""
        self.pubsub = pubsub
        pubsub.listen_sessions(self.close_here)

    def add(self, player: str, auth: str, conn: Closable) -> None:
        self.by_player.setdefault(player, {})[conn] = auth

    def remove(self, player: str, conn: Closable) -> None:
        found = self.by_player.get(player)
        if found is not None:
            found.pop(conn, None)
            if not found:
                del self.by_player[player]

    async def close(self, player: str, *, only: str | None = None, keep: str | None = None) -> int:
        """Close the player's sockets opened with session `only` (None: with any session
        but `keep`) on every process; the number closed on this one."""
        closed = await self.close_here(player, only, keep)
        if self.pubsub is not None:
            await self.pubsub.publish_sessions_closed(player, only, keep)
        return closed

    async def close_here(self, player: str, only: str | None, keep: str | None) -> int:
        """`close` on this process alone."""
        closing = [
            conn
            for conn, auth in list(self.by_player.get(player, {}).items())
            if (only is None or auth == only) and (keep is None or auth != keep)
        ]
        # at once: a socket whose client stopped reading takes up to its send timeout
        await asyncio.gather(*(conn.close(SESSION_CLOSED, "session fermée") for conn in closing))
        return len(closing)

    async def sweep(self, live: Callable[[list[str]], Awaitable[set[str]]]) -> int:
        """Close the sockets whose session `live` no longer knows (the store's
        `Accounts.live_sessions`); the number closed."""
        tokens = {auth for conns in self.by_player.values() for auth in conns.values()}
        if not tokens:
            return 0
        alive = await live(sorted(tokens))
        gone = [
            (player, auth)
            for player, conns in list(self.by_player.items())
            for auth in set(conns.values())
            if auth not in alive
        ]
        counts = await asyncio.gather(*(self.close_here(p, auth, None) for p, auth in gone))
        return sum(counts)

    async def keep_swept(
        self, live: Callable[[list[str]], Awaitable[set[str]]], seconds: float
    ) -> None:
        """`sweep` for ever, every `seconds` (a failing store is logged and tried again)."""
        while True:
            await asyncio.sleep(seconds)
            try:
                closed = await self.sweep(live)
            except Exception as error:  # the store away: the next sweep tries again
                log.warning("session sweep failed: %s", error)
                continue
            if closed:
                log.info("session sweep: %d socket(s) of closed sessions closed", closed)
