"""The Chouineurs `Game`: metadata, bots and the terminal rendering of a view."""

from __future__ import annotations

from typing import Any, ClassVar

from choux.ai.random import RandomBot
from choux.engine.base import JSON, ActionCodec, BotFactory, Game, State
from choux.games.chouineurs.actions import CODEC
from choux.games.chouineurs.deck import MAX_PLAYERS, MIN_PLAYERS
from choux.games.chouineurs.state import ChouineursState


class Chouineurs(Game):
    """Chouineurs (Cry Baby): 3 to 5 players, 4 rounds of 7 tricks."""

    name: ClassVar[str] = "chouineurs"
    title: ClassVar[str] = "Chouineurs"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS
    codec: ClassVar[ActionCodec] = CODEC
    unit_name: ClassVar[str] = "manches"

    def create(self, players: int, seed: int, options: dict[str, JSON]) -> State:
        return ChouineursState(players, seed)

    def bots(self) -> dict[str, BotFactory]:
        from choux.games.chouineurs.bots import GreedyBot, expert_bot

        return {"random": RandomBot, "greedy": GreedyBot, "expert": expert_bot}

    def count_units(self, state: State) -> int:
        assert isinstance(state, ChouineursState)
        return len(state.sheet)

    def summary_stats(self, state: State) -> dict[str, float]:
        assert isinstance(state, ChouineursState)
        rows = [row for rows in state.sheet for row in rows]
        if not rows:
            return {}
        return {
            "paris réussis (%)": 100.0 * sum(1 for r in rows if r[2] > 0) / len(rows),
            "points de chouineur par manche": sum(r[3] for r in rows) / len(rows),
        }

    def render_text(self, view: dict[str, JSON]) -> str:
        from choux.games.chouineurs.text import render

        data: dict[str, Any] = view
        return render(data)
