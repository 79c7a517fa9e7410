"""Telling the other server processes that a table changed (Redis), or nobody (one process).

Messages are hints, never the truth: a process that hears "table T changed" reloads what it
is missing from the store, so a lost message only delays a resync until the next one (or the
next action, whose version check fails and triggers the same catch-up, or the periodic
resync). A message about an action carries it (already committed), so a process exactly one
version behind applies it without reading the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("choux.pubsub")

CHANNEL = "choux:tables"
PRESENCE = "choux:seen"
#: (table code, the action just stored or None): see TableService._on_remote_change
Handler = Callable[[str, dict[str, Any] | None], Awaitable[None]]


def presence_key(code: str, seat: int) -> str:
    return f"{PRESENCE}:{code}:{seat}"


class LocalPubSub:
    """One process: nothing to tell anyone."""

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def mark_present(self, keys: list[tuple[str, int]], ttl: float) -> None:
        return None

    async def present(self, code: str, seat: int) -> bool | None:
        """Is a socket of this seat open on another process? One process: never."""
        return False


class RedisPubSub:
    """Several processes sharing one database: each publishes the codes of tables it changed
    and reloads the tables that others changed."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = uuid.uuid4().hex
        self.task: asyncio.Task[None] | None = None
        self.client: Any = None

    async def start(self, handler: Handler) -> None:
        import redis.asyncio as redis

        # connections are made lazily: a Redis that is down at startup does not stop the
        # server, the listener keeps trying and the periodic resync covers the gap
        self.client = redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5)
        self.task = asyncio.get_running_loop().create_task(self._listen(handler))

    async def _listen(self, handler: Handler) -> None:
        pubsub: Any = None
        while True:
            try:
                if pubsub is None:
                    pubsub = self.client.pubsub()
                    await pubsub.subscribe(CHANNEL)
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None:
                    continue
                data = json.loads(message["data"])
                if data.get("origin") != self.origin and isinstance(data.get("code"), str):
                    change = data.get("change")
                    try:
                        await handler(data["code"], change if isinstance(change, dict) else None)
                    except Exception:  # a bug in handling one message is not Redis failing
                        log.exception("pub/sub handler, table %s", data["code"])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away for a moment: the store stays the truth
                log.warning("pub/sub listener: %s (retrying)", error)
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                    pubsub = None
                await asyncio.sleep(1.0)

    async def publish(self, code: str, change: dict[str, Any] | None = None) -> None:
        """`change`: the action just committed, so that the others need not read it back."""
        if self.client is None:
            return
        message: dict[str, Any] = {"origin": self.origin, "code": code}
        if change is not None:
            message["change"] = change
        try:
            await self.client.publish(CHANNEL, json.dumps(message, separators=(",", ":")))
        except Exception as error:
            log.warning("could not publish a change of table %s: %s", code, error)

    async def mark_present(self, keys: list[tuple[str, int]], ttl: float) -> None:
        """Tell the other processes which seats have a socket open here (expires by itself)."""
        if self.client is None or not keys:
            return
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for code, seat in keys:
                    pipe.set(presence_key(code, seat), self.origin, px=int(ttl * 1000))
                await pipe.execute()
        except Exception as error:
            log.warning("could not record presence: %s", error)

    async def present(self, code: str, seat: int) -> bool | None:
        """True if some process recently had a socket of this seat, None if Redis is away."""
        if self.client is None:
            return None
        try:
            return bool(await self.client.exists(presence_key(code, seat)))
        except Exception:
            return None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()
