"""Set-up helpers for tests and experiments: a deal with chosen hands, a chosen contract.

pokerkit-style automation: the tests skip the « moi ! » buttons and the draw and inject
exact hands, so that each rule can be checked on a precise position.
"""

from __future__ import annotations

from collections.abc import Sequence

from choux.games.parlote import data
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


def new_deal(
    mode: str = "jury",
    reader: int = 0,
    hands: Sequence[Sequence[str]] | None = None,
    seed: int = 1,
    target: int = data.TARGET,
    scenario_pile: int = 0,
    players: int = data.PLAYERS,
) -> ParloteState:
    """A state at the start of the bidding of a deal, with `reader` as reader."""
    state = ParloteState(seed, mode=mode, target=target, players=players)
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
    return state


def new_play(
    contract_seat: int = 1,
    amount: int = 80,
    colours: tuple[str, str] = ("insuffisance", "influence"),
    coinched: bool = False,
    **deal: object,
) -> ParloteState:
    """A state at the first card of the first trick, with the given contract."""
    state = new_deal(**deal)  # type: ignore[arg-type]
    state.contract = Contract(contract_seat, amount, colours, coinched, None)
    state.phase = PLAY
    assert state.reader is not None
    state.turn = state.leader = (state.reader + 1) % 4
    return state
