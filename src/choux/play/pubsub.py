"""Telling the other server processes that a table changed (Redis), or nobody (one process).

Messages are hints, never the truth: a process that hears "table T changed" reloads what it
is missing from the store, so a lost message only delays a resync until the next one (or the
next action, whose version check fails and triggers the same catch-up).
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
Handler = Callable[[str], Awaitable[None]]


class LocalPubSub:
    """One process: nothing to tell anyone."""

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, code: str) -> None:
        return None

    async def stop(self) -> None:
        return None


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

        self.client = redis.from_url(self.url)
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL)
        self.task = asyncio.get_running_loop().create_task(self._listen(pubsub, handler))

    async def _listen(self, pubsub: Any, handler: Handler) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None:
                    continue
                data = json.loads(message["data"])
                if data.get("origin") != self.origin and isinstance(data.get("code"), str):
                    await handler(data["code"])
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away for a moment: the store stays the truth
                log.exception("pub/sub listener")
                await asyncio.sleep(1.0)

    async def publish(self, code: str) -> None:
        if self.client is None:
            return
        try:
            await self.client.publish(CHANNEL, json.dumps({"origin": self.origin, "code": code}))
        except Exception:
            log.warning("could not publish a change of table %s", code)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()
