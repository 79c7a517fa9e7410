"""« Apprendre à jouer »: a guided first game against a robot, on a prepared deal.

The game is a real table (same engine, same table page, same record); what makes it a lesson
is its fixed seed (a deal or dice chosen for what they teach: at Chouine, a trump mariage to
announce at the first card; at Cul de Chouette, a Chouette at the first roll; see
`web/lessons.py`), weak robots, and the lesson panel of the table page
(`static/js/lessons/<game>.js`), which shows one rule at each step of the game.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from choux.play.service import SeatSpec, TableError
from choux.web.forms import form_of, session_of
from choux.web.lessons import LESSON_QUERY, LESSONS
from choux.web.pages import see_other, service_of

router = APIRouter()


@router.post("/apprendre/{game}")
async def start_lesson(request: Request, game: str) -> Response:
    form = await form_of(request)
    lesson = LESSONS.get(game)
    if lesson is None:
        raise TableError("Il n'y a pas encore de partie guidée pour ce jeu.", "not_found")
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
        private=True,  # a lesson is nobody else's table: not in the lobby, never rated
    )
    assert token is not None
    host = next(s for s in table.seats if s.host)
    session.remember(table.code, host.seat, token, host.name)
    return see_other(f"/t/{table.code}?{LESSON_QUERY}=1")
