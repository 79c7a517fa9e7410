"""Optional accounts: a pseudonym and a password that own a guest identity.

Creating an account keeps the guest's identity id (`player`): its seats, records and
ratings stay its own. Passwords are hashed with argon2id (pwdlib) and never logged; a
log-in makes a server-side session whose random token only the visitor's cookie holds
(the store keeps its SHA-256), so one account may be logged in on several devices and
all of them can be logged out at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pwdlib import PasswordHash
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from choux.engine.visible import latin_twin, mixes_alphabets
from choux.play.errors import TableError
from choux.play.names import MIXED_ALPHABETS, ROBOT_NAME, SITE_NAME, robot_like, site_like
from choux.play.store import Store, account_sessions_t, accounts_t

MIN_PSEUDO, MAX_PSEUDO = 3, 24
MIN_PASSWORD, MAX_PASSWORD = 10, 128
#: a session lasts as long as the cookie that carries it
SESSION_DAYS = 60
#: session tokens checked by one query of a sweep (SQLite allows 32,766 parameters)
SWEEP_BATCH = 500
PSEUDO_CHARS = re.compile(r"^[^\W_][\w.\-]*$")

#: the one answer to a failed log-in, whether the pseudonym exists or not
BAD_LOGIN = "Pseudonyme ou mot de passe incorrect."
#: the answer to the right password of a suspended account
SUSPENDED = "Ce compte est suspendu par l'administrateur du site."
#: the longest reason an operator may note for a suspension
MAX_REASON = 200

hasher = PasswordHash.recommended()  # argon2id
#: verified against when the pseudonym is unknown, so both failures take as long
_DUMMY_HASH = hasher.hash(secrets.token_urlsafe(16))


class AccountError(TableError):
    """A refused account request (French message)."""


@dataclass(frozen=True)
class Account:
    id: int
    pseudo: str
    player: str
    #: suspended by the operator (`suspend`); a suspended account has no session
    suspended: bool = False
    #: named a moderator by the operator (`set_moderator`): the right goes with the account
    moderator: bool = False


@dataclass(frozen=True)
class Listed:
    """An account as the operator's listing shows it."""

    pseudo: str
    created_at: datetime
    suspended_at: datetime | None
    reason: str
    moderator: bool = False


def account_of(row: Any) -> Account:
    """The account of a row of `accounts`."""
    return Account(row.id, row.pseudo, row.player, row.suspended_at is not None, row.moderator)


def clean_pseudo(raw: object) -> str:
    """An account pseudonym: 3 to 24 letters, digits, dots, dashes or underscores."""
    if not isinstance(raw, str) or not raw.strip():
        raise AccountError("Choisissez un pseudonyme.")
    pseudo = unicodedata.normalize("NFC", raw.strip())
    if "<" in pseudo or ">" in pseudo or "&" in pseudo:
        raise AccountError("Le HTML n'est pas permis dans un pseudonyme.")
    if len(pseudo) > MAX_PSEUDO:
        raise AccountError(f"Pseudonyme trop long ({MAX_PSEUDO} caractères au plus).")
    if len(pseudo) < MIN_PSEUDO:
        raise AccountError(f"Pseudonyme trop court ({MIN_PSEUDO} caractères au moins).")
    if mixes_alphabets(pseudo):
        raise AccountError(MIXED_ALPHABETS)
    if robot_like(pseudo):  # refused at every table: an account could never sit
        raise AccountError(ROBOT_NAME)
    if site_like(pseudo):
        raise AccountError(SITE_NAME)
    if not PSEUDO_CHARS.match(pseudo):
        raise AccountError(
            "Un pseudonyme de compte commence par une lettre ou un chiffre, puis lettres, "
            "chiffres, points, tirets ou soulignés (pas d'espace)."
        )
    return pseudo


def is_moderator(account: Account) -> bool:
    """May `account` use « Modération »? Named by the operator, and not suspended. (A
    list of pseudonyms in a setting gave the right to whoever registered one of them.)

    >>> is_moderator(Account(1, "Hector", "p", moderator=True))
    True
    >>> is_moderator(Account(1, "Hector", "p", suspended=True, moderator=True))
    False
    """
    return account.moderator and not account.suspended


def twin_refusal(account: Account) -> str:
    return (
        f"Ce pseudonyme se lit comme celui du compte « {account.pseudo} » : choisissez-en un autre."
    )


def pseudo_key(pseudo: str) -> str:
    """What makes two pseudonyms the same one: « Ana » and « ana », and look-alikes that
    Unicode's compatibility forms fold together (full-width « Ａｎａ »), so that nobody
    registers a twin of another player's name. Plain pseudonyms keep the key they had.

    >>> pseudo_key("Ana") == pseudo_key("ＡＮＡ") == pseudo_key("ana")
    True
    """
    return unicodedata.normalize("NFKC", pseudo).casefold()[:MAX_PSEUDO]


#: letters and digits that read alike in common fonts (« I » and « l », « O » and « 0 »),
#: as `pseudo_key` writes them (casefolded: a capital I is an « i » there)
LOOKALIKES = ("il1", "o0")
#: look-alike spellings of a pseudonym looked for at most (each one a key to query)
MAX_LOOKALIKES = 256


def look_key(name: str) -> str:
    """What a name looks like: `pseudo_key`, Cyrillic and Greek look-alikes read as the
    Latin letters they pass for, and each group of `LOOKALIKES` as one letter. Two names
    with the same look are one too many at a table.

    >>> look_key("AIice") == look_key("Alice") == look_key("ALICE")
    True
    >>> look_key("\u0421\u043e\u0441\u043e") == look_key("Coco")  # Cyrillic
    True
    >>> look_key("B0b") == look_key("bob"), look_key("Léa") == look_key("Lea")
    (True, False)
    """
    key = latin_twin(name) or pseudo_key(name)
    return "".join(next((g[0] for g in LOOKALIKES if c in g), c) for c in key)


def lookalike_keys(pseudo: str) -> set[str]:
    """The other `pseudo_key`s that read like `pseudo`'s (« aiice », « a1ice » for « Alice »),
    `MAX_LOOKALIKES` at most (past that, the later letters are taken as they are).

    >>> sorted(lookalike_keys("Al0"))
    ['a10', 'a1o', 'ai0', 'aio', 'alo']
    """
    key = pseudo_key(pseudo)
    variants = [""]
    for char in key:
        group = next((g for g in LOOKALIKES if char in g), char)
        if len(variants) * len(group) > MAX_LOOKALIKES:
            group = char
        variants = [v + c for v in variants for c in group]
    return set(variants) - {key}


def clean_reason(raw: object) -> str:
    """The operator's note on a suspension: one line of plain text, at most `MAX_REASON`
    characters (control characters would garble the listing in a terminal)."""
    if not isinstance(raw, str):
        raise AccountError("La raison doit être un texte.")
    text = " ".join("".join(c if c.isprintable() else " " for c in raw).split())
    if len(text) > MAX_REASON:
        raise AccountError(f"Raison trop longue ({MAX_REASON} caractères au plus).")
    return text


def check_password(raw: object) -> str:
    if not isinstance(raw, str) or len(raw) < MIN_PASSWORD:
        raise AccountError(f"Mot de passe trop court ({MIN_PASSWORD} caractères au moins).")
    if len(raw) > MAX_PASSWORD:
        raise AccountError(f"Mot de passe trop long ({MAX_PASSWORD} caractères au plus).")
    return raw


def hash_session(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class Accounts:
    """Accounts and their sessions in the store (argon2 work runs in a thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, pseudo: object, password: object, player: str) -> Account:
        """An account owning identity `player` (the guest's own), refused if the pseudonym
        or the identity is taken."""
        clean = clean_pseudo(pseudo)
        secret = check_password(password)
        if await self.by_player(player) is not None:
            raise AccountError("Cette identité a déjà un compte : connectez-vous.", "conflict")
        if await self.by_pseudo(clean) is not None:
            raise AccountError("Ce pseudonyme est déjà pris : choisissez-en un autre.", "conflict")
        twin = await self.twin_of(clean)
        if twin is not None:
            raise AccountError(twin_refusal(twin), "conflict")
        hashed = await asyncio.to_thread(hasher.hash, secret)
        try:
            async with self.store.db.begin() as conn:
                result = await conn.execute(
                    insert(accounts_t).values(
                        pseudo=clean,
                        pseudo_key=pseudo_key(clean),
                        player=player,
                        password_hash=hashed,
                        created_at=_now(),
                    )
                )
        except IntegrityError as error:  # taken between the check and the insert
            raise AccountError(
                "Ce pseudonyme est déjà pris : choisissez-en un autre.", "conflict"
            ) from error
        key = result.inserted_primary_key
        assert key is not None
        return Account(int(key[0]), clean, player)

    async def twin_of(self, name: str) -> Account | None:
        """The account whose pseudonym `name` reads as without being it: written in
        Cyrillic or Greek look-alikes (« Сосо » for « Coco »), or with an « I » for an « l »
        or a « 0 » for an « O » (« AIice » for « Alice »); None if there is none."""
        twin = latin_twin(name)
        keys = lookalike_keys(twin or name) | ({pseudo_key(twin)} if twin else set())
        keys.discard(pseudo_key(name))
        async with self.store.db.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts_t).where(accounts_t.c.pseudo_key.in_(sorted(keys))).limit(1)
                )
            ).first()
        return None if row is None else account_of(row)

    async def by_pseudo(self, pseudo: str) -> Account | None:
        async with self.store.db.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts_t).where(accounts_t.c.pseudo_key == pseudo_key(pseudo))
                )
            ).first()
        return None if row is None else account_of(row)

    async def by_player(self, player: str) -> Account | None:
        async with self.store.db.connect() as conn:
            row = (
                await conn.execute(select(accounts_t).where(accounts_t.c.player == player))
            ).first()
        return None if row is None else account_of(row)

    async def pseudos_of(self, players: list[str]) -> dict[str, str]:
        """The account pseudonym of each identity that has one."""
        if not players:
            return {}
        async with self.store.db.connect() as conn:
            rows = await conn.execute(
                select(accounts_t.c.player, accounts_t.c.pseudo).where(
                    accounts_t.c.player.in_(players)
                )
            )
            return {r.player: r.pseudo for r in rows}

    async def authenticate(self, pseudo: object, password: object) -> Account:
        """The account if the password is right; one message and one cost otherwise."""
        found = None
        stored = _DUMMY_HASH
        if isinstance(pseudo, str) and 0 < len(pseudo.strip()) <= MAX_PSEUDO:
            async with self.store.db.connect() as conn:
                row = (
                    await conn.execute(
                        select(accounts_t).where(
                            accounts_t.c.pseudo_key == pseudo_key(pseudo.strip())
                        )
                    )
                ).first()
            if row is not None:
                found, stored = account_of(row), row.password_hash
        given = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
        valid = await asyncio.to_thread(hasher.verify, given, stored)
        if found is None or not valid:
            raise AccountError(BAD_LOGIN, "forbidden")
        if found.suspended:  # said only to whoever knows the password
            raise AccountError(SUSPENDED, "forbidden")
        return found

    async def change_password(self, account: Account, old: object, new: object) -> None:
        """A new password (the old one asked again); other devices are logged out."""
        secret = check_password(new)
        if not await self.password_matches(account, old):
            raise AccountError("Le mot de passe actuel n'est pas le bon.", "forbidden")
        hashed = await asyncio.to_thread(hasher.hash, secret)
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t).where(accounts_t.c.id == account.id).values(password_hash=hashed)
            )

    async def password_matches(self, account: Account, given: object) -> bool:
        """Whether `given` is the account's password (asked again before a change)."""
        async with self.store.db.connect() as conn:
            stored = (
                await conn.execute(
                    select(accounts_t.c.password_hash).where(accounts_t.c.id == account.id)
                )
            ).scalar_one()
        given = given if isinstance(given, str) and len(given) <= MAX_PASSWORD else ""
        return bool(await asyncio.to_thread(hasher.verify, given, stored))

    async def password_fingerprint(self, account: Account) -> str:
        """A digest of the account's stored password hash: a reset link carries it, so it
        serves once (the new password changes it) and never after another change."""
        async with self.store.db.connect() as conn:
            stored = (
                await conn.execute(
                    select(accounts_t.c.password_hash).where(accounts_t.c.id == account.id)
                )
            ).scalar_one()
        return hashlib.sha256(stored.encode()).hexdigest()[:32]

    async def set_password(self, account: Account, new: object) -> None:
        """A new password chosen through a reset link: every device is logged out."""
        secret = check_password(new)
        hashed = await asyncio.to_thread(hasher.hash, secret)
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t).where(accounts_t.c.id == account.id).values(password_hash=hashed)
            )
        await self.close_all_sessions(account)

    async def by_id(self, account_id: int) -> Account | None:
        async with self.store.db.connect() as conn:
            row = (
                await conn.execute(select(accounts_t).where(accounts_t.c.id == account_id))
            ).first()
        return account_of(row) if row is not None else None

    async def reset_password(self, account: Account) -> str:
        """The operator's way back in for a player who forgot: a new random password (to
        hand over), every device logged out."""
        secret = secrets.token_urlsafe(15)  # 20 characters
        hashed = await asyncio.to_thread(hasher.hash, secret)
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t).where(accounts_t.c.id == account.id).values(password_hash=hashed)
            )
        await self.close_all_sessions(account)
        return secret

    async def listing(self) -> list[Listed]:
        """Every account, oldest first."""
        columns = (
            accounts_t.c.pseudo,
            accounts_t.c.created_at,
            accounts_t.c.suspended_at,
            accounts_t.c.suspended_reason,
            accounts_t.c.moderator,
        )
        async with self.store.db.connect() as conn:
            rows = await conn.execute(select(*columns).order_by(accounts_t.c.id))
            return [
                Listed(
                    row.pseudo,
                    row.created_at,
                    row.suspended_at,
                    row.suspended_reason or "",
                    row.moderator,
                )
                for row in rows
            ]

    # ------------------------------------------------------------------ suspension

    async def suspend(self, account: Account, reason: object = "") -> None:
        """The operator's suspension: no log-in any more, every device logged out (their
        open pages within a sweep, `SessionSockets.sweep`), off the public ladder."""
        why = clean_reason(reason)
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account.id)
                .values(suspended_at=_now(), suspended_reason=why)
            )
        await self.close_all_sessions(account)

    async def restore(self, account: Account) -> None:
        """Lift a suspension: the player logs in again with their password."""
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account.id)
                .values(suspended_at=None, suspended_reason=None)
            )

    async def set_moderator(self, account: Account, moderator: bool) -> None:
        """Name `account` a moderator, or take the right back (`choux admin moderator`)."""
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(accounts_t).where(accounts_t.c.id == account.id).values(moderator=moderator)
            )

    async def suspended_players(self, players: list[str]) -> set[str]:
        """Which of these identities belong to a suspended account."""
        if not players:
            return set()
        async with self.store.db.connect() as conn:
            rows = await conn.execute(
                select(accounts_t.c.player).where(
                    accounts_t.c.player.in_(players), accounts_t.c.suspended_at.is_not(None)
                )
            )
            return {row.player for row in rows}

    # ------------------------------------------------------------------ sessions

    async def open_session(self, account: Account) -> str:
        """A new session of `account`; returns its token (for the cookie only)."""
        token = secrets.token_urlsafe(32)
        async with self.store.db.begin() as conn:
            await conn.execute(
                insert(account_sessions_t).values(
                    token_hash=hash_session(token), account_id=account.id, created_at=_now()
                )
            )
        return token

    async def session_account(self, token: str) -> Account | None:
        """The account of a live session token, None if unknown, expired or logged out."""
        if not 20 <= len(token) <= 64:
            return None
        since = _now() - timedelta(days=SESSION_DAYS)
        async with self.store.db.connect() as conn:
            row = (
                await conn.execute(
                    select(
                        accounts_t.c.id,
                        accounts_t.c.pseudo,
                        accounts_t.c.player,
                        accounts_t.c.moderator,
                    )
                    .join(account_sessions_t, account_sessions_t.c.account_id == accounts_t.c.id)
                    .where(
                        account_sessions_t.c.token_hash == hash_session(token),
                        account_sessions_t.c.created_at > since,
                        accounts_t.c.suspended_at.is_(None),
                    )
                )
            ).first()
        return (
            None if row is None else Account(row.id, row.pseudo, row.player, False, row.moderator)
        )

    async def live_sessions(self, tokens: list[str]) -> set[str]:
        """Which of these session tokens still log someone in (not closed, not expired,
        the account not suspended): what a running server asks of its open sockets, since
        another process (`choux admin`) may have closed their sessions."""
        since = _now() - timedelta(days=SESSION_DAYS)
        by_hash = {hash_session(token): token for token in tokens}
        live: set[str] = set()
        hashes = list(by_hash)
        async with self.store.db.connect() as conn:
            for start in range(0, len(hashes), SWEEP_BATCH):
                rows = await conn.execute(
                    select(account_sessions_t.c.token_hash)
                    .join(accounts_t, account_sessions_t.c.account_id == accounts_t.c.id)
                    .where(
                        account_sessions_t.c.token_hash.in_(hashes[start : start + SWEEP_BATCH]),
                        account_sessions_t.c.created_at > since,
                        accounts_t.c.suspended_at.is_(None),
                    )
                )
                live.update(by_hash[row.token_hash] for row in rows)
        return live

    async def close_session(self, token: str) -> None:
        async with self.store.db.begin() as conn:
            await conn.execute(
                delete(account_sessions_t).where(
                    account_sessions_t.c.token_hash == hash_session(token)
                )
            )

    async def close_all_sessions(self, account: Account, keep: str | None = None) -> None:
        """Log `account` out everywhere (except the session `keep`, if given)."""
        query = delete(account_sessions_t).where(account_sessions_t.c.account_id == account.id)
        if keep is not None:
            query = query.where(account_sessions_t.c.token_hash != hash_session(keep))
        async with self.store.db.begin() as conn:
            await conn.execute(query)

    async def session_count(self, account: Account) -> int:
        """The devices logged in to `account` now (an expired session logs in nobody)."""
        since = _now() - timedelta(days=SESSION_DAYS)
        async with self.store.db.connect() as conn:
            count = await conn.execute(
                select(func.count())
                .select_from(account_sessions_t)
                .where(
                    account_sessions_t.c.account_id == account.id,
                    account_sessions_t.c.created_at > since,
                )
            )
            return int(count.scalar_one())
