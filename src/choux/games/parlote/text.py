"""A plain-text rendering of a seat's view, for `choux play parlote` in a terminal.

Arguments are untrusted text: they are escaped for the Rich console that prints them.
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from choux.engine.base import JSON
from choux.games.parlote import data

NAMES = ["Vous", "Robot 1", "Robot 2", "Robot 3"]


def _name(seat: Any) -> str:
    return NAMES[seat] if isinstance(seat, int) and 0 <= seat < 4 else "?"


def _colours(view: dict[str, Any]) -> dict[str, str]:
    return {c["id"]: c["name"] for c in view["colours"]}


def _card(card: dict[str, Any], colours: dict[str, str]) -> str:
    points = f", {card['points']} pts" if card.get("points") is not None else ""
    return f"{card['name']} ({colours[card['colour']]}, profondeur {card['depth']}{points})"


def _play(play: dict[str, Any], colours: dict[str, str]) -> str:
    argument = f" «\u00a0{escape(play['argument'])}\u00a0»" if play["argument"] else ""
    return f"  {_name(play['seat'])} : {_card(play['card'], colours)}{argument} — {play['status_label']}"


def render(view_json: dict[str, JSON]) -> str:
    view: dict[str, Any] = view_json
    colours = _colours(view)
    lines = [
        f"{view['phase_label']} — manche {view['deal_number']} — mode {view['mode']}",
        f"Scores : vous et Robot 2 {view['scores'][0]}, Robots 1 et 3 {view['scores'][1]}"
        f" (objectif : plus de {view['target']})",
    ]
    if view["reader"] is not None:
        lines.append(f"Piocheur : {_name(view['reader'])}")
    scenario = view["scenario"]
    if scenario is not None:
        lines.append(f"Scénario ({scenario['theme_name']}) : {scenario['title']}")
        lines.append(f"  {scenario['injonction']}")
        if scenario["objection"]:
            lines.append(f"  Objection (pour vous seul) : {scenario['objection']}")
    if view["phase"] == "draw":
        for index, pile in enumerate(view["piles"]):
            side = "gauche" if index == 0 else "droite"
            lines.append(f"Pioche de {side} : {pile['count']} cartes, thème {pile['theme_name']}")
    bidding = view["bidding"]
    if bidding["history"]:
        said = []
        for entry in bidding["history"]:
            if entry["kind"] == "bid":
                amount = "capot" if entry["amount"] == data.CAPOT else entry["amount"]
                pair = " et ".join(colours[c] for c in entry["colours"])
                said.append(f"{_name(entry['seat'])} : {amount} ({pair})")
            else:
                said.append(
                    f"{_name(entry['seat'])} : {'passe' if entry['kind'] == 'pass' else 'coinche !'}"
                )
        lines.append("Enchères : " + " ; ".join(said))
    contract = view["contract"]
    if contract is not None:
        amount = "capot" if contract["capot"] else contract["amount"]
        pair = " et ".join(colours[c] for c in contract["colours"])
        coinche = ", coinché" if contract["coinched"] else ""
        lines.append(f"Contrat : {_name(contract['seat'])}, {amount}, atouts {pair}{coinche}")
        lines.append(
            f"Plis : {view['tricks_won'][0]} contre {view['tricks_won'][1]} ; "
            f"contestations restantes : {view['contests_left'][0]} / {view['contests_left'][1]}"
        )
    if view["last_trick"] is not None and view["phase"] == "play":
        last = view["last_trick"]
        lines.append(f"Pli précédent remporté par {_name(last['winner'])} : {last['why']}")
    if view["trick"] is not None:
        lines.append(f"Pli n° {view['trick']['number']} :")
        lines.extend(_play(p, colours) for p in view["trick"]["plays"])
    if view["hand"]:
        lines.append("Votre main :")
        lines.extend(f"  - {_card(c, colours)} : {c['definition']}" for c in view["hand"])
    recap = view["recap"]
    if recap is not None and view["phase"] in ("draw", "over"):
        lines.append(f"Bilan de la manche {recap['deal']} : {recap['summary']}")
        lines.append(f"  L'objection cachée était : {recap['scenario']['objection']}")
    return "\n".join(lines)
