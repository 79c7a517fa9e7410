"""The rules as pure functions, one test per rule of shared/rules/chouineurs.md."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from choux.games.chouineurs.deck import BET_INDEX, BLACK, BLUE, FACE_COLOUR, FACE_VALUE, RED, YELLOW
from choux.games.chouineurs.rules import (
    NO_COLOUR,
    bet_points,
    crybabies,
    final_ranks,
    legal_cards,
    must_follow,
    round_leader,
    score_round,
    trick_winner,
)
from choux.games.chouineurs.testing import faces


def test_leader_may_play_any_card() -> None:
    hand = faces(["bleu3", "rouge9", "jaune2", "noir1"])
    assert legal_cards(hand, NO_COLOUR) == hand


def test_following_colour_is_compulsory() -> None:
    hand = faces(["bleu3", "rouge9", "jaune2"])
    assert legal_cards(hand, BLUE) == hand[:1]
    assert must_follow(hand, BLUE, hand[1])


def test_black_card_allowed_anyway() -> None:
    hand = faces(["bleu3", "rouge9", "noir1"])
    assert legal_cards(hand, BLUE) == [hand[0], hand[2]]
    assert not must_follow(hand, BLUE, hand[2])


def test_any_card_when_void_in_led_colour() -> None:
    hand = faces(["bleu3", "jaune2", "noir1"])
    assert legal_cards(hand, RED) == hand


def test_winner_order_black_beats_yellow_beats_led_colour() -> None:
    assert trick_winner(faces(["bleu15", "jaune1", "noir1"])) == 2
    assert trick_winner(faces(["bleu15", "jaune1", "bleu14"])) == 1
    assert trick_winner(faces(["bleu12", "bleu14", "bleu13"])) == 1


def test_highest_black_wins_among_blacks() -> None:
    assert trick_winner(faces(["noir2", "noir5", "noir4"])) == 1


def test_other_colour_never_wins() -> None:
    assert trick_winner(faces(["bleu2", "rouge15", "rouge14"])) == 0


def test_identical_ends_first_played_wins() -> None:
    assert trick_winner(faces(["bleu4", "noir5", "noir5"])) == 1
    assert trick_winner(faces(["bleu15", "bleu15", "rouge3"])) == 0


def test_crybaby_plays_lowest_number_whatever_colour() -> None:
    assert crybabies(faces(["bleu9", "rouge2", "jaune3"])) == [1]


def test_crybaby_ties_all_cry() -> None:
    assert crybabies(faces(["bleu1", "rouge8", "noir1", "jaune1"])) == [0, 2, 3]


def test_crybaby_who_also_wins() -> None:
    trick = faces(["bleu4", "rouge9", "noir1"])
    assert trick_winner(trick) == 2
    assert crybabies(trick) == [2]


def test_bet_hit_scores_its_points_and_card_is_spent() -> None:
    assert score_round(BET_INDEX["vert"], 1, 0) == (8, True)
    assert score_round(BET_INDEX["orange"], 0, 0) == (8, True)


def test_bet_missed_scores_nothing_and_card_returns() -> None:
    assert score_round(BET_INDEX["rouge"], 0, 0) == (0, False)
    assert score_round(BET_INDEX["orange"], 2, 0) == (0, False)


def test_violet_counts_four_or_more_tricks() -> None:
    violet = BET_INDEX["violet"]
    assert [bet_points(violet, k) for k in range(8)] == [0, 0, 0, 5, 10, 10, 10, 10]


def test_tokens_score_one_point_each_whatever_the_bet() -> None:
    assert score_round(BET_INDEX["bleu"], 0, 3) == (3, False)
    assert score_round(BET_INDEX["bleu"], 3, 2) == (11, True)


def test_player_without_bet_card_scores_only_tokens() -> None:
    assert score_round(-1, 4, 2) == (2, False)


def test_round_leader_is_highest_score() -> None:
    assert round_leader([3, 12, 7, 5], previous=0) == 1


def test_round_leader_tie_goes_to_first_after_previous_leader() -> None:
    assert round_leader([10, 4, 10, 10], previous=2) == 3
    assert round_leader([10, 4, 10, 10], previous=3) == 0
    assert round_leader([10, 10, 3], previous=0) == 1


@given(
    scores=st.lists(st.integers(0, 4), min_size=3, max_size=5),
    previous=st.integers(0, 4),
)
def test_round_leader_is_the_first_top_scorer_after_the_previous_leader(
    scores: list[int], previous: int
) -> None:
    """« tie: the one after the previous leader in play order »: the previous leader, tied,
    comes last; alone at the top, he leads again."""
    n = len(scores)
    previous %= n
    leader = round_leader(scores, previous)
    top = max(scores)
    assert scores[leader] == top
    clockwise = [(previous + step) % n for step in range(1, n + 1)]
    assert all(scores[s] < top for s in clockwise[: clockwise.index(leader)])


def test_last_round_tie_breaks_most_points_then_last_round_then_shared() -> None:
    assert final_ranks([20, 25, 18], [5, 2, 9]) == (2, 1, 3)
    assert final_ranks([25, 25, 18], [5, 9, 9]) == (2, 1, 3)
    assert final_ranks([25, 25, 18], [9, 9, 0]) == (1, 1, 3)


faces_strategy = st.lists(st.integers(0, 87), min_size=1, max_size=7, unique_by=lambda f: f >> 1)


@given(hand=faces_strategy, led=st.integers(-1, 3))
def test_legal_cards_agree_with_the_follow_rule(hand: list[int], led: int) -> None:
    legal = legal_cards(hand, led)
    assert legal
    for face in hand:
        assert (face in legal) == (not must_follow(hand, led, face))


@given(trick=st.lists(st.integers(0, 87), min_size=3, max_size=5, unique_by=lambda f: f >> 1))
def test_winner_is_the_strongest_by_colour_order(trick: list[int]) -> None:
    win = trick[trick_winner(trick)]
    colours = [FACE_COLOUR[f] for f in trick]
    led = colours[0]
    for wanted in (BLACK, YELLOW, led):
        if wanted in colours:
            assert FACE_COLOUR[win] == wanted
            assert FACE_VALUE[win] == max(FACE_VALUE[f] for f in trick if FACE_COLOUR[f] == wanted)
            break
    lows = crybabies(trick)
    assert lows and all(FACE_VALUE[trick[i]] == min(FACE_VALUE[f] for f in trick) for i in lows)
