"""Golden transcripts: every game, every configuration of `Game.configurations()`, played
from a fixed seed by a deterministic policy and written out step by step.

Each step records who acts, the action's label, what it caused (the events), a digest of
every seat's view and of the spectator's, and the labels of the actor's legal actions. Any
change of behaviour in any game (rules, views, menus, texts) shows up as a diff of
`tests/golden/<game>-<configuration>.txt`, to be reviewed like code.

A missing or different transcript fails. After a change made on purpose, regenerate and
review the diff:

    CHOUX_REGOLD=1 .venv/bin/pytest -n 0 tests/test_golden.py
    git diff tests/golden/
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from pathlib import Path

import pytest

from choux import games
from choux.engine.base import JSON, Action, State, fill_names

GOLDEN = Path(__file__).with_name("golden")
SEED = 2024
STEPS = 120  # enough to cross every phase of a deal or a few turns, small enough to read
NAMES = ["Anne", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaspard", "Hélène"]
SHOWN = 8  # legal actions listed by label; longer menus add a count and a digest


def case_id(players: int, options: dict[str, JSON]) -> str:
    words = [f"{players}p", *(f"{k}={v}" for k, v in sorted(options.items()))]
    return re.sub(r"[^A-Za-z0-9=_.-]+", "_", "-".join(words))


CASES = [
    (name, players, options)
    for name in games.names()
    for players, options in games.get(name).configurations()
]
IDS = [f"{name}-{case_id(players, options)}" for name, players, options in CASES]


def digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


def label(action: Action, names: list[str]) -> str:
    return fill_names(action.label(), names)


def menu(actions: list[Action], names: list[str]) -> str:
    labels = [label(a, names) for a in actions]
    if len(labels) <= SHOWN:
        return " | ".join(labels)
    head = " | ".join(labels[:SHOWN])
    return f"{head} | … ({len(labels)} en tout, empreinte {digest(labels)})"


def views(state: State, players: int) -> str:
    seats: list[int | None] = [*range(players), None]
    return " ".join(
        f"{'spectateur' if s is None else f's{s}'}={digest(state.view(s))}" for s in seats
    )


def transcript(name: str, players: int, options: dict[str, JSON]) -> str:
    """A seeded game played by a seeded uniform policy: any actor, any legal action, and
    the window's clock now and then (as `random_rollout` does)."""
    game = games.get(name)
    state = game.new(players, SEED, options)
    policy = random.Random(SEED)
    names = NAMES[:players]
    lines = [
        f"# {game.title}, {players} joueurs, options {json.dumps(options, sort_keys=True)}",
        f"# graine {SEED}, politique uniforme graine {SEED}, {STEPS} pas au plus",
        f"  vues : {views(state, players)}",
    ]
    for step in range(1, STEPS + 1):
        if state.is_over():
            break
        actors = state.actors()
        deadline = state.deadline()
        if actors and (deadline is None or policy.random() < 0.8):
            seat: int | None = actors[policy.randrange(len(actors))]
            assert seat is not None
            legal = state.legal_actions(seat)
            action = legal[policy.randrange(len(legal))]
            lines.append(f"{step}. {names[seat]} : {label(action, names)}")
            lines.append(f"  permis à {names[seat]} ({len(legal)}) : {menu(legal, names)}")
        else:
            assert deadline is not None, "nobody may act and no window is open"
            seat, action = deadline.seat, deadline.action
            who = "horloge" if seat is None else names[seat]
            lines.append(f"{step}. {who} (délai) : {label(action, names)}")
        for event in state.apply(seat, action):
            lines.append(f"  - {event.render(names)}")
        lines.append(f"  vues : {views(state, players)}")
    outcome = state.outcome()
    if outcome is not None:
        lines.append(f"= {outcome.reason} {list(outcome.scores)} rangs {list(outcome.ranks)}")
    else:
        lines.append(f"= (partie en cours après {STEPS} pas)")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_golden_transcript(name: str, players: int, options: dict[str, JSON]) -> None:
    path = GOLDEN / f"{name}-{case_id(players, options)}.txt"
    text = transcript(name, players, options)
    if os.environ.get("CHOUX_REGOLD"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path.name} is missing: run with CHOUX_REGOLD=1 and review it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} changed: review, then CHOUX_REGOLD=1 to accept"
