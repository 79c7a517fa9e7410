"""E-mail, when the operator sets an SMTP server (CHOUX_SMTP_URL): « À vous de jouer », the
links that let an account choose a new password (`password_reset.py`), and the link that
confirms an address first (`email_confirm.py`): nothing else goes to an address before.

A person gives an address on a table page (kept under their guest identity); when a
correspondence table starts waiting for them and they have no page open on it a few
seconds later (`turn_mail_grace_seconds`: the person whose join started the game is still
loading its page), one short message names the table and the other players, says the time
left and what happens after it, and links to the table. Sending runs in a thread
(smtplib); a failure is logged and never reaches the game.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
import time
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from choux.play import correspondence_store as cs
from choux.play import push_store
from choux.play.correspondence import QUIET_AFTER_TIMEOUTS, timeouts_in_a_row
from choux.play.correspondence_store import Rule
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


#: what the mail says happens when the time is out, by the table's rule
AFTER = {
    "bot": "au-delà, un robot joue à votre place",
    "abandon": "au-delà, la partie est abandonnée (non classée)",
}


def french_duration(seconds: float) -> str:
    """A time left as the table page writes it: « 2 j 5 h », « 23 h 59 min », « 12 min ».

    >>> french_duration(86340), french_duration(2 * 86400 + 5 * 3600 + 60), french_duration(720)
    ('23 h 59 min', '2 j 5 h', '12 min')
    >>> french_duration(20)
    "moins d'une minute"
    """
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} j {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min" if minutes else "moins d'une minute"


def french_list(names: list[str]) -> str:
    """« Bob », « Bob et Chloé », « Bob, Chloé et Denis »."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} et {names[-1]}"


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
        away = {
            s: table.seats[s].player
            for s in seats
            if not table.connections.get(s) and s not in table.remote
        }
        players = [p for p in away.values() if p]
        if not players:
            return
        addresses = await push_store.emails_of(self.store, players)
        if not addresses:
            return
        try:
            rule = await cs.rule_of(self.store, table.row.id)
        except Exception as error:  # the mail says less, it still goes
            log.warning("table %s: correspondence rule not read: %s", table.code, error)
            rule = None
        mailed: set[str] = set()
        for seat, player in away.items():
            address = addresses.get(player or "")
            if address is None or address in mailed:
                continue  # one identity at two seats: one mail
            mailed.add(address)
            message = self.message(table, address, seat, rule)
            try:
                await asyncio.to_thread(self._send, message)
                self.sent += 1
            except Exception as error:
                log.warning("table %s: e-mail not sent: %s", table.code, error)

    def message(
        self, table: LiveTable, address: str, seat: int, rule: Rule | None = None
    ) -> EmailMessage:
        """« À vous de jouer » for `seat`: who else plays, the time left and what happens
        after it, and the link."""
        link = f"{self.settings.public_url.rstrip('/')}/t/{table.code}"
        names = table.names()
        others = [name for i, name in enumerate(names) if i != seat]
        lines = [f"C'est votre tour à la table {table.code} ({table.game.title})."]
        if others:
            lines.append(f"Autour de la table : {french_list(others)}.")
        if table.move_at is not None:
            left = french_duration(table.move_at - time.time())
            after = AFTER.get(rule.on_timeout) if rule is not None else None
            lines.append(
                f"Il vous reste {left} pour jouer ; {after}."
                if after
                else f"Il vous reste {left} pour jouer."
            )
        clocked = timeouts_in_a_row(table, seat)
        if clocked == QUIET_AFTER_TIMEOUTS - 1 and (rule is None or rule.on_timeout == "bot"):
            lines.append(
                f"Le robot a joué vos {clocked} derniers coups. S'il joue aussi celui-ci, il "
                "continuera de jouer à votre place sans plus vous prévenir, jusqu'à ce que "
                "vous jouiez de nouveau."
            )
        return self._mail(
            address,
            f"À vous de jouer · {table.game.title} (table {table.code})",
            "\n".join(lines) + f"\n\nJouez votre coup ici : {link}\n\n"
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
