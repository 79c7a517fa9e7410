"""TypedDicts of `ChouineursState.board_view` for mypy; keys documented in state.py."""

from __future__ import annotations

from typing import TypedDict

from choux.engine.base import JSON, Seat


class End(TypedDict):
    """One end of a card: its colour and value."""

    colour: str
    value: int


class HandCard(TypedDict):
    """A card in hand: its code, the end in play (top) and the other end (bottom)."""

    card: str
    top: End
    bottom: End


class MyChoice(TypedDict):
    orientation: str
    bet: str | None
    code: str


class TrickCard(TypedDict):
    seat: Seat
    card: str
    end: End


class LastTrickCard(TypedDict):
    seat: Seat
    end: End


class LastTrick(TypedDict):
    cards: list[LastTrickCard]
    winner: Seat
    crybabies: list[Seat]


class Crybaby(TypedDict):
    seat: Seat
    waiting: list[Seat]


class SheetRow(TypedDict):
    bet: str | None
    tricks: int
    bet_points: int
    hit: bool
    tokens: int
    total: int


class SheetRound(TypedDict):
    round: int
    rows: list[SheetRow]


class ChouineursBoard(TypedDict):
    players: int
    phase: str
    round: int
    rounds: int
    trick_number: int
    hand: list[HandCard]
    hand_counts: list[int]
    reserve: int
    bets_left: list[list[str]]
    bet_cards: list[JSON]
    ready: list[bool]
    my_choice: MyChoice | None
    revealed: bool
    bets: list[str | None]
    orientations: list[str | None]
    tokens: list[int]
    tricks_won: list[int]
    leader: Seat
    round_leader: Seat
    turn: Seat | None
    trick: list[TrickCard]
    led_colour: str | None
    last_trick: LastTrick | None
    crybaby: Crybaby | None
    scores: list[int]
    sheet: list[SheetRound]
    outcome: dict[str, JSON] | None
