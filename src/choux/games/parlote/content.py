"""Loading and checking the game's content: fallacy cards, colours, themes and scenarios.

The content lives in TOML files next to this module so that a designer can edit it. The
loader refuses a broken file with a `ContentError` naming the file and the entry, so a
typo never reaches a table.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from choux.engine.base import JSON

CONTENT_DIR = Path(__file__).parent / "content"
FALLACIES_FILE = "fallacies.toml"
SCENARIOS_FILE = "scenarios.toml"

#: maximum lengths, so that every text fits on a card of the table
MAX_NAME = 45
MAX_DEFINITION = 120
MAX_EXAMPLE = 160
MAX_TEMPLATE = 170
MAX_TITLE = 40
MAX_INJUNCTION = 200
MAX_OBJECTION = 120
MAX_SHORT = 60  # orateur, public
MAX_STAKE = 90
DEPTHS = (1, 2, 3, 4)
PLACEHOLDERS = ("{public}", "{Public}", "{enjeu}")


class ContentError(ValueError):
    """A content file that cannot be used: the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Colour:
    id: str
    name: str
    hue: str
    summary: str


@dataclass(frozen=True, slots=True)
class Card:
    """A fallacy card. `id` is also the code shown in views (the secret token of a hand)."""

    id: str
    colour: str
    depth: int
    parent: str | None
    name: str
    definition: str
    example: str
    templates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Theme:
    id: str
    name: str
    hue: str


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    theme: str
    title: str
    orateur: str
    public: str
    enjeu: str
    injonction: str
    objection: str


@dataclass(frozen=True, slots=True)
class Content:
    """Everything a game needs, indexed for quick look-ups."""

    colours: tuple[Colour, ...]
    cards: tuple[Card, ...]
    themes: tuple[Theme, ...]
    scenarios: tuple[Scenario, ...]

    @property
    def card_by_id(self) -> dict[str, Card]:
        return _index(self.cards)

    @property
    def colour_by_id(self) -> dict[str, Colour]:
        return _index(self.colours)

    @property
    def theme_by_id(self) -> dict[str, Theme]:
        return _index(self.themes)

    @property
    def scenario_by_id(self) -> dict[str, Scenario]:
        return _index(self.scenarios)

    def colour_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.colours)

    def cards_of(self, colour: str, depth: int) -> list[Card]:
        return [c for c in self.cards if c.colour == colour and c.depth == depth]


def _index(items: Sequence[Any]) -> dict[str, Any]:
    return {item.id: item for item in items}


# --------------------------------------------------------------------------- reading


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as error:
        raise ContentError(f"{path.name}: fichier introuvable") from error
    except tomllib.TOMLDecodeError as error:
        raise ContentError(f"{path.name}: TOML invalide ({error})") from error


def _text(file: str, where: str, entry: Mapping[str, Any], key: str, limit: int) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ContentError(f"{file}: {where}: champ « {key} » manquant ou vide")
    if value != value.strip():
        raise ContentError(f"{file}: {where}: champ « {key} » entouré d'espaces")
    if len(value) > limit:
        raise ContentError(
            f"{file}: {where}: champ « {key} » trop long ({len(value)} caractères, {limit} au plus)"
        )
    return guillemets(value)


def guillemets(text: str) -> str:
    """French quotation marks hold their words with non-breaking spaces (U+00A0, as in the
    rest of the site): a lone « » » never wraps to the next line."""
    return re.sub(r"\s+»", "\u00a0»", re.sub(r"«\s+", "«\u00a0", text))


def _entries(file: str, data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    entries = data.get(key)
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise ContentError(f"{file}: la liste [[{key}]] est absente ou mal formée")
    return entries


def _unique_id(file: str, kind: str, index: int, entry: Mapping[str, Any], seen: set[str]) -> str:
    where = f"{kind} n° {index + 1}"
    ident = _text(file, where, entry, "id", MAX_SHORT)
    if ident in seen:
        raise ContentError(f"{file}: {kind} « {ident} »: identifiant en double")
    seen.add(ident)
    return ident


def _identified_entries(
    file: str, data: Mapping[str, Any], key: str, kind: str, seen: set[str]
) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """Each entry of the list [[key]] with its identifier, checked unique against `seen`,
    and the label its error messages name it by (carte « c1 »)."""
    for i, entry in enumerate(_entries(file, data, key)):
        ident = _unique_id(file, kind, i, entry, seen)
        yield ident, f"{kind} « {ident} »", entry


def parse_fallacies(
    data: Mapping[str, Any], file: str = FALLACIES_FILE
) -> tuple[tuple[Colour, ...], tuple[Card, ...]]:
    """Colours and cards from the parsed fallacy file, fully checked."""
    seen: set[str] = set()
    colours = []
    for ident, where, entry in _identified_entries(file, data, "colours", "couleur", seen):
        colours.append(
            Colour(
                ident,
                _text(file, where, entry, "name", MAX_NAME),
                _text(file, where, entry, "hue", 9),
                _text(file, where, entry, "summary", MAX_DEFINITION),
            )
        )
    colour_ids = {c.id for c in colours}
    names: set[str] = set()
    cards = []
    for ident, where, entry in _identified_entries(file, data, "cards", "carte", seen):
        colour = _text(file, where, entry, "colour", MAX_SHORT)
        if colour not in colour_ids:
            raise ContentError(f"{file}: {where}: couleur inconnue « {colour} »")
        depth = entry.get("depth")
        if depth not in DEPTHS or isinstance(depth, bool):
            raise ContentError(f"{file}: {where}: profondeur {depth!r} hors de 1 à 4")
        parent = entry.get("parent")
        if depth == 1 and parent is not None:
            raise ContentError(f"{file}: {where}: une carte de profondeur 1 n'a pas de parent")
        if depth > 1 and not isinstance(parent, str):
            raise ContentError(f"{file}: {where}: champ « parent » manquant")
        name = _text(file, where, entry, "name", MAX_NAME)
        if name.casefold() in names:
            raise ContentError(f"{file}: {where}: nom « {name} » en double")
        names.add(name.casefold())
        templates = entry.get("templates")
        if not isinstance(templates, list) or len(templates) < 2:
            raise ContentError(f"{file}: {where}: il faut au moins deux modèles d'argument")
        for n, template in enumerate(templates, start=1):
            if not isinstance(template, str) or not template.strip():
                raise ContentError(f"{file}: {where}: modèle n° {n} vide")
            if len(template) > MAX_TEMPLATE:
                raise ContentError(f"{file}: {where}: modèle n° {n} trop long")
            if "{enjeu}" not in template:
                raise ContentError(f"{file}: {where}: modèle n° {n} sans {{enjeu}}")
            stripped = template
            for placeholder in PLACEHOLDERS:
                stripped = stripped.replace(placeholder, "")
            if "{" in stripped or "}" in stripped:
                raise ContentError(f"{file}: {where}: modèle n° {n}: accolade inconnue")
        cards.append(
            Card(
                ident,
                colour,
                depth,
                parent if isinstance(parent, str) else None,
                name,
                _text(file, where, entry, "definition", MAX_DEFINITION),
                _text(file, where, entry, "example", MAX_EXAMPLE),
                tuple(templates),
            )
        )
    by_id = {c.id: c for c in cards}
    for card in cards:
        if card.parent is None:
            continue
        where = f"carte « {card.id} »"
        parent_card = by_id.get(card.parent)
        if parent_card is None:
            raise ContentError(f"{file}: {where}: parent inconnu « {card.parent} »")
        if parent_card.colour != card.colour or parent_card.depth != card.depth - 1:
            raise ContentError(
                f"{file}: {where}: le parent doit être de la même couleur, un niveau au-dessus"
            )
    for item in colours:
        for depth, needed in zip(DEPTHS, (1, 1, 2, 2), strict=True):
            count = sum(1 for c in cards if c.colour == item.id and c.depth == depth)
            if count < needed:
                raise ContentError(
                    f"{file}: couleur « {item.id} »: {count} carte(s) de profondeur {depth}, "
                    f"il en faut au moins {needed}"
                )
    if len(colours) != 7:
        raise ContentError(f"{file}: il faut exactement 7 couleurs, pas {len(colours)}")
    return tuple(colours), tuple(cards)


def parse_scenarios(
    data: Mapping[str, Any], file: str = SCENARIOS_FILE, taken: frozenset[str] = frozenset()
) -> tuple[tuple[Theme, ...], tuple[Scenario, ...]]:
    """Themes and scenarios from the parsed scenario file, fully checked.

    `taken`: identifiers already used (cards, colours), which must stay distinct because
    card codes are the secret tokens of the views."""
    seen: set[str] = set(taken)
    themes = []
    for ident, where, entry in _identified_entries(file, data, "themes", "thème", seen):
        themes.append(
            Theme(
                ident,
                _text(file, where, entry, "name", MAX_NAME),
                _text(file, where, entry, "hue", 9),
            )
        )
    theme_ids = {t.id for t in themes}
    scenarios = []
    for ident, where, entry in _identified_entries(file, data, "scenarios", "scénario", seen):
        theme = _text(file, where, entry, "theme", MAX_SHORT)
        if theme not in theme_ids:
            raise ContentError(f"{file}: {where}: thème inconnu « {theme} »")
        objection = _text(file, where, entry, "objection", MAX_OBJECTION)
        scenarios.append(
            Scenario(
                ident,
                theme,
                _text(file, where, entry, "title", MAX_TITLE),
                _text(file, where, entry, "orateur", MAX_SHORT),
                _text(file, where, entry, "public", MAX_SHORT),
                _text(file, where, entry, "enjeu", MAX_STAKE),
                _text(file, where, entry, "injonction", MAX_INJUNCTION),
                objection,
            )
        )
    if len(themes) != 7:
        raise ContentError(f"{file}: il faut exactement 7 thèmes, pas {len(themes)}")
    for theme_item in themes:
        count = sum(1 for s in scenarios if s.theme == theme_item.id)
        if count < 6:
            raise ContentError(
                f"{file}: thème « {theme_item.id} »: {count} scénario(s), il en faut au moins 6"
            )
    objections = [s.objection for s in scenarios]
    if len(set(objections)) != len(objections):
        raise ContentError(f"{file}: deux scénarios ont la même objection")
    return tuple(themes), tuple(scenarios)


def load_content(directory: Path = CONTENT_DIR) -> Content:
    """Read and check both content files of `directory`."""
    colours, cards = parse_fallacies(_read(directory / FALLACIES_FILE))
    taken = frozenset(c.id for c in colours) | frozenset(c.id for c in cards)
    themes, scenarios = parse_scenarios(_read(directory / SCENARIOS_FILE), taken=taken)
    return Content(colours, cards, themes, scenarios)


@cache
def content() -> Content:
    """The game's content, loaded once per process."""
    return load_content()


@cache
def cards_index() -> dict[str, Card]:
    return content().card_by_id


@cache
def scenarios_index() -> dict[str, Scenario]:
    return content().scenario_by_id


def card_json(card: Card) -> dict[str, JSON]:
    """A card as the views show it (its `code` is the card's identifier)."""
    return {
        "code": card.id,
        "colour": card.colour,
        "depth": card.depth,
        "name": card.name,
        "definition": card.definition,
        "example": card.example,
    }


def scenario_json(scenario: Scenario, objection: bool) -> dict[str, JSON]:
    """A scenario card as the table and the recap show it. Its `id` is left out: played
    scenarios come back when the piles are reshuffled. `objection`: whether the italic
    line shows (the reader's secret until the deal ends), else None."""
    theme = content().theme_by_id[scenario.theme]
    return {
        "theme": scenario.theme,
        "theme_name": theme.name,
        "title": scenario.title,
        "orateur": scenario.orateur,
        "public": scenario.public,
        "enjeu": scenario.enjeu,
        "injonction": scenario.injonction,
        "objection": scenario.objection if objection else None,
    }


def memo(in_play: frozenset[str] = frozenset()) -> list[dict[str, JSON]]:
    """The « mémo » panel: the seven colours and their trees (names only, no codes, since
    codes are the secret tokens of hands); `in_play` marks the cards of this game."""
    data = content()

    def children(colour: str, parent: str | None, depth: int) -> list[dict[str, JSON]]:
        return [
            {
                "name": c.name,
                "depth": c.depth,
                "definition": c.definition,
                "in_play": c.id in in_play,
                "children": children(colour, c.id, depth + 1),
            }
            for c in data.cards
            if c.colour == colour and c.depth == depth and c.parent == parent
        ]

    return [
        {
            "colour": colour.id,
            "name": colour.name,
            "hue": colour.hue,
            "summary": colour.summary,
            "tree": children(colour.id, None, 1),
        }
        for colour in data.colours
    ]
