"""How the table creation form presents some options: the engines name an option for the
rules (« scribe », an int from −1 to 7); a newcomer needs « Place 2 » or « personne », a help
line saying which clock is which, and no field that does nothing with the other choices.

Only presentation lives here: values, limits and checks stay with each game's `Option`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from choux.engine.base import JSON


@dataclass(frozen=True, slots=True)
class OptionHint:
    label: str | None = None  # clearer words than the engine's label
    help: str | None = None  # one line under the field
    seat_none: str | None = None  # the value is a seat (−1: none, said with these words)
    shown_when: tuple[str, JSON] | None = None  # (option, value): the field shows only then


HINTS: dict[str, dict[str, OptionHint]] = {
    "cul-de-chouette": {
        "scribe": OptionHint(
            label="Scribe",
            help="La place qui saisit tous les vrais dés de la table ; « aucune » : chaque "
            "lanceur saisit les siens.",
            seat_none="aucune (chaque lanceur)",
            shown_when=("des", "reels"),
        ),
        "doublette": OptionHint(
            label="Doublette", help="Équipes de deux, assises face à face : à 8 joueurs."
        ),
    },
    "parlote": {
        "play_seconds": OptionHint(
            label="Temps pour jouer une carte et son argument (secondes)",
            help="Propre au jeu : passé ce délai, la carte part sans argument. "
            "Vaut aussi pour chaque enchère. La pendule de la table, plus bas, est un autre "
            "délai : quand elle sonne la première, un robot joue le coup à votre place.",
        ),
    },
}

#: the platform's move clock, shown for every game under the « Pendule » field
PENDULE_LABEL = "Pendule de la table : temps par coup"
PENDULE_HELP = "Pour tous les coups : passé ce délai, un robot joue à la place de la personne."


def hinted_fields(game: str, fields: list[dict[str, Any]], seats: int) -> list[dict[str, Any]]:
    """The form's option fields with this game's hints applied (a new list)."""
    hints = HINTS.get(game, {})
    result = []
    for field in fields:
        hint = hints.get(field["name"])
        field = dict(field, help=None, shown_when=None)
        if hint is not None:
            if hint.label:
                field["label"] = hint.label
            field["help"] = hint.help
            if hint.shown_when is not None:
                option, value = hint.shown_when
                field["shown_when"] = {"option": f"opt_{option}", "value": json.dumps(value)}
            if hint.seat_none is not None:
                field["kind"] = "seat"
                field["choices"] = [
                    {"value": "-1", "label": hint.seat_none, "selected": True, "seat": None},
                    *(
                        {"value": str(s), "label": f"Place {s + 1}", "selected": False, "seat": s}
                        for s in range(seats)
                    ),
                ]
        result.append(field)
    return result
