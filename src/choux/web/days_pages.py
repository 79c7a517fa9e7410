"""Routes of playing over days (issue 12): web push opt-in, the web app manifest, the
service worker and its offline page; and the template globals of the correspondence
fields of the creation form."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from choux.play import push_store
from choux.play.correspondence import GAMES, MOVE_TIMES, ON_TIMEOUT, WHY_NOT
from choux.play.errors import TableError
from choux.web.email_confirm import give_address
from choux.web.mail import Mailer
from choux.web.push import WebPush
from choux.web.session import Session
from choux.web.templating import render, templates

router = APIRouter()
STATIC = Path(__file__).parent / "static"

#: the timeout rules as the creation form offers them: short enough for a phone's select
#: (« la partie est abandonnée (non classée) » was cut at 360 px); the hint says the rest
TIMEOUT_CHOICES = ON_TIMEOUT | {"abandon": "la partie est abandonnée"}

templates.env.globals["correspondence"] = {
    "games": GAMES,
    "why_not": WHY_NOT,
    "move_times": MOVE_TIMES,
    "on_timeout": TIMEOUT_CHOICES,
}

MANIFEST = {
    "name": "Choux · jeux français de cartes et de dés",
    "short_name": "Choux",
    "description": "La Chouine, les Chouineurs, le Cul de Chouette et la Parlote, entre amis.",
    "lang": "fr",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#fbf7ee",
    "theme_color": "#1f4d3a",
    "icons": [
        {"src": "/static/icons/choux-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icons/choux-512.png", "sizes": "512x512", "type": "image/png"},
        {
            "src": "/static/icons/choux-maskable-512.png",
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": "/static/icons/choux.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}


def refused(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status)


async def checked_json(request: Request) -> tuple[Session, object]:
    """The visitor's session and posted JSON, once its CSRF header is right."""
    session: Session = request.state.session
    if not session.check_csrf(request.headers.get("x-csrf-token")):
        raise TableError("La page a expiré : rechargez-la.", 403)
    try:
        # orjson: no lone surrogate (a "\ud800" escape would fail the store's UTF-8 encoding)
        return session, orjson.loads(await request.body())
    except orjson.JSONDecodeError as error:
        raise TableError("Abonnement aux notifications illisible.") from error


@router.get("/push/cle")
async def push_key(request: Request) -> JSONResponse:
    push: WebPush = request.app.state.push
    return JSONResponse({"key": push.public_key})


@router.post("/push/abonnement")
async def push_subscribe(request: Request) -> Response:
    """This device wants « À vous de jouer » for this visitor's seats."""
    push: WebPush = request.app.state.push
    try:
        session, data = await checked_json(request)
        await push.subscribe(session.player, data)
    except TableError as error:
        return refused(error.message, error.kind if isinstance(error.kind, int) else 400)
    answer = JSONResponse({"message": "Notifications activées sur cet appareil."})
    # the device remembers which subscription is its own: when it logs in or out, that one
    # follows its new identity (web.accounts), and no other
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    answer.set_cookie(
        push_store.PUSH_COOKIE,
        push_store.device_key(str(endpoint)),
        max_age=60 * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return answer


@router.post("/push/desabonnement")
async def push_unsubscribe(request: Request) -> Response:
    push: WebPush = request.app.state.push
    try:
        session, data = await checked_json(request)
    except TableError as error:
        return refused(error.message, error.kind if isinstance(error.kind, int) else 400)
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if isinstance(endpoint, str) and len(endpoint) <= 1000:
        await push_store.drop(push.store, endpoint, session.player)
    return JSONResponse({"message": "Notifications désactivées sur cet appareil."})


@router.get("/notifications/email")
async def email_state(request: Request) -> JSONResponse:
    """Whether this server mails turns, and the address this visitor gave (only to them),
    with whether its owner confirmed it yet."""
    mailer: Mailer = request.app.state.mailer
    session: Session = request.state.session
    given = None
    if mailer.enabled:
        given = await push_store.address_of(mailer.store, session.player)
    return JSONResponse(
        {
            "enabled": mailer.enabled,
            "address": given.address if given else None,
            "confirmed": bool(given and given.confirmed),
        }
    )


@router.post("/notifications/email")
async def email_set(request: Request) -> Response:
    """Give (or clear, with an empty address) the address turns are mailed to; a new one
    is mailed its confirmation link first."""
    try:
        session, data = await checked_json(request)
        value = data.get("address") if isinstance(data, dict) else 0
        given = await give_address(request, session.player, value)
    except TableError as error:
        return refused(error.message, error.kind if isinstance(error.kind, int) else 400)
    return JSONResponse(
        {"message": given.message, "address": given.address, "confirmed": given.confirmed}
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return Response(
        json.dumps(MANIFEST, ensure_ascii=False), media_type="application/manifest+json"
    )


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """Served from the root so that it controls every page (scope "/")."""
    return Response(
        (STATIC / "js" / "sw.js").read_text(encoding="utf-8"),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/hors-ligne", response_class=HTMLResponse, include_in_schema=False)
async def offline(request: Request) -> Response:
    return render(request, "offline.html", {})
