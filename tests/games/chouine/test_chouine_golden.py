"""Golden transcript: one seeded Chouine match between two greedy bots, in readable French.

Any change of rules, events, dealing or of the greedy bot shows up as a readable diff of
`golden_chouine.txt`. Regenerate on purpose with ``CHOUX_REGEN=1``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from choux import games

GOLDEN = Path(__file__).with_name("golden_chouine.txt")
NAMES = ["Anne", "Bruno"]


def transcript() -> str:
    game = games.get("chouine")
    state = game.new(2, 2024)
    bots = [game.make_bot("greedy", random.Random(s)) for s in range(2)]
    hands = state.view(0)["hand"], state.view(1)["hand"]
    lines = [f"# main d'Anne : {' '.join(hands[0])} ; main de Bruno : {' '.join(hands[1])}"]
    while not state.is_over():
        if not state.actors():
            events = state.apply_timeout()
            lines.extend(f"  {event.render(NAMES)}" for event in events)
            view = state.view(0), state.view(1)
            lines.append(
                f"# main d'Anne : {' '.join(view[0]['hand'])} ; "
                f"main de Bruno : {' '.join(view[1]['hand'])}"
            )
            continue
        seat = state.actors()[0]
        move = bots[seat].choose(state, seat)
        assert move is not None
        lines.append(f"> {NAMES[seat]} : {move.action.label()}")
        lines.extend(f"  {event.render(NAMES)}" for event in state.apply(seat, move.action))
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"= {outcome.reason} {list(outcome.scores)} rangs {list(outcome.ranks)}")
    return "\n".join(lines) + "\n"


def test_golden_transcript_of_a_seeded_match() -> None:
    text = transcript()
    if os.environ.get("CHOUX_REGEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.exists(), f"{GOLDEN.name} is missing: run with CHOUX_REGEN=1 to write it"
    assert text == GOLDEN.read_text(encoding="utf-8")
