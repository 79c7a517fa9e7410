"""Exact tables for tests and examples: hands written as ends ("noir5", "bleu15/rouge1").

>>> state = arrange(3, hands=[["noir5"], ["jaune9"], ["bleu15"]], reserve=2)
>>> [card["top"] for card in state.view(0)["hand"]]
[{'colour': 'noir', 'value': 5}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from choux.engine.base import JSON, Event
from choux.games.chouineurs.actions import AS_DEALT, Play, Prepare
from choux.games.chouineurs.deck import BLACK, CARDS, COLOUR_NAMES, YELLOW
from choux.games.chouineurs.state import ChouineursState

_COLOURS = {name: i for i, name in enumerate(COLOUR_NAMES)}


def _end(spec: str) -> tuple[int, int]:
    letters = spec.rstrip("0123456789")
    return _COLOURS[letters], int(spec[len(letters) :])


def faces(specs: Sequence[str], used: set[int] | None = None) -> list[int]:
    """Faces for specs "colourN" (top end) or "colourN/colourM" (top and bottom), each from
    a distinct card not in `used` (updated). Blue and red ends come from queen/king cards
    first."""
    taken = used if used is not None else set()
    found = []
    for spec in specs:
        top_spec, _, bottom_spec = spec.partition("/")
        top = _end(top_spec)
        bottom = _end(bottom_spec) if bottom_spec else None
        # plain colours come first from queen/king cards, keeping trumps' backs free
        order = range(len(CARDS)) if top[0] in (BLACK, YELLOW) else reversed(range(len(CARDS)))
        for card in order:
            ends = CARDS[card]
            if card in taken:
                continue
            for side in (0, 1):
                if ends[side] == top and (bottom is None or ends[side ^ 1] == bottom):
                    break
            else:
                continue
            taken.add(card)
            found.append(card * 2 + side)
            break
        else:
            raise ValueError(f"no free card shows {spec}")
    return found


def code(face: int) -> str:
    """The card code ("c17") of a face."""
    return f"c{face >> 1}"


def arrange(
    players: int,
    *,
    seed: int = 0,
    options: Mapping[str, JSON] | None = None,
    hands: Sequence[Sequence[str]],
    leader: int = 0,
    reserve: int | None = None,
    bets_left: list[int] | None = None,
    scores: list[int] | None = None,
    tricks_won: list[int] | None = None,
) -> ChouineursState:
    """A state at the start of a round's choice with exactly these hands, one per seat (top
    ends as given; short hands: a round under way). The reserve gets `reserve` unused cards
    (all the others when None)."""
    from choux.games.chouineurs import GAME

    assert len(hands) == players, "one hand per seat"
    state = GAME.new(players, seed, options)
    assert isinstance(state, ChouineursState)
    used: set[int] = set()
    dealt = [faces(hand, used) for hand in hands]
    rest = [c for c in range(len(CARDS)) if c not in used]
    if reserve is not None:
        rest = rest[:reserve]
    state.set_round(dealt, rest, leader, bets_left, scores, tricks_won)
    return state


def prepare_all(
    state: ChouineursState, bets: Sequence[str | None], orientation: str = AS_DEALT
) -> list[Event]:
    """Every seat makes its hidden choice (same orientation for all)."""
    events: list[Event] = []
    for seat, bet in enumerate(bets):
        events += state.apply(seat, Prepare(orientation, bet))
    return events


def crybaby_who_can_save_its_bet() -> ChouineursState:
    """Three players, the last trick but one played: seat 1 bet orange (no trick), cries,
    and holds a black 5 it cannot lose unless it turns it to its blue 1 end (the bots'
    and the solver's tests share this position)."""
    state = arrange(
        3, hands=[["bleu9", "bleu8"], ["bleu1", "noir5/bleu1"], ["bleu6", "bleu5"]], reserve=5
    )
    prepare_all(state, ["vert", "orange", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(code(state.hands[seat][0])))
    assert state.actors() == (1,)
    return state
