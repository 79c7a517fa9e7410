"""What every page handler reads off a request: the visitor's session and a posted form
whose CSRF token has been checked. One place, so that accounts, tables and players pages
refuse a stale or forged form the same way."""

from __future__ import annotations

from fastapi import Request

from choux.play.errors import TableError
from choux.web.session import Session


def session_of(request: Request) -> Session:
    """The visitor's session, loaded by the session middleware."""
    session: Session = request.state.session
    return session


async def form_of(request: Request) -> dict[str, str]:
    """The posted form, after checking its CSRF token (TableError 403 otherwise)."""
    form = await request.form()
    data = {k: v for k, v in form.items() if isinstance(v, str)}
    if not session_of(request).check_csrf(data.get("csrf")):
        raise TableError(
            "Le formulaire a expiré ou ne vient pas de ce site : rechargez la page.", 403
        )
    return data
