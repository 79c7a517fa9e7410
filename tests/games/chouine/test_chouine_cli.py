"""The command line plays Chouine: simulate with both bots, replay, play in the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "choux", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


def test_simulate_greedy_against_random_then_replay(tmp_path: Path) -> None:
    records = tmp_path / "chouine.jsonl"
    result = run(
        "simulate",
        "chouine",
        "--players",
        "2",
        "--games",
        "30",
        "--seed",
        "1",
        "--bots",
        "greedy,random",
        "--preset",
        "lavardin",
        "--records",
        str(records),
    )
    assert result.returncode == 0, result.stderr
    assert "greedy" in result.stdout and "random" in result.stdout
    replayed = run("replay", str(records))
    assert replayed.returncode == 0, replayed.stderr
    assert "30 records" in replayed.stdout


def test_play_in_the_terminal_in_french_asks_again_on_bad_input() -> None:
    result = run("play", "chouine", "--seed", "5", stdin="x\n9\n" + "1\n" * 300)
    assert result.returncode == 0, result.stderr
    assert "Votre main" in result.stdout and "Atout" in result.stdout
    assert "Choix impossible" in result.stdout
    assert "rang" in result.stdout


def test_five_players_is_a_usage_error() -> None:
    result = run("simulate", "chouine", "--players", "5", "--games", "1")
    assert result.returncode == 2
    assert "de 2 à 4 joueurs" in result.stderr
