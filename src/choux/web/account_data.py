"""« Mes données » and « Supprimer mon compte »: the owner's copy of what the site keeps
about the account, and its erasure (`play.erasure`), both behind the account's session,
the erasure behind its password too."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from choux.engine.base import Event
from choux.engine.record import ROBOT_SUFFIX
from choux.play.accounts import Account, pseudo_key
from choux.play.erasure import (
    Erased,
    erase_account,
    erased_name,
    export_account,
    rename_leftovers,
    scrub,
    unfinished_tables,
)
from choux.play.errors import TableError
from choux.play.service import TableService
from choux.play.tables import Named
from choux.web.accounts import TOO_MANY_LOGINS, accounts_of, become_guest, current_account
from choux.web.forms import form_of, session_of
from choux.web.players import title_of
from choux.web.ratelimits import client_key
from choux.web.templating import render

log = logging.getLogger("choux.accounts")
router = APIRouter()

WRONG_PASSWORD = "Ce n'est pas le bon mot de passe : le compte n'est pas supprimé."
NOT_CONFIRMED = "Cochez la case pour confirmer : la suppression est définitive."
STILL_PLAYING = "Une partie a commencé entre-temps : terminez-la ou quittez-la d'abord."


#: seconds for a request of another device, already past its session check when the
#: erasure ran, to finish (it may have seated the erased identity)
LATE_REQUESTS = 0.5


async def let_late_seats_go(service: TableService, erased: Erased) -> None:
    """Seats the erased identity took during its erasure (a join from another device):
    let go before the start (the host's table closes), handed to a bot during the game."""
    for table in list(service.tables.values()):
        for seat in [s.seat for s in table.seats if s.player == erased.player]:
            if table.code not in erased.tables:  # its journal names the person: scrubbed too
                erased.tables.append(table.code)
            row = table.seats[seat]
            try:
                if row.kind == "human" and table.status == "open":
                    if row.host:
                        await service.close_waiting(table, seat)
                    else:
                        await service.leave(table, seat)
                elif row.kind == "human" and table.status == "live":
                    await service.exclude(table, seat, "compte supprimé")
            except TableError as error:  # it moved on meanwhile: renamed below all the same
                log.info("table %s: seat %s of an erased account: %s", table.code, seat, error)
    erased.tables.extend(
        code for code in await rename_leftovers(service.store, erased) if code not in erased.tables
    )


def _scrubbed(entry: Event | Named | str, names: set[str]) -> Event | Named | str:
    """A journal entry without the erased person's names (an event keeps its seats: the
    names it renders with are the seats' own, already renamed)."""
    if isinstance(entry, str):
        return scrub(entry, names)
    if isinstance(entry, Named):
        return Named(entry.event, tuple(scrub(name, names) for name in entry.names))
    return entry


async def forget_in_memory(service: TableService, erased: Erased, pseudo: str) -> None:
    """The tables and chats this process holds show the erased name no more: a finished
    table nobody watches is dropped (it reloads from the store), any other has its seats
    renamed and the journal lines that name the person rewritten; chats are read again on
    every process and pushed to open pages."""
    for code in erased.tables:
        table = service.tables.get(code)
        if table is None:
            continue
        if table.status == "over" and not table.subscribers:
            service.tables.pop(code, None)
            continue
        names = {pseudo}
        for seat in table.seats:
            if seat.player == erased.player:
                names.update({seat.name or "", (seat.name or "").removesuffix(ROBOT_SUFFIX)})
                seat.player, seat.token_hash = erased.stranger, None
                seat.name = erased_name(seat.kind)
        names.discard("")
        # the journal's lines written with the name (« Eve s'installe… », « Eve a quitté… »)
        table.log[:] = [(version, _scrubbed(line, names)) for version, line in table.log]
        table.meta += 1
        table.wake_all()
    for code in dict.fromkeys(erased.tables + erased.chats):
        await service.chat_changed(code)  # every process, and every open page
    for code in erased.moves:  # La parlote's arguments it typed, in the views
        await service.moves_changed(code)


@router.get("/compte/donnees.json")
async def download(request: Request) -> Response:
    """Everything kept about the account, as a JSON file to save."""
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    data = await export_account(request.app.state.store, account)
    body = json.dumps(data, ensure_ascii=False, indent=2)
    return Response(
        body,
        media_type="application/json; charset=utf-8",
        headers={
            "Content-Disposition": 'attachment; filename="choux-mes-donnees.json"',
            "Cache-Control": "no-store",
        },
    )


@router.get("/compte/supprimer", response_class=HTMLResponse)
async def erase_page(request: Request) -> Response:
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    return await _erase_page(request, account)


async def _erase_page(
    request: Request, account: Account, status: int = 200, error: str = ""
) -> Response:
    blocking = await unfinished_tables(request.app.state.store, account.player)
    tables = [
        {"code": t.code, "title": title_of(t.game), "waiting": t.status == "open"} for t in blocking
    ]
    context = {"account": account, "tables": tables, "error": error}
    return render(request, "account_erase.html", context, status)


@router.post("/compte/supprimer")
async def erase(request: Request) -> Response:
    form = await form_of(request)
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    limits = request.app.state.limits
    # a password is checked: the log-in's budgets, the address's and the account's
    client = client_key(request)
    allowed = await limits.allow("login", client)
    allowed = allowed and await limits.allow(
        "login_account", f"pseudo:{pseudo_key(account.pseudo)}"
    )
    if not allowed:
        return await _erase_page(request, account, 429, TOO_MANY_LOGINS)
    if form.get("confirmer") != "oui":
        return await _erase_page(request, account, 400, NOT_CONFIRMED)
    if not await accounts_of(request).password_matches(account, form.get("mot_de_passe")):
        return await _erase_page(request, account, 403, WRONG_PASSWORD)
    store = request.app.state.store
    if await unfinished_tables(store, account.player):
        return await _erase_page(request, account, 409)
    try:
        erased = await erase_account(store, account)
    except ValueError:  # a game started between the check and the erasure
        return await _erase_page(request, account, 409, STILL_PLAYING)
    log.info("account %s erased by its owner from %s", account.id, client)
    service = request.app.state.service
    await request.app.state.session_sockets.close(account.player)
    for pause in (0.0, LATE_REQUESTS):
        await asyncio.sleep(pause)
        await let_late_seats_go(service, erased)
    await forget_in_memory(service, erased, account.pseudo)
    await become_guest(request, session_of(request))
    return RedirectResponse("/connexion?deconnecte=supprime", status_code=303)
