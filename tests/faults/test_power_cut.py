"""A power cut under load, on SQLite: no acknowledged move is lost.

The power cut is real in what it keeps: the database lives on an ext4 filesystem of its own
(a file behind a loop device), and at the instant of the cut the test copies the bytes that
filesystem has sent to its « disk » (the backing file). Whatever the kernel still held in
memory (dirty pages, the journal not yet committed: ext4 commits every 5 s) is not in the
copy, as after a real cut. The copy is then repaired as at the next boot (`e2fsck`, which
replays the journal), the database is read from it (`debugfs`, without mounting), and every
move the server acknowledged before the cut must be there.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverhelpers import Server, play_under_load
from test_kill_under_load import stored_actions

TABLES = 10
TOOLS = ("mkfs.ext4", "losetup", "mount", "umount", "e2fsck", "debugfs")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@contextlib.contextmanager
def own_disk(image: Path, mountpoint: Path) -> Iterator[Path]:
    """An ext4 filesystem in `image`, through a loop device, mounted at `mountpoint`."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"no {', '.join(missing)} here: no filesystem of its own for a power cut")
    with open(image, "wb") as out:
        out.truncate(64 * 1024 * 1024)
    made = run("mkfs.ext4", "-F", "-q", str(image))
    assert made.returncode == 0, made.stderr
    loop = run("losetup", "-f", "--show", str(image))
    if loop.returncode != 0:
        pytest.skip(f"no loop device here ({loop.stderr.strip()}): no power cut")
    device = loop.stdout.strip()
    mountpoint.mkdir()
    mounted = run("mount", "-t", "ext4", device, str(mountpoint))
    try:
        if mounted.returncode != 0:
            pytest.skip(f"cannot mount an ext4 loop device ({mounted.stderr.strip()})")
        yield mountpoint
    finally:
        if mounted.returncode == 0:
            run("umount", "-l", str(mountpoint))
        run("losetup", "-d", device)


def after_reboot(snapshot: Path, into: Path) -> Path:
    """The database as the next boot finds it: the journal replayed, the files read back."""
    repaired = run("e2fsck", "-fy", str(snapshot))
    assert repaired.returncode in (0, 1), repaired.stdout + repaired.stderr  # 1: fixed
    into.mkdir()
    for name in ("choux.sqlite3", "choux.sqlite3-wal"):
        run("debugfs", "-R", f"dump /{name} {into / name}", str(snapshot))
    assert (into / "choux.sqlite3").exists(), "the database file did not survive the cut"
    return into / "choux.sqlite3"


def test_a_power_cut_under_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    image = tmp_path / "disk.img"
    with own_disk(image, tmp_path / "mnt") as disk:
        server = Server(f"sqlite:///{disk / 'choux.sqlite3'}", tmp_path / "server.log")
        server.start()
        try:
            players, threads = play_under_load(server, TABLES, 20 * TABLES)
            # the cut: what the server acknowledged so far, then the disk as it is now
            acked = {p.code: dict(p.acks) for p in players}
            shutil.copyfile(image, tmp_path / "cut.img")
            server.kill()
            for player in players:
                player.stop.set()
            for thread in threads:
                thread.join(timeout=15)
        finally:
            server.stop()
    total = sum(len(moves) for moves in acked.values())
    assert total >= 10 * TABLES, f"too few moves before the cut ({total})"
    database = after_reboot(tmp_path / "cut.img", tmp_path / "rebooted")
    with sqlite3.connect(database) as db:
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)
    lost = []
    for code, moves in acked.items():
        stored = stored_actions(database, code)
        lost += [(code, v) for v, action in moves.items() if stored.get(v) != action]
    assert not lost, f"{len(lost)} of {total} acknowledged moves lost: {lost[:5]}"
