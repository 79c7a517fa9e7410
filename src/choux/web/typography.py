"""French typography of the pages the server renders: the rule of dom.js `french`.

French sets a space before « ; ! ? : » and inside guillemets; it must not break there, or a
phone's line starts with « ! » or « : ». Nor between a number and the word after it, or
« à » and the number after it (« 22 points », « 392 à 100 »). The pages' script sets those spaces non-breaking in
what it draws (dom.js `french`); `typeset_html` does the same to every page rendered from the
templates (templating.py), literal text and inserted values alike. Only the text a person
reads changes: tags and their attributes (URLs, values, data), comments, scripts and JSON
blobs, styles, the fields' text (`textarea`) and code are left as written; « 12:30 » has no
space before its colon and stays too.

Kept apart from choux.engine.french: compiled game modules import that one, and any edit of
it would make their native build stale.
"""

from __future__ import annotations

import re

NARROW_NBSP = "\u202f"  # before ; ! ? and the closing guillemet
NBSP = "\u00a0"  # before : and after the opening guillemet

_BEFORE_NARROW = re.compile(r" ([;!?»])")
_NUMBER_THEN_WORD = re.compile(r"(\d) (?=[^\W\d_])")
_A_THEN_NUMBER = re.compile(r"(^|[\s(])à (?=\d)")


def typeset(text: str) -> str:
    """Plain text with the French non-breaking spaces, as dom.js `french` sets them.

    >>> typeset("Bien joué ! Score : 12:30 ; « moi ! »") == (
    ...     "Bien joué\u202f! Score\u00a0: 12:30\u202f; «\u00a0moi\u202f!\u202f»")
    True
    >>> typeset("Manche : 392 à 100 (22 points)") == (
    ...     "Manche\u00a0: 392\u00a0à\u00a0100 (22\u00a0points)")
    True
    """
    text = _BEFORE_NARROW.sub(NARROW_NBSP + r"\1", text)
    text = text.replace(" :", NBSP + ":").replace("« ", "«" + NBSP)
    text = _NUMBER_THEN_WORD.sub(r"\1" + NBSP, text)
    return _A_THEN_NUMBER.sub(r"\1à" + NBSP, text)


# what is not text to read: a comment, an element whose content is kept as written (script,
# style, textarea, pre, code) and any other tag with its attributes (quoted values may hold
# « > »); everything between two of them is text
_NOT_TEXT = re.compile(
    r"""<!--.*?-->
      | <(script|style|textarea|pre|code)\b(?:"[^"]*"|'[^']*'|[^'">])*>.*?</\1\s*>
      | <[!?/]?[a-zA-Z](?:"[^"]*"|'[^']*'|[^'">])*>""",
    re.S | re.I | re.X,
)


def typeset_html(html: str) -> str:
    """`typeset` applied to the text of an HTML page, never inside its tags.

    >>> typeset_html('<a title="Oui ?" href="/t/x?cle=a">Oui ?</a> <b>Atout</b> : '
    ...              '<script>if (a !b) {}</script><code>a : b</code>') == (
    ...     '<a title="Oui ?" href="/t/x?cle=a">Oui\u202f?</a> <b>Atout</b>\u00a0: '
    ...     '<script>if (a !b) {}</script><code>a : b</code>')
    True
    """
    parts: list[str] = []
    start = 0
    for kept in _NOT_TEXT.finditer(html):
        parts.append(typeset(html[start : kept.start()]))
        parts.append(kept.group(0))
        start = kept.end()
    parts.append(typeset(html[start:]))
    return "".join(parts)
