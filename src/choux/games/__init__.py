"""The registry of games: `choux.games.get("chouine")`.

Games are imported lazily so that a broken or missing game never stops the others.
"""

from __future__ import annotations

import importlib

from choux.engine.base import Game, UnknownGame

#: registry name -> module that defines ``GAME``
MODULES: dict[str, str] = {
    "chouine": "choux.games.chouine",
    "chouineurs": "choux.games.chouineurs",
    "cul-de-chouette": "choux.games.cul_de_chouette",
    "parlote": "choux.games.parlote",
}

_loaded: dict[str, Game] = {}


def get(name: str) -> Game:
    """The game registered under `name`; UnknownGame (French message) otherwise."""
    if name not in _loaded:
        module_name = MODULES.get(name)
        if module_name is None:
            raise UnknownGame(f"Jeu inconnu : {name!r}. Jeux disponibles : {', '.join(names())}.")
        module = importlib.import_module(module_name)
        game = getattr(module, "GAME", None)
        if not isinstance(game, Game):
            raise UnknownGame(f"Le jeu {name!r} n'est pas encore disponible.")
        _loaded[name] = game
    return _loaded[name]


def names() -> list[str]:
    """Names of the games that are importable now, in registry order."""
    available = []
    for name, module_name in MODULES.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and module_name.startswith(error.name):
                continue
            raise
        if isinstance(getattr(module, "GAME", None), Game):
            available.append(name)
    return available
