"""Error responses: always French, HTML for pages and JSON for the API, never a traceback.

The table service says what kind of refusal it makes (`TableError.kind`); the HTTP status
is chosen here. Unknown errors are logged and shown as a plain French 500.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from choux.play.errors import TableError
from choux.play.store import StoreUnavailable
from choux.web.headers import add_security_headers
from choux.web.templating import render_error

log = logging.getLogger("choux.web")

STATUS = {
    "invalid": 400,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
    "gone": 410,
    "busy": 429,
    "unavailable": 503,
}

MESSAGES = {
    400: "Demande invalide.",
    403: "Accès refusé.",
    404: "Cette page n'existe pas.",
    405: "Cette adresse ne s'ouvre pas directement : elle reçoit les formulaires du site.",
    413: "Demande trop volumineuse.",
    422: "Adresse ou formulaire invalide.",
    429: "Trop de demandes : patientez un peu avant de réessayer.",
    500: "Erreur du serveur : réessayez dans un instant.",
    503: "Serveur momentanément indisponible : réessayez dans un instant.",
}


def status_of(error: TableError) -> int:
    """The HTTP status of a refusal (a status given directly by a page is kept)."""
    if isinstance(error.kind, int):
        return error.kind
    return STATUS.get(error.kind, 400)


def wants_json(request: Request) -> bool:
    """API routes (`.json`) and clients asking for JSON get JSON errors."""
    return request.url.path.endswith(".json") or "application/json" in request.headers.get(
        "accept", ""
    )


def error_response(request: Request, message: str, status: int) -> Response:
    if wants_json(request):
        response: Response = JSONResponse({"error": message}, status_code=status)
    else:
        try:
            response = render_error(request, message, status)
        except Exception:  # the template itself failed: plain text, still French
            log.exception("the error page could not be rendered")
            response = Response(message, status_code=status, media_type="text/plain")
    if status == 429:
        response.headers["Retry-After"] = "60"
    return add_security_headers(response)


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into a French page or JSON."""

    @app.exception_handler(TableError)
    async def table_error(request: Request, error: TableError) -> Response:
        return error_response(request, error.message, status_of(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        status = error.status_code
        return error_response(request, MESSAGES.get(status, MESSAGES[400]), status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        status = 404 if request.method == "GET" else 422  # /parties/abc: no such page
        return error_response(request, MESSAGES[status], status)

    @app.exception_handler(ClientDisconnect)
    async def client_gone(request: Request, error: ClientDisconnect) -> Response:
        # the client hung up while its body was read: nobody to answer, nothing failed
        log.info(
            "%s %s: the client left before its request was read", request.method, request.url.path
        )
        return Response(status_code=400)

    async def store_away(request: Request, error: Exception) -> Response:
        if request.scope.get("type") != "http":  # a socket's client that hung up: no answer
            log.debug("%s: %s", request.url.path, error)
            return Response(status_code=400)
        log.warning("%s %s: database unavailable: %s", request.method, request.url.path, error)
        return error_response(request, MESSAGES[503], 503)

    # each by its own class: handled beside the routes, the answer ends the request. Left to
    # the catch-all `Exception` handler, Starlette's outermost middleware answered, then
    # raised again: a traceback in the log and the browser's connection cut after the 503.
    for away in (DBAPIError, StoreUnavailable, OSError):
        app.add_exception_handler(away, store_away)

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> Response:
        if isinstance(error, DBAPIError | StoreUnavailable | OSError):  # raised in a middleware
            return await store_away(request, error)
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return error_response(request, MESSAGES[500], 500)
