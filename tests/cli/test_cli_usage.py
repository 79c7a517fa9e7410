"""The command line: bad input gives one clear line and exit code 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from choux import games

CHOUX = [sys.executable, "-m", "choux"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHOUX, *args], capture_output=True, text=True, input=stdin, timeout=120)


def test_unknown_game_exits_2_with_message() -> None:
    result = run("simulate", "belote", "--games", "1")
    assert result.returncode == 2
    assert "Jeu inconnu" in result.stderr
    assert "Traceback" not in result.stderr


def test_impossible_player_count_exits_2() -> None:
    name = games.names()[0] if games.names() else pytest.skip("no game registered yet")
    too_many = games.get(name).max_players + 1
    result = run("simulate", name, "--players", str(too_many), "--games", "1")
    assert result.returncode == 2
    assert "joueurs" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_option_exits_2() -> None:
    name = games.names()[0] if games.names() else pytest.skip("no game registered yet")
    result = run("simulate", name, "--option", "nimporte=1", "--games", "1")
    assert result.returncode == 2
    assert "Option inconnue" in result.stderr


def test_replay_of_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "absent.jsonl"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_replay_of_corrupt_line_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "choux-record/1"\n', encoding="utf-8")
    result = run("replay", str(path))
    assert result.returncode == 2
    assert "line 1" in result.stderr


@pytest.mark.parametrize("name", games.names())
def test_simulate_then_replay_round_trip(name: str, tmp_path: Path) -> None:
    game = games.get(name)
    records = tmp_path / "out.jsonl"
    result = run(
        "simulate",
        name,
        "--players",
        str(game.min_players),
        "--games",
        "3",
        "--seed",
        "5",
        "--records",
        str(records),
    )
    assert result.returncode == 0, result.stderr
    assert "parties/s" in result.stdout
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    ok = run("replay", str(records))
    assert ok.returncode == 0, ok.stderr
    assert "3 records replayed" in ok.stdout


@pytest.mark.parametrize("name", games.names())
def test_replay_detects_a_tampered_record(name: str, tmp_path: Path) -> None:
    game = games.get(name)
    records = tmp_path / "out.jsonl"
    assert (
        run(
            "simulate",
            name,
            "--players",
            str(game.min_players),
            "--games",
            "1",
            "--records",
            str(records),
        ).returncode
        == 0
    )
    data = json.loads(records.read_text(encoding="utf-8"))
    data["result"]["scores"][0] += 1
    records.write_text(json.dumps(data) + "\n", encoding="utf-8")
    result = run("replay", str(records))
    assert result.returncode == 2
    assert "does not replay" in result.stderr


def test_truncated_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text(
        json.dumps({"format": "choux-record/1", "game": "chouine"}) + "\n", encoding="utf-8"
    )
    result = run("replay", str(path))
    assert result.returncode == 2
    assert "incomplete record" in result.stderr


@pytest.mark.parametrize(
    "args",
    [("serve", "--port", "abc"), ("frobnicate",), ("serve", "--bogus"), ("simulate",)],
)
def test_usage_errors_exit_2_with_one_line(args: tuple[str, ...]) -> None:
    """typer now carries its own copy of click, whose usage errors escaped as tracebacks
    with exit code 1 (an operator's audit)."""
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "Error:" in result.stderr


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0 and result.stdout.startswith("choux ")


def test_what_was_typed_is_shown_as_text_on_one_line(tmp_path: Path) -> None:
    """An error naming what was typed read it as Rich markup: « [/x] » crashed with a
    MarkupError traceback, « [bold]Zoé » was shown as « Zoé »; and a long message broke
    in two lines when stderr was not a terminal."""
    from choux.play.store import Store

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"

    async def make() -> None:
        store = Store(url)
        await store.open()
        await store.close()

    import asyncio

    asyncio.run(make())
    for typed in ("[/x]", "[bold]Zoé"):
        result = run("admin", "erase", typed, "--yes", "--db", url)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert f"Aucun compte « {typed} »" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_an_unreachable_database_is_one_french_line_for_the_operator() -> None:
    result = run("admin", "accounts", "--db", "postgresql://choux@127.0.0.1:1/nulle")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "est inutilisable" in result.stderr


def test_a_port_out_of_range_stops_the_start() -> None:
    """99999 listened on 34463 while the server printed 99999; 0 on a random port."""
    for port in ("99999", "0", "-5"):
        result = run("serve", "--port", port)
        assert result.returncode == 1 and "entre 1 et 65535" in result.stderr, result.stderr
