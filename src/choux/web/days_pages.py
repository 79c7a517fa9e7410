"""Pages and routes of playing over days (issue 12): the template globals of the
correspondence fields; web push, the manifest and the service worker join later."""

from __future__ import annotations

from fastapi import APIRouter

from choux.play.correspondence import GAMES, MOVE_TIMES, ON_TIMEOUT
from choux.web.templating import templates

router = APIRouter()

templates.env.globals["correspondence"] = {
    "games": GAMES,
    "move_times": MOVE_TIMES,
    "on_timeout": ON_TIMEOUT,
}
