"""The open table sockets of account sessions on this process, so that a session closed
(« se déconnecter », « déconnecter tous mes appareils », a new password) stops playing at
once: a socket proves its seat with the session it opened with, and an old device's open
page kept playing its seat after its session was closed (found by an audit).

Closed with SESSION_CLOSED, the page reconnects with its cookie, which is now a guest's.
One process only: a socket held by another process stays open until it reconnects.
"""

from __future__ import annotations

from typing import Protocol

#: the close code of a socket whose account session was closed
SESSION_CLOSED = 4401


class Closable(Protocol):
    async def close(self, code: int, reason: str) -> None: ...


class SessionSockets:
    """Open sockets by the account's player identity, each with the session token it
    opened with."""

    def __init__(self) -> None:
        self.by_player: dict[str, dict[Closable, str]] = {}

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
        but `keep`); the number closed."""
        closed = 0
        for conn, auth in list(self.by_player.get(player, {}).items()):
            if (only is not None and auth != only) or (keep is not None and auth == keep):
                continue
            await conn.close(SESSION_CLOSED, "session fermée")
            closed += 1
        return closed
