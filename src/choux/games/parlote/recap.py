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

from collections.abc import Sequence

from choux.engine.base import JSON
from choux.engine.french import counted
from choux.games.parlote import data, rules
from choux.games.parlote.content import (
    card_json,
    cards_index,
    content,
    scenario_json,
    scenarios_index,
)
from choux.games.parlote.records import STATUS_LABELS, Contract, Trick


def build_recap(
    *,
    deal_number: int,
    reader: int | None,
    scenario_id: str,
    contract: Contract,
    deal_tricks: Sequence[Trick],
    points: list[int],
    won: list[int],
    deal: list[int],
    totals: list[int],
    made: bool,
) -> dict[str, JSON]:
    """The recap of the deal that just ended (`points`, `won`: per team; `deal`: what each
    team scored; `totals`: the scores after it)."""
    stock = content()
    trumps = contract.colours
    tricks: list[JSON] = []
    for number, trick in enumerate(deal_tricks, start=1):
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
    amount = "un capot" if contract.amount == data.CAPOT else f"{contract.amount}"
    bidders = contract.team
    defenders = 1 - bidders
    taken = f"{counted(points[bidders], 'point')} et {counted(won[bidders], 'pli')}"
    if made:
        summary = (
            f"L'équipe qui avait annoncé {amount} réussit son contrat avec {taken} : elle "
            f"marque {contract.amount} + {points[bidders]}, la défense ses "
            f"{counted(points[defenders], 'point')}."
        )
    else:
        summary = (
            f"L'équipe qui avait annoncé {amount} chute avec {taken} : la défense marque "
            f"{data.FAILED_BONUS} + {contract.amount}."
        )
    if contract.coinched:
        summary += " La manche était coinchée : les scores sont doublés."
    return {
        "deal": deal_number,
        "reader": reader,
        "scenario": scenario_json(scenarios_index()[scenario_id], objection=True),
        "contract": contract.to_json(),
        "tricks": tricks,
        "points": list(points),
        "tricks_won": list(won),
        "made": made,
        "deal_scores": list(deal),
        "totals": list(totals),
        "summary": summary,
    }
