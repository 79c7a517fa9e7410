"""The Chouine game object: options, presets, bots and the terminal rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from choux.engine.base import (
    BOT_LABELS,
    JSON,
    ActionCodec,
    BotFactory,
    Game,
    InvalidOptions,
    Option,
    State,
)
from choux.games.chouine.actions import CODEC
from choux.games.chouine.cards import CODE_INDEX, SHORT
from choux.games.chouine.state import ChouineState
from choux.games.chouine.variants import CLASSIQUE, LAVARDIN, PRESETS, Variant, variant_for


class ChouineGame(Game):
    name: ClassVar[str] = "chouine"
    title: ClassVar[str] = "La Chouine"
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    bot_labels: ClassVar[Mapping[str, str]] = {**BOT_LABELS, "maitre": "maître"}
    unit_name: ClassVar[str] = "donnes"
    codec: ClassVar[ActionCodec] = CODEC
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "preset",
            "Règles",
            CLASSIQUE,
            ((CLASSIQUE, PRESETS[CLASSIQUE]), (LAVARDIN, PRESETS[LAVARDIN])),
        ),
        Option(
            "manches",
            "Longueur du match",
            0,
            (
                (
                    0,
                    "Selon les règles (classiques : une manche ; Lavardin : deux manches gagnantes)",
                ),
                (1, "Une manche"),
                (3, "Deux manches gagnantes (la belle si besoin)"),
            ),
        ),
        Option(
            "parties",
            "Parties par manche",
            3,
            (
                (3, "3 parties (deux gagnantes à deux joueurs)"),
                (5, "5 parties (trois gagnantes à deux joueurs)"),
            ),
        ),
        Option("scores_visibles", "Scores visibles", False, kind="bool"),
    )

    def create(self, players: int, seed: int, options: dict[str, JSON]) -> State:
        return ChouineState(variant_for(str(options["preset"]), players), options, seed)

    def check_options(self, players: int, options: dict[str, JSON]) -> None:
        check_match_length(variant_for(str(options["preset"]), players), options)

    def bots(self) -> dict[str, BotFactory]:
        from choux.ai.random import RandomBot
        from choux.games.chouine.bots import GreedyBot, expert_bot, maitre_bot

        return {
            "random": RandomBot,
            "greedy": GreedyBot,
            "expert": expert_bot,
            "maitre": maitre_bot,
        }

    def configurations(self) -> list[tuple[int, dict[str, JSON]]]:
        return [
            (2, {}),
            (3, {}),
            (4, {}),
            (2, {"preset": LAVARDIN}),  # two winning manches: the rules allow no shorter match
            (3, {"preset": LAVARDIN, "scores_visibles": True}),
        ]

    def count_units(self, state: State) -> int:
        return state.deals if isinstance(state, ChouineState) else 1

    def summary_stats(self, state: State) -> dict[str, float]:
        if not isinstance(state, ChouineState):
            return {}
        return {"donnes par match": float(state.deals)}

    def render_text(self, view: dict[str, JSON]) -> str:
        return render_text(view)


def check_match_length(variant: Variant, options: dict[str, JSON]) -> None:
    """Only the match lengths of the rules exist; anything else is refused in French."""
    parties, manches = options.get("parties", 3), options.get("manches", 0)
    if parties not in variant.parties_choices:
        if variant.players > 2:
            raise InvalidOptions("À plusieurs, une manche se joue en 3 ou 5 parties.")
        if variant.preset == LAVARDIN:
            raise InvalidOptions("Aux règles de Lavardin, une manche se joue en 3 ou 5 parties.")
        raise InvalidOptions(
            "Aux règles classiques, la manche se gagne en deux parties (la belle si besoin) : "
            "choisissez 3 parties."
        )
    if manches != 0 and manches not in variant.manches_choices:
        if variant.players > 2:
            raise InvalidOptions("À trois ou quatre joueurs, on joue une seule manche.")
        if variant.preset == LAVARDIN:
            raise InvalidOptions(
                "Aux règles de Lavardin, le match se joue en deux manches gagnantes."
            )
        raise InvalidOptions("Aux règles classiques, le match se joue en une manche ou en trois.")


def _cards(codes: Any) -> str:
    return " ".join(SHORT[CODE_INDEX[c]] for c in codes) or "—"


def render_text(view: dict[str, JSON]) -> str:
    """The seat's view in French, for `choux play chouine` in a terminal."""
    seat = view["seat"]
    n = int(view["players"])

    def who(s: Any) -> str:
        if s == seat:
            return "vous"
        # seats numbered from 0, like the robots of `choux play` ("Robot 1" sits at seat 1)
        return "l'adversaire" if n == 2 and seat is not None else f"joueur {int(s)}"

    lines = [
        f"{view['preset_title']} — donne {view['deal_number']}, manche {view['manche_number']}"
        + (" (la belle)" if view["belle"] else ""),
        f"Atout : {view['trump_symbol']} {view['trump_name']}"
        + (f" — retourne : {_cards([view['turned_up']])}" if view["turned_up"] else "")
        + f" — talon : {view['talon']} carte(s) — phase {view['phase']}",
    ]
    wins = view["partie_wins"]
    lines.append(
        "Parties gagnées : "
        + ", ".join(f"{who(s)} {wins[s]}" for s in range(n))
        + (
            " ; manches : " + ", ".join(f"{who(s)} {view['manche_wins'][s]}" for s in range(n))
            if int(view["manches_to_win"]) > 1
            else ""
        )
    )
    points = view["points"]
    lines.append(
        "Points de la partie : "
        + ", ".join(
            f"{who(s)} {points[s] if points[s] is not None else '?'}"
            f" (annonces {view['declared_points'][s]})"
            for s in range(n)
        )
    )
    for d in view["declarations"]:
        lines.append(
            f"  Annonce de {who(d['seat'])} : {d['name']} {_cards(d['cards'])} ({d['points']})"
        )
    for s in range(n):
        if s != seat and view["shown"][s]:
            lines.append(f"  Cartes connues de {who(s)} : {_cards(view['shown'][s])}")
    last = view["last_trick"]
    if last:
        played = ", ".join(f"{who(x['seat'])} {_cards([x['card']])}" for x in last["cards"])
        lines.append(f"Dernier pli : {played} — gagné par {who(last['winner'])}")
    result = view["last_result"]
    fresh = view["stage"] == "play" and not last and not view["trick"]
    if result and (view["stage"] != "play" or fresh):
        text = str(result["text"])
        for s in range(n):
            text = text.replace(f"{{p{s}}}", who(s))
        title = "Partie précédente" if fresh else "Fin de la partie"
        if result.get("reason") == "chouine":
            lines.append(f"{title} : {text}")  # the Chouine decides, not the points
        else:
            totals = ", ".join(f"{who(s)} {result['totals'][s]}" for s in range(n))
            lines.append(f"{title} : {totals}. {text}")
    if view["stage"] == "play":
        trick = ", ".join(f"{who(x['seat'])} {_cards([x['card']])}" for x in view["trick"])
        if not trick:
            trick = "à vous d'entamer" if view["turn"] == seat else "—"
        lines.append(f"Pli en cours : {trick}")
        if seat is not None:
            lines.append(f"Votre main : {_cards(view['hand'])}")
        if view["au_sept"]:
            lines.append("« Au sept ! » : dernier appel pour échanger le sept d'atout.")
    return "\n".join(lines)


GAME = ChouineGame()

__all__ = ["GAME", "ChouineGame", "render_text"]
