"""Telling the other server processes that a table changed (Redis), or nobody (one process).

Messages are hints, never the truth: a process that hears "table T changed" reloads what it
is missing from the store, so a lost message only delays a resync until the next one (or the
next action, whose version check fails and triggers the same catch-up, or the periodic
resync). A message about an action carries it (already committed), so a process exactly one
version behind applies it without reading the store.

Besides messages, Redis holds three kinds of short-lived keys:

- claims (`choux:claim:<code>:<version>:<what>`, value: the process id, with a TTL): the one
  process that takes it computes a bot's move or applies a clock's action for that version,
  the others only wait for the result (see `TableService._take_turn`);
- presence (`choux:here:<code>`, a sorted set of `<seat>:<process id>` scored by expiry in
  Redis' own clock): which seats have a socket open on which process, refreshed by each
  process's resync and updated soon after a seat's first socket opens or last one closes
  (the changes of a moment go in one script call and one message naming their tables);
- processes (`choux:process:<process id>`, with a TTL): each process alive on this Redis,
  read by `peers.py` to find a process of the same database on another Redis.

The listener counts its subscriptions (`epoch`): a table read from the store under the
current one, while the listener stays subscribed, has missed no message since, unless a
publisher failed to send it (the periodic resync covers that).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import orjson

log = logging.getLogger("choux.pubsub")

CHANNEL = "choux:tables"
PRESENCE = "choux:here"
CLAIM = "choux:claim"
PROCESS = "choux:process"
#: (table code, the action just stored or None): see TableService._on_remote_change
Handler = Callable[[str, dict[str, Any] | None], Awaitable[None]]
#: codes of the tables whose presence changed on another process
PresenceHandler = Callable[[list[str]], Awaitable[None]]
#: (player, `only` that session / None, all but `keep` / None): an account's sessions closed
SessionsHandler = Callable[[str, str | None, str | None], Coroutine[Any, Any, object]]
#: (table code, seat, True: a socket of it is open here / False: none is any more)
Mark = tuple[str, int, bool]
#: seconds a claim or a presence call may take before Redis is taken as away
REDIS_PATIENCE = 0.5
#: seconds without claims after Redis failed one (every process computes meanwhile)
CLAIM_BACKOFF = 5.0

# Presence in Redis' own clock (the processes' clocks may differ): members scored by expiry
_MARK = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local spec = ARGV[i + 2]
  local member = string.sub(spec, 2) .. ':' .. ARGV[2]
  if string.sub(spec, 1, 1) == '+' then
    redis.call('ZADD', key, now + ttl, member)
    if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
  else
    redis.call('ZREM', key, member)
  end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
end
return 1
"""
_SEEN = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('ZRANGEBYSCORE', key, now, '+inf') end
return out
"""
_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


def presence_key(code: str) -> str:
    return f"{PRESENCE}:{code}"


def process_key(origin: str) -> str:
    return f"{PROCESS}:{origin}"


def claim_key(code: str, version: int, what: str) -> str:
    return f"{CLAIM}:{code}:{version}:{what}"


class PubSub(Protocol):
    """What the table service needs from its messenger, one process or many."""

    #: identifies this process in messages and claims
    origin: str
    #: subscriptions of the listener so far (one more each time it subscribes again)
    epoch: int

    async def start(self, handler: Handler, on_presence: PresenceHandler | None = None) -> None:
        """Begin listening: `handler` hears the tables others changed."""

    async def stop(self) -> None: ...

    async def publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        """Tell the others that table `code` changed (`change`: the action, if one)."""

    def post(self, code: str, change: dict[str, Any] | None = None) -> None:
        """`publish` without waiting for the answer (failures are logged)."""

    async def publish_presence(self, *codes: str) -> None:
        """Tell the others that who sits at tables `codes` with a socket open changed."""

    def listen_sessions(self, handler: SessionsHandler) -> None:
        """`handler` hears the account sessions closed on other processes."""

    async def publish_sessions_closed(
        self, player: str, only: str | None, keep: str | None
    ) -> None:
        """Tell the others that sessions of `player` were closed (`only` that one, or all
        but `keep`): their open sockets must stop playing too."""

    def heard_all_since(self, epoch: int) -> bool:
        """Has every message been heard since subscription `epoch` began (the listener
        subscribed then and has stayed so)?"""

    async def mark_present(self, marks: list[Mark], ttl: float) -> None:
        """Record (code, seat, present) for this process's open sockets."""

    async def present(self, code: str, seat: int) -> bool | None:
        """Is a socket of this seat open on another process? None: cannot tell."""

    async def seats_elsewhere(self, codes: list[str]) -> dict[str, set[int]] | None:
        """Seats with a socket open on other processes, per table; None: cannot tell."""

    async def claim(self, key: str, ttl: float) -> tuple[bool | None, float]:
        """Take the one right to compute a turn: (taken, or None when unknown; seconds the
        holder keeps it)."""

    async def extend(self, key: str, ttl: float) -> None:
        """Keep a claim taken by this process for `ttl` more seconds."""

    async def announce(self, ttl: float) -> bool:
        """Say in Redis, for `ttl` seconds, that this process is alive (`peers.py`)."""

    async def announced(self, origins: list[str]) -> set[str] | None:
        """Which of these processes this Redis knows alive; None: cannot tell."""


def make_pubsub(redis_url: str | None) -> PubSub:
    """Redis between several processes when a URL is set, else the one-process messenger."""
    return RedisPubSub(redis_url) if redis_url else LocalPubSub()


class LocalPubSub:
    """One process: nothing to tell anyone, nobody to share a move with."""

    origin = "local"
    epoch = 0

    async def start(self, handler: Handler, on_presence: PresenceHandler | None = None) -> None:
        return None

    async def publish_presence(self, *codes: str) -> None:
        return None

    def listen_sessions(self, handler: SessionsHandler) -> None:
        return None

    async def publish_sessions_closed(
        self, player: str, only: str | None, keep: str | None
    ) -> None:
        return None

    def heard_all_since(self, epoch: int) -> bool:
        """One process: nobody else writes, there is nothing to hear."""
        return True

    async def publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        return None

    def post(self, code: str, change: dict[str, Any] | None = None) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def mark_present(self, marks: list[Mark], ttl: float) -> None:
        return None

    async def present(self, code: str, seat: int) -> bool | None:
        """Is a socket of this seat open on another process? One process: never."""
        return False

    async def seats_elsewhere(self, codes: list[str]) -> dict[str, set[int]] | None:
        return {code: set() for code in codes}

    async def claim(self, key: str, ttl: float) -> tuple[bool | None, float]:
        """One process: always this one."""
        return True, 0.0

    async def extend(self, key: str, ttl: float) -> None:
        return None

    async def announce(self, ttl: float) -> bool:
        return False

    async def announced(self, origins: list[str]) -> set[str] | None:
        return None


class RedisPubSub:
    """Several processes sharing one database: each publishes the codes of tables it changed
    and reloads the tables that others changed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = uuid.uuid4().hex
        #: one more each time the listener's subscription is confirmed; `listening` while
        #: it holds (messages published meanwhile are all heard)
        self.epoch = 0
        self.listening = False
        self.task: asyncio.Task[None] | None = None
        self.client: Any = None
        self.scripts: dict[str, Any] = {}
        self.on_presence: PresenceHandler | None = None
        self.on_sessions: SessionsHandler | None = None
        self._closing_sessions: set[asyncio.Task[object]] = set()
        #: monotonic time before which no claim is tried (Redis failed one)
        self.claims_off_until = 0.0
        #: claims taken and lost by this process (the loser waits for the winner's move)
        self.claims_won = 0
        self.claims_lost = 0
        #: messages waiting for the sender: all those of one loop turn go in one pipeline
        #: (one round trip, one connection) instead of a connection and a round trip each
        #: (text, the publisher's future, or the table's code when nobody waits for it)
        self._outbox: list[tuple[bytes, asyncio.Future[None] | str]] = []
        self._sender: asyncio.Task[None] | None = None

    async def start(self, handler: Handler, on_presence: PresenceHandler | None = None) -> None:
        import redis.asyncio as redis

        # connections are made lazily: a Redis that is down at startup does not stop the
        # server, the listener keeps trying and the periodic resync covers the gap
        self.client = redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5)
        for name, source in (("mark", _MARK), ("seen", _SEEN), ("extend", _EXTEND)):
            self.scripts[name] = self.client.register_script(source)
        self.on_presence = on_presence
        self.task = asyncio.get_running_loop().create_task(self._listen(handler))

    async def _listen(self, handler: Handler) -> None:
        pubsub: Any = None
        while True:
            try:
                if pubsub is None:
                    pubsub = self.client.pubsub()
                    await pubsub.subscribe(CHANNEL)
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message.get("type") == "subscribe":  # Redis confirms: all is heard from now
                    self.epoch += 1
                    self.listening = True
                    continue
                if message.get("type") != "message":
                    continue
                await self._heard(orjson.loads(message["data"]), handler)
            except asyncio.CancelledError:
                self.listening = False
                raise
            except Exception as error:  # Redis away for a moment: the store stays the truth
                self.listening = False
                log.warning("pub/sub listener: %s (retrying)", error)
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                    pubsub = None
                await asyncio.sleep(1.0)

    async def _heard(self, data: dict[str, Any], handler: Handler) -> None:
        """One message from another process: a table's change, presence at tables, or an
        account's sessions closed."""
        if data.get("origin") == self.origin:
            return
        code = data.get("code")
        try:
            if "sessions_of" in data:
                await self._sessions_closed(data)
            elif data.get("presence"):
                codes = data.get("codes", [code])
                codes = [c for c in codes if isinstance(c, str)] if isinstance(codes, list) else []
                if codes and self.on_presence is not None:
                    await self.on_presence(codes)
            elif isinstance(code, str):
                change = data.get("change")
                await handler(code, change if isinstance(change, dict) else None)
        except Exception:  # a bug in handling one message is not Redis failing
            log.exception("pub/sub handler, table %s", code)

    async def _sessions_closed(self, data: dict[str, Any]) -> None:
        player, only, keep = data.get("sessions_of"), data.get("only"), data.get("keep")
        if self.on_sessions is None or not isinstance(player, str):
            return
        if all(value is None or isinstance(value, str) for value in (only, keep)):
            # a task: a socket slow to close must not hold up every other message
            task = asyncio.get_running_loop().create_task(self.on_sessions(player, only, keep))
            self._closing_sessions.add(task)
            task.add_done_callback(self._closing_sessions.discard)

    def heard_all_since(self, epoch: int) -> bool:
        return self.listening and self.epoch == epoch

    def listen_sessions(self, handler: SessionsHandler) -> None:
        self.on_sessions = handler

    async def publish_sessions_closed(
        self, player: str, only: str | None, keep: str | None
    ) -> None:
        """One message; a Redis away loses it (the socket then lasts until it reconnects,
        as before: its session is checked again at every socket open)."""
        if self.client is None:
            return
        message = {"origin": self.origin, "sessions_of": player, "only": only, "keep": keep}
        try:
            async with asyncio.timeout(REDIS_PATIENCE * 4):  # a log-out never waits on Redis
                await self._send(orjson.dumps(message))
        except Exception as error:
            log.warning("could not publish closed sessions: %s", error)

    async def publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        """`change`: the action just committed, so that the others need not read it back."""
        if self.client is None:
            return
        try:
            await self._send(self._change_text(code, change))
        except Exception as error:
            log.warning("could not publish a change of table %s: %s", code, error)

    def post(self, code: str, change: dict[str, Any] | None = None) -> None:
        """`publish` without waiting for Redis (the write path's way: no task per version);
        a message Redis did not take is logged by the sender, as `publish` does."""
        if self.client is None:
            return
        self._queue(self._change_text(code, change), code)

    def _change_text(self, code: str, change: dict[str, Any] | None) -> bytes:
        message: dict[str, Any] = {"origin": self.origin, "code": code}
        if change is not None:
            message["change"] = change
        return orjson.dumps(message)

    async def publish_presence(self, *codes: str) -> None:
        """Tell the others that the sockets of tables `codes` changed here (they read them
        back from Redis): one message for all of them."""
        if self.client is None or not codes:
            return
        message = {"origin": self.origin, "codes": list(codes), "presence": True}
        try:
            await self._send(orjson.dumps(message))
        except Exception as error:
            log.warning("could not publish the presence of %s tables: %s", len(codes), error)

    async def _send(self, text: bytes) -> None:
        """Publish `text` on the channel; returns once Redis took it (raises if it did not).
        Messages go out in the order they were given, those queued together in one
        pipeline."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue(text, future)
        await future

    def _queue(self, text: bytes, waiter: asyncio.Future[None] | str) -> None:
        self._outbox.append((text, waiter))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_queued())

    async def _send_queued(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            error: BaseException | None = None
            try:
                pipe = self.client.pipeline(transaction=False)
                for text, _ in batch:
                    pipe.publish(CHANNEL, text)
                await pipe.execute()
            except BaseException as failed:  # cancelled too: no caller waits forever
                error = failed
            for _, waiter in batch:
                if isinstance(waiter, str):  # posted: nobody waits, say it here
                    if error is not None:
                        log.warning("could not publish a change of table %s: %s", waiter, error)
                elif waiter.done():
                    continue
                elif error is None:
                    waiter.set_result(None)
                else:
                    waiter.set_exception(
                        error if isinstance(error, Exception) else ConnectionError("stopped")
                    )
            if error is not None and not isinstance(error, Exception):
                raise error

    async def mark_present(self, marks: list[Mark], ttl: float) -> None:
        """Record which seats have a socket open here (True) or no longer (False); an entry
        expires by itself after `ttl` seconds unless marked again (a dead process)."""
        if self.client is None or not marks:
            return
        keys = [presence_key(code) for code, _, _ in marks]
        specs = [("+" if here else "-") + str(seat) for _, seat, here in marks]
        try:
            # a timeout scope, not `wait_for`: no inner task that could finish with an
            # exception nobody reads when the caller is cancelled (shutdown)
            async with asyncio.timeout(REDIS_PATIENCE * 4):
                await self.scripts["mark"](keys=keys, args=[int(ttl * 1000), self.origin, *specs])
        except Exception as error:
            log.warning("could not record presence: %s", error)

    async def seats_elsewhere(self, codes: list[str]) -> dict[str, set[int]] | None:
        """For each table, the seats with a socket open on ANOTHER process (None: Redis is
        away and cannot say)."""
        if self.client is None:
            return None
        if not codes:
            return {}
        try:
            async with asyncio.timeout(REDIS_PATIENCE * 4):
                found = await self.scripts["seen"](keys=[presence_key(code) for code in codes])
        except Exception:
            return None
        result: dict[str, set[int]] = {}
        for code, members in zip(codes, found, strict=True):
            seats: set[int] = set()
            for member in members:
                seat, _, origin = (
                    member.decode() if isinstance(member, bytes) else str(member)
                ).partition(":")
                if origin != self.origin and seat.isdigit():
                    seats.add(int(seat))
            result[code] = seats
        return result

    async def present(self, code: str, seat: int) -> bool | None:
        """True if another process has a socket of this seat open, None if Redis is away."""
        seen = await self.seats_elsewhere([code])
        return None if seen is None else seat in seen.get(code, set())

    async def claim(self, key: str, ttl: float) -> tuple[bool | None, float]:
        """Take `key` for this process for `ttl` seconds if nobody holds it. Returns (True,
        ttl) when this process holds it (taken now or before), (False, seconds the holder
        keeps it) when another does, (None, 0) when Redis cannot say: then every process
        may go ahead, as without claims (the first write wins)."""
        if self.client is None or time.monotonic() < self.claims_off_until:
            return None, 0.0
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.set(key, self.origin, nx=True, px=max(1, int(ttl * 1000)))
                pipe.get(key)
                pipe.pttl(key)
                async with asyncio.timeout(REDIS_PATIENCE):
                    taken, owner, left = await pipe.execute()
        except Exception as error:
            self.claims_off_until = time.monotonic() + CLAIM_BACKOFF
            log.warning("claim %s: Redis cannot say (%s), going ahead", key, error)
            return None, 0.0
        if taken or owner in (self.origin, self.origin.encode()):
            self.claims_won += 1
            return True, ttl
        self.claims_lost += 1
        return False, max(0.0, left / 1000) if isinstance(left, int) and left > 0 else 0.0

    async def extend(self, key: str, ttl: float) -> None:
        """Keep holding `key` for `ttl` more seconds (a bot that waits before moving)."""
        if self.client is None or time.monotonic() < self.claims_off_until:
            return
        try:
            async with asyncio.timeout(REDIS_PATIENCE):
                await self.scripts["extend"](
                    keys=[key], args=[self.origin, max(1, int(ttl * 1000))]
                )
        except Exception as error:
            log.warning("could not extend claim %s: %s", key, error)

    async def announce(self, ttl: float) -> bool:
        """`choux:process:<origin>` for `ttl` seconds; False if Redis did not take it."""
        if self.client is None:
            return False
        try:
            async with asyncio.timeout(REDIS_PATIENCE):
                await self.client.set(process_key(self.origin), b"1", px=max(1, int(ttl * 1000)))
        except Exception as error:
            log.warning("could not announce this process: %s", error)
            return False
        return True

    async def announced(self, origins: list[str]) -> set[str] | None:
        if self.client is None:
            return None
        try:
            async with asyncio.timeout(REDIS_PATIENCE):
                found = await self.client.mget([process_key(o) for o in origins])
        except Exception as error:
            log.warning("could not read the processes announced: %s", error)
            return None
        return {o for o, value in zip(origins, found, strict=True) if value is not None}

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(BaseException):
                await self._sender
        for _, waiter in self._outbox:  # not sent: their callers hear so
            if not isinstance(waiter, str) and not waiter.done():
                waiter.set_exception(ConnectionError("stopped"))
        self._outbox = []
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        self.listening = False
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()
