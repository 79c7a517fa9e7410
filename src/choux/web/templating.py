"""Jinja2 templates (autoescaped) and the small helpers pages share."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from choux.engine.french import joined

templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))


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


def render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    session = getattr(request.state, "session", None)
    ctx = {"session": session, "csrf": session.csrf if session else "", **context}
    return templates.TemplateResponse(request, name, ctx, status_code=status)


def render_error(request: Request, message: str, status: int) -> HTMLResponse:
    return render(request, "error.html", {"message": message, "status": status}, status)
