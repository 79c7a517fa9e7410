"""The shape of a Parlote view, checked by mypy (the keys are documented in state.py).

`ParloteBoard` is what `ParloteState.board_view` returns; `State.view` adds the envelope
(game, seat, actors, legal) that every game shares.
"""

from __future__ import annotations

from typing import TypedDict

from choux.engine.base import JSON, Seat


class DeadlineView(TypedDict):
    """The open clock: seconds left, and the phase or window it closes."""

    seconds: float
    kind: str


class Bidding(TypedDict):
    history: list[dict[str, JSON]]
    turn: Seat | None
    high: dict[str, JSON] | None
    amounts: list[int]
    redeals: int


class TrickView(TypedDict):
    number: int
    leader: Seat
    plays: list[dict[str, JSON]]


class WindowView(TypedDict):
    kind: str
    author: Seat
    play: dict[str, JSON]
    eligible: list[Seat]
    declined: list[Seat]


class ColourView(TypedDict):
    id: str
    name: str
    hue: str
    summary: str


class ParloteBoard(TypedDict):
    phase: str
    phase_label: str
    mode: str
    target: int
    argument_required: bool
    teams: list[list[Seat]]
    team: int | None
    players: int
    arbiter: Seat | None
    scores: list[int]
    reader: Seat | None
    deadline: DeadlineView | None
    claims: list[Seat]
    piles: list[JSON]
    scenario: dict[str, JSON] | None
    hand: list[dict[str, JSON]]
    hand_sizes: list[int]
    bidding: Bidding
    contract: dict[str, JSON] | None
    trick: TrickView | None
    last_trick: dict[str, JSON] | None
    tricks_won: list[int]
    deal_points: list[int]
    contests_left: list[int]
    window: WindowView | None
    deal_number: int
    recap: dict[str, JSON] | None
    results: JSON
    winner: int | None
    colours: list[ColourView]
    memo: JSON
