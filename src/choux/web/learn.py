"""« Apprendre à jouer »: a guided first game against a robot, on a prepared deal.

The game is a real table (same engine, same table page, same record); what makes it a lesson
is its fixed seed (a deal or dice chosen for what they teach: at Chouine, a trump mariage to
announce at the first card; at Cul de Chouette, a Chouette at the first roll), a weak robot, and the lesson panel of the table page
(`static/js/lessons/<game>.js`), which shows one rule at each step of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import APIRouter, Request
from fastapi.responses import Response

from choux.engine.base import JSON
from choux.play.service import SeatSpec, TableError
from choux.play.tables import LiveTable

router = APIRouter()

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
}


def lesson_of(request: Request, table: LiveTable) -> str | None:
    """The game whose lesson panel the table page shows, or None for a plain table."""
    if LESSON_QUERY not in request.query_params:
        return None
    return table.game.name if table.game.name in LESSONS else None


@router.post("/apprendre/{game}")
async def start_lesson(request: Request, game: str) -> Response:
    from choux.web.pages import form_of, see_other, service_of, session_of

    form = await form_of(request)
    lesson = LESSONS.get(game)
    if lesson is None:
        raise TableError("Il n'y a pas encore de partie guidée pour ce jeu.", 404)
    session = session_of(request)
    name = form.get("pseudo") or session.name or "Apprenti"
    seats = [SeatSpec("human"), *(SeatSpec("bot", lesson.bot) for _ in range(lesson.players - 1))]
    table, token = await service_of(request).create(
        game,
        lesson.players,
        dict(lesson.options),
        seats,
        0,
        name,
        creator_player=session.player,
        seed=lesson.seed,
    )
    assert token is not None
    host = next(s for s in table.seats if s.host)
    session.remember(table.code, host.seat, token, host.name)
    return see_other(f"/t/{table.code}?{LESSON_QUERY}=1")
