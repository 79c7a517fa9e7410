"""A person's pages: « Mes parties » (their tables, the ones waiting for them on top) and
public profiles of accounts, with the follow button."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from choux import games
from choux.engine.french import joined
from choux.play.errors import TableError
from choux.play.players import MyTable, follow, followed_by, standings_of, tables_of, unfollow
from choux.play.service import TableService
from choux.play.tables import STATUS_LABELS, LiveTable
from choux.web.accounts import accounts_of
from choux.web.catalog import catalog
from choux.web.forms import form_of, session_of
from choux.web.seating import QUICK_WAIT_LABELS
from choux.web.templating import render

router = APIRouter()

#: ongoing tables looked at live (to know whose turn it is) on one « Mes parties » page
MAX_ONGOING = 20


def title_of(name: str) -> str:
    return games.get(name).title if name in games.names() else name


def result_label(table: MyTable) -> str:
    rank = table.rank
    if table.record_id is None or rank is None:
        return "terminée"
    if rank == 1:
        return "victoire"
    return f"{rank}e place"


def time_left(seconds: float) -> str:
    """A correspondence move's time left, as the table page counts it: « 2 j 5 h »,
    « 11 h 59 min », « 25 min ».

    >>> time_left(2 * 86400 + 5 * 3600), time_left(1500), time_left(59), time_left(-3)
    ('2 j 5 h', '25 min', "moins d'une minute", "moins d'une minute")
    """
    if seconds < 60:  # « 0 min » read as « time is up » (it is about to be, or being played)
        return "moins d'une minute"
    minutes = int(seconds) // 60
    days, hours = minutes // 1440, minutes % 1440 // 60
    if days:
        return f"{days} j {hours} h"
    return f"{hours} h {minutes % 60} min" if hours else f"{minutes % 60} min"


def awaited_seats(table: LiveTable) -> tuple[int, ...]:
    """The seats whose decision the game waits for. A game whose actors include seats that
    merely may act (at Cul de Chouette everyone holding a −10 button or a shout) names
    them in its public view (« waiting »); elsewhere they are its actors."""
    waiting = table.state.view(None).get("waiting")
    if isinstance(waiting, list):
        return tuple(s for s in waiting if isinstance(s, int))
    return tuple(table.state.actors())


async def ongoing_row(service: TableService, mine: MyTable) -> dict[str, Any] | None:
    """An open or live table as « Mes parties » shows it, from its live state; at a
    correspondence table, whom it waits for and the time left to play."""
    try:
        table = await service.get(mine.code)
    except TableError:
        return None
    if table.status == "over":
        return None
    seat = table.seats[mine.seat]
    live = table.status == "live"
    awaited = awaited_seats(table) if live else ()
    my_turn = live and seat.kind == "human" and mine.seat in awaited
    label = "à vous de jouer" if my_turn else STATUS_LABELS[table.status]
    if seat.kind == "bot":
        label = "un robot joue pour vous"
    try:
        days = await service.rule_for(table) is not None
    except Exception:  # the store away: shown as any other table
        days = False
    note = ""
    if days:
        names = table.names()
        waited = [names[s] for s in awaited if s != mine.seat]
        if live and not my_turn and seat.kind == "human" and waited:
            label = f"à {joined(waited)} de jouer"
        note = "par correspondance"
        if live and table.move_at is not None:
            note += f" · encore {time_left(table.move_at - time.time())} pour ce coup"
    return {
        "code": table.code,
        "title": table.game.title,
        # the people and bots seated (not « Place 2 » for a seat nobody took yet)
        "names": [n for n, s in zip(table.names(), table.seats, strict=True) if s.kind != "open"],
        "status": table.status,
        "label": label,
        "note": note,
        "my_turn": my_turn,
        "replaced": seat.kind == "bot",
    }


@router.get("/mes-parties", response_class=HTMLResponse)
async def my_games(request: Request) -> Response:
    service: TableService = request.app.state.service
    session = session_of(request)
    mine = await tables_of(service.store, session.player)
    ongoing = []
    for table in [t for t in mine if t.status in ("open", "live")][:MAX_ONGOING]:
        row = await ongoing_row(service, table)
        if row is not None:
            ongoing.append(row)
    ongoing.sort(key=lambda r: not r["my_turn"])  # stable: most recent first otherwise
    finished = [
        {
            "code": t.code,
            "title": title_of(t.game),
            "names": t.names,
            # a game without a record was abandoned (a correspondence deadline): its table
            # says why; a table nobody completed was never a game
            "href": f"/parties/{t.record_id}" if t.record_id is not None else f"/t/{t.code}",
            "record_id": t.record_id,
            "result": result_label(t) if t.record_id is not None else "abandonnée",
            "won": t.won,
        }
        for t in mine
        if t.status == "over" and (t.record_id is not None or t.started)
    ]
    followed = await followed_by(service.store, session.player)
    pseudos = await accounts_of(request).pseudos_of(sorted(followed))
    return render(
        request,
        "my_games.html",
        {
            "ongoing": ongoing,
            "finished": finished,
            "account": session.account,
            "followed": sorted(pseudos.values(), key=str.casefold),
        },
    )


@router.get("/joueur/{pseudo}", response_class=HTMLResponse)
async def profile(request: Request, pseudo: str) -> Response:
    account = await accounts_of(request).by_pseudo(pseudo) if len(pseudo) <= 24 else None
    if account is None:
        raise TableError("Aucun joueur ne porte ce pseudonyme.", "not_found")
    if account.suspended:
        raise TableError("Ce compte est suspendu.", "not_found")
    service: TableService = request.app.state.service
    standings = await standings_of(service.store, account.player)
    mine = await tables_of(service.store, account.player)
    viewer = session_of(request).player
    # a private table's game is for those who sat there: not shown to anyone else
    over = [
        t
        for t in mine
        if t.status == "over"
        and t.record_id is not None
        and (not t.private or viewer == account.player)
    ]
    stats = []
    for info in catalog():
        standing = standings.get(info.name)
        played = [t for t in over if t.game == info.name]
        if standing is None and not played:
            continue
        stats.append(
            {
                "name": info.name,
                "title": info.title,
                "score": standing.score if standing else None,
                "games": standing.games if standing else len(played),
                "wins": standing.wins if standing else sum(t.won for t in played),
            }
        )
    recent = [
        {
            "title": title_of(t.game),
            "names": t.names,
            "record_id": t.record_id,
            "result": result_label(t),
            "won": t.won,
        }
        for t in over[:10]
    ]
    return render(
        request,
        "profile.html",
        {
            "account": account,
            "stats": stats,
            "recent": recent,
            "me": viewer == account.player,
            "following": account.player in await followed_by(service.store, viewer),
        },
    )


@router.post("/joueur/{pseudo}/suivre")
async def toggle_follow(request: Request, pseudo: str) -> Response:
    form = await form_of(request)
    account = await accounts_of(request).by_pseudo(pseudo) if len(pseudo) <= 24 else None
    if account is None:
        raise TableError("Aucun joueur ne porte ce pseudonyme.", "not_found")
    store = request.app.state.service.store
    viewer = session_of(request).player
    if form.get("suivre") == "non":
        await unfollow(store, viewer, account.player)
    else:
        await follow(store, viewer, account.player)
    return RedirectResponse("/joueur/" + quote(account.pseudo), status_code=303)


async def lobby_context(request: Request) -> dict[str, Any]:
    """What the lobby adds for this visitor: the public tables of the people they follow,
    and the quick-play form."""
    service: TableService = request.app.state.service
    followed = await followed_by(service.store, session_of(request).player)
    friends = []
    if followed:
        for table in service.listed():
            people = [s.name for s in table.seats if s.player in followed and s.kind == "human"]
            if people:
                friends.append(
                    {
                        "code": table.code,
                        "title": table.game.title,
                        "people": people,
                        "status": table.status,
                        "free": len(table.open_seats()),
                        "status_label": STATUS_LABELS[table.status],
                    }
                )
    return {
        "friends": friends[:20],
        "quick_games": [info for info in catalog() if info.available],
        "quick_waits": list(QUICK_WAIT_LABELS.items()),
    }
