"""The table creation form, as HTML: an unknown game is a French 404, the scribe is a seat."""

from __future__ import annotations

from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client

from choux.web.form_hints import hinted_fields


def test_unknown_game_in_the_form_is_a_404_that_says_so(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/nouvelle?jeu=belote")
        default = c.get("/nouvelle")
    assert page.status_code == 404
    assert "Ce jeu n&#39;existe pas" in page.text or "Ce jeu n'existe pas" in page.text
    assert 'id="new-table"' not in page.text
    assert default.status_code == 200 and 'id="new-table"' in default.text


def test_scribe_is_offered_as_a_seat_or_none_only_with_real_dice(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/nouvelle?jeu=cul-de-chouette").text
    assert 'class="seat-option"' in page and "Place 8</option>" in page
    assert "(−1 : chaque lanceur)" not in page  # the engine's 0-based number stays inside
    assert 'data-shown-option="opt_des"' in page


def test_hints_keep_every_other_field_as_it_was() -> None:
    fields = [{"name": "objectif", "label": "Score", "kind": "int", "choices": []}]
    (field,) = hinted_fields("cul-de-chouette", fields, 8)
    assert field["label"] == "Score" and field["kind"] == "int"
    assert field["help"] is None and field["shown_when"] is None
    (scribe,) = hinted_fields("cul-de-chouette", [{"name": "scribe", "label": "x"}], 3)
    assert scribe["kind"] == "seat"
    assert [c["value"] for c in scribe["choices"]] == ["-1", "0", "1", "2"]
