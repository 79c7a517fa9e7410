"""Golden transcript: one seeded game written out as readable French text.

Any change of rules, events or dealing shows up as a readable diff of
`golden_chouineurs.txt`. Regenerate on purpose with ``CHOUX_REGEN=1``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from choux import games

GOLDEN = Path(__file__).with_name("golden_chouineurs.txt")
NAMES = ["Anne", "Bruno", "Chloé", "David"]


def transcript() -> str:
    game = games.get("chouineurs")
    state = game.new(4, 2024)
    bots = [game.make_bot("greedy", random.Random(s)) for s in range(4)]
    lines: list[str] = []
    while not state.is_over():
        seat = state.actors()[0]
        move = bots[seat].choose(state, seat)
        assert move is not None
        lines.append(f"> {NAMES[seat]} : {move.action.label()}")
        lines.extend(f"  {event.render(NAMES)}" for event in state.apply(seat, move.action))
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"= {outcome.reason} {list(outcome.scores)} rangs {list(outcome.ranks)}")
    return "\n".join(lines) + "\n"


def test_golden_transcript_of_a_seeded_game() -> None:
    text = transcript()
    if os.environ.get("CHOUX_REGEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN.name} is missing: run with CHOUX_REGEN=1 to write it"
    assert text == GOLDEN.read_text(encoding="utf-8")
