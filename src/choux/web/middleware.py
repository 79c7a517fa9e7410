"""The visitor's cookie, the POST budgets and a socket's transport, as pure ASGI middlewares.

They were `@app.middleware("http")` functions. Starlette runs each of those in an anyio
task group that it cancels once the response is sent, and the cancellation leaves a
reference cycle of about 40 objects per request (tasks, scopes, a `CancelledError` with its
traceback and frames). A server that freezes its live set (`gc_tuning`) keeps that garbage
until its next full collection, whose pause grows with it: 1,000 tables opened through the
forms left 148,000 such objects and a pause of 0.75 s (docs/perf.md, issue 17).
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from choux.web import accounts
from choux.web.ratelimits import Limits, client_key
from choux.web.session import Sessions

#: how long a browser may keep a static file without asking again, seconds
STATIC_MAX_AGE = 300
#: every answer but a static file: only the browser that asked may keep it, and it asks again
PRIVATE = "private, no-cache"
#: the largest request body read, in bytes: the forms and the push subscription are a few
#: hundred (Starlette alone would hold up to 1,000 form fields of 1 MB each in memory)
MAX_BODY = 64 * 1024


class SessionCookie:
    """Load the visitor's signed cookie into `request.state.session` (with its account)
    and send it back in the response when a route changed it; answers are private to the
    browser that asked (`PRIVATE`, `Vary: Cookie`); static files get a cache lifetime
    instead."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if request.url.path == "/healthz":  # a probe: no session, no cookie each time
            await self.app(scope, receive, send)
            return
        if request.url.path.startswith("/static/"):

            async def send_cached(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = MutableHeaders(scope=message)
                    headers.setdefault("Cache-Control", f"public, max-age={STATIC_MAX_AGE}")
                await send(message)

            await self.app(scope, receive, send_cached)
            return
        sessions: Sessions = request.app.state.sessions
        session = sessions.load(request)
        request.state.session = session
        await accounts.attach(request, session)
        https = request.url.scheme == "https"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                # a page depends on who asks (a seat's hand, an account): a cache between
                # the server and the browser must never hand it to someone else
                headers.setdefault("Cache-Control", PRIVATE)
                headers.add_vary_header("Cookie")
                cookie = sessions.set_cookie_header(session, https=https)
                if cookie is not None:
                    headers.append("set-cookie", cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)


class RateLimits:
    """Answer `refuse(request)` (a French 429) when the client is over a POST budget."""

    def __init__(self, app: ASGIApp, refuse: Callable[[Request], Response]) -> None:
        self.app = app
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope, receive)
            limits: Limits = request.app.state.limits
            kind = limits.kind_of(request)
            if kind is not None and not await limits.allow(kind, client_key(request)):
                await self.refuse(request)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Answer `refuse(request)` (a French 413) to a request body over MAX_BODY bytes: at
    once when its Content-Length says so, else as soon as the bytes read pass it."""

    def __init__(self, app: ASGIApp, refuse: Callable[[Request], Response]) -> None:
        self.app = app
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_BODY:
            await self.refuse(request)(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:  # a chunked body: the route's error handler answers
                    raise HTTPException(413)
            return message

        await self.app(scope, limited, send)


#: the scope key of a WebSocket's transport (`KeepTransport`)
TRANSPORT = "choux.transport"


class KeepTransport:
    """Put a WebSocket's transport in its scope, where `ws.cut` finds it to drop a client
    that stopped reading. The server's ASGI `send` is a method of its protocol object,
    which holds the transport; the middlewares inside wrap `send`, so it is read here,
    outermost (nothing is stored when the server is not uvicorn: the test client)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None:
                scope[TRANSPORT] = transport
        await self.app(scope, receive, send)
