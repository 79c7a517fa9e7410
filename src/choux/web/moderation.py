"""« Modération » (/moderation): for the accounts the operator named (`choux admin
moderator`) only (anyone
else gets the site's 404, the page does not exist for them). The tables not over, with a
way to stop any of them; the site's last chat lines and arguments typed into La parlote's
moves, with a way to take one off every page (and out of the game's record); suspending an account and lifting a suspension, as `choux admin suspend` and `restore` do. Every action is a form with the
session's CSRF token, a POST drawn from the usual budget, and is logged with the
moderator's pseudonym."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from choux import games
from choux.play.accounts import Account, AccountError, clean_reason, is_moderator
from choux.play.chat_store import recent_site_lines
from choux.play.errors import TableError
from choux.play.moderation import tables_in_play
from choux.play.service import TableService
from choux.play.typed_texts import recent_typed_texts
from choux.web.accounts import accounts_of, current_account
from choux.web.errors import status_of
from choux.web.forms import form_of
from choux.web.templating import render

log = logging.getLogger("choux.moderation")
router = APIRouter()

NOT_FOUND = "Cette page n'existe pas."
DONE = {
    "arretee": "Partie arrêtée : elle n'est pas classée, et son journal dit pourquoi.",
    "retire": "Message retiré de toutes les pages.",
    "argument": "Argument retiré de toutes les pages et de l'enregistrement de la partie.",
    "suspendu": "Compte suspendu : il ne peut plus se connecter, ses appareils sont déconnectés.",
    "retabli": "Compte rétabli : il se connecte de nouveau avec son mot de passe.",
}
#: chat lines listed, newest first
LINES = 100


async def moderator(request: Request) -> Account:
    """The logged-in moderator, else TableError 404 (the page does not exist for others)."""
    account = await current_account(request)
    if account is None or not is_moderator(account):
        raise TableError(NOT_FOUND, 404)
    return account


def service_of(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


@router.get("/moderation", response_class=HTMLResponse)
async def moderation_page(request: Request, fait: str = "") -> Response:
    await moderator(request)
    return await _page(request, done=DONE.get(fait, ""))


async def _page(request: Request, status: int = 200, error: str = "", done: str = "") -> Response:
    store = service_of(request).store
    tables = [
        {
            "code": t.code,
            "title": games.get(t.game).title if t.game in games.names() else t.game,
            "waiting": t.status == "open",
            "names": t.names,
            "private": t.private,
        }
        for t in await tables_in_play(store)
    ]
    lines = await recent_site_lines(store, LINES)
    arguments = await recent_typed_texts(store, LINES)
    suspended = [a for a in await accounts_of(request).listing() if a.suspended_at is not None]
    context = {
        "tables": tables,
        "lines": lines,
        "arguments": arguments,
        "suspended": suspended,
        "error": error,
        "done": done,
    }
    return render(request, "moderation.html", context, status)


@router.post("/moderation/t/{code}/arreter")
async def stop_table(request: Request, code: str) -> Response:
    form = await form_of(request)
    who = await moderator(request)
    try:
        reason = clean_reason(form.get("raison", ""))  # an AccountError is a TableError
        table = await service_of(request).get(code)
        await service_of(request).stop_table(table, reason)
    except TableError as error:
        return await _page(request, status_of(error), error=error.message)
    log.info("table %s stopped by moderator %s: %s", code, ascii(who.pseudo), ascii(reason))
    return RedirectResponse("/moderation?fait=arretee", status_code=303)


@router.post("/moderation/chat/{line_id}/retirer")
async def remove_line(request: Request, line_id: int) -> Response:
    await form_of(request)
    who = await moderator(request)
    code = None
    if 0 < line_id < 2**31:
        code = await service_of(request).remove_chat_line(line_id)
    if code is None:
        return await _page(request, 404, error="Ce message n'existe pas.")
    log.info("chat line %s (table %s) removed by moderator %s", line_id, code, ascii(who.pseudo))
    return RedirectResponse("/moderation?fait=retire", status_code=303)


@router.post("/moderation/t/{code}/coup/{seq}/retirer")
async def remove_argument(request: Request, code: str, seq: int) -> Response:
    """Take the text typed into one move (La parlote's argument) off the game."""
    await form_of(request)
    who = await moderator(request)
    done = False
    if 0 < seq < 2**31 and 0 < len(code) <= 16:
        done = await service_of(request).remove_argument(code, seq)
    if not done:
        return await _page(request, 404, error="Cet argument n'existe pas ou a déjà été retiré.")
    log.info("argument %s of table %s removed by moderator %s", seq, code, ascii(who.pseudo))
    return RedirectResponse("/moderation?fait=argument", status_code=303)


async def _named(request: Request, form: dict[str, str]) -> Account | None:
    """The account the form's « pseudo » names (None: none, or no plausible pseudonym)."""
    pseudo = form.get("pseudo", "").strip()
    return await accounts_of(request).by_pseudo(pseudo) if 0 < len(pseudo) <= 64 else None


@router.post("/moderation/suspendre")
async def suspend(request: Request) -> Response:
    form = await form_of(request)
    who = await moderator(request)
    accounts = accounts_of(request)
    account = await _named(request, form)
    if account is None:
        return await _page(request, 404, error="Aucun compte sous ce pseudonyme.")
    if account.id == who.id:
        return await _page(request, 400, error="Vous ne pouvez pas suspendre votre propre compte.")
    try:
        await accounts.suspend(account, form.get("raison", ""))
    except AccountError as error:
        return await _page(request, status_of(error), error=error.message)
    await request.app.state.session_sockets.close(account.player)
    log.info("account %s suspended by moderator %s", ascii(account.pseudo), ascii(who.pseudo))
    return RedirectResponse("/moderation?fait=suspendu", status_code=303)


@router.post("/moderation/retablir")
async def restore(request: Request) -> Response:
    """Lift a suspension (a mistake, or its time served)."""
    form = await form_of(request)
    who = await moderator(request)
    account = await _named(request, form)
    if account is None or not account.suspended:
        return await _page(request, 404, error="Aucun compte suspendu sous ce pseudonyme.")
    await accounts_of(request).restore(account)
    log.info("account %s restored by moderator %s", ascii(account.pseudo), ascii(who.pseudo))
    return RedirectResponse("/moderation?fait=retabli", status_code=303)
