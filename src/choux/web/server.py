"""`choux serve`: Uvicorn running the app, with WebSocket frames limited in size."""

from __future__ import annotations

import uvicorn

from choux.play.settings import Settings, default_database_url
from choux.web.app import create_app


def run(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None) -> None:
    settings = Settings(database_url=database_url or default_database_url())
    app = create_app(settings)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    print(f"Choux est servi sur http://{shown}:{port}/  (base : {settings.database_url})")
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level="warning",
    )
