"""TypedDicts of `ChouineState.board_view` for mypy; the keys are documented in state.py."""

from __future__ import annotations

from typing import TypedDict

from choux.engine.base import JSON, Seat


class PlayedCard(TypedDict):
    """A card on the table (current or last trick) and who played it."""

    seat: Seat
    card: str


class LastTrick(TypedDict):
    cards: list[PlayedCard]
    winner: Seat


class DeclarationView(TypedDict):
    seat: Seat
    kind: str
    name: str
    suit: str | None
    cards: list[str]
    points: int


class DrawnCard(TypedDict):
    """One card of the draw for the first dealer, by its French name."""

    seat: Seat
    card_name: str


class ChouineBoard(TypedDict):
    preset: str
    preset_title: str
    players: int
    stage: str
    phase: int
    dealer: Seat
    leader: Seat
    turn: Seat | None
    trump: str
    trump_name: str
    trump_symbol: str
    turned_up: str | None
    talon: int
    hand: list[str]
    hand_sizes: list[int]
    shown: list[list[str]]
    trick: list[PlayedCard]
    last_trick: LastTrick | None
    won_cards: list[str]
    tricks_won: list[int]
    declarations: list[DeclarationView]
    declared_points: list[int]
    card_points: list[int | None]
    points: list[int | None]
    au_sept: bool
    partie_wins: list[int]
    total_partie_wins: list[int]
    manche_wins: list[int]
    deal_number: int
    manche_number: int
    parties_per_manche: int
    manches_to_win: int
    partie_number: int
    belle: bool
    belle_manche: bool
    scores_visibles: bool
    last_result: dict[str, JSON] | None
    dealer_draw: list[list[DrawnCard]]
    outcome: dict[str, JSON] | None
