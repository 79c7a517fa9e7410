"""The greedy bot bets on its expected tricks, wins or ducks on purpose, cries wisely."""

from __future__ import annotations

import random

from choux import games
from choux.engine.playout import play_out
from choux.games.chouineurs.actions import AS_DEALT, TURNED, Cry, Play, Prepare
from choux.games.chouineurs.bots import GreedyBot, expected_points, trick_distribution
from choux.games.chouineurs.deck import BET_INDEX
from choux.games.chouineurs.state import ChouineursState
from choux.games.chouineurs.testing import (
    arrange,
    code,
    crybaby_who_can_save_its_bet,
    prepare_all,
)

STRONG = ["noir5", "noir5", "noir4", "noir4", "jaune9", "jaune9", "noir3"]
WEAK = ["bleu1", "rouge1", "bleu2", "rouge2", "bleu3", "rouge3", "jaune1"]
MIDDLE = ["rouge11", "bleu11", "rouge10", "bleu10", "rouge9", "bleu9", "rouge8"]


def choose(state: ChouineursState, seat: int) -> object:
    move = GreedyBot(random.Random(0)).choose(state, seat)
    assert move is not None
    return move.action


def test_trick_distribution_sums_to_one() -> None:
    dist = trick_distribution([0.5, 0.9, 0.1])
    assert len(dist) == 4 and abs(sum(dist) - 1) < 1e-9
    assert expected_points(BET_INDEX["orange"], 0, []) == 8


def test_greedy_bets_high_with_a_strong_hand() -> None:
    state = arrange(3, hands=[STRONG, WEAK, MIDDLE])
    assert choose(state, 0) == Prepare(AS_DEALT, "violet")


def test_greedy_turns_a_weak_hand_whose_backs_are_strong() -> None:
    state = arrange(3, hands=[STRONG, WEAK, MIDDLE])
    action = choose(state, 1)
    assert isinstance(action, Prepare) and action.orientation == TURNED


def test_greedy_bets_low_with_a_hand_weak_on_both_sides() -> None:
    state = arrange(3, hands=[STRONG, MIDDLE, WEAK])
    action = choose(state, 1)
    assert isinstance(action, Prepare) and action.bet in ("orange", "vert")


def test_greedy_ducks_once_its_bet_is_reached() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu2"], ["bleu1", "bleu12"], ["bleu3", "bleu4"]], leader=2
    )
    prepare_all(state, ["orange", "orange", "orange"])
    state.apply(2, Play(code(state.hands[2][0])))  # bleu 3
    state.apply(0, Play(code(state.hands[0][0])))  # bleu 9
    assert choose(state, 1) == Play(code(state.hands[1][0]))  # ducks with bleu 1


def test_greedy_wins_a_trick_it_needs_when_last() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu2"], ["bleu1", "bleu12"], ["bleu3", "bleu4"]], leader=2
    )
    prepare_all(state, ["orange", "vert", "orange"])
    state.apply(2, Play(code(state.hands[2][0])))  # bleu 3
    state.apply(0, Play(code(state.hands[0][0])))  # bleu 9
    assert choose(state, 1) == Play(code(state.hands[1][1]))  # takes it with bleu 12


def test_greedy_crybaby_takes_a_token_when_no_turn_helps() -> None:
    state = arrange(
        3,
        hands=[["bleu9", "bleu8"], ["noir1", "bleu4"], ["bleu6", "bleu5"]],
        reserve=5,
        tricks_won=[0, 0, 0],
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(code(state.hands[seat][0])))
    # seat 1 won with black 1 and cries; one trick won on vert (1 -> 8): its bleu 4 loses
    # anyway, turning it to red 11 changes nothing worth a point
    assert state.actors() == (1,)
    assert choose(state, 1) == Cry(token=True)


def test_greedy_crybaby_turns_a_card_that_saves_its_bet() -> None:
    # seat 1 bet orange (0 tricks) and holds a black 5 it cannot lose: turning it to its
    # blue 1 end saves 8 points, far more than a token
    state = crybaby_who_can_save_its_bet()
    assert choose(state, 1) == Cry(turn=code(state.hands[1][0]))


def test_greedy_beats_random_clearly() -> None:
    game = games.get("chouineurs")
    greedy = others = 0
    for number in range(40):
        seat = number % 4
        bots = [
            game.make_bot("greedy" if s == seat else "random", random.Random(number + s))
            for s in range(4)
        ]
        state = play_out(game.new(4, number), bots)
        outcome = state.outcome()
        assert outcome is not None
        greedy += outcome.scores[seat]
        others += sum(outcome.scores) - outcome.scores[seat]
    assert greedy / 40 > 1.5 * others / 120
