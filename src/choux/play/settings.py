"""Settings of the platform, from arguments or environment variables (CHOUX_*)."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

DEFAULT_SQLITE = "choux.sqlite3"


def default_database_url() -> str:
    """SQLite file in the working folder unless CHOUX_DATABASE_URL says otherwise."""
    return os.environ.get("CHOUX_DATABASE_URL") or f"sqlite:///{Path(DEFAULT_SQLITE).resolve()}"


def _float_env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "").strip() or default)  # empty: the default
    except ValueError:
        return default  # said by `Settings.problems`, which the server checks at start


def _chosen(raw: str, default: str, choices: tuple[str, ...]) -> str:
    """A text setting as given, or for one with `choices` in small letters (« INFO » is
    « info »), and empty as the default."""
    if not choices:
        return raw
    return raw.strip().lower() or default


def _int_env(name: str, default: int) -> int:
    value = _float_env(name, default)
    return int(value) if math.isfinite(value) else default  # nan, inf: said by `problems`


def _text_env(name: str, default: str, choices: tuple[str, ...] = ()) -> str:
    """A text setting read from the environment variable `name` (else `default`) each
    time Settings is built, so tests may set the variable first (`choices`: the only
    values it may take)."""
    value: str = field(
        default_factory=lambda: _chosen(os.environ.get(name, default), default, choices),
        metadata={"env": name, "choices": choices},
    )
    return value


def _number_env(name: str, default: float, least: float = 0.0, above: bool = False) -> float:
    """A number setting read like `_text_env`: at least `least` (more than it if `above`);
    a value that is not a number gives `default` here, and a refusal at start."""
    value: float = field(
        default_factory=lambda: _float_env(name, default),
        metadata={"env": name, "least": least, "above": above},
    )
    return value


def _count_env(name: str, default: int, least: int = 0) -> int:
    """A whole number setting, like `_number_env`."""
    value: int = field(
        default_factory=lambda: _int_env(name, default),
        metadata={"env": name, "least": least, "above": False, "whole": True},
    )
    return value


@dataclass
class Settings:
    """Everything the service and the web app need to know; tests build their own."""

    database_url: str = field(default_factory=default_database_url)
    secret_key: str = _text_env("CHOUX_SECRET_KEY", "")
    #: minimum seconds between a bot's moves, so people can follow the game
    bot_pace: float = _number_env("CHOUX_BOT_PACE", 0.7)
    #: seconds a disconnected player keeps the seat before a bot takes it (0: never)
    grace_seconds: float = _number_env("CHOUX_GRACE_SECONDS", 180)
    #: seconds between server heartbeats on each WebSocket
    heartbeat_seconds: float = _number_env("CHOUX_HEARTBEAT", 15, least=1)
    #: seconds between checks that open sockets' account sessions still live (closed by
    #: another program, `choux admin`)
    session_sweep_seconds: float = _number_env("CHOUX_SESSION_SWEEP", 30, least=0.2)
    #: seconds between checks that the PostgreSQL serving lock's connection still holds it
    lock_watch_seconds: float = _number_env("CHOUX_LOCK_WATCH", 10, least=0.1)
    #: origins allowed for WebSockets besides the page's own host (comma-separated)
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o.strip() for o in os.environ.get("CHOUX_ALLOWED_ORIGINS", "").split(",") if o.strip()
        )
    )
    #: multiplies every game window (tests and demos shorten the pauses between deals)
    deadline_scale: float = _number_env("CHOUX_DEADLINE_SCALE", 1.0, above=True)
    #: Redis URL to run several server processes on one PostgreSQL database ("" = one process)
    redis_url: str = _text_env("CHOUX_REDIS_URL", "")
    #: seconds a finished table stays in memory once nobody watches it
    evict_seconds: float = _number_env("CHOUX_EVICT_SECONDS", 600)
    #: seconds between two checks of the held tables against the store, with several
    #: processes (a lost Redis message delays a change by at most this much)
    resync_seconds: float = _number_env("CHOUX_RESYNC_SECONDS", 2, least=0.05)
    #: several processes: seconds a process holds the claim to compute a bot's move or play
    #: a clock's action for one version (the others take over after that if it died)
    claim_seconds: float = _number_env("CHOUX_CLAIM_SECONDS", 5, above=True)
    bot_threads: int = _count_env("CHOUX_BOT_THREADS", 2, least=1)
    #: seconds before a timer tries again a move the store could not write
    store_retry_seconds: float = _number_env("CHOUX_STORE_RETRY_SECONDS", 2, least=0.05)
    #: seconds a live table left by a previous run stays quiet when it is first reloaded,
    #: so that people's pages reconnect before bots move or windows close
    restore_quiet_seconds: float = _number_env("CHOUX_RESTORE_QUIET_SECONDS", 5)
    #: seconds an open table waits for its players before it closes (0: forever)
    open_table_seconds: float = _number_env("CHOUX_OPEN_TABLE_SECONDS", 6 * 3600)
    #: bot-only tables playing at once, in all and per client
    max_bot_tables: int = _count_env("CHOUX_MAX_BOT_TABLES", 20)
    max_bot_tables_per_client: int = _count_env("CHOUX_MAX_BOT_TABLES_PER_CLIENT", 3)
    #: tables waiting for players at once per client (0: no limit), so that one address
    #: cannot push everyone else's tables off the lobby's list
    max_open_tables_per_client: int = _count_env("CHOUX_MAX_OPEN_TABLES_PER_CLIENT", 6)
    #: WebSockets open at once per client address (0: no limit); beyond, closed with 4429
    max_sockets_per_client: int = _count_env("CHOUX_MAX_SOCKETS_PER_CLIENT", 200)
    #: rate limits per client (address), in the `limits` notation ("N per minute"; "" = none)
    limit_create: str = _text_env("CHOUX_LIMIT_CREATE", "20 per minute")
    limit_join: str = _text_env("CHOUX_LIMIT_JOIN", "60 per minute")
    #: log-in attempts, per client address and per pseudonym tried
    limit_login: str = _text_env("CHOUX_LIMIT_LOGIN", "10 per 5 minutes")
    limit_messages: str = _text_env("CHOUX_LIMIT_MESSAGES", "30 per second")
    #: seconds between two looks at the store for correspondence deadlines that are due
    correspondence_poll_seconds: float = _number_env(
        "CHOUX_CORRESPONDENCE_POLL_SECONDS", 0.25, least=0.05
    )
    #: multiplies correspondence move times (tests and demos: 1/3600 makes an hour a second)
    correspondence_scale: float = _number_env("CHOUX_CORRESPONDENCE_SCALE", 1.0, above=True)
    #: seconds a turn mail waits before it looks whether the person has the table's page
    #: open (the person whose join started the game is still loading it)
    turn_mail_grace_seconds: float = _number_env("CHOUX_TURN_MAIL_GRACE_SECONDS", 10)
    #: the operator's contact in the VAPID claims of web push ("mailto:..." or "https://...")
    push_contact: str = _text_env("CHOUX_PUSH_CONTACT", "mailto:choux@localhost")
    #: accept push endpoints on plain http or local addresses (tests, local push stubs)
    push_allow_local: bool = field(
        default_factory=lambda: os.environ.get("CHOUX_PUSH_ALLOW_LOCAL", "").strip() == "1",
        metadata={"env": "CHOUX_PUSH_ALLOW_LOCAL", "choices": ("", "0", "1")},
    )
    #: SMTP server for « À vous de jouer » by e-mail ("" = no e-mail): smtp://host:25,
    #: smtp+starttls://user:password@host:587 or smtps://user:password@host:465
    smtp_url: str = _text_env("CHOUX_SMTP_URL", "")
    smtp_from: str = _text_env("CHOUX_SMTP_FROM", "Choux <choux@localhost>")
    #: the site's public address, for the links in e-mails (e.g. https://choux.example.org)
    public_url: str = _text_env("CHOUX_PUBLIC_URL", "")
    #: chat messages per person and table (a flood is refused in French)
    limit_chat: str = _text_env("CHOUX_LIMIT_CHAT", "5 per 10 seconds")
    #: confirmation links mailed to one address (whoever asks): no flood of someone's inbox
    limit_mail: str = _text_env("CHOUX_LIMIT_MAIL", "3 per hour")
    #: replays of finished games (their page and JSON): each may replay a whole game
    limit_replay: str = _text_env("CHOUX_LIMIT_REPLAY", "30 per minute")
    #: cookies only over HTTPS: "auto" (when the request came by HTTPS, as the trusted
    #: proxy says), "always" or "never"
    secure_cookies: str = _text_env(
        "CHOUX_SECURE_COOKIES", "auto", choices=("auto", "always", "never")
    )
    #: proxies whose X-Forwarded-For / X-Forwarded-Proto headers are believed (Uvicorn's
    #: forwarded_allow_ips: comma-separated addresses or networks, "*" for any)
    forwarded_allow_ips: str = _text_env("CHOUX_FORWARDED_ALLOW_IPS", "127.0.0.1")
    #: the server's log: « warning » (problems only), « info » (also log-ins refused and
    #: one line per request), « debug » or « error »
    log_level: str = _text_env(
        "CHOUX_LOG_LEVEL", "warning", choices=("debug", "info", "warning", "error")
    )

    def retired(self) -> list[str]:
        """Settings of earlier versions that are no longer read, one French line each: the
        server starts, but the operator learns what to do instead."""
        notes = []
        if os.environ.get("CHOUX_MODERATORS", "").strip():
            notes.append(
                "CHOUX_MODERATORS n'est plus lu : nommez chaque modérateur avec « choux admin "
                "moderator PSEUDO » (le droit est celui du compte, pas du pseudonyme)."
            )
        return notes

    def problems(self) -> list[str]:
        """What is wrong with the environment's settings, one French line each: the server
        refuses to start on any (a value that is not a number fell back to its default
        without a word; a heartbeat of 0 flooded every socket with pings)."""
        found: list[str] = []
        for spec in fields(self):
            env = spec.metadata.get("env")
            raw = os.environ.get(env) if isinstance(env, str) else None
            if raw is None or not raw.strip() or not isinstance(env, str):
                continue  # unset or empty: the default (an EnvironmentFile's « X= »)
            choices = spec.metadata.get("choices")
            if choices:
                if raw.strip().lower() not in choices:
                    allowed = ", ".join(f"« {c} »" for c in choices if c) or "rien"
                    found.append(f"{env} vaut « {raw} » : les valeurs possibles sont {allowed}.")
                continue
            if "least" not in spec.metadata:
                continue
            problem = _number_problem(env, raw, spec.metadata)
            if problem:
                found.append(problem)
        for env, url, schemes in (
            ("CHOUX_REDIS_URL", self.redis_url, ("redis://", "rediss://", "unix://")),
            ("CHOUX_SMTP_URL", self.smtp_url, ("smtp://", "smtp+starttls://", "smtps://")),
            ("CHOUX_PUSH_CONTACT", self.push_contact, ("mailto:", "https://")),
        ):
            if url and not url.startswith(schemes):
                found.append(f"{env} doit commencer par {' ou '.join(schemes)}.")
        found.extend(_unread_values(self))
        wrong = _not_addresses(self.forwarded_allow_ips)
        if wrong:
            found.append(
                f"CHOUX_FORWARDED_ALLOW_IPS : « {wrong} » n'est ni une adresse ni un réseau "
                "(des adresses ou réseaux séparés par des virgules, ou « * »)."
            )
        return found


#: the least length of `CHOUX_SECRET_KEY` (it signs every cookie: « x » was accepted)
MIN_SECRET_KEY = 16


def _unread_values(settings: Settings) -> list[str]:
    """Values the server accepted and then never matched, one French line each (an
    operator's audit): an origin without its scheme or with a trailing « / » refused every
    WebSocket behind the proxy; « no » left the collector's freeze on; a one-letter key
    signed the cookies."""
    found = []
    for origin in settings.allowed_origins:
        if not re.fullmatch(r"https?://[^/\s]+", origin):
            found.append(
                f"CHOUX_ALLOWED_ORIGINS : « {origin} » n'est pas une origine comme la donne "
                "un navigateur (https://choux.example.org, sans chemin ni « / » final)."
            )
    freeze = os.environ.get("CHOUX_GC_FREEZE", "").strip()
    if freeze and freeze not in ("0", "1"):
        found.append(f"CHOUX_GC_FREEZE vaut « {freeze} » : les valeurs possibles sont 0 et 1.")
    key = settings.secret_key
    if key and len(key) < MIN_SECRET_KEY:
        found.append(
            f"CHOUX_SECRET_KEY est trop courte ({len(key)} caractères, {MIN_SECRET_KEY} au "
            "moins) : elle signe les cookies des visiteurs. Laissez-la vide pour que la base "
            "en garde une."
        )
    public = settings.public_url
    if public and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", public):
        found.append(
            f"CHOUX_PUBLIC_URL : « {public} » n'est pas une adresse de site "
            "(https://choux.example.org)."
        )
    return found


def _not_addresses(value: str) -> str | None:
    """The first item of a comma-separated list of trusted proxies that is no IP address or
    network (None: all are; « * » trusts any). A typo there trusted nobody, silently: every
    player then counted as the proxy's address for every limit.

    >>> _not_addresses("127.0.0.1, 10.0.0.0/8,::1"), _not_addresses("*")
    (None, None)
    >>> _not_addresses("127.0.0.1;10.0.0.1")
    '127.0.0.1;10.0.0.1'
    """
    for item in value.split(","):
        item = item.strip()
        if item == "*" or item.startswith("unix:"):  # any, or Uvicorn's Unix socket literal
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            return item
    return None


def _number_problem(env: str, raw: str, spec: Mapping[str, object]) -> str | None:
    """Why `raw` is no value for the number setting `env` (None: it is one)."""
    least = float(spec["least"])  # type: ignore[arg-type]
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    whole = bool(spec.get("whole"))
    kind = "un nombre entier" if whole else "un nombre (en secondes pour une durée)"
    if not math.isfinite(value) or (whole and value != int(value)):
        return f"{env} vaut « {raw} » : il faut {kind}."
    if spec.get("above") and value <= least:
        return f"{env} vaut « {raw} » : il faut un nombre plus grand que {least:g}."
    if value < least:
        return f"{env} vaut « {raw} » : il faut au moins {least:g}."
    return None
