"""A live table in memory: its game state, seats, log, subscribers, and what it sends.

The state is only ever replaced under the table's lock by `TableService`; building a
message reads it synchronously, so a message is always consistent with its version.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from choux.engine.base import Bot, Event, Game, State
from choux.play.names import bot_name
from choux.play.store import SeatRow, TableRow

STATUS_LABELS = {"open": "en attente de joueurs", "live": "en cours", "over": "terminée"}

#: message builds, numbered across all tables (see `LiveTable._leave_out_rare`)
BUILDS = itertools.count()


WORD = re.compile(r"\w+")


def reveals(text: str, secrets: set[str], odd: list[str] | None = None) -> bool:
    """Does `text` hold one of `secrets` as a whole word (or, for odd tokens, anywhere)?
    `odd`: the secrets that are not alphanumeric, when the caller already knows them (one
    message checks many lines against the same secrets)."""
    if not set(WORD.findall(text)).isdisjoint(secrets):
        return True  # a secret among the words is in the text, odd or not
    if odd is None:
        odd = [s for s in secrets if not s.isalnum()]
    return any(s in text for s in odd)


def dumps(message: object) -> str:
    """Compact JSON text, non-ASCII as is (orjson: about ten times json.dumps's speed)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Subscriber:
    """One WebSocket: which seat it shows, what it was last sent, a bell to wake it."""

    seat: int | None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sent_version: int = -1
    sent_log: int = 0
    sent_meta: int = -1
    sent_build: int = -1  # the build of its last message (games with `rare_view_keys`)


@dataclass(frozen=True, slots=True)
class Named:
    """A past event with the names the table had when it happened: a seat handed to a bot
    (« Alice (robot) ») or taken back must not rename what the person, or the bot, did.
    Rendered as an event is, so the secrets check applies to it alike."""

    event: Event
    names: tuple[str, ...]

    def render(self, names: Any = None) -> str:
        return self.event.render(self.names)


@dataclass
class LiveTable:
    row: TableRow
    game: Game
    state: State
    version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    log: list[tuple[int, Event | Named | str]] = field(default_factory=list)
    actions: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    client_ids: dict[tuple[int | None, str], int] = field(default_factory=dict)
    bots: dict[int, Bot] = field(default_factory=dict)
    subscribers: set[Subscriber] = field(default_factory=set)
    connections: dict[int, int] = field(default_factory=dict)
    #: seats with a socket open on another server process (several processes, via Redis)
    remote: set[int] = field(default_factory=set)
    #: time.time() at which a bot takes each absent person's seat (their grace runs here)
    bot_at: dict[int, float] = field(default_factory=dict)
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    record_id: int | None = None
    #: bumped when seats or status change without an action (joins, replacements)
    meta: int = 0
    #: time.time() before which no timer plays (a table just restored: pages reconnect)
    quiet_until: float = 0.0
    #: who created it (an address), for the limit on bot-only tables per client
    client: str | None = None
    #: several processes: the listener's subscription under which this copy was last read
    #: from the store (or made here); while it holds, no change made elsewhere was missed
    synced_epoch: int = -1
    #: serialized messages of the current moment (version, meta, log length...), by what
    #: decides their content: every socket of a seat, and every spectator, share one. Only
    #: the text is kept: a view's dicts die as soon as it is serialized, young, instead of
    #: living until the next version and feeding the garbage collector's oldest generation
    _texts: dict[tuple[Any, ...], tuple[str, int]] = field(default_factory=dict)
    _texts_at: tuple[Any, ...] = ()
    #: the game's `rare_view_keys`: each one's digest, and the message build since which it
    #: has held (builds are numbered across all tables, so a number from any older copy of
    #: this table is smaller than every build of this one)
    _rare: dict[str, tuple[bytes, int]] | None = None
    deadline_at: float | None = None  # wall-clock time when the open window closes
    #: the open window's key (`State.window_key`) and the people its move clock waits for:
    #: while they stay the same, the clocks keep their time
    window: tuple[object, tuple[int, ...] | None] | None = None
    move_at: float | None = None  # wall-clock time when the move clock plays for a person

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def bot_only(self) -> bool:
        """No person sits here (bots play each other; nobody waits for them)."""
        return all(s.kind == "bot" for s in self.seats)

    def names(self) -> list[str]:
        names = []
        for s in self.seats:
            if s.kind == "bot" and not s.name:
                names.append(bot_name(s.seat, s.level or "?"))
            else:
                names.append(s.name or f"Place {s.seat + 1}")
        return names

    def seat_for_token(self, seat: object, token: object) -> int | None:
        """The seat if `token` is its secret, else None (constant-time comparison)."""
        if not isinstance(seat, int) or not isinstance(token, str) or isinstance(seat, bool):
            return None
        if not 0 <= seat < len(self.seats):
            return None
        expected = self.seats[seat].token_hash
        if expected is None or self.seats[seat].kind != "human":
            return None
        return seat if hmac.compare_digest(expected, hash_token(token)) else None

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "open"]

    def wake_all(self) -> None:
        for sub in self.subscribers:
            sub.wake.set()

    # ------------------------------------------------------------------ messages

    def seats_json(self, names: list[str] | None = None) -> list[dict[str, Any]]:
        """The seats as pages show them (`names`: the table's names, if already known)."""
        names = self.names() if names is None else names
        return [
            {
                "seat": s.seat,
                "name": names[s.seat],
                "kind": s.kind,
                "host": s.host,
                # an open seat is never shown connected: presence told by another process
                # may arrive before this one has caught up with the join that took the seat
                "connected": s.kind == "bot"
                or (
                    s.kind != "open"
                    and (self.connections.get(s.seat, 0) > 0 or s.seat in self.remote)
                ),
            }
            for s in self.seats
        ]

    def keep_past_names(self) -> None:
        """Before a seat changes name: the journal's events so far keep today's names."""
        names = tuple(self.names())
        self.log[:] = [
            (version, Named(entry, names) if isinstance(entry, Event) else entry)
            for version, entry in self.log
        ]

    def log_text(
        self,
        entry: Event | Named | str,
        seat: int | None,
        secrets: set[str],
        names: list[str] | None = None,
        odd: list[str] | None = None,
    ) -> str | None:
        """The event rendered with names, or None if it would reveal a secret to `seat`
        (`names`, `odd`: the table's names and the secrets' odd tokens, if already known)."""
        if isinstance(entry, str):
            return entry
        text = entry.render(self.names() if names is None else names)
        if secrets and reveals(text, secrets, odd):
            return None
        return text

    def message_text(self, sub: Subscriber, full: bool = False) -> str:
        """`message(sub, full)` as JSON text, built and serialized once per version for all
        the sockets that would receive the same one (a seat's, the spectators')."""
        moment = (
            self.version,
            self.meta,
            len(self.log),
            self.status,
            self.record_id,
            self.row.next_code,
            self.deadline_at,
            self.move_at,
            # a quick-play table's wait for bots counts down: a text a second at most
            int(time.time()) if self.row.fill_at is not None and self.status == "open" else 0,
            int(time.time()) if self.bot_at else 0,  # the same for an absent person's grace
        )
        if moment != self._texts_at:
            self._texts.clear()
            self._texts_at = moment
        start = 0 if full else sub.sent_log
        if start > len(self.log):
            start, full = 0, True
        # the rare parts a socket is sent depend on what it was sent last
        since = sub.sent_build if self.game.rare_view_keys and not full else None
        key = (sub.seat, full, start, since)
        cached = self._texts.get(key)
        if cached is None:
            text = dumps(self.message(sub, full))
            self._texts[key] = (text, sub.sent_build)
        else:  # what `message` records for the socket
            text, sub.sent_build = cached
            sub.sent_version = self.version
            sub.sent_log = len(self.log)
            sub.sent_meta = self.meta
        return text

    def viewer(self, seat: int | None) -> int | None:
        """Whose view `seat` is sent: its own, except before the start when it would show
        more than a spectator sees (a hand): the deal is made when the table is created, and
        until the game starts a seat may still change hands (the host frees it, someone
        else sits there), so its cards must not have been shown to the one who left."""
        if seat is None or self.status != "open":
            return seat
        if self.state.secrets(None) - self.state.secrets(seat):
            return None
        return seat

    def bot_in(self) -> dict[str, float]:
        """Seconds before a bot takes each absent person's seat, so that the others know how
        long they wait (seat numbers as text: JSON keys)."""
        now = time.time()
        return {
            str(seat): max(0.0, round(when - now, 1))
            for seat, when in self.bot_at.items()
            # a seat with a page open on another process is not absent, whatever this
            # process's own grace clock says
            if self.seats[seat].kind == "human"
            and self.status == "live"
            and seat not in self.remote
        }

    def fill_in(self) -> float | None:
        """Seconds before bots take the empty seats of a quick-play table still open (None:
        no such promise), so that the page says when the game starts."""
        when = self.row.fill_at
        if when is None or self.status != "open":
            return None
        if when.tzinfo is None:  # SQLite gives naive times back
            when = when.replace(tzinfo=UTC)
        return max(0.0, (when - datetime.now(UTC)).total_seconds())

    def message(self, sub: Subscriber, full: bool = False) -> dict[str, Any]:
        """What `sub` must receive now: its own view, the version and the new log lines."""
        seat = sub.seat
        start = 0 if full else sub.sent_log
        if start > len(self.log):
            start, full = 0, True
        secrets = self.state.secrets(seat) if start < len(self.log) else set()
        lines = []
        names = self.names()
        odd = [s for s in secrets if not s.isalnum()]
        for version, entry in self.log[start:]:
            text = self.log_text(entry, seat, secrets, names, odd)
            if text is not None:
                lines.append({"v": version, "text": text})
        outcome = self.state.outcome() if self.state.is_over() else None
        message: dict[str, Any] = {
            "type": "state",
            "full": full,
            "version": self.version,
            "status": self.status,
            "seat": seat,
            "seats": self.seats_json(names),
            "view": self.state.view(self.viewer(seat)),
            "log_from": start,
            "log_to": len(self.log),
            "log": lines,
            "result": outcome.to_json() if outcome is not None else None,
            "record_id": self.record_id,
            "next_code": self.row.next_code,
            "deadline": (
                max(0.0, self.deadline_at - time.time()) if self.deadline_at is not None else None
            ),
            "move_clock": (
                max(0.0, self.move_at - time.time()) if self.move_at is not None else None
            ),
            "fill_in": self.fill_in(),
            "bot_in": self.bot_in(),
        }
        if self.game.rare_view_keys:
            self._leave_out_rare(message, sub, full)
        sub.sent_version = self.version
        sub.sent_log = len(self.log)
        sub.sent_meta = self.meta
        return message

    def _leave_out_rare(self, message: dict[str, Any], sub: Subscriber, full: bool) -> None:
        """Leave out of `message` the rare view parts `sub` already holds: those unchanged
        since its last message's build. The message names them (`kept`) and that build
        (`kept_from`), and carries its own (`build`); the page takes them from the message
        it holds, which must be that build's (else it asks for everything again)."""
        build = next(BUILDS)
        seen = self._rare if self._rare is not None else {}
        self._rare = seen
        view = message["view"]
        kept: list[str] = []
        for key in self.game.rare_view_keys:
            if key not in view:
                continue
            digest = hashlib.blake2b(
                orjson.dumps(view[key], option=orjson.OPT_NON_STR_KEYS), digest_size=16
            ).digest()
            before = seen.get(key)
            if before is None or before[0] != digest:
                seen[key] = (digest, build)
            elif not full and sub.sent_build >= before[1]:
                kept.append(key)
        message["build"] = build
        if kept:
            message["view"] = {k: v for k, v in view.items() if k not in kept}
            message["kept"] = kept
            message["kept_from"] = sub.sent_build
        sub.sent_build = build
