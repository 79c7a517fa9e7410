"""The FastAPI application: settings, store and table service wired together."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from choux.play.accounts import Accounts
from choux.play.service import TableService
from choux.play.settings import Settings
from choux.play.store import Store
from choux.web import (
    account_data,
    accounts,
    days_pages,
    email_confirm,
    errors,
    gc_tuning,
    learn,
    moderation,
    pages,
    password_reset,
    players,
    seating,
    ws,
)
from choux.web.gc_tuning import keep_live_set_frozen
from choux.web.headers import SecurityHeaders
from choux.web.mail import Mailer
from choux.web.middleware import BodyLimit, KeepTransport, RateLimits, SessionCookie
from choux.web.push import WebPush
from choux.web.ratelimits import Limits
from choux.web.session import Sessions
from choux.web.session_sockets import SessionSockets

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
        app.state.sessions = Sessions(key, settings.secure_cookies)
        app.state.reset_links = password_reset.ResetLinks(key)
        app.state.confirm_links = email_confirm.ConfirmLinks(key)
        push = await WebPush.open(settings, store)
        service.turn_hooks.append(push.notify_turn)
        app.state.push = push
        mailer = Mailer(settings, store)
        service.turn_hooks.append(mailer.notify_turn)
        app.state.mailer = mailer
        app.state.session_sockets.connect(service.pubsub)
        await service.start()
        keeper = asyncio.create_task(keep_live_set_frozen()) if gc_tuning.freezing() else None
        app.state.accounts = Accounts(store)  # `accounts.accounts_of` hands this one out
        sweeper = asyncio.create_task(
            app.state.session_sockets.keep_swept(
                app.state.accounts.live_sessions, settings.session_sweep_seconds
            )
        )
        try:
            yield
        finally:
            sweeper.cancel()
            if keeper is not None:
                keeper.cancel()
            await service.stop()
            await store.close()

    app = FastAPI(title="Choux", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.settings = settings
    app.state.limits = Limits(settings)
    app.state.sockets = Counter()  # open WebSockets per client address (`ws.table_socket`)
    app.state.session_sockets = SessionSockets()  # closed with their account session
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(pages.router)
    app.include_router(learn.router)
    app.include_router(accounts.router)
    app.include_router(account_data.router)
    app.include_router(password_reset.router)
    app.include_router(email_confirm.router)
    app.include_router(moderation.router)
    app.include_router(players.router)
    app.include_router(seating.router)
    app.include_router(ws.router)
    app.include_router(days_pages.router)
    errors.install(app)

    def too_many(request: Request) -> Response:
        return errors.error_response(request, errors.MESSAGES[429], 429)

    def too_large(request: Request) -> Response:
        return errors.error_response(request, errors.MESSAGES[413], 413)

    # the last added runs first: security headers, then the cookie, the budgets, the size
    app.add_middleware(BodyLimit, refuse=too_large)
    app.add_middleware(RateLimits, refuse=too_many)
    app.add_middleware(SessionCookie)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(KeepTransport)  # outermost: the server's own `send`

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> HTMLResponse:
        """« ok », or 503 with the reason when the database does not answer or stores
        nothing (a full disk answered « ok »: a balancer kept sending players there)."""
        problem = await request.app.state.store.health()
        if problem is not None:
            return HTMLResponse(f"indisponible : {problem}", status_code=503)
        return HTMLResponse("ok")

    return app
