"""kill -9 of a server while 20 tables play: no acknowledged move is lost, and every
table resumes (people move again, bots answer) after a restart."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from serverhelpers import Server, play_under_load

TABLES = 20


def stored_actions(path: Path, code: str) -> dict[int, dict[str, object]]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "select a.seq, a.action from actions a join tables t on t.id = a.table_id "
            "where t.code = ?",
            (code,),
        ).fetchall()
    return {int(seq): json.loads(action) for seq, action in rows}


def test_kill_9_under_load_loses_no_acknowledged_move_and_every_table_resumes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "choux.sqlite3"
    server = Server(f"sqlite:///{path}", tmp_path / "server.log")
    server.start()
    try:
        players, threads = play_under_load(server, TABLES, 10 * TABLES)
        server.kill()  # mid-flight: moves sent, some acknowledged, some not
        for thread in threads:
            thread.join(timeout=15)
        acked = sum(len(p.acks) for p in players)
        assert acked >= 5 * TABLES, f"too few moves before the kill ({acked})"
        for player in players:
            stored = stored_actions(path, player.code)
            for version, action in player.acks.items():
                assert stored.get(version) == action, f"{player.code}: move {version} lost"
        server.start()
        for player in players:
            before = player.state()
            assert before["version"] >= max(player.acks, default=0)
            if before["status"] != "live":
                continue
            player.stop.clear()
            player.play(moves=2)  # the person moves again, and the bot answers in between
            after = player.state()
            assert after["version"] > before["version"], f"{player.code} did not resume"
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
