"""« À vous de jouer » by Web Push (pywebpush, VAPID).

The VAPID key pair is made at the first start and kept in the store's `meta` table, so
every process and every restart signs with the same key (the browsers' subscriptions are
bound to its public half). A device opts in from a table page; its subscription is kept
under the visitor's guest identity. When a correspondence table starts waiting for a
person, each of their devices gets a notification naming the table and linking to it; the
service worker shows nothing when that table's page is open and visible.

A subscription the push service rejects as gone (404, 410) or that cannot be used
(malformed keys) is dropped, without any error reaching the game.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import ipaddress
import json
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

from choux.play import push_store
from choux.play.errors import TableError
from choux.play.push_store import Subscription
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import LiveTable

log = logging.getLogger("choux.web")

#: seconds a push service keeps a notification for a device that is offline
TTL = 24 * 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def parse_subscription(data: object, allow_local: bool = False) -> Subscription:
    """A browser's PushSubscription.toJSON(), checked; TableError (French) if unusable.

    The endpoint must be an https URL of a public host on port 443 (the server will post to
    it), unless `allow_local` (tests and local setups); the keys must be a P-256 point and
    16 bytes."""
    bad = TableError("Abonnement aux notifications illisible.")
    if not isinstance(data, dict):
        raise bad
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= 1000 or not isinstance(keys, dict):
        raise bad
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.scheme != "https" and not (allow_local and parts.scheme == "http"):
        raise bad
    if not allow_local and (_is_local_name(host) or _is_ip(host)):
        raise bad
    try:
        port = parts.port
    except ValueError as error:  # « :99999 », « :x »
        raise bad from error
    # browsers' push services all answer on 443: any other port made the server post, at
    # each turn, to whatever service a visitor chose (a relay)
    if not allow_local and port not in (None, 443):
        raise bad
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 200:
        raise bad
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
    except (binascii.Error, ValueError) as error:
        raise bad from error
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise bad
    return Subscription(endpoint, p256dh, auth)


def _is_local_name(host: str) -> bool:
    name = host.rstrip(".")  # « localhost. » is localhost too
    return name in ("localhost", "") or name.endswith(".localhost")


def _is_ip(host: str) -> bool:
    """An address rather than a name, in any form the resolver reads as one: « 127.1 »,
    « 2130706433 » and « 0x7f.1 » are 127.0.0.1 too."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        try:
            socket.inet_aton(host)
        except OSError:
            return False
    return True


class LocalAddress(Exception):
    """A push endpoint's name resolves to an address of the server's own networks."""


def check_public(endpoint: str) -> None:
    """Raise LocalAddress unless every address the endpoint's host resolves to is public: the
    text of a name says nothing of where it leads (an /etc/hosts entry, a DNS record aimed
    at 127.0.0.1 or 10.x), and the server would post there at the next turn. (A resolver
    that answers differently a moment later is not covered: the request resolves again.)"""
    parts = urlsplit(endpoint)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(parts.hostname or "", port, proto=socket.IPPROTO_TCP)
    except OSError as error:
        raise LocalAddress(f"unresolved ({error})") from error
    for *_, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%", 1)[0])
        if not ip.is_global:
            raise LocalAddress(f"resolves to {ip}")


class NoRedirects(requests.Session):
    """A push service answers the post itself: a redirect could send the server's request
    (and its method) to an address of the server's own network, so none is followed."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


class WebPush:
    """The VAPID keys, and sending to the devices of the people whose turn it is."""

    def __init__(self, settings: Settings, store: Store, private_pem: str) -> None:
        self.settings = settings
        self.store = store
        self.vapid = Vapid02.from_pem(private_pem.encode())
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        #: the applicationServerKey the browsers subscribe with
        self.public_key = b64url(raw)
        #: notifications sent / subscriptions dropped by this process (tests, operators)
        self.sent = 0
        self.dropped = 0

    @classmethod
    async def open(cls, settings: Settings, store: Store) -> WebPush:
        """Read the VAPID key from the store, or make and keep one at the first start."""

        def make() -> str:
            vapid = Vapid02()
            vapid.generate_keys()
            return bytes(vapid.private_pem()).decode()

        return cls(settings, store, await store.secret("vapid_private_key", make))

    async def subscribe(self, player: str, data: object) -> None:
        sub = parse_subscription(data, self.settings.push_allow_local)
        await push_store.save(self.store, player, sub)

    async def notify_turn(self, table: LiveTable, seats: list[int]) -> None:
        """The turn hook of correspondence tables: tell each waited-for person's devices."""
        players = [p for p in (table.seats[s].player for s in seats) if p]
        if not players:
            return
        subs = await push_store.of_players(self.store, players)
        payload = json.dumps(
            {
                "title": "À vous de jouer",
                "body": f"{table.game.title} · table {table.code} : c'est votre tour.",
                "url": f"/t/{table.code}",
                "tag": f"choux-{table.code}",
            },
            ensure_ascii=False,
        )
        await asyncio.gather(*(self.send(sub, payload) for sub in subs))

    async def send(self, sub: Subscription, payload: str) -> bool:
        """One notification; a subscription that is gone or unusable is dropped quietly."""
        try:
            await asyncio.to_thread(self._post, sub, payload)
        except LocalAddress as error:
            await self._drop(sub, f"not a public host: {error}")
            return False
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in (404, 410):
                await self._drop(sub, f"gone ({status})")
            else:
                log.warning("push to %s failed: %s", urlsplit(sub.endpoint).netloc, error)
            return False
        except (ValueError, TypeError, binascii.Error) as error:  # keys the library refuses
            await self._drop(sub, f"unusable ({error.__class__.__name__})")
            return False
        except Exception as error:  # the push service unreachable: try at the next turn
            log.warning("push to %s failed: %s", urlsplit(sub.endpoint).netloc, error)
            return False
        self.sent += 1
        return True

    def _post(self, sub: Subscription, payload: str) -> Any:
        if not self.settings.push_allow_local:
            check_public(sub.endpoint)
        with NoRedirects() as session:  # a redirect answer is a failure (WebPushException)
            return webpush(
                sub.info(),
                data=payload,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": self.settings.push_contact},
                ttl=TTL,
                timeout=10,
                requests_session=session,
            )

    async def _drop(self, sub: Subscription, why: str) -> None:
        log.info("push subscription dropped: %s", why)
        self.dropped += 1
        try:
            await push_store.drop(self.store, sub.endpoint)
        except Exception as error:
            log.warning("push subscription not dropped: %s", error)
