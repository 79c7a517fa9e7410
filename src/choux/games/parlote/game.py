"""The registered game: options, bots, statistics and the terminal rendering."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from choux.engine.base import (
    JSON,
    Action,
    BotFactory,
    Game,
    InvalidOptions,
    Option,
    SeatRole,
    State,
)
from choux.games.parlote import data
from choux.games.parlote.actions import CODEC, Play
from choux.games.parlote.bots import GreedyBot, RandomParloteBot
from choux.games.parlote.state import ParloteState


class ParloteGame(Game):
    """La parlote coinchée: two teams of two argue with fallacy cards over a scenario.

    Arbitre mode (the rules file allows « a referee seat, or the reader »): with four
    players, the reader of each deal judges every argument but their own, which go to a
    secret majority vote of the three others; with five, seat 4 is a referee who holds no
    cards and judges every argument. Five seats are refused in the other modes."""

    name = "parlote"
    title = "La parlote coinchée"
    #: "2" since 2026-12-03: the play clock plays a card drawn at random (the first of the
    #: hand before), which also moves every later draw of the game's generator
    rules_version = "2"
    #: public, and 30 KB together at the end of a deal, while a move changes a few hundred bytes
    rare_view_keys = ("recap", "results", "colours", "memo")
    min_players = 4
    max_players = 5
    options = (
        Option(
            "mode",
            "Arguments",
            "jury",
            choices=(
                ("jury", "Jury : les adversaires contestent, on vote"),
                ("honneur", "Honneur : tout argument compte"),
                ("arbitre", "Arbitre : le piocheur ou un cinquième joueur tranche"),
            ),
        ),
        Option(
            "play_seconds",
            "Temps pour jouer une carte (secondes)",
            data.PLAY_SECONDS,
            kind="int",
            minimum=15,
            maximum=600,
        ),
        Option("target", "Score à dépasser", data.TARGET, kind="int", minimum=100, maximum=5000),
        Option(
            "argument_required", "Argument obligatoire pour jouer une carte", False, kind="bool"
        ),
    )
    codec = CODEC
    unit_name = "donnes"
    #: for the table creation form: the fifth seat is the arbiter and needs the Arbitre mode
    seat_roles: ClassVar[Mapping[int, SeatRole]] = {
        data.PLAYERS: SeatRole("Arbitre", "mode", "arbitre")
    }

    def client_constants(self) -> dict[str, JSON]:
        """The longest argument the rules accept (the text box counts down to it)."""
        return {"max_argument": data.MAX_ARGUMENT}

    def create(self, players: int, seed: int, options: dict[str, JSON]) -> State:
        return ParloteState(
            seed,
            mode=str(options["mode"]),
            play_seconds=int(options["play_seconds"]),
            target=int(options["target"]),
            argument_required=bool(options["argument_required"]),
            players=players,
        )

    def check_options(self, players: int, options: dict[str, JSON]) -> None:
        if players > data.PLAYERS and options["mode"] != "arbitre":
            raise InvalidOptions(
                "La parlote coinchée se joue à quatre ; un cinquième siège n'existe qu'en "
                "mode Arbitre, pour l'arbitre qui juge les arguments."
            )

    def competitors(self, players: int, options: Mapping[str, JSON]) -> tuple[int, ...]:
        """The four players: a fifth seat is the referee, who neither wins nor loses."""
        return tuple(range(min(players, data.PLAYERS)))

    def bots(self) -> dict[str, BotFactory]:
        return {"random": RandomParloteBot, "greedy": GreedyBot}

    def count_units(self, state: State) -> int:
        assert isinstance(state, ParloteState)
        return state.deals_played

    def summary_stats(self, state: State) -> dict[str, float]:
        assert isinstance(state, ParloteState)
        results = state.results
        deals = len(results) or 1
        return {
            "donnes par partie": float(len(results)),
            "donnes coinchées (%)": 100.0 * sum(1 for r in results if _coinched(r)) / deals,
            "contrats réussis (%)": 100.0 * sum(1 for r in results if r["made"]) / deals,
        }

    def text_field(self, action: Action) -> str | None:
        return "argument" if isinstance(action, Play) else None

    def configurations(self) -> list[tuple[int, dict[str, JSON]]]:
        return [
            (4, {}),
            (4, {"mode": "honneur"}),
            (4, {"mode": "arbitre"}),
            # placeholder arguments: the generic random playouts open contests and votes
            (4, {"argument_required": True}),
            (4, {"mode": "arbitre", "argument_required": True}),
            # a fifth seat referees; required arguments so that it really judges
            (5, {"mode": "arbitre"}),
            (5, {"mode": "arbitre", "argument_required": True}),
        ]

    def render_text(self, view: dict[str, JSON]) -> str:
        from choux.games.parlote.text import render

        return render(view)


def _coinched(result: dict[str, Any]) -> bool:
    contract = result.get("contract")
    return isinstance(contract, dict) and bool(contract.get("coinched"))
