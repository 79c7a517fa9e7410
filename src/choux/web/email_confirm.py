"""An e-mail address is confirmed by its owner before anything is mailed to it: giving one
(on a table page or « Mon compte ») mails a link, signed with the server's key and good
for three days, for that identity and that address; opening it confirms the address.
Until then no « À vous de jouer » and no password link goes there, so an address typed by
someone else gets one message at most, and at most `CHOUX_LIMIT_MAIL` of them (per
address, whoever asks)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from itsdangerous import URLSafeTimedSerializer

from choux.play import push_store
from choux.web.mail import Mailer
from choux.web.ratelimits import client_key
from choux.web.signed_links import read_token
from choux.web.templating import render

router = APIRouter()

#: how long a confirmation link serves
LINK_SECONDS = 3 * 86400
MAX_TOKEN = 600  # a real link's token is about 150 characters

CLEARED = "Plus d'e-mails pour vos tours."
CONFIRMED = "Vos tours seront annoncés à {address}."
LINK_SENT = (
    "Un lien de confirmation vient de partir à {address} : ouvrez-le pour recevoir vos "
    "e-mails (pensez aux indésirables)."
)
LINK_RECENT = (
    "Un lien est déjà parti à {address} il y a peu : ouvrez-le (pensez aux indésirables), "
    "ou réessayez dans une heure."
)
TOO_MANY_LINKS = (
    "Trop de liens de confirmation demandés d'ici : l'adresse est notée, réessayez dans une "
    "heure pour recevoir son lien."
)
NOT_SENT = "L'e-mail de confirmation n'a pas pu partir : réessayez plus tard."
DEAD_LINK = (
    "Ce lien n'est plus valable (il a plus de trois jours, ou l'adresse a changé depuis) : "
    "donnez l'adresse à nouveau pour en recevoir un autre."
)


class ConfirmLinks:
    """Signed tokens of (a digest of the identity, the address), three days long: the
    payload of a signed token is readable, and the identity is shown to nobody."""

    def __init__(self, key: str) -> None:
        self.serializer = URLSafeTimedSerializer(key, salt="choux-email-confirm")

    def token(self, player: str, address: str) -> str:
        return self.serializer.dumps([push_store.identity_digest(player), address])

    def read(self, token: object) -> tuple[str, str] | None:
        """(identity digest, address) of a good token, None otherwise."""
        match read_token(self.serializer, token, LINK_SECONDS, MAX_TOKEN):
            case [str() as player, str() as address]:
                return player, address
        return None


@dataclass(frozen=True)
class Given:
    """An address just given: kept (None: cleared), confirmed already, and what to say."""

    address: str | None
    confirmed: bool
    message: str


async def give_address(request: Request, player: str, value: object) -> Given:
    """Keep the address `player` gave (TableError if unusable) and mail it its link when it
    waits for confirmation."""
    mailer: Mailer = request.app.state.mailer
    address, pending = await mailer.remember(player, value)
    if address is None:
        return Given(None, False, CLEARED)
    if not pending:
        return Given(address, True, CONFIRMED.format(address=address))
    limits = request.app.state.limits
    if not await limits.allow("mail_client", client_key(request)):
        return Given(address, False, TOO_MANY_LINKS)
    if not await limits.allow("mail", f"mail:{address.casefold()}"):
        return Given(address, False, LINK_RECENT.format(address=address))
    token = request.app.state.confirm_links.token(player, address)
    link = f"{mailer.settings.public_url.rstrip('/')}/email/confirmer?jeton={token}"
    if not await mailer.send(mailer.confirm_message(address, link)):
        return Given(address, False, NOT_SENT)
    return Given(address, False, LINK_SENT.format(address=address))


@router.get("/email/confirmer", response_class=HTMLResponse)
async def confirm(request: Request, jeton: str = "") -> Response:
    """The link of the mail: the address is confirmed if it is still the one given."""
    read = request.app.state.confirm_links.read(jeton)
    if read is None or not await push_store.confirm_email(request.app.state.store, *read):
        return render(request, "email_confirmed.html", {"error": DEAD_LINK}, 400)
    return render(request, "email_confirmed.html", {"address": read[1]})
