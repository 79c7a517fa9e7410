"""The prepared lessons of « Apprendre à jouer »: which game, which deal, which robot.

Data only (the route that opens a lesson is in `web/learn.py`), so that the pages can list
the lessons without importing the route.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request

from choux.engine.base import JSON
from choux.play.tables import LiveTable

#: the query parameter that turns the table page into a lesson
LESSON_QUERY = "apprendre"


@dataclass(frozen=True, slots=True)
class Lesson:
    game: str
    players: int
    seed: int  # the prepared deal
    bot: str  # the robot's level: the easiest, the learner should win
    options: dict[str, JSON] = field(default_factory=dict)


LESSONS: dict[str, Lesson] = {
    # seed 98: the learner leads the first trick holding the trump mariage (king and
    # queen of hearts, hearts being trump); one manche of three parties, scores shown
    "chouine": Lesson(
        "chouine", 2, 98, "random", {"manches": 1, "parties": 3, "scores_visibles": True}
    ),
    # seed 5: the learner opens and rolls a Chouette of fives at once (then may sip); a
    # short game to 100 points against the easy robot
    "cul-de-chouette": Lesson("cul-de-chouette", 2, 5, "easy", {"objectif": 100}),
    # seed 3: the learner leads the first round holding the strongest dragon (black 5) and
    # three magicians (trumps); two random robots, the whole four rounds
    "chouineurs": Lesson("chouineurs", 3, 3, "random"),
    # seed 5: when everyone says « moi ! », the learner bids first with three colours of
    # depth 1 (good trumps). « Honneur » (every typed argument counts), ten minutes a card
    # to read and write, a short game. The robots are the greedy ones, not the random ones:
    # one of them is the learner's partner, and a random bidder makes nonsense contracts
    "parlote": Lesson(
        "parlote", 4, 5, "greedy", {"mode": "honneur", "target": 300, "play_seconds": 600}
    ),
}


def lesson_of(request: Request, table: LiveTable) -> str | None:
    """The game whose lesson panel the table page shows, or None for a plain table."""
    if LESSON_QUERY not in request.query_params:
        return None
    return table.game.name if table.game.name in LESSONS else None
