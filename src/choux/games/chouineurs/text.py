"""Plain-text rendering of a Chouineurs view, for `choux play chouineurs` in a terminal."""

from __future__ import annotations

from typing import Any

from choux.engine.french import counted

PHASES = {
    "choix": "choix secret de l'orientation et du pari",
    "jeu": "plis",
    "chouine": "les chouineurs choisissent leur bonus",
    "fin": "partie terminée",
}


def _end(end: dict[str, Any]) -> str:
    return f"{end['value']} {end['colour']}"


def _title(bet: str | None) -> str:
    """A bet card's name as the table writes it: « Vert »; « aucun » without a bet."""
    return bet.capitalize() if bet else "aucun"


def _seat(view: dict[str, Any], seat: int | None) -> str:
    if seat is None:
        return "?"
    return "Vous" if seat == view.get("seat") else f"Joueur {seat}"


def render(view: dict[str, Any]) -> str:
    """Scores, bets, the trick on the table and your hand with both ends of each card."""
    lines = [
        f"Chouineurs — manche {view['round']}/{view['rounds']}, pli {view['trick_number']}/7 "
        f"— {PHASES.get(view['phase'], view['phase'])}"
    ]
    lines.append(f"Réserve : {counted(view['reserve'], 'carte')}")
    for seat in range(view["players"]):
        bet = view["bets"][seat]
        orientation = view["orientations"][seat]
        if view["revealed"]:
            told = f"pari {_title(bet)} ({orientation})"
        else:
            told = "a choisi" if view["ready"][seat] else "réfléchit"
        tricks = view["tricks_won"][seat]
        lines.append(
            f"  {_seat(view, seat):9} {view['scores'][seat]:3} pts · {tricks} pli"
            f"{'s' if tricks > 1 else ''} · {counted(view['tokens'][seat], 'point')} de chouineur · "
            f"{counted(view['hand_counts'][seat], 'carte')} · {told}"
        )
        left = ", ".join(_title(b) for b in view["bets_left"][seat]) or "aucun"
        lines.append(f"{'':16}paris restants : {left}")
    choice = view.get("my_choice")
    if choice:
        lines.append(
            f"Votre choix secret : main {choice['orientation']}, pari {_title(choice['bet'])}"
        )
    last = view.get("last_trick")
    if last:
        cards = ", ".join(f"{_seat(view, c['seat'])} {_end(c['end'])}" for c in last["cards"])
        cry = ", ".join(_seat(view, s) for s in last["crybabies"])
        lines.append(f"Dernier pli : {cards}")
        lines.append(f"  → gagné par {_seat(view, last['winner'])} ; chouineur : {cry}")
    if view["trick"]:
        cards = ", ".join(f"{_seat(view, c['seat'])} {_end(c['end'])}" for c in view["trick"])
        lines.append(f"Pli en cours (couleur demandée : {view['led_colour']}) : {cards}")
    if view["hand"]:
        lines.append("Votre main (en jeu / dos) :")
        for card in view["hand"]:
            lines.append(f"  {card['card']:4} [{_end(card['top']):>9}]  / {_end(card['bottom'])}")
    for entry in view["sheet"]:
        rows = " ; ".join(f"{_seat(view, s)} {row['total']}" for s, row in enumerate(entry["rows"]))
        lines.append(f"Manche {entry['round']} : {rows}")
    if view.get("outcome"):
        lines.append(view["outcome"]["reason"])
    return "\n".join(lines)
