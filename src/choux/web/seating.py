"""Who may enter a table and sit where, beyond the first join: private tables (the invite
link carries a secret), seats that come back to their identity, the host removing someone
before the start, and « Jouer maintenant » (quick play).
"""

from __future__ import annotations

import hmac
from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from choux import games
from choux.play.errors import TableError
from choux.play.players import record_table
from choux.play.seating import identity_seat, own_seat, sat_here
from choux.play.service import SeatSpec, TableService
from choux.play.tables import LiveTable
from choux.web.forms import form_of, session_of
from choux.web.ratelimits import client_key
from choux.web.session import Session

router = APIRouter()

PRIVATE = "Cette table est privée : il faut le lien d'invitation complet pour y entrer."
REMATCH_SEATS = (
    "Les places de cette revanche attendent les joueurs de la partie précédente : "
    "pour vous asseoir, demandez-leur le lien d'invitation."
)
#: the waits quick play offers before bots fill the empty seats (seconds)
QUICK_WAIT_LABELS = {
    5: "5 secondes",
    15: "15 secondes",
    30: "30 secondes",
    60: "1 minute",
    120: "2 minutes",
}
QUICK_WAITS = tuple(QUICK_WAIT_LABELS)


def service_of(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def invite_link(request: Request, table: LiveTable) -> str:
    """The link to send to friends (with the secret for a private table)."""
    link = str(request.url_for("table_page", code=table.code))
    if table.row.private and table.row.secret:
        link += f"?cle={table.row.secret}"
    return link


async def may_enter(
    request: Request, table: LiveTable, key: str | None, *, to_sit: bool = False
) -> bool:
    """A private table admits its seated people (by token or identity), who brings its
    secret (remembered in the cookie), and who sat at the table it is a rematch of. Who
    watched that table may watch its rematch, not sit there (`to_sit`): its seats wait for
    the former players, and a new friend comes in by the invite link."""
    if not table.row.private:
        return True
    session = session_of(request)
    entry = session.seat_at(table.code)
    if entry is not None and table.seat_for_token(*entry) is not None:
        return True
    if sat_here(table, session.player):
        return True
    secret = table.row.secret or ""
    if key is not None and secret and hmac.compare_digest(key.encode(), secret.encode()):
        session.remember_invite(table.code)
        return True
    if table.code in session.invited:
        return True
    if await former_seat(request, table) is not None:
        session.remember_invite(table.code)
        return True
    if not to_sit and await watched_before(request, table):
        session.remember_watching(table.code)
        return True
    return False


async def watched_before(request: Request, table: LiveTable) -> bool:
    """Could the visitor watch the table this one is a rematch of (a public one, or a
    private one they entered)?"""
    previous = table.row.prev_code
    if not previous:
        return False
    session = session_of(request)
    if previous in session.invited or previous in session.watching:
        return True
    try:
        before = await service_of(request).get(previous)
    except TableError:
        return False
    return not before.row.private


async def former_seat(request: Request, table: LiveTable) -> int | None:
    """The visitor's seat at the table this one is a rematch of: by the seat token of this
    browser, or by identity (an account's other device, a seat a bot took over since)."""
    previous = table.row.prev_code
    if not previous:
        return None
    session = session_of(request)
    entry = session.seat_at(previous)
    if entry is None and not session.player:
        return None
    try:
        before = await service_of(request).get(previous)
    except TableError:
        return None
    seat = None if entry is None else before.seat_for_token(*entry)
    return seat if seat is not None else own_seat(before, session.player)


#: how long a rematch keeps its seats for the people who had them in the game before
REMATCH_HOLD = timedelta(minutes=5)


async def held_seats(request: Request, table: LiveTable) -> dict[int, str]:
    """The open seats of a rematch that still wait for the person who had them in the
    game before (for `REMATCH_HOLD` after the rematch was made), but the visitor's own:
    seat -> that person's name. A newcomer with the invite link took a seat the former
    player then found taken, and watched their own rematch (an evening's audit)."""
    previous = table.row.prev_code
    made = table.row.created_at
    if not previous or table.status != "open" or made is None:
        return {}
    if made.tzinfo is None:  # SQLite gives naive times back
        made = made.replace(tzinfo=UTC)
    if datetime.now(UTC) - made > REMATCH_HOLD:
        return {}
    try:
        before = await service_of(request).get(previous)
    except TableError:
        return {}
    mine = await former_seat(request, table)
    free = set(table.open_seats())
    return {
        s.seat: s.name
        for s in before.seats
        if s.kind == "human" and s.seat in free and s.seat != mine and s.name
    }


async def seat_to_take(request: Request, table: LiveTable, wanted: int | None) -> int | None:
    """The seat a join asks for, checked against the seats a rematch keeps (`None`: any
    free seat, and then one that nobody waits for)."""
    held = await held_seats(request, table)
    if not held:
        return wanted
    if wanted is None:
        free = [s for s in table.open_seats() if s not in held]
        if free:
            return free[0]
        wanted = min(held)
    if wanted in held:
        raise TableError(
            f"La place {wanted + 1} est gardée quelques minutes pour {held[wanted]}, qui "
            "jouait la partie précédente : attendez son retour ou choisissez une autre place."
        )
    return wanted


async def check_replay(request: Request, record_id: int) -> None:
    """A private table's finished game replays only for its people and its invitees."""
    found = await record_table(service_of(request).store, record_id)
    if found is None or not found[1]:
        return  # public, or unknown (the replay route says so)
    code, _, players = found
    session = session_of(request)
    if session.player in players or code in session.invited:
        return
    raise TableError(
        "Cette partie s'est jouée à une table privée : seuls ses joueurs la revoient.", "forbidden"
    )


def may_watch(table: LiveTable, session: Session) -> bool:
    """A socket without a seat at a private table: only for who entered its page."""
    code = table.code
    return code in session.invited or code in session.watching or sat_here(table, session.player)


async def check_entry(
    request: Request, table: LiveTable, key: str | None = None, *, to_sit: bool = False
) -> None:
    if not await may_enter(request, table, key, to_sit=to_sit):
        if to_sit and table.row.prev_code:
            raise TableError(REMATCH_SEATS, "forbidden")
        raise TableError(PRIVATE, "forbidden")


async def arrive(request: Request, table: LiveTable, seat: int | None) -> int | None:
    """Opening a table: refused at a private table without its secret; a person whose
    seat a bot took gets it back (a person's own seat is theirs on every device)."""
    await check_entry(request, table, request.query_params.get("cle"))
    if seat is not None or table.status == "over":
        return seat
    session = session_of(request)
    mine = own_seat(table, session.player)
    if mine is None or table.seats[mine].kind == "human":
        return mine
    token = await service_of(request).return_to_seat(table, mine, session.player)
    session.remember(table.code, mine, token, table.seats[mine].name)
    return mine


def my_seat(request: Request, table: LiveTable) -> int | None:
    """The visitor's seat: by the seat token in their cookie, or by their identity (a
    seat taken on another device of the same account)."""
    session = session_of(request)
    entry = session.seat_at(table.code)
    seat = None if entry is None else table.seat_for_token(*entry)
    return seat if seat is not None else identity_seat(table, session.player)


def place_of(form: dict[str, str]) -> int:
    try:
        return int(form.get("place", ""))
    except ValueError as error:
        raise TableError("Place invalide.") from error


@router.post("/t/{code}/reprendre")
async def take_back(request: Request, code: str) -> Response:
    """Take back one's seat (from the bot standing in, or from another device)."""
    form = await form_of(request)
    table = await service_of(request).get(code)
    seat = place_of(form)
    session = session_of(request)
    token = await service_of(request).return_to_seat(table, seat, session.player)
    session.remember(code, seat, token, table.seats[seat].name)
    return RedirectResponse(f"/t/{code}", status_code=303)


@router.post("/t/{code}/retirer")
async def remove_person(request: Request, code: str) -> Response:
    """The host frees a seat taken by mistake (before the game starts)."""
    form = await form_of(request)
    table = await service_of(request).get(code)
    host = my_seat(request, table)
    if host is None:
        raise TableError("Seul l'hôte de la table peut retirer un joueur.", "forbidden")
    await service_of(request).unseat(table, host, place_of(form))
    return RedirectResponse(f"/t/{code}", status_code=303)


@router.post("/t/{code}/quitter")
async def leave_seat(request: Request, code: str) -> Response:
    """The visitor leaves their own seat (a bot finishes a game already started)."""
    await form_of(request)
    table = await service_of(request).get(code)
    seat = my_seat(request, table)
    if seat is None or table.seats[seat].kind != "human":
        raise TableError("Vous n'êtes pas assis·e à cette table.", "forbidden")
    await service_of(request).leave(table, seat)
    return RedirectResponse(f"/t/{code}", status_code=303)


@router.post("/t/{code}/fermer")
async def close_table(request: Request, code: str) -> Response:
    """The host closes a table still waiting for players."""
    await form_of(request)
    table = await service_of(request).get(code)
    host = my_seat(request, table)
    if host is None:
        raise TableError("Seul l'hôte peut fermer la table.", "forbidden")
    await service_of(request).close_waiting(table, host)
    return RedirectResponse(f"/t/{code}", status_code=303)


@router.post("/jouer-maintenant")
async def quick_play(request: Request) -> Response:
    """Join the oldest public table of the game waiting for players, or open one whose
    empty seats bots fill after the chosen wait."""
    form = await form_of(request)
    name = form.get("jeu", "")
    if name not in games.names():
        raise TableError("Ce jeu n'est pas disponible.", "not_found")
    try:
        wait = int(form.get("attente", "30"))
    except ValueError as error:
        raise TableError("Attente impossible.") from error
    if wait not in QUICK_WAITS:
        raise TableError("Attente impossible.")
    service = service_of(request)
    session = session_of(request)
    pseudo = form.get("pseudo", "") or session.account or session.name
    if not await request.app.state.limits.allow("join", client_key(request)):
        raise TableError("Trop de demandes : patientez un peu avant de réessayer.", "busy")
    for waiting in await service.waiting_public(name, session.player):
        try:
            seat, token = await service.join(waiting, None, pseudo, session.player)
        except TableError as error:
            if error.kind == "conflict":  # full meanwhile, or the pseudonym taken there
                continue
            raise
        session.remember(waiting.code, seat, token, waiting.seats[seat].name)
        return RedirectResponse(f"/t/{waiting.code}", status_code=303)
    game = games.get(name)
    players = game.min_players
    table, host_token = await service.create(
        name,
        players,
        {},
        [SeatSpec("human")] * players,
        0,
        pseudo,
        creator_player=session.player,
        client=client_key(request),
    )
    assert host_token is not None
    host = next(s for s in table.seats if s.host)
    session.remember(table.code, host.seat, host_token, host.name)
    await service.fill_later(table, wait)
    return RedirectResponse(f"/t/{table.code}", status_code=303)
