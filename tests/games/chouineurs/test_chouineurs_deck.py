"""The deck and the bet cards are exactly those of the rules file."""

from __future__ import annotations

from collections import Counter

from choux.games.chouineurs.deck import (
    BET_NAMES,
    BET_POINTS,
    BLACK,
    BLUE,
    CARDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RED,
    YELLOW,
)


def ends() -> list[tuple[int, int]]:
    return [end for card in CARDS for end in card]


def test_deck_has_44_cards_and_88_ends() -> None:
    assert len(CARDS) == 44
    assert len(ends()) == 88


def test_black_ends_run_1_to_5_twice_each() -> None:
    assert Counter(v for c, v in ends() if c == BLACK) == dict.fromkeys(range(1, 6), 2)


def test_yellow_ends_run_1_to_9_twice_each() -> None:
    assert Counter(v for c, v in ends() if c == YELLOW) == dict.fromkeys(range(1, 10), 2)


def test_blue_and_red_ends_run_1_to_15_twice_each() -> None:
    for colour in (BLUE, RED):
        assert Counter(v for c, v in ends() if c == colour) == dict.fromkeys(range(1, 16), 2)


def test_two_ends_of_a_card_never_share_a_colour() -> None:
    assert all(a[0] != b[0] for a, b in CARDS)


def test_card_families_match_the_rules_file() -> None:
    dragons = [card for card in CARDS if BLACK in (card[0][0], card[1][0])]
    magicians = [card for card in CARDS if YELLOW in (card[0][0], card[1][0])]
    royals = [card for card in CARDS if {card[0][0], card[1][0]} == {BLUE, RED}]
    assert (len(dragons), len(magicians), len(royals)) == (10, 18, 16)
    # a strong end backs a weak one: black + other end always make 6, yellow + other 15
    assert all(a[1] + b[1] == 6 for a, b in dragons)
    assert all(a[1] + b[1] == 15 for a, b in magicians)
    assert {(a[1], b[1]) for a, b in royals} >= {(15, 1), (15, 2), (2, 15), (1, 15), (9, 8)}


def test_five_bet_cards_as_in_the_rules_file() -> None:
    assert BET_NAMES == ("orange", "vert", "rouge", "bleu", "violet")
    table = dict(zip(BET_NAMES, BET_POINTS, strict=True))
    assert table["orange"] == (8, 3, 0, 0, 0, 0, 0, 0)
    assert table["vert"] == (2, 8, 5, 0, 0, 0, 0, 0)
    assert table["rouge"] == (0, 4, 8, 4, 0, 0, 0, 0)
    assert table["bleu"] == (0, 0, 3, 9, 4, 0, 0, 0)
    assert table["violet"] == (0, 0, 0, 5, 10, 10, 10, 10)  # 4 or more -> 10


def test_reserve_is_44_minus_7_per_player() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS, HAND_SIZE) == (3, 5, 7)
    assert [44 - HAND_SIZE * n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)] == [23, 16, 9]
