"""A server for `bench/web_tables.py` without uvloop and httptools (issue 17: do they pay?).

    BENCH_SERVER=bench/plain_loop_server.py .venv/bin/python bench/web_tables.py ...

`choux serve` runs Uvicorn with its defaults, `loop="auto"` and `http="auto"`: uvloop and
httptools whenever they are installed (`uvicorn[standard]` installs them). This server is
the same but with the standard library's asyncio loop and the pure-Python h11 parser.
"""

from __future__ import annotations

import sys
from typing import Any

import uvicorn

from choux.web.server import run

original = uvicorn.run


def plain(app: Any, **kwargs: Any) -> None:
    original(app, loop="asyncio", http="h11", **kwargs)


if __name__ == "__main__":
    uvicorn.run = plain  # type: ignore[assignment]
    run(host="127.0.0.1", port=int(sys.argv[1]), database_url=sys.argv[2])
