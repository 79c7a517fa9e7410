"""How long the disk takes to flush: an 8-KiB write and `fdatasync` every 50 ms (issue 17).

A PostgreSQL COMMIT waits for such a flush of its WAL; run this beside a benchmark, in the
database's own directory, to see whether a latency tail is the disk's:

    sudo -u postgres .venv/bin/python bench/fsync_probe.py --dir /var/lib/postgresql --seconds 75
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


def probe(directory: Path, seconds: float, every: float = 0.05) -> list[tuple[float, float]]:
    """(wall-clock time, seconds the flush took) for each flush."""
    path = directory / f"fsync_probe.{os.getpid()}.bin"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    flushes: list[tuple[float, float]] = []
    try:
        end = time.time() + seconds
        while time.time() < end:
            os.write(fd, b"x" * 8192)
            start = time.perf_counter()
            os.fdatasync(fd)
            flushes.append((time.time(), time.perf_counter() - start))
            time.sleep(every)
    finally:
        os.close(fd)
        path.unlink()
    return flushes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dir", type=Path, default=Path("."), help="where to write (the disk to probe)"
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--slow", type=float, default=0.1, help="list the flushes over this (s)")
    args = parser.parse_args()
    flushes = probe(args.dir, args.seconds)
    times = sorted(d for _, d in flushes)
    print(
        f"fdatasync: {len(times)} calls, p50 {times[len(times) // 2] * 1000:.1f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
    )
    for moment, took in flushes:
        if took > args.slow:
            print(f"  {took * 1000:.0f} ms at {time.strftime('%H:%M:%S', time.gmtime(moment))} UTC")


if __name__ == "__main__":
    main()
