"""French typography in the pages the server renders: no line starts with « ! » or « : ».

The space before « ; ! ? : » and inside guillemets is non-breaking in the text of every
rendered page (a narrow one before « ; ! ? » and the closing guillemet), as dom.js `french`
sets it in what the script draws; tags, attributes, URLs, scripts and JSON blobs are left
as written. Read from the bytes: `.text` reads plainly in these tests (conftest.py).
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, play_to_end

from choux.web import templating
from choux.web.typography import typeset, typeset_html

NARROW, NBSP = "\u202f", "\u00a0"

# what a person does not read: scripts, styles, fields' text, code, comments and tags
HIDDEN = re.compile(r"<!--.*?-->|<(script|style|textarea|pre|code)\b.*?</\1>|<[^>]*>", re.S | re.I)


def page_of(c, url: str) -> str:  # type: ignore[no-untyped-def]
    response = c.get(url)
    assert response.status_code in (200, 403, 404), (url, response.status_code)
    return str(response.content.decode())


def reads(page: str) -> str:
    return html.unescape(HIDDEN.sub(" ", page))


def breakable(text: str) -> list[str]:
    """The places where a line could start with « ; ! ? : » or « » », or end with « « »."""
    return re.findall(r".{0,20}(?: [;:!?»]|« ).{0,20}", text)


def test_the_rule_is_dom_js_french() -> None:
    assert typeset("Atout : cœur ! Qui ? Oui ; « moi »") == (
        f"Atout{NBSP}: cœur{NARROW}! Qui{NARROW}? Oui{NARROW}; «{NBSP}moi{NARROW}»"
    )
    assert typeset("à 12:30, http://choux.example/t/ab?cle=x:y") == (
        f"à{NBSP}12:30, http://choux.example/t/ab?cle=x:y"
    )
    # a number keeps the word after it, « à » the number after it; not « Place 4 » to its left
    assert typeset("Manche : 392 à 100 ; Place 4 a 22 points (3 plis)") == (
        f"Manche{NBSP}: 392{NBSP}à{NBSP}100{NARROW}; Place 4{NBSP}a 22{NBSP}points (3{NBSP}plis)"
    )


def test_only_the_text_of_a_page_changes() -> None:
    page = (
        '<p title="Gagnant : Anne !" data-x=\'{"a": "b : c"}\'>Gagnant : <b>Anne</b> !</p>'
        '<script type="application/json" id="s">{"text": "Alice : pli !"}</script>'
        "<textarea>Mon argument : oui !</textarea><!-- note : ici -->"
        '<input value="http://x/t/a?cle=b : c"><code>choux replay --verify : ok</code>'
    )
    assert typeset_html(page) == (
        f'<p title="Gagnant : Anne !" data-x=\'{{"a": "b : c"}}\'>Gagnant{NBSP}: <b>Anne</b>'
        f"{NARROW}!</p>"
        '<script type="application/json" id="s">{"text": "Alice : pli !"}</script>'
        "<textarea>Mon argument : oui !</textarea><!-- note : ici -->"
        '<input value="http://x/t/a?cle=b : c"><code>choux replay --verify : ok</code>'
    )


def test_rendered_pages_never_break_before_french_punctuation(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "bot:random"], "Alice", {"manches": "1"})
        table = page_of(c, f"/t/{code}")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        replay = page_of(c, f"/parties/{final['record_id']}")
        pages = {
            "lobby": page_of(c, "/"),
            "new table": page_of(c, "/nouvelle?jeu=chouine"),
            "rules": page_of(c, "/regles/parlote"),
            "table": table,
            "replay": replay,
            "my games": page_of(c, "/mes-parties"),
            "error": page_of(c, "/nouvelle?jeu=belote"),
        }
    for name, page in pages.items():
        assert breakable(reads(page)) == [], name
    # words from the template, from an error, from a game's record
    assert f"publique qui attend des joueurs{NARROW}; s'il" in pages["lobby"]
    assert f"<strong>Table publique</strong>{NBSP}: listée" in pages["new table"]
    assert (
        f"Ce jeu n&#39;existe pas sur Choux{NBSP}: choisissez-en un dans «{NBSP}Créer"
        in pages["error"]
    )
    reason = final["result"]["reason"]
    assert ":" in reason and html.escape(typeset(reason)) in replay
    # what is not read stays as written: the attributes, the invite link, the JSON blobs
    assert 'data-live="Partie en direct : tout le monde' in pages["new table"]
    blob = re.search(r'<script type="application/json" id="initial-state">(.*?)</script>', table)
    assert blob is not None
    state = json.loads(blob.group(1))
    assert NARROW not in blob.group(1) and NBSP not in blob.group(1)
    assert state["seats"][0]["name"] == "Alice"
    record = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', replay)
    assert record is not None and NBSP not in record.group(1) and NARROW not in record.group(1)
    assert json.loads(record.group(1))


class Parsed(HTMLParser):
    """A page as a parser reads it: tags with their attributes, comments, declarations,
    and text (scripts' too)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[Any, ...]] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.items.append(("tag", tag, tuple(attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.items.append(("tag/", tag, tuple(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.items.append(("/tag", tag))

    def handle_data(self, data: str) -> None:
        self.items.append(("text", data))

    def handle_comment(self, data: str) -> None:
        self.items.append(("comment", data))

    def handle_decl(self, decl: str) -> None:
        self.items.append(("decl", decl))


def test_typesetting_a_page_changes_its_text_spaces_only(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every page as the templates write it, then set: the same tags, attributes, comments
    and scripts, byte for byte; the text differs by its non-breaking spaces alone."""
    monkeypatch.setattr(templating, "typeset_html", lambda page: page)  # as written
    with client(sqlite_url) as c:
        code = create_table(c, "cul-de-chouette", ["human", "bot:easy"], "Alice")
        urls = [f"/regles/{g}" for g in ("chouine", "chouineurs", "cul-de-chouette", "parlote")]
        urls += [f"/nouvelle?jeu={g}" for g in ("chouine", "cul-de-chouette", "parlote")]
        urls += ["/", f"/t/{code}", "/connexion", "/compte/creer", "/nouvelle?jeu=belote"]
        written = {url: c.get(url).content.decode() for url in urls}
    for url, page in written.items():
        before = Parsed(page).items
        after = Parsed(typeset_html(page)).items
        assert len(before) == len(after), url
        for was, now in zip(before, after, strict=True):
            if was[0] == "text" and was != now:
                assert plain(now[1]) == was[1], (url, was, now)
            else:
                assert was == now, (url, was, now)
        assert typeset_html(page) != page, url  # each has French punctuation to set


def plain(text: str) -> str:
    return text.replace(NARROW, " ").replace(NBSP, " ")
