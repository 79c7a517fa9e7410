"""Pseudonyms: checking what people type, and names for the bots."""

from __future__ import annotations

import re
import unicodedata

from choux.engine.visible import mixes_alphabets, shows_something

MAX_NAME = 24
BOT_NAMES = ("Gaston", "Odette", "Marcel", "Simone", "Lucien", "Yvonne", "Fernand", "Paulette")


MIXED_ALPHABETS = (
    "Ce pseudonyme mélange des alphabets (latin, cyrillique, grec) : il se ferait passer "
    "pour un autre. Choisissez-en un seul."
)


ROBOT_NAME = "Les noms de robot sont réservés aux robots : choisissez-en un autre."
#: « Robot gourmand », « Bot2 », « Robot-Gaston »: what the seats' robot tags say
_ROBOT_WORD = re.compile(r"(robot|bot)s?(?![a-z])")


def robot_like(name: str) -> bool:
    """Does the name pass itself off as a robot's, in any spelling (« Ｒｏｂｏｔ », « ℝobot »)?

    >>> [robot_like(n) for n in ("Robot gourmand", "bot2", "ℝobot", "Roberta", "Botanique")]
    [True, True, True, False, False]
    """
    return _ROBOT_WORD.match(unicodedata.normalize("NFKC", name).casefold()) is not None


class BadName(ValueError):
    """A pseudonym that cannot be used (French reason)."""


def clean_name(raw: object) -> str:
    """A pseudonym stripped of spaces and checked: not empty, not too long, printable."""
    if not isinstance(raw, str):
        raise BadName("Choisissez un pseudonyme.")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise BadName("Choisissez un pseudonyme.")
    if len(name) > MAX_NAME:
        raise BadName(f"Pseudonyme trop long ({MAX_NAME} caractères au plus).")
    if any(unicodedata.category(c).startswith("C") for c in name) or not shows_something(name):
        raise BadName("Ce pseudonyme contient des caractères invisibles.")
    if "{" in name or "}" in name:  # would read as a name placeholder in the table log
        raise BadName("Les accolades { } ne sont pas permises dans un pseudonyme.")
    if mixes_alphabets(name):
        raise BadName(MIXED_ALPHABETS)
    if robot_like(name):
        raise BadName(ROBOT_NAME)
    return name


def bot_name(seat: int, level: str) -> str:
    return BOT_NAMES[seat % len(BOT_NAMES)]
