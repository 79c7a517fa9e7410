"""Every view is the shared envelope (game, seat, actors, legal) around the game's board."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from choux import games
from choux.engine.base import (
    ENVELOPE_KEYS,
    JSON,
    Action,
    Event,
    Outcome,
    Seat,
    State,
)
from choux.engine.playout import random_rollout


@dataclass(frozen=True, slots=True)
class Knock(Action):
    kind = "knock"

    def label(self) -> str:
        return "Frapper"


class KnockState(State):
    """Two seats take turns knocking; the board shows the count and the knocker's secret."""

    game_name = "knock"

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.chance: list[JSON] = []
        self.knocks = 0

    def seat_count(self) -> int:
        return 2

    def actors(self) -> tuple[Seat, ...]:
        return (self.knocks % 2,)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [Knock()] if seat in self.actors() else []

    def apply(self, seat: Seat | None, action: Action) -> list[Event]:
        self.require_legal(seat, action)
        self.knocks += 1
        return []

    def board_view(self, seat: Seat | None) -> Mapping[str, JSON]:
        return {"knocks": self.knocks, "secret": "mine" if seat is not None else None}

    def is_over(self) -> bool:
        return False

    def outcome(self) -> Outcome | None:
        return None

    def snapshot(self) -> dict[str, JSON]:
        return {"knocks": self.knocks}


def test_view_is_the_envelope_around_the_board() -> None:
    view = KnockState().view(0)
    assert view == {
        "game": "knock",
        "seat": 0,
        "actors": [0],
        "legal": [{"action": {"type": "knock"}, "label": "Frapper"}],
        "knocks": 0,
        "secret": "mine",
    }
    assert KnockState().view(1)["legal"] == []


@pytest.mark.parametrize("seat", [None, -1, 2, 99])
def test_a_seat_not_at_the_table_gets_the_spectator_view(seat: Seat | None) -> None:
    view = KnockState().view(seat)
    assert view["seat"] is None and view["legal"] == [] and view["secret"] is None


def test_a_game_that_overrides_view_whole_keeps_its_view() -> None:
    class OldStyle(KnockState):
        def view(self, seat: Seat | None) -> dict[str, JSON]:
            return {"game": "knock", "seat": seat, "old": True}

    assert OldStyle().view(1) == {"game": "knock", "seat": 1, "old": True}


@pytest.mark.parametrize("name", games.names())
def test_board_views_never_hold_the_envelope_keys(name: str) -> None:
    game = games.get(name)
    for players, options in game.configurations()[:3]:
        state = game.new(players, 7, options)
        if type(state).board_view is State.board_view:
            pytest.skip(f"{name} still builds its whole view")
        for step in range(30):
            for seat in (None, *range(players)):
                assert not ENVELOPE_KEYS & set(state.board_view(seat)), (name, step, seat)
            if state.is_over():
                break
            random_rollout(state, random.Random(step), max_steps=3)
