"""Build exact Chouine positions for tests and tools ("automation" in pokerkit's sense).

>>> state = arrange(2, hands=["AH KH", "7S 8S"], trump="D", talon="")
>>> state.view(0)["hand"], state.phase()
(['KH', 'AH'], 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from choux.engine.base import JSON
from choux.games.chouine.cards import DECK, POINTS, SUIT_LETTERS, parse, parse_all
from choux.games.chouine.rules import hand_mask
from choux.games.chouine.state import PLAY, ChouineState


def arrange(
    players: int,
    *,
    seed: int = 0,
    options: Mapping[str, JSON] | None = None,
    hands: Sequence[str],
    turned_up: str | None = None,
    talon: str | None = None,
    trump: str | None = None,
    leader: int = 0,
    dealer: int | None = None,
    won: Sequence[str] | None = None,
) -> ChouineState:
    """A partie in play with these hands (codes separated by spaces, one per seat),
    turned-up card and talon (next card to draw first; the turned-up card comes after it).
    Without a turned-up card (it was drawn already), give the `trump` suit letter instead.
    With `talon` None every card left goes to the talon (in deck order); otherwise the cards
    left are in the won piles: `won` per seat if given, else all in the last seat's pile.
    `options` are the table's (the preset among them)."""
    from choux.games.chouine import GAME

    assert len(hands) == players, "one hand per seat"
    state = GAME.new(players, seed, options)
    assert isinstance(state, ChouineState)
    parsed = [sorted(parse_all(h)) for h in hands]
    turned = parse(turned_up) if turned_up is not None else None
    used = {c for h in parsed for c in h} | ({turned} if turned is not None else set())
    piles: list[list[int]] = [[] for _ in range(players)]
    if won is not None:
        piles = [parse_all(w) for w in won]
        used |= {c for w in piles for c in w}
    if talon is None:
        drawn = [c for c in DECK if c not in used]
    else:
        drawn = parse_all(talon)
        used |= set(drawn)
        rest = [c for c in DECK if c not in used]
        piles[-1].extend(rest)
    state.hands = parsed
    for seat, hand in enumerate(parsed):
        state.set_mask(seat, hand_mask(hand))
    if turned is not None:
        state.trump = turned >> 3
        state.talon = [turned, *reversed(drawn)]
    else:
        assert trump is not None, "give the turned-up card or the trump suit"
        state.trump = SUIT_LETTERS.index(trump)
        state.talon = list(reversed(drawn))
    state.won = piles
    state.card_points = [sum(POINTS[c] for c in w) for w in piles]
    state.tricks_won = [len(w) // players for w in piles]
    state.leader = state.turn = leader
    state.dealer = (leader - 1) % players if dealer is None else dealer
    state.stage = PLAY
    state.check_invariants()
    return state
