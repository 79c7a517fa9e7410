"""Several processes must share one Redis: a process on another Redis (a mistyped
`CHOUX_REDIS_URL`, another database number) writes into the same database, but nobody
here hears its moves, its claims or who sits at its tables. Its players see the others'
moves late, and two processes may both think a table's bot is theirs.

Each process says it is alive in both places every `BEAT` seconds: a row of the store's
`meta` table (`process:<id>`, the time) and a key of its Redis (`pubsub.announce`). A
process alive in the store and unknown to this Redis twice in a row is on another Redis:
the log says so in French, once an hour for each such process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, insert, select

from choux.play.pubsub import PubSub
from choux.play.store import Store, meta_t

log = logging.getLogger("choux.peers")

#: seconds between two signs of life
BEAT = 10.0
#: a process silent for this many beats is gone (crashed, stopped)
ALIVE_BEATS = 3
#: the store's rows of processes gone for longer than this are deleted
FORGET_AFTER = timedelta(days=1)
#: seconds between two warnings about the same process
WARN_EVERY = 3600.0
PREFIX = "process:"


def _now() -> datetime:
    return datetime.now(UTC)


class Peers:
    """This process's signs of life, and the processes of the store its Redis never heard."""

    def __init__(self, store: Store, pubsub: PubSub, beat: float = BEAT) -> None:
        self.store = store
        self.pubsub = pubsub
        self.beat = beat
        #: processes missing from this Redis at the last check; missing at two in a row
        self.missing: set[str] = set()
        self.strangers: set[str] = set()
        #: when each stranger was last written about (monotonic)
        self._warned: dict[str, float] = {}

    @property
    def key(self) -> str:
        return PREFIX + self.pubsub.origin

    async def sign(self) -> None:
        """Alive now, in the store and in Redis."""
        now = _now()
        async with self.store.db.begin() as conn:
            await conn.execute(delete(meta_t).where(meta_t.c.key == self.key))
            await conn.execute(insert(meta_t).values(key=self.key, value=now.isoformat()))
            rows = await conn.execute(
                select(meta_t.c.key, meta_t.c.value).where(meta_t.c.key.like(PREFIX + "%"))
            )
            old = [r.key for r in rows if _when(r.value) < now - FORGET_AFTER]
            if old:
                await conn.execute(delete(meta_t).where(meta_t.c.key.in_(old)))
        await self.pubsub.announce(self.beat * ALIVE_BEATS)

    async def check(self) -> set[str]:
        """The processes alive in the store that this Redis has not known twice in a row."""
        since = _now() - timedelta(seconds=self.beat * ALIVE_BEATS)
        async with self.store.db.connect() as conn:
            rows = await conn.execute(
                select(meta_t.c.key, meta_t.c.value).where(meta_t.c.key.like(PREFIX + "%"))
            )
            alive = [
                r.key.removeprefix(PREFIX)
                for r in rows
                if r.key != self.key and _when(r.value) >= since
            ]
        if not alive:
            self.missing = set()
            return set()
        known = await self.pubsub.announced(alive)
        if known is None:  # Redis away: nothing can be told
            return self.strangers
        missing = set(alive) - known
        self.strangers, self.missing = missing & self.missing, missing
        for origin in self.strangers:
            self._warn(origin)
        return self.strangers

    def _warn(self, origin: str) -> None:
        last = self._warned.get(origin)
        if last is not None and time.monotonic() - last < WARN_EVERY:
            return
        self._warned[origin] = time.monotonic()
        log.error(
            "Le processus %s écrit dans la même base que celui-ci (%s), mais ce Redis ne le "
            "connaît pas : CHOUX_REDIS_URL diffère-t-il d'un processus à l'autre ? Leurs "
            "joueurs ne se voient pas jouer à temps, et leurs robots peuvent jouer deux fois.",
            origin[:8],
            self.pubsub.origin[:8],
        )

    async def run(self) -> None:
        """Sign and check every beat, for as long as the process runs."""
        while True:
            try:
                await self.sign()
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the store or Redis away: try again next beat
                log.warning("processes not checked: %s", error)
            await asyncio.sleep(self.beat)

    async def leave(self) -> None:
        """Stopped cleanly: the others no longer look for this process."""
        async with self.store.db.begin() as conn:
            await conn.execute(delete(meta_t).where(meta_t.c.key == self.key))


def _when(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
