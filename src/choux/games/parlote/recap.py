"""The recap of a finished deal: the teaching moment of the game.

`build_recap` returns the JSON the view shows under "recap" after each deal:

- "deal": number of the deal; "reader": seat of its reader
- "scenario": {"theme", "theme_name", "title", "orateur", "public", "enjeu",
  "injonction", "objection"} (the italic line is revealed now)
- "contract": {"seat", "team", "amount", "capot", "colours", "coinched", "coinched_by"}
- "tricks": [{"number", "leader", "winner", "why", "points", "plays": [{"seat", "card":
  {"colour", "colour_name", "depth", "name", "definition", "example", "points",
  "trump"}, "argument", "status", "status_label", "contester", "votes": [{"seat",
  "counts"}], "judge", "won"}]}]
- "points": card points per team; "tricks_won": tricks per team
- "made": whether the contract was made; "deal_scores": what each team scored
- "totals": the scores after the deal; "summary": one French sentence
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from choux.engine.base import JSON
from choux.games.parlote import data, rules
from choux.games.parlote.content import card_json, cards_index, content, scenarios_index
from choux.games.parlote.records import STATUS_LABELS

if TYPE_CHECKING:
    from choux.games.parlote.state import ParloteState


def build_recap(
    state: ParloteState, points: list[int], won: list[int], deal: list[int], made: bool
) -> dict[str, JSON]:
    assert state.contract is not None and state.scenario is not None
    stock = content()
    trumps = state.contract.colours
    scenario = scenarios_index()[state.scenario]
    tricks: list[JSON] = []
    for number, trick in enumerate(state.tricks, start=1):
        plays: list[JSON] = []
        for played in trick.plays:
            card = cards_index()[played.card]
            card_data = card_json(card)
            del card_data["code"]  # the same cards come back next deal: no secret tokens
            card_data["colour_name"] = stock.colour_by_id[card.colour].name
            card_data["points"] = rules.card_points(card, trumps)
            card_data["trump"] = card.colour in trumps
            plays.append(
                {
                    "seat": played.seat,
                    "card": card_data,
                    "argument": played.argument,
                    "status": played.status,
                    "status_label": STATUS_LABELS[played.status],
                    "contester": played.contester,
                    "votes": [{"seat": s, "counts": v} for s, v in played.votes],
                    "judge": played.judge,
                    "won": played.seat == trick.winner,
                }
            )
        tricks.append(
            {
                "number": number,
                "leader": trick.leader,
                "winner": trick.winner,
                "why": trick.why,
                "points": trick.points,
                "plays": plays,
            }
        )
    contract = state.contract
    amount = "un capot" if contract.amount == data.CAPOT else f"{contract.amount}"
    bidders = contract.team
    if made:
        summary = (
            f"L'équipe qui avait annoncé {amount} réussit son contrat avec {points[bidders]} "
            f"points et {_tricks(won[bidders])}."
        )
    else:
        summary = (
            f"L'équipe qui avait annoncé {amount} chute avec {points[bidders]} points et "
            f"{_tricks(won[bidders])} : la défense marque {data.FAILED_BONUS} + {contract.amount}."
        )
    if contract.coinched:
        summary += " La manche était coinchée : les scores sont doublés."
    theme = stock.theme_by_id[scenario.theme]
    return {
        "deal": state.deals_played + 1,
        "reader": state.reader,
        "scenario": {
            "theme": scenario.theme,
            "theme_name": theme.name,
            "title": scenario.title,
            "orateur": scenario.orateur,
            "public": scenario.public,
            "enjeu": scenario.enjeu,
            "injonction": scenario.injonction,
            "objection": scenario.objection,
        },
        "contract": contract.to_json(),
        "tricks": tricks,
        "points": list(points),
        "tricks_won": list(won),
        "made": made,
        "deal_scores": list(deal),
        "totals": list(state.scores),
        "summary": summary,
    }


def _tricks(count: int) -> str:
    """« 1 pli », « 5 plis » (« pli(s) » reads like a form)."""
    return f"{count} pli{'s' if count > 1 else ''}"
