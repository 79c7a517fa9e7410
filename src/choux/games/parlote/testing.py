"""Set-up helpers for tests and experiments: a deal with chosen hands, a chosen contract.

pokerkit-style automation: the tests skip the « moi ! » buttons and the draw and inject
exact hands, so that each rule can be checked on a precise position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from choux.engine.base import JSON
from choux.games.parlote import data
from choux.games.parlote.actions import Play
from choux.games.parlote.content import content
from choux.games.parlote.records import Contract
from choux.games.parlote.state import BIDDING, DRAW, PLAY, ParloteState, _sort_key


def code(colour: str, depth: int, index: int = 0) -> str:
    """The code of a card: `code("obstruction", 3, 1)` is the second depth-3 obstruction."""
    return content().cards_of(colour, depth)[index].id


def standard_hands() -> list[list[str]]:
    """28 cards (the first card of each colour and depth), seat s holding the seven
    colours at depth s + 1: a fixed, readable position."""
    colours = content().colour_ids()
    cards = [code(c, d) for c in colours for d in (1, 2, 3, 4)]
    return [sorted(cards[s::4], key=_sort_key) for s in range(4)]


#: the trumps of `contract_for` unless told otherwise
TRUMPS: tuple[str, str] = ("insuffisance", "influence")


def contract_for(
    seat: int = 1, amount: int = 80, trumps: tuple[str, str] = TRUMPS, coinched: bool = False
) -> Contract:
    """A contract won by `seat` (for `arrange`)."""
    return Contract(seat, amount, trumps, coinched, None)


def arrange(
    players: int,
    *,
    seed: int = 0,
    options: Mapping[str, JSON] | None = None,
    reader: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    scenario_pile: int = 0,
    contract: Contract | None = None,
) -> ParloteState:
    """A deal with `reader` as reader (the « moi ! » buttons and the draw skipped, the
    scenario taken from `scenario_pile`), the four hands given or dealt from `seed`: at the
    start of the bidding, or with a `contract` (see `contract_for`) at the first card of
    the first trick. `options` are the table's (mode, target...)."""
    from choux.games.parlote import GAME

    state = GAME.new(players, seed, options)
    assert isinstance(state, ParloteState)
    state.claims = []
    state.reader = reader
    state.phase = DRAW
    state._start_deal(scenario_pile)
    if hands is not None:
        chosen = [list(h) for h in hands]
        assert all(len(h) == data.HAND_SIZE for h in chosen)
        state.hands = [sorted(h, key=_sort_key) for h in chosen]
        state.selection = tuple(c for h in chosen for c in h)
    assert state.phase == BIDDING
    if contract is not None:
        state.contract = contract
        state.phase = PLAY
        state.turn = state.leader = (reader + 1) % 4
    return state


def argument_under_vote(argument: str) -> ParloteState:
    """Arbitre mode, first trick: the three others have played, the reader (seat 1) has
    played with `argument`, which now goes to the others' secret vote."""
    state = arrange(
        4,
        seed=1,
        options={"mode": "arbitre"},
        reader=1,
        hands=standard_hands(),
        contract=contract_for(),
    )
    for seat in (2, 3, 0):
        state.apply(seat, Play(state.hands[seat][0], ""))
    state.apply(1, Play(state.hands[1][0], argument))
    return state
