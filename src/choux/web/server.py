"""`choux serve`: Uvicorn running the app, with WebSocket frames limited in size."""

from __future__ import annotations

import sys

import uvicorn
from sqlalchemy.engine import make_url

from choux.play.settings import Settings, default_database_url
from choux.web.app import create_app
from choux.web.ratelimits import BadLimit
from choux.web.startup import check_database


def run(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url or default_database_url())
    problem = check_database(settings.database_url)
    if problem is not None:  # one clear line, before anything says « servi »
        print(problem, file=sys.stderr, flush=True)
        raise SystemExit(1)
    try:
        app = create_app(settings)
    except BadLimit as error:
        print(error, file=sys.stderr, flush=True)
        raise SystemExit(1) from error
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    database = make_url(settings.database_url).render_as_string(hide_password=True)
    print(f"Choux est servi sur http://{shown}:{port}/  (base : {database})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # views are a few KB: compressing costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level="warning",
        proxy_headers=True,  # X-Forwarded-Proto/For, believed only from these proxies:
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
