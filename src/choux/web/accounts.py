"""Account pages: create an account from the guest identity, log in and out, change the
password; and `attach`, which checks the cookie's account session on every request.

Passwords are read from the form and handed to `play.accounts` only: never echoed back in
a page, never logged.
"""

from __future__ import annotations

import logging
import re
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.requests import HTTPConnection

from choux.play import push_store
from choux.play.accounts import Account, AccountError, Accounts, is_moderator, pseudo_key
from choux.play.errors import TableError
from choux.web.email_confirm import give_address
from choux.web.errors import status_of
from choux.web.forms import form_of, session_of
from choux.web.ratelimits import Limits, client_key
from choux.web.session import Session
from choux.web.templating import render

log = logging.getLogger("choux.accounts")
router = APIRouter()

TOO_MANY_LOGINS = "Trop de tentatives de connexion : patientez quelques minutes avant de réessayer."


def accounts_of(request: HTTPConnection) -> Accounts:
    """The accounts of this app's store (made on first use)."""
    state = request.app.state
    accounts: Accounts | None = getattr(state, "accounts", None)
    if accounts is None or accounts.store is not state.store:
        accounts = state.accounts = Accounts(state.store)
    return accounts


async def follow_device(request: HTTPConnection, old: str, new: str) -> None:
    """This device changed identity: its push subscription (if it has one) goes along, so
    a phone logged in gets the account's turns and a device logged out no longer does."""
    key = request.cookies.get(push_store.PUSH_COOKIE, "")
    if old != new and 0 < len(key) <= 64:
        await push_store.move(request.app.state.store, old, new, key)


async def become_guest(request: HTTPConnection, session: Session) -> None:
    """Logged out (here, elsewhere, or by an unknown session): a fresh guest identity with
    no name, and this device's push subscription goes with it, not with the account."""
    old = session.player
    session.become(secrets.token_urlsafe(12))
    session.name = ""
    await follow_device(request, old, session.player)


async def attach(request: HTTPConnection, session: Session) -> None:
    """Make the cookie's account session count: its identity becomes the visitor's. A
    session unknown to the store (logged out elsewhere, expired, made up) turns the
    device back into a fresh guest."""
    if not session.auth:
        # a guest cookie whose identity has since become an account's: a copy kept from
        # before the sign-up (a shared computer) played as the account for good, logging
        # out everywhere and a new password notwithstanding (an audit). A fresh guest.
        if await accounts_of(request).by_player(session.player) is not None:
            await become_guest(request, session)
        return
    account = await accounts_of(request).session_account(session.auth)
    if account is None:
        await become_guest(request, session)
        return
    session.account = account.pseudo
    if session.player != account.player:
        old = session.player
        session.become(account.player, session.auth, account.pseudo)
        await follow_device(request, old, session.player)


async def current_account(request: Request) -> Account | None:
    session = session_of(request)
    if not session.account:
        return None
    return await accounts_of(request).by_player(session.player)


# ---------------------------------------------------------------------- creating an account


@router.get("/compte/creer", response_class=HTMLResponse)
async def signup_page(request: Request) -> Response:
    if session_of(request).account:
        return RedirectResponse("/compte", status_code=303)
    return render(request, "account_create.html", {"pseudo": session_of(request).name})


@router.post("/compte/creer")
async def signup(request: Request) -> Response:
    form = await form_of(request)
    session = session_of(request)
    if session.account:
        return RedirectResponse("/compte", status_code=303)
    pseudo = form.get("pseudo", "")
    accounts = accounts_of(request)
    try:
        if form.get("mot_de_passe", "") != form.get("confirmation", ""):
            raise AccountError("Les deux mots de passe ne sont pas identiques.")
        if not await request.app.state.limits.allow("create", client_key(request)):
            raise AccountError("Trop de demandes : patientez un peu avant de réessayer.", "busy")
        account = await accounts.create(pseudo, form.get("mot_de_passe"), session.player)
    except AccountError as error:
        shown = pseudo if len(pseudo) <= 24 and "<" not in pseudo else ""
        return render(
            request,
            "account_create.html",
            {"pseudo": shown, "error": error.message},
            status_of(error),
        )
    token = await accounts.open_session(account)
    session.become(account.player, token, account.pseudo)
    return RedirectResponse("/compte?bienvenue=1", status_code=303)


# ---------------------------------------------------------------------- logging in and out


#: what the page after a log-out says (`?deconnecte=`): the log-out did happen
LOGGED_OUT = {
    "1": "Vous êtes déconnecté·e sur cet appareil.",
    "partout": "Vous êtes déconnecté·e sur tous vos appareils.",
    "reinitialise": "Mot de passe changé : connectez-vous avec le nouveau.",
    "supprime": "Votre compte est supprimé : vos parties restent, sous « Compte supprimé ».",
}


#: where a log-in may lead back to (`suite`): a table's page of this site, nothing else
TABLE_PATH = re.compile(r"/t/[a-z0-9]{1,32}")


def back_to(value: object) -> str:
    """The table page `value` names, for the log-in to lead back to (the banner « reconnectez-
    vous pour reprendre votre place » sends it); "" for anything else: only a local path
    `/t/<code>` is followed, never another site (`//evil.example`, `/\\evil`, `https://…`) nor
    a path that climbs (`/t/../x`)."""
    if isinstance(value, str) and TABLE_PATH.fullmatch(value):
        return value
    return ""


@router.get("/connexion", response_class=HTMLResponse)
async def login_page(request: Request, deconnecte: str = "", suite: str = "") -> Response:
    back = back_to(suite)
    if session_of(request).account:
        return RedirectResponse(back or "/mes-parties", status_code=303)
    return render(
        request,
        "account_login.html",
        {"pseudo": "", "done": LOGGED_OUT.get(deconnecte, ""), "suite": back},
    )


@router.post("/connexion")
async def login(request: Request) -> Response:
    form = await form_of(request)
    pseudo = form.get("pseudo", "")
    back = back_to(form.get("suite"))
    limits: Limits = request.app.state.limits
    client = client_key(request)
    allowed = await limits.allow("login", client)
    if allowed and pseudo.strip():
        # the key the account is found by: look-alike spellings (« ＧＥＲＭＡＩＮＥ ») log in
        # to the same account, so they draw from the same limits: the address's own for
        # this pseudonym, and the pseudonym's from every address, ten times larger (a budget
        # of the account alone let one stranger lock its owner out, ten wrong passwords
        # every five minutes)
        key = pseudo_key(pseudo.strip())
        allowed = await limits.allow("login", f"pseudo:{key}:{client}")
        allowed = allowed and await limits.allow("login_account", f"pseudo:{key}")
    if not allowed:
        return render(
            request,
            "account_login.html",
            {"pseudo": "", "error": TOO_MANY_LOGINS, "suite": back},
            429,
        )
    accounts = accounts_of(request)
    try:
        account = await accounts.authenticate(pseudo, form.get("mot_de_passe"))
    except AccountError as error:
        # for the operator (fail2ban and the like): the address, the pseudonym as data
        log.info("log-in refused for %s from %s", ascii(pseudo[:40]), client)
        shown = pseudo if len(pseudo) <= 24 and "<" not in pseudo else ""
        return render(
            request,
            "account_login.html",
            {"pseudo": shown, "error": error.message, "suite": back},
            403,
        )
    token = await accounts.open_session(account)
    session = session_of(request)
    old = session.player
    session.become(account.player, token, account.pseudo)
    await follow_device(request, old, session.player)
    return RedirectResponse(back or "/mes-parties", status_code=303)


@router.post("/deconnexion")
async def logout(request: Request) -> Response:
    await form_of(request)
    session = session_of(request)
    if session.auth:
        await accounts_of(request).close_session(session.auth)
        await request.app.state.session_sockets.close(session.player, only=session.auth)
    await become_guest(request, session)
    return RedirectResponse("/connexion?deconnecte=1", status_code=303)


@router.post("/deconnexion-partout")
async def logout_everywhere(request: Request) -> Response:
    await form_of(request)
    account = await current_account(request)
    if account is not None:
        await accounts_of(request).close_all_sessions(account)
        await request.app.state.session_sockets.close(account.player)
    await become_guest(request, session_of(request))
    return RedirectResponse("/connexion?deconnecte=partout", status_code=303)


# ---------------------------------------------------------------------- the account page


PASSWORD_CHANGED = "Mot de passe changé : vos autres appareils sont déconnectés."


@router.get("/compte", response_class=HTMLResponse)
async def account_page(request: Request, bienvenue: int = 0, modifie: int = 0) -> Response:
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    done = PASSWORD_CHANGED if modifie else ""
    return await _account_page(request, account, welcome=bool(bienvenue), done=done)


async def _account_page(
    request: Request,
    account: Account,
    status: int = 200,
    welcome: bool = False,
    error: str = "",
    done: str = "",
) -> Response:
    devices = await accounts_of(request).session_count(account)
    mailer = request.app.state.mailer
    given = await push_store.address_of(request.app.state.store, account.player)
    return render(
        request,
        "account.html",
        {
            "account": account,
            "devices": devices,
            "welcome": welcome,
            "error": error,
            "done": done,
            "mail": mailer.enabled,
            "email": given.address if given else "",
            "email_confirmed": bool(given and given.confirmed),
            "moderator": is_moderator(account),
        },
        status,
    )


@router.post("/compte/email")
async def change_email(request: Request) -> Response:
    """The address for « À vous de jouer » and for a forgotten password ("": none); a new
    one is mailed its confirmation link first (`email_confirm`)."""
    form = await form_of(request)
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    if not await request.app.state.limits.allow("join", client_key(request)):
        error = "Trop de demandes : patientez un peu avant de réessayer."
        return await _account_page(request, account, 429, error=error)
    try:
        given = await give_address(request, account.player, form.get("email"))
    except TableError as error:
        return await _account_page(request, account, status_of(error), error=error.message)
    return await _account_page(request, account, done=given.message)


@router.post("/compte/mot-de-passe")
async def change_password(request: Request) -> Response:
    form = await form_of(request)
    account = await current_account(request)
    if account is None:
        return RedirectResponse("/connexion", status_code=303)
    accounts = accounts_of(request)
    try:
        if form.get("nouveau", "") != form.get("confirmation", ""):
            raise AccountError("Les deux nouveaux mots de passe ne sont pas identiques.")
        if not await request.app.state.limits.allow("login", client_key(request)):
            raise AccountError(TOO_MANY_LOGINS, "busy")
        await accounts.change_password(account, form.get("actuel"), form.get("nouveau"))
    except AccountError as error:
        return await _account_page(request, account, status_of(error), error=error.message)
    await accounts.close_all_sessions(account, keep=session_of(request).auth)
    await request.app.state.session_sockets.close(account.player, keep=session_of(request).auth)
    # a redirect: reloading the page then sends no password again
    return RedirectResponse("/compte?modifie=1", status_code=303)
