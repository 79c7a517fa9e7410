"""E-mail, when the operator sets an SMTP server (CHOUX_SMTP_URL): « À vous de jouer », the
links that let an account choose a new password (`password_reset.py`), and the link that
confirms an address first (`email_confirm.py`): nothing else goes to an address before.

A person gives an address on a table page (kept under their guest identity); when a
correspondence table starts waiting for them and they have no page open on it a few
seconds later (`turn_mail_grace_seconds`: the person whose join started the game is still
loading its page), one short message names the table and links to it. Sending runs in a thread (smtplib); a failure is
logged and never reaches the game.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from choux.play import push_store
from choux.play.errors import TableError
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import LiveTable

log = logging.getLogger("choux.web")

#: no control character either: « a\x00b@… » would go as is into the To header and RCPT TO
ADDRESS = re.compile(
    r"^[^@\s<>\"',;\x00-\x1f\x7f]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$"
)


def clean_address(value: object) -> str | None:
    """An e-mail address as given ("" or None: none); TableError (French) if unusable."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str) or len(value.strip()) > 254:
        raise TableError("Adresse e-mail invalide.")
    address = value.strip()
    if not ADDRESS.match(address) or "." not in address.rsplit("@", 1)[1]:
        raise TableError("Adresse e-mail invalide.")
    return address


class Mailer:
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.sent = 0

    @property
    def enabled(self) -> bool:
        return bool(self.settings.smtp_url)

    async def remember(self, player: str, value: object) -> tuple[str | None, bool]:
        """Keep the address (None: clear it); whether it waits for its confirmation."""
        if not self.enabled:
            raise TableError("Les e-mails ne sont pas configurés sur ce serveur.", 404)
        address = clean_address(value)
        pending = await push_store.set_email(self.store, player, address)
        return address, pending

    async def notify_turn(self, table: LiveTable, seats: list[int]) -> None:
        """The turn hook: mail the waited-for people who have no page open on the table a
        few seconds later (whose join started the game has no socket yet: its page loads)
        and whom the table still waits for then."""
        if not self.enabled:
            return
        if self.settings.turn_mail_grace_seconds > 0:
            await asyncio.sleep(self.settings.turn_mail_grace_seconds)
            if table.status != "live":
                return
            actors = table.state.actors()
            seats = [s for s in seats if s in actors]
        away = [
            table.seats[s].player
            for s in seats
            if not table.connections.get(s) and s not in table.remote
        ]
        players = [p for p in away if p]
        if not players:
            return
        addresses = await push_store.emails_of(self.store, players)
        for address in addresses.values():
            message = self.message(table, address)
            try:
                await asyncio.to_thread(self._send, message)
                self.sent += 1
            except Exception as error:
                log.warning("table %s: e-mail not sent: %s", table.code, error)

    def message(self, table: LiveTable, address: str) -> EmailMessage:
        link = f"{self.settings.public_url.rstrip('/')}/t/{table.code}"
        return self._mail(
            address,
            f"À vous de jouer · {table.game.title} (table {table.code})",
            f"C'est votre tour à la table {table.code} ({table.game.title}).\n\n"
            f"Jouez votre coup ici : {link}\n\n"
            "Vous recevez ce message parce que vous avez demandé à être prévenu·e par e-mail "
            "sur Choux. Pour ne plus le recevoir, videz l'adresse sur la page de la table.\n",
        )

    def reset_message(self, address: str, pseudo: str, link: str) -> EmailMessage:
        return self._mail(
            address,
            "Choux · nouveau mot de passe",
            f"Quelqu'un a demandé un nouveau mot de passe pour le compte « {pseudo} » sur "
            f"Choux.\n\nPour en choisir un, ouvrez ce lien dans l'heure : {link}\n\n"
            "Le lien ne sert qu'une fois. Si vous n'avez rien demandé, ignorez ce message : "
            "votre mot de passe reste le même.\n",
        )

    def confirm_message(self, address: str, link: str) -> EmailMessage:
        return self._mail(
            address,
            "Choux · confirmez votre adresse e-mail",
            "Quelqu'un a donné cette adresse sur Choux pour être prévenu·e par e-mail (son tour "
            f"dans une partie, un mot de passe oublié).\n\nSi c'est vous, ouvrez ce lien dans "
            f"les trois jours : {link}\n\nSinon, ignorez ce message : tant que ce lien n'est pas "
            "ouvert, aucun tour de jeu ni autre message ne part vers cette adresse (au plus un "
            "nouveau lien comme celui-ci, trois par heure, si quelqu'un la donne encore).\n",
        )

    def _mail(self, address: str, subject: str, body: str) -> EmailMessage:
        message = EmailMessage()
        message["Subject"] = subject
        message["From"] = self.settings.smtp_from
        message["To"] = address
        message.set_content(body)
        return message

    async def send(self, message: EmailMessage) -> bool:
        """Send in a thread; False (logged) when the server could not take it."""
        try:
            await asyncio.to_thread(self._send, message)
        except Exception as error:
            log.warning("e-mail not sent: %s", error)
            return False
        self.sent += 1
        return True

    def _send(self, message: EmailMessage) -> None:
        url = urlsplit(self.settings.smtp_url)
        host, port = url.hostname or "localhost", url.port
        if url.scheme == "smtps":
            client: smtplib.SMTP = smtplib.SMTP_SSL(host, port or 465, timeout=15)
        else:
            client = smtplib.SMTP(host, port or 25, timeout=15)
        with client:
            if url.scheme == "smtp+starttls":
                client.starttls()
            if url.username:
                client.login(unquote(url.username), unquote(url.password or ""))
            client.send_message(message)
