"""Jinja2 templates (autoescaped) and the small helpers pages share."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Template
from markupsafe import Markup, escape

from choux.engine.french import joined
from choux.engine.record import robot_name
from choux.web.typography import typeset_html


class FrenchPage(Template):
    """A page whose text is set the French way once rendered (typography.typeset_html): no
    line of it starts with « ! » or « : », whether the words come from the template or from
    the server (a game's result, an error message). Included templates and imported macros
    are rendered within their page, hence set once with it."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        return typeset_html(super().render(*args, **kwargs))


templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
templates.env.template_class = FrenchPage


def rich_text(text: str) -> Markup:
    """Paragraphs separated by blank lines, **bold** allowed; everything else escaped."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text.strip()) if p.strip()]
    html = []
    for paragraph in paragraphs:
        safe = str(escape(paragraph))
        safe = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", safe)
        safe = re.sub(r"\s*\n\s*", "<br>", safe)
        html.append(f"<p>{safe}</p>")
    return Markup("".join(html))


templates.env.filters["rich"] = rich_text
templates.env.filters["joined"] = joined  # « Anne, Bruno et Chloé »
templates.env.filters["robot_name"] = robot_name  # « Gaston (robot) », never twice


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    session = getattr(request.state, "session", None)
    ctx = {"session": session, "csrf": session.csrf if session else "", **context}
    response = templates.TemplateResponse(request, name, ctx, status_code=status)
    if status == 429:  # a page refused for a limit says when to come back, as errors do
        response.headers["Retry-After"] = "60"
    return response


TABLE_ACTION = re.compile(r"^/t/([A-Za-z0-9_-]{1,32})/[a-z-]+$")


def way_back(request: Request, status: int = 400) -> tuple[str, str] | None:
    """Where a refused form sends the person back to try again: the table of a table's
    form, else the page the form was on (this site's only); None when it is the lobby,
    which the error page always offers."""
    referer = urlsplit(request.headers.get("referer", ""))
    page = None  # the referring page of this site, as a local address
    # this site's own pages only: no `//host` nor a backslash, which browsers read as `/`
    local = re.match(r"^/(?!/)", referer.path) and "\\" not in referer.path
    if referer.netloc == request.url.netloc and local:
        page = referer.path + (f"?{referer.query}" if referer.query else "")
    table = TABLE_ACTION.match(request.url.path)
    if table and status not in (404, 410):  # not back to a table that is gone
        home = f"/t/{table.group(1)}"
        # the referring table page keeps a private table's key
        return (page if referer.path == home and page else home), "Retour à la table"
    if table or request.method != "POST" or page is None or referer.path == "/":
        return None
    return page, "Revenir à la page précédente"


def render_error(request: Request, message: str, status: int) -> HTMLResponse:
    session = getattr(request.state, "session", None)
    # a page refused to a guest (a private table after a log-out) may be theirs once
    # logged in: say where (an evening's audit found only « Retour au salon »)
    login = status == 403 and request.method == "GET" and not getattr(session, "account", "")
    context = {
        "message": message,
        "status": status,
        "back": way_back(request, status),
        "login": login,
    }
    return render(request, "error.html", context, status)
