"""The content files and their loader: structure, lengths, and clear errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from choux.games.parlote import content as content_module
from choux.games.parlote import data
from choux.games.parlote.bots import fill, on_topic
from choux.games.parlote.content import (
    ContentError,
    content,
    load_content,
    memo,
    parse_fallacies,
    parse_scenarios,
)

CONTENT = Path(content_module.__file__).parent / "content"
PAGE = Path(content_module.__file__).parent / "page.toml"


def fallacies() -> dict[str, Any]:
    return tomllib.loads((CONTENT / "fallacies.toml").read_text(encoding="utf-8"))


def scenarios() -> dict[str, Any]:
    return tomllib.loads((CONTENT / "scenarios.toml").read_text(encoding="utf-8"))


def test_seven_colours_each_with_the_depth_structure() -> None:
    data = content()
    assert len(data.colours) == 7
    for colour in data.colours:
        depths = sorted(c.depth for c in data.cards if c.colour == colour.id)
        assert len(depths) >= 6
        assert depths.count(1) >= 1 and depths.count(2) >= 1
        assert depths.count(3) >= 2 and depths.count(4) >= 2


def test_every_deep_card_hangs_under_a_card_one_level_up() -> None:
    data = content()
    by_id = data.card_by_id
    for card in data.cards:
        if card.depth == 1:
            assert card.parent is None
        else:
            parent = by_id[card.parent or ""]
            assert parent.colour == card.colour and parent.depth == card.depth - 1


def test_the_suggested_fallacies_are_there() -> None:
    names = {c.name for c in content().cards}
    for expected in (
        "Ad hominem",
        "Homme de paille",
        "Pente glissante",
        "Faux dilemme",
        "Argument d'autorité",
        "Tu quoque",
        "Effet cigogne",
        "Généralisation hâtive",
    ):
        assert expected in names


def test_seven_themes_with_six_scenarios_each() -> None:
    data = content()
    assert len(data.themes) == 7
    for theme in data.themes:
        assert sum(1 for s in data.scenarios if s.theme == theme.id) >= 6


def test_every_template_fills_into_an_on_topic_argument_for_every_scenario() -> None:
    data = content()
    for card in data.cards:
        assert len(card.templates) >= 2
        for template in card.templates:
            for scenario in data.scenarios:
                text = fill(template, scenario)
                assert len(text) <= 280
                assert "{" not in text
                assert on_topic(text, scenario), (card.id, scenario.id, text)


def test_memo_gives_the_seven_trees_without_card_codes() -> None:
    panel = memo()
    assert [c["colour"] for c in panel] == list(content().colour_ids())
    codes = {c.id for c in content().cards}
    for colour in panel:
        tree = colour["tree"]
        assert len(tree) == 1 and tree[0]["depth"] == 1
        assert tree[0]["children"][0]["depth"] == 2
    assert not codes & set(str(panel).split("'"))


def test_loader_names_file_and_entry_on_duplicate_id() -> None:
    data = fallacies()
    data["cards"][3]["id"] = data["cards"][2]["id"]
    with pytest.raises(ContentError, match=r"fallacies.toml: carte « autorite-hors-domaine »"):
        parse_fallacies(data)


def test_loader_refuses_a_colour_without_depth_four() -> None:
    data = fallacies()
    data["cards"] = [c for c in data["cards"] if not (c["colour"] == "maths" and c["depth"] == 4)]
    with pytest.raises(ContentError, match=r"couleur « maths »: 0 carte.*profondeur 4"):
        parse_fallacies(data)


def test_loader_refuses_a_definition_too_long_for_a_card() -> None:
    data = fallacies()
    data["cards"][0]["definition"] = "Beaucoup trop long" * 10
    with pytest.raises(ContentError, match=r"insuffisance-de-preuve.*definition.*trop long"):
        parse_fallacies(data)


def test_loader_refuses_a_parent_of_another_colour() -> None:
    data = fallacies()
    data["cards"][1]["parent"] = "influence-emotionnelle"
    with pytest.raises(ContentError, match=r"argument-d-autorite.*même couleur"):
        parse_fallacies(data)


def test_loader_refuses_an_unknown_placeholder() -> None:
    data = fallacies()
    data["cards"][0]["templates"][0] = "{orateur} dit qu'il faut {enjeu}."
    with pytest.raises(ContentError, match=r"insuffisance-de-preuve.*accolade"):
        parse_fallacies(data)


def test_loader_refuses_a_theme_with_five_scenarios() -> None:
    data = scenarios()
    data["scenarios"] = [s for s in data["scenarios"] if s["id"] != "pro-igloo"]
    with pytest.raises(ContentError, match=r"scenarios.toml: thème « pro »: 5 scénario"):
        parse_scenarios(data)


def test_loader_refuses_a_scenario_without_objection() -> None:
    data = scenarios()
    del data["scenarios"][0]["objection"]
    with pytest.raises(ContentError, match=r"scénario « histoire-cleopatre ».*objection"):
        parse_scenarios(data)


def test_loader_reports_broken_toml_with_the_file_name(tmp_path: Path) -> None:
    (tmp_path / "fallacies.toml").write_text("[[cards]\nid = ", encoding="utf-8")
    with pytest.raises(ContentError, match=r"fallacies.toml: TOML invalide"):
        load_content(tmp_path)


def test_rules_page_has_four_suits_of_at_least_two_cards() -> None:
    page = tomllib.loads(PAGE.read_text(encoding="utf-8"))
    assert page["title"] == "La parlote coinchée"
    sections = page["sections"]
    assert len(sections) == 4
    assert sorted(s["suit"] for s in sections) == sorted("♠♥♦♣")
    for section in sections:
        assert len(section["cards"]) >= 2
        for card in section["cards"]:
            assert card["title"].strip() and card["text"].strip()


def rules_card(title: str) -> str:
    page = tomllib.loads(PAGE.read_text(encoding="utf-8"))
    found = [c["text"] for s in page["sections"] for c in s["cards"] if c["title"] == title]
    assert len(found) == 1, title
    text: str = found[0]
    return text


def test_rules_page_gives_the_capot_value_where_it_is_bid_and_where_it_is_scored() -> None:
    assert data.CAPOT == 250
    for title in ("Annoncer ses atouts", "Contrat tenu, contrat chuté"):
        text = rules_card(title)
        assert "capot" in text and str(data.CAPOT) in text, title


def test_rules_page_says_votes_are_secret_and_who_votes_on_the_readers_argument() -> None:
    text = rules_card("Honneur, Jury ou Arbitre")
    jury = text[text.index("**Jury**") : text.index("**Arbitre**")]
    arbitre = text[text.index("**Arbitre**") :]
    assert "secret" in jury
    assert "voisin" not in arbitre  # the left neighbour no longer judges the reader alone
    assert "trois autres joueurs votent" in arbitre and "secret" in arbitre
