"""Table chat over the table's WebSocket (see `play/chat.py` for the rules).

Client -> server:
  {"type": "chat", "text": "..."}                      say something in one's room
  {"type": "chat_mute", "who": "s1", "muted": true}    host only: silence someone
Server -> client:
  {"type": "chat", "room": "players"|"spectators", "full": bool, "lines": [...],
   "muted": [...], "me": "s0", "host": bool}
A line is {"id", "room", "who", "name", "text", "at"}: a name and plain text, nothing else.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from choux.play.chat import ChatRoom, Speaker, clean_text
from choux.play.errors import TableError
from choux.play.service import TableService
from choux.play.tables import LiveTable
from choux.web.ratelimits import Limits

CHAT_TYPES = {"chat", "chat_mute"}
FLOOD = "Trop de messages : attendez un peu avant d'écrire encore."


class Sender(Protocol):
    table: LiveTable

    async def send(self, message: dict[str, Any]) -> None: ...


async def pusher(conn: Sender, room: ChatRoom, speaker: Speaker) -> None:
    """Send the room's history when the page opens, then each new line of the room."""
    table = conn.table
    bell = asyncio.Event()
    room.watchers.add(bell)
    sent = 0
    full = True
    muted: list[str] | None = None
    revision = room.revision
    try:
        while True:
            if room.revision != revision:  # lines already sent changed: all of them again
                sent, full, revision = 0, True, room.revision
            lines = room.since(speaker.room, sent)
            now_muted = sorted(room.muted)
            if lines or full or now_muted != muted:
                host = speaker.seat is not None and table.seats[speaker.seat].host
                await conn.send(
                    {
                        "type": "chat",
                        "room": speaker.room,
                        "full": full,
                        "lines": [line.to_json() for line in lines],
                        "muted": now_muted,
                        "me": speaker.author,
                        "host": host,
                    }
                )
                sent = max([sent] + [line.id for line in lines])
                full, muted = False, now_muted
            await bell.wait()
            bell.clear()
    finally:
        room.watchers.discard(bell)


async def handle(
    conn: Sender,
    service: TableService,
    speaker: Speaker,
    message: dict[str, Any],
    limits: Limits,
    client: str = "",
) -> None:
    """One chat message from the page: said, or refused in French (nothing else changes).
    A seat's budget is its own; the spectators' is their address's (`client`): each socket
    opened without a cookie is a new spectator, and one address filled the room that way."""
    table = conn.table
    budget = speaker.author if speaker.seat is not None else f"spectators:{client}"
    try:
        if message["type"] == "chat":
            clean_text(message.get("text"))  # a malformed message costs no budget
            if not await limits.allow("chat", f"{table.code}:{budget}"):
                raise TableError(FLOOD, "busy")
            await service.say(table, speaker, message.get("text"))
        else:
            await service.host_mute(table, speaker, message.get("who"), bool(message.get("muted")))
    except TableError as error:
        await conn.send({"type": "chat_refused", "message": error.message})
