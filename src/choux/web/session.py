"""The visitor's signed cookie: a CSRF token, the last pseudonym, their seats' tokens and
a random guest identity (what the rating ladder follows from game to game on this browser).

Seat tokens are secrets: they live only in this HttpOnly cookie, signed so that nobody can
forge one, and are checked against the hash the store keeps.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response

COOKIE = "choux"
MAX_SEATS = 30
#: the longest cookie value sent: browsers keep a cookie of 4,096 bytes at most, name and
#: value together, and silently keep the old one when a new one is longer (a phone playing
#: many shared-screen tables lost every later seat, and log-ins that followed)
MAX_COOKIE = 3800


@dataclass
class Session:
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    player: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    name: str = ""
    seats: dict[str, list[Any]] = field(default_factory=dict)  # code -> [seat, token]
    #: shared screen: other seats played from this device, code -> [[seat, token], ...]
    shared: dict[str, list[Any]] = field(default_factory=dict)
    #: an account session's token (checked against the store on each request) and the
    #: account's pseudonym once checked; both empty for a guest
    auth: str = ""
    account: str = ""
    #: private tables whose invite secret this visitor showed (codes, newest last)
    invited: list[str] = field(default_factory=list)
    #: private rematches this visitor may watch, not sit at: they watched the game before
    watching: list[str] = field(default_factory=list)
    dirty: bool = False

    def seat_at(self, code: str) -> tuple[int, str] | None:
        entry = self.seats.get(code)
        if (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], int)
            and isinstance(entry[1], str)
        ):
            return entry[0], entry[1]
        return None

    def remember(self, code: str, seat: int, token: str, name: str | None = None) -> None:
        self.seats.pop(code, None)  # the newest last: the oldest go first
        self.seats[code] = [seat, token]
        while len(self.seats) > MAX_SEATS:
            self.seats.pop(next(iter(self.seats)))
        if name:
            self.name = name
        self.dirty = True

    def shared_at(self, code: str) -> list[tuple[int, str]]:
        """The other seats this device plays at a table (shared-screen mode)."""
        entries = self.shared.get(code)
        if not isinstance(entries, list):
            return []
        return [
            (e[0], e[1])
            for e in entries
            if isinstance(e, list)
            and len(e) == 2
            and isinstance(e[0], int)
            and not isinstance(e[0], bool)
            and isinstance(e[1], str)
        ]

    def remember_shared(self, code: str, seat: int, token: str) -> None:
        others = [[s, t] for s, t in self.shared_at(code) if s != seat]
        self.shared.pop(code, None)  # the newest last: the oldest go first
        self.shared[code] = [*others, [seat, token]]
        while len(self.shared) > MAX_SEATS:
            self.shared.pop(next(iter(self.shared)))
        self.dirty = True

    def remember_invite(self, code: str) -> None:
        self.invited = self._with(self.invited, code)

    def remember_watching(self, code: str) -> None:
        self.watching = self._with(self.watching, code)

    def _with(self, codes: list[str], code: str) -> list[str]:
        """`codes` with `code` last (the newest `MAX_SEATS` kept): the cookie changes."""
        if code in codes:
            return codes
        self.dirty = True
        return [*codes, code][-MAX_SEATS:]

    def become(self, player: str, auth: str = "", account: str = "") -> None:
        """Switch identity (log-in, log-out): the seats of the old one are forgotten."""
        if player != self.player:
            self.seats, self.shared = {}, {}
        self.player, self.auth, self.account = player, auth, account
        if account:
            self.name = account
        self.dirty = True

    def check_csrf(self, value: object) -> bool:
        # bytes: compare_digest refuses str with non-ASCII characters (a forged token)
        return isinstance(value, str) and hmac.compare_digest(value.encode(), self.csrf.encode())


def codes(value: object) -> list[str]:
    """A cookie's list of table codes, whatever it holds."""
    if not isinstance(value, list):
        return []
    return [c for c in value if isinstance(c, str) and len(c) <= 16][-MAX_SEATS:]


class Sessions:
    def __init__(self, secret_key: str, secure: str = "auto") -> None:
        self.serializer = URLSafeSerializer(secret_key, salt="choux-session")
        #: "auto": Secure when the request came by HTTPS; "always"; "never"
        self.secure = secure

    def load(self, conn: HTTPConnection) -> Session:
        return self.load_value(conn.cookies.get(COOKIE))

    def load_value(self, raw: str | None) -> Session:
        """The session a cookie's value holds; a new one if it holds none."""
        if raw:
            try:
                data = self.serializer.loads(raw)
            except BadSignature:
                data = None
            if isinstance(data, dict) and isinstance(data.get("csrf"), str):
                seats = data.get("seats")
                shared = data.get("shared")
                player = data.get("player")
                known = isinstance(player, str) and 8 <= len(player) <= 40
                return Session(
                    csrf=data["csrf"],
                    player=str(player) if known else secrets.token_urlsafe(12),
                    dirty=not known,  # a cookie from before guest identities gets one
                    name=str(data.get("name", ""))[:40],
                    seats=seats if isinstance(seats, dict) else {},
                    shared=shared if isinstance(shared, dict) else {},
                    auth=str(data.get("auth", ""))[:64],
                    invited=codes(data.get("invited")),
                    watching=codes(data.get("watching")),
                )
        return Session(dirty=True)

    def set_cookie_header(self, session: Session, https: bool = False) -> str | None:
        """The `Set-Cookie` value to send if the session changed (None: send nothing);
        `Secure` over HTTPS (as a trusted proxy says)."""
        if not session.dirty:
            return None
        value = self._value(session)
        while len(value) > MAX_COOKIE and _forget_oldest(session):
            value = self._value(session)
        carrier = Response()  # Starlette's own cookie formatting, quoting included
        carrier.set_cookie(
            COOKIE,
            value,
            max_age=60 * 60 * 24 * 60,
            httponly=True,
            samesite="lax",
            secure=self.secure == "always" or (self.secure == "auto" and https),
            path="/",
        )
        return carrier.headers["set-cookie"]

    def _value(self, session: Session) -> str:
        return self.serializer.dumps(
            {
                "csrf": session.csrf,
                "player": session.player,
                "name": session.name,
                "seats": session.seats,
                "shared": session.shared,
                "auth": session.auth,
                "invited": session.invited,
                "watching": session.watching,
            }
        )


def _forget_oldest(session: Session) -> bool:
    """Make the cookie smaller by its least needed entry, the oldest first: a seat's token
    (the identity in the cookie proves the seat as well), then a private table's leave to
    watch, then a shared-screen table's seats (nothing else proves those); the newest seat
    and shared table last of all. False when nothing is left to forget."""
    kinds: tuple[dict[str, Any] | list[str], ...] = (
        session.seats,
        session.invited,
        session.watching,
        session.shared,
    )
    for keep in (1, 0):
        for entries in kinds:
            if len(entries) > (keep if isinstance(entries, dict) else 0):
                if isinstance(entries, dict):
                    entries.pop(next(iter(entries)))
                else:
                    entries.pop(0)
                return True
    return False
