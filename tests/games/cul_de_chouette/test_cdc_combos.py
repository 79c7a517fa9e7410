"""Reading a roll: one test per line of the rules file's table, plus order independence."""

from __future__ import annotations

from itertools import permutations, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import read_roll

NAMES = {
    "Cul de Chouette",
    "Pélican",
    "Bleu-Rouge",
    "Chouette Velute",
    "Chouette",
    "Soufflette",
    "Suite",
    "Velute",
    "Néant",
}


@pytest.mark.parametrize("v", range(1, 6))
def test_cul_de_chouette_scores_40_plus_10_times_the_value(v: int) -> None:
    assert read_roll((v, v, v)) == (C.CUL_DE_CHOUETTE, 40 + 10 * v)
    assert C.read_full((v, v, v)).value == v


def test_pelican_is_six_six_six_for_172() -> None:
    assert read_roll((6, 6, 6)).name == "Pélican"
    assert read_roll((6, 6, 6)).points == 172


def test_bleu_rouge_is_3_4_3_and_scores_the_chouette_of_three() -> None:
    assert read_roll((3, 4, 3)) == ("Bleu-Rouge", 9)


@pytest.mark.parametrize(("roll", "points"), [((1, 1, 2), 8), ((2, 4, 2), 32), ((6, 3, 3), 72)])
def test_chouette_velute_gives_the_roller_nothing_the_shout_wins_2v2(
    roll: tuple[int, int, int], points: int
) -> None:
    reading = C.read_full(roll)
    assert reading.name == "Chouette Velute" and reading.points == 0
    assert C.chouette_velute_points(reading.value) == points


@pytest.mark.parametrize("v", range(1, 7))
def test_chouette_scores_the_square_of_the_pair(v: int) -> None:
    other = 5 if v != 5 else 1
    if sorted((v, v, other)) in ([1, 1, 2], [2, 2, 4], [3, 3, 6], [3, 3, 4]):
        other = 6 if v != 6 else 1
    reading = C.read_full((v, other, v))
    assert reading.name == "Chouette" and reading.points == v * v and reading.value == v


def test_soufflette_is_4_2_1() -> None:
    assert read_roll((2, 1, 4)).name == "Soufflette"
    assert read_roll((2, 1, 4)).points == 0


@pytest.mark.parametrize("low", range(2, 5))
def test_suite_is_three_consecutive_values(low: int) -> None:
    assert read_roll((low + 2, low, low + 1)) == ("Suite", 0)


def test_suite_1_2_3_is_also_a_velute_of_three_worth_18() -> None:
    assert read_roll((3, 1, 2)) == ("Suite", 18)


@pytest.mark.parametrize(("roll", "points"), [((1, 3, 4), 32), ((2, 3, 5), 50), ((4, 2, 6), 72)])
def test_velute_scores_twice_the_square_of_the_largest_die(
    roll: tuple[int, int, int], points: int
) -> None:
    assert read_roll(roll).name == "Velute" and read_roll(roll).points == points


def test_neant_is_everything_else() -> None:
    assert read_roll((1, 3, 6)) == ("Néant", 0)
    assert read_roll((2, 5, 6)).name == "Néant"


def test_every_roll_has_exactly_one_reading_named_as_in_the_rules() -> None:
    seen = {read_roll(d).name for d in product(range(1, 7), repeat=3)}
    assert seen == NAMES


@given(st.tuples(*[st.integers(1, 6)] * 3))
def test_dice_order_never_matters(dice: tuple[int, int, int]) -> None:
    readings = {read_roll(p) for p in permutations(dice)}
    assert len(readings) == 1


def test_grelottine_percentages_follow_the_document() -> None:
    assert C.GRELOTTINE_PERCENT == {
        "Chouette": 33,
        "Velute": 25,
        "Sirop-Grelot": 20,
        "Cul de Chouette": 16,
        "Chouette Velute": 8,
    }
    assert C.grelottine_max_stake("Chouette", 100, 250) == 33
    assert C.grelottine_max_stake("Chouette Velute", 99, 250) == 7


def test_contre_sirop_is_twice_a_tenth_of_the_cul_attempted() -> None:
    assert [C.contre_sirop_points(v) for v in range(1, 7)] == [10, 12, 14, 16, 18, 20]
