"""« Mot de passe oublié » : a link by e-mail to choose a new password.

The link goes to the address the account gave for its « À vous de jouer » e-mails (on a
table page or the account page), only when the operator set an SMTP server. It is signed
with the server's key, lasts an hour, and carries a digest of the password it replaces, so
it serves once and dies with any other change of password. The form answers the same
whether the pseudonym exists, has an address or not: it tells a stranger nothing.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from itsdangerous import URLSafeTimedSerializer

from choux.play import push_store
from choux.play.accounts import Account, AccountError, pseudo_key
from choux.web.accounts import TOO_MANY_LOGINS, accounts_of
from choux.web.errors import status_of
from choux.web.forms import form_of
from choux.web.mail import Mailer
from choux.web.ratelimits import Limits, client_key
from choux.web.signed_links import read_token
from choux.web.templating import render

log = logging.getLogger("choux.accounts")
router = APIRouter()

#: how long a link serves
LINK_SECONDS = 3600
MAX_TOKEN = 400  # a real link's token is about 120 characters

SENT = (
    "Si ce compte existe et a donné une adresse e-mail, un lien vient d'y partir : il sert "
    "une fois, dans l'heure. Pensez à regarder dans les indésirables."
)
NO_MAIL = (
    "Ce serveur n'envoie pas d'e-mails : demandez à la personne qui s'en occupe de vous "
    "donner un nouveau mot de passe."
)
DEAD_LINK = (
    "Ce lien n'est plus valable (il a déjà servi, il a plus d'une heure, ou le mot de passe a "
    "changé depuis) : demandez-en un autre."
)
RESET_DONE = "Mot de passe changé : connectez-vous avec le nouveau."


class ResetLinks:
    """Signed tokens of (account id, password digest), an hour long."""

    def __init__(self, key: str) -> None:
        self.serializer = URLSafeTimedSerializer(key, salt="choux-password-reset")

    def token(self, account_id: int, fingerprint: str) -> str:
        return self.serializer.dumps([account_id, fingerprint])

    def read(self, token: object) -> tuple[int, str] | None:
        match read_token(self.serializer, token, LINK_SECONDS, MAX_TOKEN):
            case [int() as account_id, str() as fingerprint]:
                return account_id, fingerprint
        return None


def mailer_of(request: Request) -> Mailer:
    mailer: Mailer = request.app.state.mailer
    return mailer


async def account_of_link(request: Request, token: object) -> Account | None:
    """The account a link may reset: signed, in time, and for the password it has now."""
    read = request.app.state.reset_links.read(token)
    if read is None:
        return None
    accounts = accounts_of(request)
    account = await accounts.by_id(read[0])
    if account is None or account.suspended:
        return None
    if await accounts.password_fingerprint(account) != read[1]:
        return None
    return account


@router.get("/mot-de-passe-oublie", response_class=HTMLResponse)
async def forgot_page(request: Request) -> Response:
    return render(request, "account_forgot.html", {"enabled": mailer_of(request).enabled})


@router.post("/mot-de-passe-oublie")
async def forgot(request: Request) -> Response:
    form = await form_of(request)
    mailer = mailer_of(request)
    if not mailer.enabled:
        return render(request, "account_forgot.html", {"enabled": False}, 404)
    pseudo = form.get("pseudo", "").strip()
    # the log-in's budgets: per address, and per pseudonym from every address (no flood
    # of mails to one person)
    limits: Limits = request.app.state.limits
    client = client_key(request)
    allowed = await limits.allow("login", client)
    if allowed and pseudo:
        key = pseudo_key(pseudo) if len(pseudo) <= 64 else pseudo[:64]
        allowed = await limits.allow("login_account", f"reset:{key}")
    if not allowed:
        context = {"enabled": True, "error": TOO_MANY_LOGINS}
        return render(request, "account_forgot.html", context, 429)
    account = await accounts_of(request).by_pseudo(pseudo) if 0 < len(pseudo) <= 64 else None
    if account is not None and not account.suspended:
        address = (await push_store.emails_of(request.app.state.store, [account.player])).get(
            account.player
        )
        if address:
            fingerprint = await accounts_of(request).password_fingerprint(account)
            token = request.app.state.reset_links.token(account.id, fingerprint)
            link = f"{request.app.state.settings.public_url.rstrip('/')}/mot-de-passe/nouveau?jeton={token}"
            await mailer.send(mailer.reset_message(address, account.pseudo, link))
            log.info("password reset mailed for %s from %s", ascii(account.pseudo), client)
    return render(request, "account_forgot.html", {"enabled": True, "done": SENT})


@router.get("/mot-de-passe/nouveau", response_class=HTMLResponse)
async def new_password_page(request: Request, jeton: str = "") -> Response:
    account = await account_of_link(request, jeton)
    if account is None:
        return render(request, "account_reset.html", {"error": DEAD_LINK, "token": ""}, 400)
    return render(request, "account_reset.html", {"account": account, "token": jeton})


@router.post("/mot-de-passe/nouveau")
async def new_password(request: Request) -> Response:
    form = await form_of(request)
    token = form.get("jeton", "")
    account = await account_of_link(request, token)
    if account is None:
        return render(request, "account_reset.html", {"error": DEAD_LINK, "token": ""}, 400)
    accounts = accounts_of(request)
    try:
        if form.get("nouveau", "") != form.get("confirmation", ""):
            raise AccountError("Les deux nouveaux mots de passe ne sont pas identiques.")
        await accounts.set_password(account, form.get("nouveau"))
    except AccountError as error:
        context = {"account": account, "token": token, "error": error.message}
        return render(request, "account_reset.html", context, status_of(error))
    await request.app.state.session_sockets.close(account.player)
    return RedirectResponse("/connexion?deconnecte=reinitialise", status_code=303)
