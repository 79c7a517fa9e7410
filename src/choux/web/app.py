"""The FastAPI application: settings, store and table service wired together."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from choux.play.service import TableError, TableService
from choux.play.settings import Settings
from choux.play.store import Store
from choux.web import learn, pages, ws
from choux.web.session import Sessions
from choux.web.templating import render_error

STATIC = Path(__file__).parent / "static"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        await store.open()
        key = settings.secret_key or await store.secret("cookie_key", lambda: secrets.token_hex(32))
        service = TableService(settings, store)
        app.state.store = store
        app.state.service = service
        app.state.sessions = Sessions(key)
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            await store.close()

    app = FastAPI(title="Choux", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(learn.router)
    app.include_router(ws.router)

    @app.middleware("http")
    async def session_cookie(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Load the visitor's signed cookie, save it back if a route changed it."""
        if request.url.path.startswith("/static/"):
            response = await call_next(request)
            response.headers.setdefault("Cache-Control", "public, max-age=300")
            return response
        sessions: Sessions = request.app.state.sessions
        session = sessions.load(request)
        request.state.session = session
        response = await call_next(request)
        sessions.save(response, session)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "script-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
        )
        return response

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> Response:
        if request.url.path.endswith(".json") or "application/json" in request.headers.get(
            "accept", ""
        ):
            return JSONResponse({"error": error.message}, status_code=error.status)
        return render_error(request, error.message, error.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        messages = {
            404: "Cette page n'existe pas.",
            405: "Méthode non permise.",
        }
        message = messages.get(error.status_code, str(error.detail))
        return render_error(request, message, error.status_code)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> HTMLResponse:
        return HTMLResponse("ok")

    return app
