"""What the browser tests read of a page is the text a person reads.

The pages set the space before « ; ! ? : » and inside guillemets non-breaking (`dom.js`
`french`, French typography); a person sees a space, and the tests write one. So the text
reads of Playwright (`inner_text`, `text_content` and their `all_` forms) give ordinary
spaces here; `test_e2e_ui_polish` checks the non-breaking ones through `evaluate`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from e2e_tables import plain
from playwright.sync_api import ElementHandle, Locator, Page


def _read_plainly(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def read(self: Any, *args: Any, **kwargs: Any) -> Any:
        value = method(self, *args, **kwargs)
        if isinstance(value, str):
            return plain(value)
        if isinstance(value, list):
            return [plain(v) if isinstance(v, str) else v for v in value]
        return value

    return read


for _cls, _names in (
    (Page, ("inner_text", "text_content")),
    (Locator, ("inner_text", "text_content", "all_inner_texts", "all_text_contents")),
    (ElementHandle, ("inner_text", "text_content")),
):
    for _name in _names:
        setattr(_cls, _name, _read_plainly(getattr(_cls, _name)))
