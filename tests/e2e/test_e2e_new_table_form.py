"""The table creation form as a newcomer reads it (Debian's Chromium, phone and desktop).

- « Scribe » is a seat (« Place 2 ») or none, offered only for the seats in play, and only
  with real dice (with the site's dice it would do nothing);
- Parlote's two clocks each say which is which (the game's own time for a card and its
  argument; the table's move clock, after which a robot plays);
- the Doublette checkbox keeps its size and sits level with its label on a phone;
- `/nouvelle?jeu=<unknown>` says, in French and with a 404, that the game does not exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import DESKTOP, PHONE, chromium, code_of, live_server, shoot, watched_page

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

SCRIBE = "select[name=opt_scribe]"


def test_scribe_is_a_seat_shown_only_with_real_dice(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.goto(f"{server.url}/nouvelle?jeu=cul-de-chouette")
        assert not page.locator(SCRIBE).is_visible()  # the site's dice: no scribe
        page.select_option("select[name=opt_des]", '"reels"')
        assert page.locator(SCRIBE).is_visible()
        page.select_option("select[name=joueurs]", "3")
        offered = page.locator(f"{SCRIBE} option:not([disabled])").all_inner_texts()
        assert offered == ["aucune (chaque lanceur)", "Place 1", "Place 2", "Place 3"]
        assert "-1" not in page.locator(".options").inner_text()
        shoot(page, "form-scribe-phone")
        page.set_viewport_size(DESKTOP)
        shoot(page, "form-scribe-desktop")
        page.set_viewport_size(PHONE)

        page.select_option(SCRIBE, label="Place 3")
        page.select_option("select[name=joueurs]", "2")  # Place 3 leaves: back to none
        assert page.locator(SCRIBE).input_value() == "-1"
        page.select_option("select[name=joueurs]", "3")
        page.select_option(SCRIBE, label="Place 2")
        page.fill("input[name=pseudo]", "Berthe")
        page.click("#new-table button[type=submit]")
        page.wait_for_url("**/t/*")
        code = code_of(page.url)
        options = server.service.tables[code].row.options
        assert options["des"] == "reels" and options["scribe"] == 1

        # back to the site's dice: the hidden scribe is not sent, whatever it showed
        page.goto(f"{server.url}/nouvelle?jeu=cul-de-chouette")
        page.select_option("select[name=opt_des]", '"reels"')
        page.select_option(SCRIBE, label="Place 2")
        page.select_option("select[name=opt_des]", '"site"')
        assert not page.locator(SCRIBE).is_visible()
        page.click("#new-table button[type=submit]")
        page.wait_for_url("**/t/*")
        code = code_of(page.url)
        assert server.service.tables[code].row.options["scribe"] == -1
        assert not errors, errors


def test_parlote_clocks_say_which_is_which_and_doublette_box_is_aligned(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        page.goto(f"{server.url}/nouvelle?jeu=parlote")
        card_clock = page.locator("label.field", has=page.locator("[name=opt_play_seconds]"))
        table_clock = page.locator("label.field", has=page.locator("[name=pendule]"))
        assert "carte et son argument" in card_clock.inner_text()
        assert "Pendule de la table" in table_clock.inner_text()
        card_help = page.locator("#aide-play_seconds").inner_text()
        table_help = page.locator("#aide-pendule").inner_text()
        assert "sans argument" in card_help and "robot" in table_help
        for field in ("[name=opt_play_seconds]", "[name=pendule]"):
            assert page.locator(field).get_attribute("aria-describedby")
        shoot(page, "form-parlote-phone")
        page.set_viewport_size(DESKTOP)
        shoot(page, "form-parlote-desktop")

        for viewport in (PHONE, DESKTOP):
            page.set_viewport_size(viewport)
            page.goto(f"{server.url}/nouvelle?jeu=cul-de-chouette")
            box = page.locator("[name=opt_doublette]").bounding_box()
            label = page.locator("label.check", has=page.locator("[name=opt_doublette]"))
            text = label.locator("span").bounding_box()
            assert box is not None and text is not None
            assert round(box["width"]) == round(box["height"]) == 22, box
            # level with its words: the box's middle within the label's lines
            middle = box["y"] + box["height"] / 2
            assert text["y"] <= middle <= text["y"] + text["height"], (box, text)
            assert box["x"] + box["width"] <= text["x"]
        assert not errors, errors


def test_unknown_game_in_the_form_says_it_does_not_exist(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, chromium() as browser:
        page, errors = watched_page(browser, PHONE)
        response = page.goto(f"{server.url}/nouvelle?jeu=belote")
        assert response is not None and response.status == 404
        assert "Ce jeu n'existe pas" in page.inner_text("main")
        assert page.locator("#new-table").count() == 0  # not the Chouine form in disguise
        assert page.locator("html").get_attribute("lang") == "fr"
        shoot(page, "form-unknown-game-phone")
        response = page.goto(f"{server.url}/nouvelle")
        assert response is not None and response.status == 200
        assert page.locator("#new-table").count() == 1
        assert not errors, errors
