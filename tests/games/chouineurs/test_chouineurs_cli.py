"""The command line plays Chouineurs: simulate with both bots, play in the terminal."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "choux", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


def test_simulate_greedy_against_random() -> None:
    result = run(
        "simulate",
        "chouineurs",
        "--players",
        "4",
        "--games",
        "20",
        "--seed",
        "1",
        "--bots",
        "greedy,random",
    )
    assert result.returncode == 0, result.stderr
    assert "greedy" in result.stdout and "random" in result.stdout


def test_play_in_the_terminal_shows_both_ends() -> None:
    result = run("play", "chouineurs", "--players", "4", "--seed", "5", stdin="1\n" * 200)
    assert result.returncode == 0, result.stderr
    assert "Votre main (en jeu / dos)" in result.stdout
    assert "Pleurer" in result.stdout or "Chouinerie" in result.stdout
    assert "rang" in result.stdout
