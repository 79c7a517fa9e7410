"""What the web tests read of a page is the text a person reads.

The pages set the space before « ; ! ? : » and inside guillemets non-breaking (French
typography: choux.web.typography, as dom.js `french` does in the browser); a person sees a
space, and the tests write one. So an HTML response's `.text` gives ordinary spaces here, as
tests/e2e/conftest.py does for Playwright's reads; `test_web_typography` checks the
non-breaking ones in the bytes (`.content`). JSON and other responses are read as sent.
"""

from __future__ import annotations

import httpx

_sent_text = httpx.Response.text


def _read_plainly(response: httpx.Response) -> str:
    text: str = _sent_text.fget(response)  # type: ignore[attr-defined]
    if response.headers.get("content-type", "").startswith("text/html"):
        return text.replace("\u202f", " ").replace("\u00a0", " ")
    return text


httpx.Response.text = property(_read_plainly)  # type: ignore[assignment,method-assign]
