"""The exact solver of the last tricks against a brute force over the engine's moves."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.engine.base import Action
from choux.games.chouineurs.actions import Cry, Play
from choux.games.chouineurs.deck import CODE_TO_CARD
from choux.games.chouineurs.endgame import Solver, position, round_points, solve_state, utility
from choux.games.chouineurs.state import CRYING, PLAYING, ChouineursState
from choux.games.chouineurs.testing import (
    arrange,
    code,
    crybaby_who_can_save_its_bet,
    prepare_all,
)


def order(state: ChouineursState, seat: int, action: Action) -> tuple[int, int]:
    """The solver's canonical order: cards by face; turns by face, then the token."""
    if isinstance(action, Play):
        card = CODE_TO_CARD[action.card]
        return (0, card * 2 if card * 2 in state.hands[seat] else card * 2 + 1)
    assert isinstance(action, Cry)
    if action.token:
        return (1, 0)
    card = CODE_TO_CARD[action.turn or ""]
    return (0, card * 2 if card * 2 in state.hands[seat] else card * 2 + 1)


def brute(state: ChouineursState) -> tuple[tuple[int, ...], Action | None]:
    """Max^n over engine states (clone + apply), no table: (round points, best move)."""
    if state.phase not in (PLAYING, CRYING):
        last = state.sheet[-1]
        return tuple(row[4] for row in last), None
    seat = state.actors()[0]
    actions = sorted(state.legal_actions(seat), key=lambda a: order(state, seat, a))
    best: tuple[tuple[int, ...], Action | None] | None = None
    for action in actions:
        child = state.clone()
        child.apply(seat, action)
        value, _ = brute(child)
        if best is None or better(state, seat, value, best[0]):
            best = (value, action)
    assert best is not None
    return best


def better(state: ChouineursState, seat: int, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    totals_a = [s + p for s, p in zip(state.scores, a, strict=True)]
    totals_b = [s + p for s, p in zip(state.scores, b, strict=True)]
    return utility(totals_a, seat) > utility(totals_b, seat)


def endgame(seed: int) -> ChouineursState:
    """A random position of the last 1-3 tricks (3 cards only at 3 players), reached by
    random play: at a lead, mid-trick or with crybabies to choose, sometimes with a
    reserve nearly empty, with random scores."""
    rng = random.Random(seed)
    players = rng.choice((3, 3, 4, 4, 5))
    cards = rng.choice((1, 2, 2, 3) if players == 3 else (1, 2, 2))
    state = games.get("chouineurs").new(players, seed)
    assert isinstance(state, ChouineursState)
    state.scores = [rng.randrange(40) for _ in range(players)]
    if rng.random() < 0.4:  # an almost empty reserve: tokens run out
        keep = rng.randrange(3)
        state.played.extend(state.reserve[keep:])
        del state.reserve[keep:]
    stop_after = rng.randrange(players + 2)
    while True:
        seat = state.actors()[0]
        actions = state.legal_actions(seat)
        if state.phase != 0 and len(state.hands[seat]) <= cards:
            if stop_after == 0:
                return state
            stop_after -= 1
        state.apply(seat, rng.choice(actions))
        if (state.phase not in (PLAYING, CRYING) and state.round > 1) or state.is_over():
            return endgame(seed + 10_000)  # the round ended before the stop: another one
        if state.phase == 0 and state.round > 1:
            return endgame(seed + 10_000)


@pytest.mark.parametrize("block", range(4))
def test_solver_matches_brute_force_on_random_endgames(block: int) -> None:
    """1,200 random endgames: same round points, and the move it picks is the first best."""
    for seed in range(block * 300, (block + 1) * 300):
        state = endgame(seed)
        state.check_invariants()
        expected, move = brute(state)
        points, chosen = solve_state(state)
        assert points == expected, seed
        assert chosen == move, seed
        assert round_points(state) == expected


def test_solver_counts_bets_and_tokens() -> None:
    # seat 0 bet orange (0 tricks -> 8) holds only losers; seat 1 bet vert (1 -> 8) holds
    # the black 5 and wins the last trick; seat 2 plays the lowest card and takes a token
    state = arrange(3, hands=[["bleu9"], ["noir5"], ["bleu2"]], reserve=3, tricks_won=[0, 0, 0])
    prepare_all(state, ["orange", "vert", "rouge"])
    assert round_points(state) == (8, 8, 1)


def test_last_crybabies_take_tokens_only_while_the_reserve_lasts() -> None:
    state = arrange(3, hands=[["bleu1"], ["rouge1"], ["noir5"]], reserve=1, bets_left=[0, 0, 0])
    prepare_all(state, [None, None, None])
    # no bets: only the tokens count; seats 0 and 1 both cry, one token is left: seat 0's
    assert round_points(state) == (1, 0, 0)


def test_a_crybaby_turns_the_card_that_saves_its_bet() -> None:
    # seat 1 bet orange (no trick) and holds a black 5 it cannot lose: turning it saves 8
    state = crybaby_who_can_save_its_bet()
    points, move = solve_state(state)
    assert move == Cry(turn=code(state.hands[1][0]))
    assert points[1] == 8 + 1  # its bet, and a token: its blue 1 cries on the last trick


def test_transposition_table_is_reused_within_a_world() -> None:
    state = endgame(3)
    solver = Solver(state.choice_bet, state.scores)
    first = solver.value(*position(state))
    nodes = solver.nodes
    assert solver.value(*position(state)) == first
    assert solver.nodes - nodes <= 1 + len(state.cry_queue) * 8 + state.n * 3
