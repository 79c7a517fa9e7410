"""The server's heartbeat: sockets opened together are not all pinged in the same instant,
and a client that speaks is not pinged."""

from __future__ import annotations

import asyncio
from typing import Any

from choux.web.ws import heartbeat


class Recorder:
    """Stands for a `Connection`: notes when each ping is sent."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.last_heard = asyncio.get_running_loop().time()

    async def send(self, message: dict[str, Any]) -> None:
        assert message == {"type": "ping"}
        self.times.append(asyncio.get_running_loop().time())


async def test_sockets_opened_together_are_pinged_at_spread_times() -> None:
    seconds = 0.2
    recorders = [Recorder() for _ in range(60)]
    start = asyncio.get_running_loop().time()
    tasks = [asyncio.create_task(heartbeat(r, seconds)) for r in recorders]  # type: ignore[arg-type]
    await asyncio.sleep(seconds * 3.5)
    for task in tasks:
        task.cancel()
    firsts = [r.times[0] - start for r in recorders]
    assert min(firsts) >= seconds * 0.5 - 0.01
    assert max(firsts) <= seconds * 1.5 + 0.1
    assert max(firsts) - min(firsts) > seconds * 0.5  # uniform over a whole period: not one instant
    for r in recorders:  # then one ping a period
        gaps = [b - a for a, b in zip(r.times, r.times[1:], strict=False)]
        assert gaps and all(seconds * 0.9 <= gap <= seconds * 1.5 for gap in gaps)


async def test_a_client_that_speaks_is_not_pinged() -> None:
    # a period long enough that a loaded machine's late wake-up (0.05 s seen under the
    # whole suite) stays well inside the half period a message covers
    seconds = 0.4
    talker, silent = Recorder(), Recorder()
    tasks = [asyncio.create_task(heartbeat(r, seconds)) for r in (talker, silent)]  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds * 6
    while loop.time() < end:
        talker.last_heard = loop.time()  # what the receive loop notes for every message
        await asyncio.sleep(seconds / 10)
    for task in tasks:
        task.cancel()
    assert talker.times == []
    assert len(silent.times) >= 4
