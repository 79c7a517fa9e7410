"""The rules page: a deck of rule cards in four suits."""

from __future__ import annotations

import tomllib
from pathlib import Path

import choux.games.cul_de_chouette as package

PAGE = Path(package.__file__).parent / "page.toml"


def test_rules_page_has_four_suits_of_at_least_two_cards() -> None:
    page = tomllib.loads(PAGE.read_text(encoding="utf-8"))
    assert page["title"] == "Cul de Chouette" and page["tagline"]
    sections = page["sections"]
    assert len(sections) == 4
    assert {s["suit"] for s in sections} == {"♠", "♥", "♦", "♣"}
    for section in sections:
        assert len(section["cards"]) >= 2
        for card in section["cards"]:
            assert card["title"] and card["text"].strip()


def test_rules_page_names_every_combination() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for name in (
        "Chouette",
        "Velute",
        "Chouette Velute",
        "Cul de Chouette",
        "Pélican",
        "Suite",
        "Soufflette",
        "Néant",
        "Bleu-Rouge",
        "343",
        "332",
    ):
        assert name in text
