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
deliberately on different processes and every version crosses Redis (or the resync). With
`--route table`, every socket of table t goes to process t mod K instead, as behind a proxy
that routes by the table's code (docs/operations.md): Redis then carries only what a table
on another process needs. A PostgreSQL database gets a fresh schema per run (dropped
afterwards).

With `--bots B`, the last B seats of each table are bots (the game's usual level); with
K > 1 processes each table is also watched by a spectator socket on every process that
serves none of its people, so that every process holds every table (the bots' cost counts
on each holder). The servers' CPU time per version played is printed with the results.

With `--spectators S`, each table is also watched by S spectator sockets (no seat); they
count in the latency (a version is delivered once every socket of the table has it).
With `--pin`, the servers run on core 0 (`taskset -c 0`) and this client process on core 1,
so that the clients' sockets and JSON do not eat the server's CPU: the latency and the CPU
per version are then the server's. The load average is printed with every result: the
machine is shared, compare figures taken back to back. So is this client's own event-loop
lag (if it is late, so are the latencies) and the p99 after the first 10 s (once every
socket is open). With `--connect-gate N`, at most N WebSocket handshakes are in flight at
once (default: all sockets open together). With several processes, the CPU of each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
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
    # version -> {action id: send time} of the actions sent at the version before; a refused
    # action (sent on a stale view, or a race between seats) leaves it, so that its time is
    # never taken for the latency of the version another seat's action made
    sent: dict[int, dict[str, float]] = field(default_factory=dict)
    seen: dict[int, int] = field(default_factory=dict)  # version -> seats that have it
    over: bool = False
    last: int = 0  # the latest version a socket received


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    at: list[float] = field(default_factory=list)  # when each latency was measured
    actions: int = 0
    refused: int = 0
    versions: int = 0  # versions played, people's and bots' moves alike
    # how late this client process's own loop woke from a 10 ms sleep: if it is late, the
    # latencies above include the client's queueing, not only the server's
    lags: list[float] = field(default_factory=list)
    lag_at: list[float] = field(default_factory=list)
    # this client's own garbage-collection passes during play: (duration s, generation, when)
    gc_passes: list[tuple[float, int, float]] = field(default_factory=list)


@contextlib.contextmanager
def timed_gc(stats: Stats) -> Iterator[None]:
    """Record every collection of this process while the block runs: a long pass stalls
    every client socket at once, which the latencies would wrongly count as the server's."""
    began = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            began[0] = now
        else:
            stats.gc_passes.append((now - began[0], info["generation"], time.monotonic()))

    gc.callbacks.append(callback)
    try:
        yield
    finally:
        gc.callbacks.remove(callback)


async def open_table(
    bases: list[str], game: str, seats: int, options: dict[str, str], bots: int = 0
) -> tuple[str, list[httpx.AsyncClient]]:
    """Create a table of `seats` seats through the real forms, the last `bots` of them bots;
    one HTTP client per person, person i on bases[i] (the creator's process first)."""
    people = seats - bots
    clients = [  # plain HTTP on loopback: no certificates to load for each of thousands
        httpx.AsyncClient(base_url=bases[i % len(bases)], timeout=60, verify=False)
        for i in range(people)
    ]
    page = await clients[0].get(f"/nouvelle?jeu={game}")
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    form = {"csrf": csrf, "jeu": game, "joueurs": str(seats), "pseudo": "J0", "pendule": "0"}
    form.update({f"place_{i}": "human" if i < people else "bot" for i in range(seats)})
    form.update({f"opt_{k}": v for k, v in options.items()})
    created = await clients[0].post("/tables", data=form)
    if "location" not in created.headers:
        raise RuntimeError(f"table not created: {created.status_code} {created.text[:300]}")
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
    gate: asyncio.Semaphore | None = None,
) -> None:
    async with gate or contextlib.nullcontext():  # at most N handshakes at once (--connect-gate)
        ws = await websockets.connect(
            ws_url, additional_headers={"Cookie": cookie}, max_size=2**22, open_timeout=120
        )
    async with ws:
        last = -1
        acted = -1  # a person answers a version once, however many times it is sent
        thinking: asyncio.Task[None] | None = None

        async def answer(version: int, legal: list[dict[str, object]], delay: float) -> None:
            # thinking runs beside the reading: a message is timed when it arrives
            await asyncio.sleep(delay)
            choice = rng.choice(legal)["action"]
            action_id = f"{version}-{rng.random()}"
            table.sent.setdefault(version + 1, {})[action_id] = time.monotonic()
            stats.actions += 1
            await ws.send(json.dumps({"type": "action", "id": action_id, "action": choice}))

        try:
            while time.monotonic() < stop and not table.over:
                try:
                    raw = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.1, stop - time.monotonic())
                    )
                except TimeoutError:
                    break
                message = orjson.loads(raw)
                if message["type"] == "ping":
                    await ws.send('{"type":"pong"}')
                    continue
                if message["type"] == "refused":
                    stats.refused += 1
                    for waiting in table.sent.values():
                        waiting.pop(message.get("id"), None)
                    if os.environ.get("BENCH_DEBUG"):
                        print(message, file=sys.stderr)
                    continue
                if message["type"] != "state":
                    continue
                version = message["version"]
                if version > last:
                    last = version
                    table.last = max(table.last, version)
                    count = table.seen.get(version, 0) + 1
                    table.seen[version] = count
                    pending = table.sent.get(version) if count == table.seats else None
                    if pending is not None:
                        del table.sent[version]
                        if pending:
                            now = time.monotonic()
                            stats.latencies.append(now - min(pending.values()))
                            stats.at.append(now)
                if message["result"] is not None:
                    table.over = True
                    break
                legal = message["view"].get("legal") or []
                if legal and message["status"] == "live" and version > acted:
                    acted = version
                    if thinking is not None:
                        thinking.cancel()  # a newer version: answer that one instead
                    delay = think * rng.uniform(0.5, 1.5) if think > 0 else 0.0
                    thinking = asyncio.create_task(answer(version, legal, delay))
        finally:
            if thinking is not None:
                thinking.cancel()


async def run_bench(
    bases: list[str],
    game: str,
    tables: int,
    seats: int,
    seconds: float,
    options: dict[str, str],
    think: float = 0.0,
    bots: int = 0,
    spectators: int = 0,
    on_play: Callable[[], None] | None = None,
    connect_gate: int = 0,
    settle: float = 0.0,
    on_settled: Callable[[int], None] | None = None,
    route: str = "spread",
) -> Stats:
    stats = Stats()
    handshakes = asyncio.Semaphore(connect_gate) if connect_gate > 0 else None
    k = len(bases)
    gate = asyncio.Semaphore(20)  # opening 200 tables at once only measures the form posts

    async def opened(t: int) -> tuple[str, list[httpx.AsyncClient]]:
        async with gate:
            if route == "table":  # a proxy hashing the table's code: one process per table
                return await open_table([bases[t % k]], game, seats, options, bots)
            order = [bases[(t + i) % k] for i in range(k)]
            return await open_table(order, game, seats, options, bots)

    opened_tables = await asyncio.gather(*(opened(t) for t in range(tables)))
    # Only the session cookies are needed from here on. Thousands of open HTTP clients (each
    # with its own TLS context) made this process 3 GiB and its GC passes stalled the
    # client's loop for up to 0.9 s, which the latencies then counted: close them, and
    # move what setting up left alive out of the collector's way.
    made = [
        (
            code,
            [
                (str(c.base_url), "; ".join(f"{k}={v}" for k, v in c.cookies.items()))
                for c in clients
            ],
        )
        for code, clients in opened_tables
    ]
    for _, clients in opened_tables:
        for client in clients:
            await client.aclose()
    del opened_tables
    gc.collect()
    gc.freeze()
    # and no collection at all while playing: the thousands of sockets opened from here make
    # full passes of 100-200 ms in this process (measured with `timed_gc`), every socket
    # stalled at once; a run of a few minutes leaves little garbage behind
    gc.disable()
    if on_play is not None:
        on_play()  # the tables are open: what is measured starts here
    stop = time.monotonic() + seconds
    tasks = []
    played: list[Table] = []
    for code, people in made:
        sockets = list(people)
        if bots and route == "spread":  # spectators: every process holds the table and its bots
            used = {base for base, _ in sockets}
            sockets += [(base, "") for base in bases if base not in used]
        home = sockets[0][0]
        sockets += [(home if route == "table" else bases[i % k], "") for i in range(spectators)]
        table = Table(code, len(sockets))
        played.append(table)
        for index, (base, cookie) in enumerate(sockets):
            ws_url = base.rstrip("/").replace("http", "ws") + f"/t/{code}/ws"
            rng = random.Random(f"{code}-{index}")
            tasks.append(seat_loop(ws_url, cookie, table, stats, stop, rng, think, handshakes))
    started = time.monotonic()
    stats.started = started  # type: ignore[attr-defined]

    async def probe() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            stats.lags.append(time.perf_counter() - before - 0.01)
            stats.lag_at.append(time.monotonic())

    async def settled() -> None:  # the versions so far: the CPU after this is play alone
        await asyncio.sleep(settle)
        if on_settled is not None:
            on_settled(sum(table.last for table in played))

    prober = asyncio.create_task(probe())
    marker = asyncio.create_task(settled())
    with timed_gc(stats):
        await asyncio.gather(*tasks, return_exceptions=False)
    prober.cancel()
    marker.cancel()
    stats.elapsed = time.monotonic() - started  # type: ignore[attr-defined]
    stats.versions = sum(table.last for table in played)
    gc.enable()
    gc.unfreeze()
    return stats


def print_timeline(stats: Stats) -> None:
    """Per second of play: actions completed, their p99 and the client loop's worst lag."""
    start = getattr(stats, "started", 0.0)
    seconds: dict[int, list[float]] = {}
    for latency, at in zip(stats.latencies, stats.at, strict=True):
        seconds.setdefault(int(at - start), []).append(latency * 1000)
    worst: dict[int, float] = {}
    for lag, at in zip(stats.lags, stats.lag_at, strict=True):
        second = int(at - start)
        worst[second] = max(worst.get(second, 0.0), lag * 1000)
    collected: dict[int, float] = {}
    for duration, _, at in stats.gc_passes:
        second = int(at - start)
        collected[second] = max(collected.get(second, 0.0), duration * 1000)
    print("| second | actions | p99 ms | max ms | client lag max ms | client GC max ms |")
    for second in sorted(seconds.keys() | worst.keys()):
        done = seconds.get(second, [])
        print(
            f"| {second} | {len(done)} | {percentile(done, 0.99):.1f} | "
            f"{max(done, default=float('nan')):.1f} | {worst.get(second, float('nan')):.1f} | "
            f"{collected.get(second, 0.0):.1f} |"
        )


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


def cpu_seconds(servers: list[subprocess.Popen]) -> float:
    """User + system CPU time used so far by the server processes (Linux /proc)."""
    total = 0
    for server in servers:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def rss_kib(servers: list[subprocess.Popen]) -> int:
    """Resident memory of the server processes, KiB (Linux /proc)."""
    total = 0
    for server in servers:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{server.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def start_servers(
    db: str, count: int, redis: str, pin: bool = False
) -> tuple[list[str], list[subprocess.Popen]]:
    env = dict(os.environ, CHOUX_BOT_PACE="0", CHOUX_DEADLINE_SCALE="0.01", CHOUX_GRACE_SECONDS="0")
    # every client comes from one address here: the per-address budgets (tables created,
    # joins, 30 socket messages a second, 200 sockets open) would refuse most of them
    env.update(CHOUX_LIMIT_CREATE="", CHOUX_LIMIT_JOIN="", CHOUX_LIMIT_MESSAGES="")
    env.update(CHOUX_MAX_SOCKETS_PER_CLIENT="0")
    if redis:
        env["CHOUX_REDIS_URL"] = redis
    script = ["-c", SERVER] if not os.environ.get("BENCH_SERVER") else [os.environ["BENCH_SERVER"]]
    ports = [free_port() for _ in range(count)]
    servers = []
    for port in ports:  # one after the other: the first one runs the migrations
        server = subprocess.Popen(
            [*(["taskset", "-c", "0"] if pin else []), sys.executable, *script, str(port), db],
            env=env,
            stdout=subprocess.DEVNULL,
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
    parser.add_argument("--bots", type=int, default=0, help="bot seats per table (the last ones)")
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
    parser.add_argument(
        "--spectators", type=int, default=0, help="spectator sockets per table (no seat)"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="servers on core 0, clients on core 1 (Linux): the figures are the server's",
    )
    parser.add_argument(
        "--connect-gate",
        type=int,
        default=0,
        help="at most N WebSocket handshakes in flight (default: every socket at once)",
    )
    parser.add_argument(
        "--route",
        choices=["spread", "table"],
        default="spread",
        help="K > 1: seats of a table spread over the processes (every version crosses Redis),"
        " or every socket of table t on process t mod K (a proxy hashing the table's code)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=10.0,
        help="the latency is also given for the actions after this many seconds of play",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="also one line per second of play: actions done, their p99, the client's worst lag"
        " (a slow second on both sides is a stall of the machine or the client, not the server)",
    )
    args = parser.parse_args()
    if args.pin:
        os.sched_setaffinity(0, {1})
    if args.processes > 1 and not (args.redis and (args.db or "").startswith("postgresql")):
        parser.error("--processes > 1 needs --db postgresql://... and --redis redis://...")

    folder = Path(tempfile.mkdtemp(prefix="choux-bench-"))
    options = dict(o.split("=", 1) for o in args.option)
    if not args.option and args.game == "chouine":
        options = {"manches": "3"}  # the longest match: tables keep playing
    with fresh_database(args.db or f"sqlite:///{folder / 'bench.sqlite3'}") as db:
        bases, servers = start_servers(db, args.processes, args.redis, args.pin)
        try:
            cpu = cpu_seconds(servers)
            each = [cpu_seconds([server]) for server in servers]
            rss = [rss_kib(servers)]

            def playing() -> None:  # the CPU of opening the tables is not the versions'
                nonlocal cpu, each
                cpu = cpu_seconds(servers)
                each = [cpu_seconds([server]) for server in servers]
                rss.append(rss_kib(servers))  # the tables open, no socket yet: idle
                if os.environ.get("BENCH_SIGNAL_PLAY"):  # e.g. a profiling server starts now
                    for server in servers:
                        server.send_signal(signal.SIGUSR1)

            at_settle: list[Any] = []

            def mark_settled(
                versions: int,
            ) -> None:  # sockets open: the CPU of play alone from here
                at_settle.extend([versions, [cpu_seconds([server]) for server in servers]])

            stats = asyncio.run(
                run_bench(
                    bases,
                    args.game,
                    args.tables,
                    args.seats,
                    args.seconds,
                    options,
                    args.think,
                    args.bots,
                    args.spectators,
                    playing,
                    args.connect_gate,
                    args.settle,
                    mark_settled,
                    args.route,
                )
            )
            cpu = cpu_seconds(servers) - cpu
            after = [cpu_seconds([server]) for server in servers]
            if at_settle:
                at_settle.append(after)
            each = [c - before for c, before in zip(after, each, strict=True)]
        finally:
            for server in servers:
                server.send_signal(signal.SIGINT)
            for server in servers:
                server.wait(timeout=10)
        doubled = duplicates(db)
    elapsed = getattr(stats, "elapsed", args.seconds)
    load = os.getloadavg()
    lat = [x * 1000 for x in stats.latencies]
    processes = (
        "one server process"
        if args.processes == 1
        else f"{args.processes} processes (route: {args.route})"
    )
    print(
        f"{args.game}: {args.tables} tables x {args.seats} seats ({args.bots} bots), {processes}, "
        f"{elapsed:.1f} s, think time {args.think} s, database {db.split(':')[0]}, "
        f"{args.spectators} spectators, {'pinned' if args.pin else 'not pinned'}, "
        + (f"at most {args.connect_gate} handshakes at once, " if args.connect_gate else "")
        + f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
        + (f", client ids stored twice: {doubled}" if doubled is not None else "")
    )
    print("| tables | processes | actions | actions/s | p50 ms | p95 ms | p99 ms | refused |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {args.tables} | {args.processes} | {len(lat)} | {len(lat) / elapsed:,.0f} | "
        f"{statistics.median(lat) if lat else float('nan'):.1f} | {percentile(lat, 0.95):.1f} | "
        f"{percentile(lat, 0.99):.1f} | {stats.refused} |"
    )
    if len(rss) == 2:
        print(
            f"server memory: {rss[0] / 1024:.1f} MiB before the tables, {rss[1] / 1024:.1f} MiB"
            f" with them open and idle: {(rss[1] - rss[0]) / args.tables:.1f} KiB per table"
        )
    settled = [
        x * 1000
        for x, at in zip(stats.latencies, stats.at, strict=True)
        if at - getattr(stats, "started", 0.0) >= args.settle
    ]
    print(
        f"after the first {args.settle:g} s (sockets connected, first moves played): {len(settled)}"
        f" actions, p50 {percentile(settled, 0.5):.1f} ms, p95 {percentile(settled, 0.95):.1f}"
        f" ms, p99 {percentile(settled, 0.99):.1f} ms"
    )
    lags = [x * 1000 for x in stats.lags]
    print(
        f"client loop lag (10 ms sleeps): p50 {percentile(lags, 0.5):.1f} ms, p99 "
        f"{percentile(lags, 0.99):.1f} ms, max {max(lags, default=float('nan')):.1f} ms"
    )
    passes = sorted(stats.gc_passes, reverse=True)
    print(
        f"client GC during play: {len(passes)} passes, {sum(p[0] for p in passes):.2f} s in all,"
        f" the longest {', '.join(f'{d * 1000:.0f} ms (gen {g})' for d, g, _ in passes[:3])}"
    )
    if args.timeline:
        print_timeline(stats)
    per = cpu * 1000 / stats.versions if stats.versions else float("nan")
    print(f"versions played: {stats.versions}, server CPU: {cpu:.1f} s ({per:.1f} ms per version)")
    if len(at_settle) == 3 and stats.versions > at_settle[0]:  # play alone, sockets open
        played_after = stats.versions - at_settle[0]
        spent = [end - mid for mid, end in zip(at_settle[1], at_settle[2], strict=True)]
        print(
            f"after the first {args.settle:g} s: {played_after} versions, server CPU "
            + ", ".join(f"{c:.1f} s ({c * 1000 / played_after:.2f} ms per version)" for c in spent)
            + (f"; in all {sum(spent) * 1000 / played_after:.2f} ms" if len(spent) > 1 else "")
        )
    if len(servers) > 1:  # what each process spent: the cost of scaling out is visible
        print(
            "CPU per process: "
            + ", ".join(f"{c:.1f} s ({c * 1000 / stats.versions:.1f} ms per version)" for c in each)
            if stats.versions
            else ""
        )


if __name__ == "__main__":
    main()
