"""Web benchmark: K server processes, N tables played over real WebSockets on loopback.

Every seat is a WebSocket client that answers its own view with a random legal action, as
a person would, after `--think` seconds on average (0: no thinking time, which saturates
the CPU and measures the most actions per second). Measured: actions per second over the whole run and
the latency from sending an action to the moment the LAST seat of the table has received
the new version (p50, p95, p99).

    .venv/bin/python bench/web_tables.py --tables 50 --seconds 20 [--game chouine]

With `--processes K` (K > 1: PostgreSQL and Redis needed, `--db postgresql://...
--redis redis://...`), K server processes share the database; table t is created on process
t mod K and its seat i plays through process (t + i) mod K, so the seats of one table are
deliberately on different processes and every version crosses Redis (or the resync). A
PostgreSQL database gets a fresh schema per run (dropped afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

SERVER = """
import sys
from choux.web.server import run
run(host="127.0.0.1", port=int(sys.argv[1]), database_url=sys.argv[2])
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Table:
    code: str
    seats: int
    sent: dict[int, float] = field(default_factory=dict)  # version -> send time
    seen: dict[int, int] = field(default_factory=dict)  # version -> seats that have it
    over: bool = False


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0


async def open_table(
    bases: list[str], game: str, seats: int, options: dict[str, str]
) -> tuple[str, list[httpx.AsyncClient]]:
    """Create a table of `seats` people through the real forms; one HTTP client each, seat i
    on bases[i] (the creator's process first)."""
    clients = [httpx.AsyncClient(base_url=bases[i % len(bases)], timeout=60) for i in range(seats)]
    page = await clients[0].get(f"/nouvelle?jeu={game}")
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    form = {"csrf": csrf, "jeu": game, "joueurs": str(seats), "pseudo": "J0", "pendule": "0"}
    form.update({f"place_{i}": "human" for i in range(seats)})
    form.update({f"opt_{k}": v for k, v in options.items()})
    created = await clients[0].post("/tables", data=form)
    code = created.headers["location"].rsplit("/", 1)[1]
    for index, client in enumerate(clients[1:], start=1):
        page = await client.get(f"/t/{code}")
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
        await client.post(f"/t/{code}/rejoindre", data={"csrf": csrf, "pseudo": f"J{index}"})
    return code, clients


async def seat_loop(
    ws_url: str,
    cookie: str,
    table: Table,
    stats: Stats,
    stop: float,
    rng: random.Random,
    think: float = 0.0,
) -> None:
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": cookie}, max_size=2**22
    ) as ws:
        last = -1
        while time.monotonic() < stop and not table.over:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            if message["type"] == "ping":
                await ws.send('{"type":"pong"}')
                continue
            if message["type"] == "refused":
                stats.refused += 1
                continue
            if message["type"] != "state":
                continue
            version = message["version"]
            if version > last:
                last = version
                count = table.seen.get(version, 0) + 1
                table.seen[version] = count
                if count == table.seats and version in table.sent:
                    stats.latencies.append(time.monotonic() - table.sent.pop(version))
            if message["result"] is not None:
                table.over = True
                break
            legal = message["view"].get("legal") or []
            if legal and message["status"] == "live":
                if think > 0:  # a person's pace: the offered load stays realistic
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                choice = rng.choice(legal)["action"]
                table.sent.setdefault(version + 1, time.monotonic())
                stats.actions += 1
                await ws.send(
                    json.dumps(
                        {"type": "action", "id": f"{version}-{rng.random()}", "action": choice}
                    )
                )


async def run_bench(
    bases: list[str],
    game: str,
    tables: int,
    seats: int,
    seconds: float,
    options: dict[str, str],
    think: float = 0.0,
) -> Stats:
    stats = Stats()
    k = len(bases)
    gate = asyncio.Semaphore(20)  # opening 200 tables at once only measures the form posts

    async def opened(t: int) -> tuple[str, list[httpx.AsyncClient]]:
        async with gate:
            return await open_table([bases[(t + i) % k] for i in range(k)], game, seats, options)

    made = await asyncio.gather(*(opened(t) for t in range(tables)))
    stop = time.monotonic() + seconds
    tasks = []
    for code, clients in made:
        table = Table(code, seats)
        for index, client in enumerate(clients):
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            ws_url = str(client.base_url).rstrip("/").replace("http", "ws") + f"/t/{code}/ws"
            rng = random.Random(f"{code}-{index}")
            tasks.append(seat_loop(ws_url, cookie, table, stats, stop, rng, think))
    started = time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=False)
    stats.elapsed = time.monotonic() - started  # type: ignore[attr-defined]
    for _, clients in made:
        for client in clients:
            await client.aclose()
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def fresh_database(db: str) -> Iterator[str]:
    """PostgreSQL: a schema of its own for this run (no tables left over from another run
    to restore at startup), dropped afterwards. Other databases: `db` as it is."""
    if not db.startswith("postgresql"):
        yield db
        return
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    try:
        sep = "&" if "?" in db else "?"
        yield f"{db}{sep}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(f"drop schema {schema} cascade")


def duplicates(db: str) -> int | None:
    """Actions of a client id stored twice (must be 0), PostgreSQL only."""
    if not db.startswith("postgresql"):
        return None
    import psycopg

    with psycopg.connect(db) as conn:
        row = conn.execute(
            "select count(*) from (select 1 from actions where client_id is not null"
            " group by table_id, seat, client_id having count(*) > 1) d"
        ).fetchone()
    return int(row[0]) if row else None


def start_servers(db: str, count: int, redis: str) -> tuple[list[str], list[subprocess.Popen]]:
    env = dict(os.environ, CHOUX_BOT_PACE="0", CHOUX_DEADLINE_SCALE="0.01", CHOUX_GRACE_SECONDS="0")
    if redis:
        env["CHOUX_REDIS_URL"] = redis
    script = ["-c", SERVER] if not os.environ.get("BENCH_SERVER") else [os.environ["BENCH_SERVER"]]
    ports = [free_port() for _ in range(count)]
    servers = []
    for port in ports:  # one after the other: the first one runs the migrations
        server = subprocess.Popen(
            [sys.executable, *script, str(port), db], env=env, stdout=subprocess.DEVNULL
        )
        servers.append(server)
        base = f"http://127.0.0.1:{port}"
        for _ in range(400):
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
    return [f"http://127.0.0.1:{port}" for port in ports], servers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="chouine")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a seat waits before answering (0: as fast as possible)",
    )
    parser.add_argument(
        "--option", action="append", default=[], help="k=v table option (chouine: manches=3)"
    )
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (K)")
    parser.add_argument(
        "--redis", default="", help="Redis URL shared by the processes (needed when K > 1)"
    )
    args = parser.parse_args()
    if args.processes > 1 and not (args.redis and (args.db or "").startswith("postgresql")):
        parser.error("--processes > 1 needs --db postgresql://... and --redis redis://...")

    folder = Path(tempfile.mkdtemp(prefix="choux-bench-"))
    options = dict(o.split("=", 1) for o in args.option)
    if not args.option and args.game == "chouine":
        options = {"manches": "3"}  # the longest match: tables keep playing
    with fresh_database(args.db or f"sqlite:///{folder / 'bench.sqlite3'}") as db:
        bases, servers = start_servers(db, args.processes, args.redis)
        try:
            stats = asyncio.run(
                run_bench(
                    bases, args.game, args.tables, args.seats, args.seconds, options, args.think
                )
            )
        finally:
            for server in servers:
                server.send_signal(signal.SIGINT)
            for server in servers:
                server.wait(timeout=10)
        doubled = duplicates(db)
    elapsed = getattr(stats, "elapsed", args.seconds)
    lat = [x * 1000 for x in stats.latencies]
    processes = "one server process" if args.processes == 1 else f"{args.processes} processes"
    print(
        f"{args.game}: {args.tables} tables x {args.seats} WebSocket seats, {processes}, "
        f"{elapsed:.1f} s, think time {args.think} s, database {db.split(':')[0]}"
        + (f", client ids stored twice: {doubled}" if doubled is not None else "")
    )
    print("| tables | processes | actions | actions/s | p50 ms | p95 ms | p99 ms | refused |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {args.tables} | {args.processes} | {len(lat)} | {len(lat) / elapsed:,.0f} | "
        f"{statistics.median(lat) if lat else float('nan'):.1f} | {percentile(lat, 0.95):.1f} | "
        f"{percentile(lat, 0.99):.1f} | {stats.refused} |"
    )


if __name__ == "__main__":
    main()
