"""`choux serve`: Uvicorn running the app, with WebSocket frames limited in size."""

from __future__ import annotations

import errno
import socket
import sys
from typing import Any

import uvicorn
from sqlalchemy.engine import make_url

from choux.play.settings import Settings, default_database_url
from choux.web.app import create_app
from choux.web.gc_tuning import tune_gc
from choux.web.ratelimits import BadLimit
from choux.web.startup import (
    check_database,
    check_mail,
    check_url,
    hold_database,
    watch_database,
)


def address_to_open(host: str, port: int) -> str:
    """The exact address to type in a browser on this machine for a server bound to `host`:
    the host itself, except for the « every interface » addresses, which are no address one
    can open (this machine's loopback is); IPv6 literals go between brackets."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def banner(host: str, port: int, database: str) -> str:
    """What `choux serve` prints before serving (French: the person who runs it reads it)."""
    lines = [f"Choux est servi sur {address_to_open(host, port)}  (base : {database})"]
    if host in ("", "0.0.0.0", "::"):
        lines.append(
            "À l'écoute sur toutes les interfaces : depuis un autre appareil, remplacez "
            "l'adresse par celle de cette machine sur le réseau."
        )
    return "\n".join(lines)


def bad_port(port: int) -> str | None:
    """Why `port` cannot be listened on, in French (99999 listened on 34463 while the
    server printed 99999; 0 on a port chosen at random)."""
    if not 1 <= port <= 65535:
        return f"Port {port} impossible : choisissez-en un entre 1 et 65535 (--port)."
    return None


def run(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url or default_database_url())
    problems = settings.problems()
    problem = (
        "\n".join(problems)
        or bad_port(port)
        or port_taken(host, port)
        or check_url(settings.database_url)
        or check_mail(settings.smtp_url, settings.public_url)
        or hold_database(settings.database_url, settings.redis_url)  # before any migration
        or check_database(settings.database_url)
    )
    if problem:  # one clear line each, before anything says « servi »
        print(problem, file=sys.stderr, flush=True)
        raise SystemExit(1)
    for note in settings.retired():
        print(note, file=sys.stderr, flush=True)
    try:
        app = create_app(settings)
    except BadLimit as error:
        print(error, file=sys.stderr, flush=True)
        raise SystemExit(1) from error
    tune_gc()
    database = make_url(settings.database_url).render_as_string(hide_password=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=log_config(settings.log_level),
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # views are a few KB: compressing costs more CPU than it saves
        # no protocol pings: the app's own heartbeat (`ws.heartbeat`, spread in time) keeps
        # every socket alive and closes a silent one; uvicorn pings all the sockets opened in
        # the same second at the same instant, every 20 s
        ws_ping_interval=None,
        log_level=settings.log_level,
        proxy_headers=True,  # X-Forwarded-Proto/For, believed only from these proxies:
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    server = Announcing(config, banner(host, port, database))
    lost: list[str] = []

    def stop_serving(reason: str) -> None:  # from the lock's watcher thread
        lost.append(reason)
        server.should_exit = True  # Uvicorn's loop reads it every 0.1 s

    watch_database(settings.lock_watch_seconds, stop_serving)
    server.run()
    if lost:  # another server serves the base now: this one's memory is stale
        print(f"Arrêt : {lost[0]}", file=sys.stderr, flush=True)
        raise SystemExit(1)


class Announcing(uvicorn.Server):
    """Uvicorn saying « servi » once it listens, not before: a port already taken or a
    start-up that failed said it all the same (an operator's audit)."""

    def __init__(self, config: uvicorn.Config, banner: str) -> None:
        super().__init__(config)
        self.banner = banner

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started and not self.should_exit:
            print(self.banner, flush=True)


def port_taken(host: str, port: int) -> str | None:
    """Why `host`:`port` cannot be listened on (in French), None if it can; checked before
    the database is opened, so that the answer is one line, not Uvicorn's."""
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as error:
        return f"Adresse d'écoute « {host} » inconnue : {error.strerror or error}."
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Uvicorn binds
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return f"Le port {port} est déjà pris sur {host} : choisissez-en un autre (--port)."
            return f"Impossible d'écouter sur {host}:{port} : {error.strerror or error}."
    return None


#: loggers kept at « warning » whatever the level: what they say below it holds secrets
QUIET_LOGGERS = ("aiosqlite", "sqlalchemy", "psycopg", "asyncpg")


def log_config(level: str) -> dict[str, Any]:
    """Every line with its time, level, logger and process (two processes in one journal
    were told apart by nothing): Choux's loggers and Uvicorn's alike, to stderr."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"}
        },
        "filters": {
            "repeats": {"()": "choux.web.log_repeats.Repeats"},
            "secrets": {"()": "choux.web.log_secrets.HideSecrets"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "plain",
                "stream": "ext://sys.stderr",
                "filters": ["repeats", "secrets"],
            }
        },
        "root": {"handlers": ["stderr"], "level": level.upper()},
        "loggers": {
            "uvicorn": {"level": level.upper()},
            # at « debug » the WebSocket protocol writes every handshake's headers (the
            # cookie: seat and session tokens) and every frame (a seat's hidden hand) there
            "uvicorn.error": {"level": "INFO" if level == "debug" else level.upper()},
            # one line per request at « info »: for a look at the traffic, not by default
            "uvicorn.access": {"level": "INFO" if level in ("debug", "info") else "WARNING"},
            # the database drivers' debug lines carry every query's parameters: the cookie
            # key, the push key, password hashes (an operator's audit found them in a journal)
            **{name: {"level": "WARNING"} for name in QUIET_LOGGERS},
        },
    }
