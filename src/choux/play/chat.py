"""Table chat: seated players talk in one room, spectators in another.

Messages are short plain text (at most `MAX_CHARS`), kept with the table (`chat_store`) and
shown in the replay. Whoever writes is named by an author key that carries no secret: "s2"
for seat 2, "v" + a digest of (table, guest identity) for a spectator. The host may silence
anyone at the table (kept in the store); each person may also hide someone for themselves
(that stays in their browser). With several processes, a new message is announced on the
table's channel and the other processes read it back from the store.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from choux.engine.visible import BIDI_CONTROLS, shows_something
from choux.play import chat_store
from choux.play.chat_store import ChatLine
from choux.play.errors import TableError
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.sync import Sync
from choux.play.tables import LiveTable

log = logging.getLogger("choux.play")

MAX_CHARS = 280
UNAVAILABLE = "La discussion est indisponible pour le moment : réessayez."
#: messages of a room kept in memory (and sent to a page when it opens)
KEPT = 200
QUICK_REACTIONS = ("Bien joué !", "Oups", "Merci")
ROOMS = ("players", "spectators")
AUTHOR = re.compile(r"^(s\d{1,2}|v[0-9a-f]{12}|spectators)$")
#: the host's mute of a whole room: every spectator at once (the host cannot read it)
ALL_SPECTATORS = "spectators"
#: the most people a host may silence at one table
MAX_MUTED = 64
#: control characters (line breaks included) become spaces
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


@dataclass(frozen=True)
class Speaker:
    """Who writes on one socket, and in which room."""

    author: str
    name: str
    room: str
    seat: int | None


def speaker_for(table: LiveTable, seat: int | None, player: str, name: str) -> Speaker:
    """A seated person speaks as their seat; anyone else as a spectator, under a key that
    names no cookie (a digest of the table's code and the guest identity)."""
    if seat is not None:
        return Speaker(f"s{seat}", table.names()[seat], "players", seat)
    return Speaker(
        person_key(table.code, player), (name or "Spectateur·rice")[:40], "spectators", None
    )


def person_key(code: str, player: str) -> str:
    """The chat author key of a person at table `code` who holds no seat there: a digest of
    the code and their identity (it names no cookie). Lines written at a seat the person
    then left take this key too (`Chat.rekey_seat_lines`): they stay theirs, not the seat's
    next occupant's."""
    return "v" + hashlib.sha256(f"{code}:{player}".encode()).hexdigest()[:12]


def clean_text(text: object) -> str:
    """The message as stored: one line, trimmed, NFC; refused in French if empty or long."""
    if not isinstance(text, str):
        raise TableError("Message illisible.")
    clean = CONTROL.sub(" ", unicodedata.normalize("NFC", text))
    clean = "".join(c for c in clean if c not in BIDI_CONTROLS).strip()
    if not shows_something(clean):
        raise TableError("Message vide : écrivez quelque chose.")
    if len(clean) > MAX_CHARS:
        raise TableError(f"Message trop long : {MAX_CHARS} caractères au plus.")
    return clean


@dataclass(eq=False)
class ChatRoom:
    """The chat of one table in memory: its last lines, who the host silenced, and a bell
    for every socket that shows it."""

    lines: list[ChatLine] = field(default_factory=list)
    muted: set[str] = field(default_factory=set)
    #: one more each time lines already sent changed (a moderator removed one, an account
    #: was erased): every page then gets the room again in full
    revision: int = 0
    watchers: set[asyncio.Event] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def last_id(self) -> int:
        return self.lines[-1].id if self.lines else 0

    def add(self, lines: list[ChatLine]) -> None:
        known = self.last_id
        self.lines.extend(line for line in lines if line.id > known)
        del self.lines[: max(0, len(self.lines) - KEPT * len(ROOMS))]

    def ring(self) -> None:
        for bell in self.watchers:
            bell.set()

    def since(self, room: str, after: int) -> list[ChatLine]:
        return [line for line in self.lines if line.room == room and line.id > after]


class Chat(Sync):
    def __init__(self, settings: Settings, store: Store) -> None:
        super().__init__(settings, store)
        self.chat_rooms: dict[str, ChatRoom] = {}
        #: rooms kept before the next sweep of those whose table left memory (doubled after
        #: each sweep: one pass over the rooms per doubling, not one per room read)
        self._chat_sweep_at = 64

    async def chat_room(self, table: LiveTable) -> ChatRoom:
        """The table's chat, read from the store the first time it is asked for."""
        room = self.chat_rooms.get(table.code)
        if room is not None:
            return room
        if len(self.chat_rooms) >= self._chat_sweep_at:
            for code in [
                c for c, r in self.chat_rooms.items() if c not in self.tables and not r.watchers
            ]:
                del self.chat_rooms[code]  # its table left memory: read again if it comes back
            self._chat_sweep_at = max(64, 2 * len(self.chat_rooms))
        fresh = ChatRoom()
        try:
            fresh.add(await chat_store.messages(self.store, table.row.id, limit=KEPT * len(ROOMS)))
            fresh.muted = await chat_store.muted(self.store, table.row.id)
        except Exception as error:  # the store away: the game goes on, the chat waits
            log.warning("table %s: chat not loaded: %s", table.code, error)
            return fresh
        return self.chat_rooms.setdefault(table.code, fresh)

    async def reread_chat(self, code: str) -> None:
        """Lines changed in the store (an erased account's): the room in memory is read
        again, or dropped when no page shows it."""
        room = self.chat_rooms.get(code)
        table = self.tables.get(code)
        if room is None:
            return
        if table is None or not room.watchers:
            del self.chat_rooms[code]
            return
        async with room.lock:
            fresh = await chat_store.messages(self.store, table.row.id, limit=KEPT * len(ROOMS))
            room.lines = []
            room.add(fresh)
            room.muted = await chat_store.muted(self.store, table.row.id)
            room.revision += 1
        room.ring()

    async def rekey_seat_lines(self, table: LiveTable, seat: int, player: str) -> None:
        """The person at `seat` leaves it before the start: their lines (and a silence the
        host gave them) follow them under their own key, and the room is sent again."""
        changed = await chat_store.rekey(
            self.store, table.row.id, f"s{seat}", person_key(table.code, player)
        )
        if changed:
            await self.chat_changed(table.code)

    async def chat_changed(self, code: str) -> None:
        """Lines already shown changed in the store: every process reads the room again."""
        await self.reread_chat(code)
        self._publish(code, {"chat": "reread"})

    async def say(self, table: LiveTable, speaker: Speaker, text: object) -> ChatLine:
        """Store and share one message; TableError (French) if it is refused."""
        clean = clean_text(text)
        room = await self.chat_room(table)
        if speaker.author in room.muted:
            raise TableError("L'hôte de la table vous a retiré la parole.", "forbidden")
        if speaker.room == "spectators" and ALL_SPECTATORS in room.muted:
            raise TableError(
                "L'hôte a fermé la discussion des spectateurs à cette table.", "forbidden"
            )
        async with room.lock:  # lines reach the room in id order
            try:
                line = await chat_store.add_message(
                    self.store, table.row.id, speaker.room, speaker.author, speaker.name, clean
                )
            except Exception as error:
                log.warning("table %s: chat message not stored: %s", table.code, error)
                raise TableError(UNAVAILABLE, "unavailable") from error
            room.add([line])
        room.ring()
        self._publish(table.code, {"chat": line.id})
        return line

    async def host_mute(self, table: LiveTable, by: Speaker, author: object, mute: bool) -> None:
        """The host silences (or gives back the word to) someone at the table, or every
        spectator at once (`ALL_SPECTATORS`: players do not read the spectators' room)."""
        if by.seat is None or not table.seats[by.seat].host:
            raise TableError("Seul l'hôte de la table peut retirer la parole.", "forbidden")
        if not isinstance(author, str) or not AUTHOR.match(author):
            raise TableError("Personne inconnue à cette table.")
        if author == by.author:
            raise TableError("Vous ne pouvez pas vous retirer la parole.")
        room = await self.chat_room(table)
        if mute and author not in room.muted and len(room.muted) >= MAX_MUTED:
            # every line sent carries the list: made-up names must not swell it for ever
            raise TableError(f"Déjà {MAX_MUTED} personnes sans parole à cette table.")
        try:
            await chat_store.set_muted(self.store, table.row.id, author, mute)
        except Exception as error:
            raise TableError(UNAVAILABLE, "unavailable") from error
        if mute:
            room.muted.add(author)
        else:
            room.muted.discard(author)
        room.ring()
        self._publish(table.code, {"chat": 0})

    async def _on_remote_change(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Several processes: a chat change made elsewhere is read back from the store."""
        if change is not None and change.get("chat") == "reread":
            await self.reread_chat(code)  # lines changed elsewhere (`reread_chat`)
            return
        if change is not None and "chat" in change:
            room = self.chat_rooms.get(code)
            table = self.tables.get(code)
            if room is not None and table is not None:
                async with room.lock:
                    room.add(await chat_store.messages(self.store, table.row.id, room.last_id))
                    room.muted = await chat_store.muted(self.store, table.row.id)
                room.ring()
            return
        await super()._on_remote_change(code, change)
