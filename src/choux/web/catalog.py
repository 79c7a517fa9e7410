"""What the web knows about each game: its title, its rules page (page.toml), its renderer."""

from __future__ import annotations

import functools
import importlib.util
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from choux import games
from choux.engine.base import Game

SUITS = {"♠": "pique", "♥": "coeur", "♦": "carreau", "♣": "trefle"}
RENDERERS = Path(__file__).parent / "static" / "js" / "games"


@dataclass
class GameInfo:
    name: str
    title: str
    tagline: str
    available: bool
    game: Game | None
    has_rules: bool


def _package_dir(name: str) -> Path | None:
    module = games.MODULES.get(name)
    if module is None:
        return None
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    # the folder of the package's sources: a compiled build (choux.engine.native) puts its
    # own folder, which holds no page.toml, in front of the package's search locations
    for location in spec.submodule_search_locations:
        if (Path(location) / "__init__.py").is_file():
            return Path(location)
    return None


def rules_page(name: str) -> dict[str, Any] | None:
    """The game's page.toml, or None if it has none (yet) or it cannot be read."""
    folder = _package_dir(name)
    path = folder / "page.toml" if folder is not None else None
    if path is None or not path.exists():
        return None
    return _parse_page(name, path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _parse_page(name: str, path: Path, _mtime: int) -> dict[str, Any] | None:
    """Parsed once per version of the file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    sections = []
    for section in data.get("sections", []):
        if not isinstance(section, dict):
            continue
        suit = str(section.get("suit", "♠"))
        cards = [
            {"title": str(c.get("title", "")), "text": str(c.get("text", ""))}
            for c in section.get("cards", [])
            if isinstance(c, dict)
        ]
        sections.append(
            {
                "name": str(section.get("name", "")),
                "suit": suit,
                "suit_class": SUITS.get(suit, "pique"),
                "cards": cards,
            }
        )
    return {
        "title": str(data.get("title", name)),
        "tagline": str(data.get("tagline", "")),
        # the button's sentence: French needs the game's article (« à la », « au », « aux »)
        "play_label": str(data.get("play_label", "")),
        "sections": sections,
    }


def catalog() -> list[GameInfo]:
    available = set(games.names())
    infos = []
    for name in games.MODULES:
        game = games.get(name) if name in available else None
        page = rules_page(name)
        infos.append(
            GameInfo(
                name=name,
                title=game.title if game else (page or {}).get("title") or name,
                tagline=(page or {}).get("tagline", ""),
                available=game is not None,
                game=game,
                has_rules=page is not None,
            )
        )
    return infos


def renderer(name: str) -> str:
    """URL of the game's interface module, or the generic one."""
    if (RENDERERS / f"{name}.js").exists():
        return f"/static/js/games/{name}.js"
    return "/static/js/games/generic.js"
