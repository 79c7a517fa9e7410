"""The phase-2 solver is exact: checked against a brute force over the engine itself."""

from __future__ import annotations

import random

import pytest

from choux.games.chouine.actions import Play
from choux.games.chouine.cards import CODES, DECK, JACK, KING, QUEEN, TEN, card
from choux.games.chouine.endgame import WIN, clamped_margin, final_margin, solve, wins
from choux.games.chouine.state import PLAY, ChouineState
from choux.games.chouine.testing import arrange

ENDGAMES = 10_000


def brute_force(
    state: ChouineState, seat: int, memo: dict[tuple[object, ...], int] | None = None
) -> int:
    """Final margin for `seat` under perfect play, trying every legal action of the engine
    (every card, with and without each declaration); a Chouine counts as ``±WIN``.
    Exhaustive minimax, memoised on the position so that it stays fast."""
    rest = _remaining(state, seat, {} if memo is None else memo)
    return rest if abs(rest) >= WIN else _margin(state, seat) + rest


def _margin(state: ChouineState, seat: int) -> int:
    other = 1 - seat
    return (
        state.card_points[seat]
        + state.decl_points[seat]
        - state.card_points[other]
        - state.decl_points[other]
    )


def _remaining(state: ChouineState, seat: int, memo: dict[tuple[object, ...], int]) -> int:
    """Margin `seat` still gains from here under perfect play (``±WIN`` for a Chouine)."""
    if state.stage != PLAY:
        result = state.last_result
        assert result is not None
        if result["chouine"] is not None:
            return WIN if result["chouine"] == seat else -WIN
        totals = result["totals"]
        return int(totals[seat]) - int(totals[1 - seat]) - _margin(state, seat)
    key = (
        tuple(map(tuple, state.hands)),
        tuple(state.trick),
        state.turn,
        tuple(state.declared_suits),
        tuple(state.brisque_used),
        tuple(state.chouines),
    )
    found = memo.get(key)
    if found is not None:
        return found
    here = _margin(state, seat)
    values = []
    for action in state.legal_actions(state.turn):
        child = state.clone()
        child.apply(state.turn, action)
        rest = _remaining(child, seat, memo)
        values.append(rest if abs(rest) >= WIN else rest + _margin(child, seat) - here)
    best = max(values) if state.turn == seat else min(values)
    memo[key] = best
    return best


def random_endgame(rng: random.Random) -> ChouineState:
    """Two hands of 1 to 4 cards, the rest already won, random flags; often a
    combination (a Chouine, a tierce, a mariage) is slipped into a hand, and half the
    time the leader has already played to the trick."""
    # four-card endgames cost most to brute-force: fewer of them, each with a Chouine
    size = 4 if rng.random() < 0.06 else rng.choice((1, 2, 2, 3, 3, 3))
    deck = list(DECK)
    rng.shuffle(deck)
    hands: list[list[int]] = [[], []]
    if size == 4 or rng.random() < 0.6:
        suit = rng.randrange(4)
        ranks = (KING, QUEEN, JACK, TEN)[: 4 if size == 4 else rng.choice((2, 3))][:size]
        holder = rng.randrange(2)
        hands[holder] = [card(r, suit) for r in ranks]
        deck = [c for c in deck if c not in hands[holder]]
    for seat in (0, 1):
        while len(hands[seat]) < size:
            hands[seat].append(deck.pop())
    won = [deck[: len(deck) // 2 + rng.randrange(-4, 5)], []]
    won[1] = deck[len(won[0]) :]
    state = arrange(
        2,
        hands=[" ".join(CODES[c] for c in h) for h in hands],
        trump="SHDC"[rng.randrange(4)],
        talon="",
        leader=rng.randrange(2),
        won=[" ".join(CODES[c] for c in w) for w in won],
    )
    for seat in (0, 1):
        state.declared_suits[seat] = rng.choice((0, 0, 0, rng.randrange(16)))
        state.decl_points[seat] = rng.choice((0, 0, 20, 40))
    if rng.random() < 0.5:
        actions = state.legal_actions(state.turn)
        state.apply(state.turn, rng.choice(actions))
    return state


def test_phase_two_solver_is_exact_against_brute_force_on_random_endgames() -> None:
    rng = random.Random(2026)
    checked = chouines = declared = 0
    while checked < ENDGAMES:
        state = random_endgame(rng)
        if state.stage != PLAY:
            continue  # the leader's card ended the partie (it cannot, but be safe)
        seat = state.turn
        by_action = {}
        memo: dict[tuple[object, ...], int] = {}
        for candidate in state.legal_actions(seat):
            child = state.clone()
            child.apply(seat, candidate)
            by_action[candidate] = brute_force(child, seat, memo)
        exact = max(by_action.values())
        assert final_margin(state, seat) == exact, state.snapshot()
        assert wins(state, seat) == (exact > 0)
        assert clamped_margin(state, seat, 40) == max(-40, min(40, exact))
        assert clamped_margin(state, 1 - seat, 25) == max(-25, min(25, -exact))
        assert wins(state, 1 - seat) == (exact < 0)
        _, action = solve(state)
        assert by_action[action] == exact, (state.snapshot(), action)  # an optimal move
        chouines += abs(exact) >= WIN
        declared += isinstance(action, Play) and action.declare is not None
        checked += 1
    # the sample does exercise the Chouine and the declarations
    assert chouines > 100 and declared > 200, (chouines, declared)


@pytest.mark.parametrize("seed", range(3))
def test_phase_two_solver_counts_the_cinquante(seed: int) -> None:
    state = arrange(
        2, hands=["AS TS AH TH AD", "7C 8C 9C JC QS"], trump="C", talon="", leader=seed % 2
    )
    assert final_margin(state, 0) == brute_force(state, 0)
    if state.turn == 0:
        assert solve(state)[1].declare == "cinquante"  # type: ignore[attr-defined]


def test_phase_two_solver_plays_full_endgames_of_real_deals() -> None:
    """Five cards each, straight from play: the solver's pick is optimal."""
    from choux.games.chouine import GAME

    rng = random.Random(7)
    for seed in range(4):
        state = GAME.new(2, seed)
        assert isinstance(state, ChouineState)
        while state.stage == PLAY and state.talon:
            state.apply(state.turn, rng.choice(state.legal_actions(state.turn)))
        if state.stage != PLAY:
            continue
        seat = state.turn
        assert final_margin(state, seat) == brute_force(state, seat)
