"""The Chouineurs expert: integer rollouts like the greedy bot, exact last tricks, and
decisions from what its seat sees only."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.games.chouineurs.actions import CRY_FACE, CRY_TOKEN, PLAY_FACE
from choux.games.chouineurs.bots import FACE_WIN, GreedyBot, expert_bot
from choux.games.chouineurs.endgame import solve_state
from choux.games.chouineurs.search import (
    SOLVE_AT,
    ChouineursSearch,
    cry_policy,
    play_policy,
    rollout_points,
    trick_distribution,
    with_card,
    without,
)
from choux.games.chouineurs.state import CHOOSING, CRYING, PLAYING, ChouineursState


def reach(players: int, seed: int, cards: int, crying: bool = False) -> ChouineursState:
    """A greedy game of the first round, stopped when the seat to act holds `cards` cards
    (or fewer), in the crybabies' phase when `crying`."""
    state = games.get("chouineurs").new(players, seed)
    assert isinstance(state, ChouineursState)
    greedy = GreedyBot(random.Random(seed))
    while True:
        seat = state.actors()[0]
        if state.phase != CHOOSING and len(state.hands[seat]) <= cards:
            if not crying or state.phase == CRYING:
                return state
        move = greedy.choose(state, seat)
        assert move is not None
        state.apply(seat, move.action)
        if state.round > 1:
            return reach(players, seed + 100, cards, crying)


def test_deconvolution_takes_a_card_back_out() -> None:
    rates = [0.97, 0.0, 0.35, 0.6, 0.12]
    full = trick_distribution(rates)
    for i, p in enumerate(rates):
        rest = trick_distribution(rates[:i] + rates[i + 1 :])
        assert without(full, p) == pytest.approx(rest, abs=1e-9)
        assert with_card(rest, p) == pytest.approx(full, abs=1e-12)


def test_integer_rollout_policy_plays_like_the_greedy_bot() -> None:
    greedy = GreedyBot(random.Random(0))
    agree = total = 0
    for seed in range(40):
        state = games.get("chouineurs").new(3 + seed % 3, seed)
        assert isinstance(state, ChouineursState)
        while state.round == 1 and not state.is_over():
            seat = state.actors()[0]
            move = greedy.choose(state, seat)
            assert move is not None
            win = FACE_WIN[state.n]
            bet, won = state.choice_bet[seat], state.tricks_won[seat]
            if state.phase == PLAYING:
                face = play_policy(state.n, state.hands[seat], state.trick, bet, won, win)
                total += 1
                agree += PLAY_FACE[face] == move.action
            elif state.phase == CRYING:
                index = cry_policy(state.hands[seat], bet, won, len(state.reserve), win)
                mine = CRY_TOKEN if index < 0 else CRY_FACE[state.hands[seat][index]]
                total += 1
                agree += mine == move.action
            state.apply(seat, move.action)
    assert agree >= 0.98 * total  # floating-point ties aside, the same policy


@pytest.mark.parametrize("players", [3, 4, 5])
def test_rollout_ends_on_the_exact_solver(players: int) -> None:
    state = reach(players, 7, SOLVE_AT[players])
    assert rollout_points(state.clone(), SOLVE_AT[players]) == solve_state(state)[0]


@pytest.mark.parametrize(
    ("players", "cards", "crying"),
    [(3, 2, False), (4, 2, False), (4, 1, False), (5, 2, True), (3, 3, True), (4, 5, False)],
)
def test_expert_decides_from_what_its_seat_sees_only(
    players: int, cards: int, crying: bool
) -> None:
    """Late positions (exact last tricks in every world), a crybaby's choice: the hidden
    hands and reserve dealt differently leave the choice unchanged."""
    state = reach(players, 11 + players + cards, cards, crying)
    seat = state.actors()[0]
    twin = state.determinize(seat, random.Random(4242))
    twin.rng = random.Random(99)
    assert twin.view(seat) == state.view(seat)
    assert twin.snapshot() != state.snapshot()
    first = expert_bot(random.Random(3), 40, None).choose(state, seat)
    second = expert_bot(random.Random(3), 40, None).choose(twin, seat)
    assert first is not None and first == second
    assert first.action in state.legal_actions(seat)


def test_expert_before_the_reveal_gives_others_the_choice_their_hand_calls_for() -> None:
    state = games.get("chouineurs").new(4, 5)
    assert isinstance(state, ChouineursState)
    greedy = GreedyBot(random.Random(0))
    for seat in (0, 1):
        move = greedy.choose(state, seat)
        assert move is not None
        state.apply(seat, move.action)
    bot = expert_bot(random.Random(1), 20, None)
    assert isinstance(bot, ChouineursSearch)
    world = bot._world(state, 3)
    assert isinstance(world, ChouineursState)
    for other in (0, 1):
        # a fresh greedy choice on the world's hand (turned back when it was turned)
        hand = world.hands[other]
        dealt = [f ^ 1 for f in hand] if world.choice_turned[other] else list(hand)
        world.hands[other] = dealt
        chosen = greedy.prepare(world, other)
        assert chosen.bet is not None
        world.hands[other] = hand
        assert world.choice_bet[other] == ["orange", "vert", "rouge", "bleu", "violet"].index(
            chosen.bet
        )
