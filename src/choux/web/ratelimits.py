"""Rate limits per client (the address, as the trusted proxy gives it), with `limits`.

Table creation, joins and WebSocket messages each have a budget ("10 per minute"...,
see Settings); counters live in memory, or in Redis when CHOUX_REDIS_URL is set so that
every process counts together. If Redis cannot answer, requests pass (a limit must not
take the site down).
"""

from __future__ import annotations

import ipaddress
import logging
import re

from limits import RateLimitItem, parse
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection, Request

from choux.play.settings import Settings

log = logging.getLogger("choux.web")

#: POST routes and the budget they draw from; any other POST draws from OTHER_POSTS
LIMITED_POSTS = (
    (re.compile(r"^/tables$"), "create"),
    (re.compile(r"^/apprendre/[^/]+$"), "create"),  # a guided game is a new table too
    (re.compile(r"^/t/[^/]+/rejouer$"), "create"),
    (re.compile(r"^/jouer-maintenant$"), "create"),  # may open a table
    (re.compile(r"^/t/[^/]+/(rejoindre|ajouter|reprendre)$"), "join"),
    # notification settings: cheap, but each one is a database write
    (re.compile(r"^/(push/abonnement|push/desabonnement|notifications/email)$"), "join"),
)
#: GET routes with a budget: a replay plays a whole finished game again (`replays.py`),
#: an account's copy of its data reads all of it (`account_data.py`)
LIMITED_GETS = (
    (re.compile(r"^/parties/[^/]+(\.json|/etapes\.json)?$"), "replay"),
    (re.compile(r"^/compte/donnees\.json$"), "replay"),  # a copy of a whole account's data
)
#: every other form (leaving a seat, a bot in a seat, following a player, logging out...):
#: each is a database write or a change seen by a whole table, none is free to repeat
OTHER_POSTS = "join"


def client_key(conn: HTTPConnection) -> str:
    """Who asks: the client's address (behind a trusted proxy, the forwarded one), as
    `address_key` counts it."""
    return address_key(conn.client.host) if conn.client is not None else "inconnu"


def address_key(host: str) -> str:
    """The unit that limits count: an IPv4 address, or an IPv6 address's /64. One
    subscriber gets a whole /64 and picks any address in it, so keyed by the exact address
    every limit would be as wide as 2**64 clients.

    >>> address_key("203.0.113.7")
    '203.0.113.7'
    >>> address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    True
    >>> address_key("2001:db8:1:2::1") == address_key("2001:db8:1:3::1")
    False
    >>> address_key("::ffff:203.0.113.7")
    '203.0.113.7'
    >>> address_key("testclient")
    'testclient'
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # not an address (a test client's name, a Unix socket)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Limits:
    def __init__(self, settings: Settings) -> None:
        if settings.redis_url:
            uri = "async+" + settings.redis_url
            storage = storage_from_string(uri, implementation="redispy")
        else:
            storage = storage_from_string("async+memory://")
        self.limiter = MovingWindowRateLimiter(storage)
        login = _parse("CHOUX_LIMIT_LOGIN", settings.limit_login)
        self.items: dict[str, RateLimitItem | None] = {
            "create": _parse("CHOUX_LIMIT_CREATE", settings.limit_create),
            "join": _parse("CHOUX_LIMIT_JOIN", settings.limit_join),
            "messages": _parse("CHOUX_LIMIT_MESSAGES", settings.limit_messages),
            "login": login,
            # one pseudonym from every address together: ten times an address's budget
            # (guesses spread over many addresses stay bounded, and a stranger alone can no
            # longer lock the owner out)
            "login_account": _scaled(login, 10),
            "chat": _parse("CHOUX_LIMIT_CHAT", settings.limit_chat),
            "replay": _parse("CHOUX_LIMIT_REPLAY", settings.limit_replay),
            "mail": _parse("CHOUX_LIMIT_MAIL", settings.limit_mail),
            # links asked from one address (to any addresses): four times one address's
            # budget, so that nobody makes the server mail a list of strangers
            "mail_client": _scaled(_parse("CHOUX_LIMIT_MAIL", settings.limit_mail), 4),
        }

    async def allow(self, kind: str, client: str) -> bool:
        """Count one `kind` request of `client`; False when over its budget."""
        item = self.items.get(kind)
        if item is None:
            return True
        try:
            return bool(await self.limiter.hit(item, "choux", kind, client))
        except Exception as error:  # Redis away: let it pass rather than refuse everyone
            log.warning("rate limit %s not checked: %s", kind, error)
            return True

    def kind_of(self, request: Request) -> str | None:
        """The budget a request draws from: every POST has one, a GET only a replay."""
        if request.method != "POST":
            for pattern, kind in LIMITED_GETS:
                if pattern.match(request.url.path):
                    return kind
            return None
        for pattern, kind in LIMITED_POSTS:
            if pattern.match(request.url.path):
                return kind
        return OTHER_POSTS


class BadLimit(ValueError):
    """A rate limit setting that does not parse (the server refuses to start)."""


def _scaled(item: RateLimitItem | None, factor: int) -> RateLimitItem | None:
    """The same window with `factor` times the amount."""
    if item is None:
        return None
    return type(item)(item.amount * factor, item.multiples, item.namespace)


def _parse(name: str, text: str) -> RateLimitItem | None:
    if not text.strip():
        return None
    try:
        return parse(text)
    except ValueError as error:
        raise BadLimit(
            f"Réglage {name} invalide : « {text} » (exemple : 20 per minute)."
        ) from error
