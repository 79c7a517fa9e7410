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
#: « Robot gourmand », « Bot2 », « Alice (robot) »: what the seats' robot tags say
_ROBOT_WORD = re.compile(r"(?<![a-z])(robot|bot)s?(?![a-z])")
SITE_NAME = (
    "Ce nom est celui que le site donne à une place libre, à un spectateur ou à un compte "
    "supprimé : choisissez-en un autre."
)
#: « Place 3 », « Spectateur·rice », « Compte supprimé »: names the site writes itself
_SITE_WORDS = re.compile(r"^(place \d+|spectat\w*|compte supprim\w*)")
#: combining marks stacked on one letter, at most (« Zalgo » names overflow their lines)
MAX_MARKS = 2


def robot_like(name: str) -> bool:
    """Does the name pass itself off as a robot's, in any spelling (« Ｒｏｂｏｔ », « ℝobot »),
    anywhere in it (« Alice (robot) » is how a person's seat reads once a bot plays it)?

    >>> [robot_like(n) for n in ("Robot gourmand", "bot2", "ℝobot", "Alice (robot)")]
    [True, True, True, True]
    >>> [robot_like(n) for n in ("Roberta", "Botanique", "Abbot", "Talbot")]
    [False, False, False, False]
    """
    return _ROBOT_WORD.search(unicodedata.normalize("NFKC", name).casefold()) is not None


def site_like(name: str) -> bool:
    """Is it a name the site writes for a seat or a person (« Place 2 », « Spectateur »)?

    >>> [site_like(n) for n in ("Place 3", "spectatrice", "Compte supprimé", "Placide")]
    [True, True, True, False]
    """
    return _SITE_WORDS.match(unicodedata.normalize("NFKC", name).casefold()) is not None


def marks_problem(name: str) -> str | None:
    """A name of accents alone, or of accents stacked beyond `MAX_MARKS`: why not.

    >>> marks_problem("Zoé"), marks_problem("Ze\u0301\u0301")
    (None, None)
    >>> marks_problem("\u0301\u0301") is not None, marks_problem("e\u0301\u0301\u0301") is not None
    (True, True)
    """
    decomposed = unicodedata.normalize("NFD", name)
    if not any(unicodedata.category(c)[0] in "LN" for c in decomposed):
        return "Un pseudonyme contient au moins une lettre ou un chiffre."
    stacked = 0
    for char in decomposed:
        stacked = stacked + 1 if unicodedata.category(char).startswith("M") else 0
        if stacked > MAX_MARKS:
            return "Trop d'accents empilés sur une même lettre dans ce pseudonyme."
    return None


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
    problem = marks_problem(name)
    if problem:
        raise BadName(problem)
    if robot_like(name):
        raise BadName(ROBOT_NAME)
    if site_like(name):
        raise BadName(SITE_NAME)
    return name


def bot_name(seat: int, level: str) -> str:
    return BOT_NAMES[seat % len(BOT_NAMES)]
