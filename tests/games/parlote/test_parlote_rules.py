"""The pure rules of La parlote coinchée, one test per rule of the rules file."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux.engine.base import IllegalAction
from choux.games.parlote import data, rules
from choux.games.parlote.content import Card, cards_index, content
from choux.games.parlote.testing import code

TRUMPS = ("insuffisance", "influence")
COLOURS = content().colour_ids()


def card(colour: str, depth: int) -> Card:
    return cards_index()[code(colour, depth)]


# --------------------------------------------------------------------------- trick winner


def test_winner_without_trumps_is_the_deepest_card() -> None:
    cards = [card("maths", 2), card("obstruction", 4), card("langage", 3), card("tricherie", 1)]
    index, why = rules.trick_winner(cards, [True] * 4, TRUMPS)
    assert index == 1
    assert "plus profonde" in why


def test_winner_with_trumps_is_the_trump_of_lowest_depth() -> None:
    cards = [card("maths", 4), card("insuffisance", 3), card("influence", 2), card("langage", 4)]
    index, why = rules.trick_winner(cards, [True] * 4, TRUMPS)
    assert index == 2
    assert "atout" in why.lower()


def test_any_trump_beats_the_deepest_non_trump() -> None:
    cards = [card("maths", 4), card("insuffisance", 4)]
    assert rules.trick_winner(cards, [True, True], TRUMPS)[0] == 1


def test_only_cards_with_counted_arguments_compete() -> None:
    cards = [card("maths", 1), card("insuffisance", 1), card("langage", 4), card("maths", 3)]
    counts = [True, False, False, True]
    index, why = rules.trick_winner(cards, counts, TRUMPS)
    assert index == 3  # the trump and the deepest card have no counted argument
    assert "arguments retenus" in why


def test_without_any_counted_argument_the_best_card_wins() -> None:
    cards = [card("maths", 1), card("insuffisance", 2), card("langage", 4), card("maths", 3)]
    index, why = rules.trick_winner(cards, [False] * 4, TRUMPS)
    assert index == 1
    assert "aucun argument retenu" in why


def test_a_single_counted_argument_takes_the_trick() -> None:
    """And the reason says so: « the deepest card » of a depth-1 card read as a mistake."""
    cards = [card("maths", 1), card("insuffisance", 1), card("langage", 4), card("maths", 3)]
    assert rules.trick_winner(cards, [True, False, False, False], TRUMPS) == (
        0,
        "Seul argument retenu",
    )


def test_a_single_trump_among_the_counted_arguments_is_named_so() -> None:
    cards = [card("maths", 1), card("insuffisance", 4), card("langage", 4), card("maths", 3)]
    assert rules.trick_winner(cards, [True] * 4, TRUMPS) == (
        1,
        "Seul atout (parmi les arguments retenus)",
    )


def test_tie_goes_to_the_card_played_first() -> None:
    cards = [card("maths", 2), card("langage", 4), card("obstruction", 4), card("raisonnement", 4)]
    index, why = rules.trick_winner(cards, [True] * 4, TRUMPS)
    assert index == 1
    assert "égalité" in why


def test_tie_between_trumps_goes_to_the_first_played() -> None:
    cards = [card("maths", 2), card("influence", 1), card("insuffisance", 1), card("maths", 4)]
    assert rules.trick_winner(cards, [True] * 4, TRUMPS)[0] == 1


# --------------------------------------------------------------------------- points


def test_non_trump_card_is_worth_twice_its_depth() -> None:
    assert [rules.card_points(card("maths", d), TRUMPS) for d in (1, 2, 3, 4)] == [2, 4, 6, 8]


def test_trump_card_is_worth_twelve_minus_twice_its_depth() -> None:
    values = [rules.card_points(card("influence", d), TRUMPS) for d in (1, 2, 3, 4)]
    assert values == [10, 8, 6, 4]


@given(st.sampled_from([(a, b) for a in COLOURS for b in COLOURS if a < b]))
def test_a_deal_holds_156_card_points(pair: tuple[str, str]) -> None:
    deck = [card(c, d) for c in COLOURS for d in (1, 2, 3, 4)]
    assert sum(rules.card_points(c, pair) for c in deck) == data.DEAL_POINTS == 156


# --------------------------------------------------------------------------- bidding


def test_bid_amounts_go_from_80_to_150_by_tens_then_capot() -> None:
    assert rules.bid_amounts() == (80, 90, 100, 110, 120, 130, 140, 150, data.CAPOT)


@pytest.mark.parametrize(
    ("amount", "colours", "current", "reason"),
    [
        (90, ("maths", "langage"), 100, "au-dessus de 100"),
        (100, ("maths", "langage"), 100, "au-dessus de 100"),
        (95, ("maths", "langage"), None, "de 10 en 10"),
        (70, ("maths", "langage"), None, "minimale"),
        (160, ("maths", "langage"), None, "capot"),
        (100, ("maths", "maths"), None, "différentes"),
        (100, ("maths", "licornes"), None, "inconnue"),
        (100, ("maths",), None, "deux couleurs"),
        (data.CAPOT, ("maths", "langage"), data.CAPOT, "capot"),
    ],
)
def test_bad_bids_are_refused_with_a_reason(
    amount: int, colours: tuple[str, ...], current: int | None, reason: str
) -> None:
    with pytest.raises(IllegalAction, match=reason):
        rules.check_bid(amount, colours, current, COLOURS)


def test_capot_outbids_150() -> None:
    rules.check_bid(data.CAPOT, ("maths", "langage"), 150, COLOURS)


def test_only_the_team_without_the_bid_may_coinche() -> None:
    assert rules.may_coinche(1, holder=0) and rules.may_coinche(3, holder=2)
    assert not rules.may_coinche(2, holder=0) and not rules.may_coinche(0, holder=0)
    assert not rules.may_coinche(1, holder=None)


# --------------------------------------------------------------------------- votes


@pytest.mark.parametrize(
    ("votes", "rejected"),
    [
        ([False, False, True], True),
        ([False, False, False], True),
        ([False, True, True], False),
        ([False, True, None], False),
        ([False, False, None], True),
        ([False, None, None], False),
    ],
)
def test_vote_majority_of_three_rejects(votes: list[bool | None], rejected: bool) -> None:
    assert rules.vote_rejects(votes) is rejected


# --------------------------------------------------------------------------- scoring


def test_contract_made_scores_bid_plus_points_and_defenders_their_points() -> None:
    scores, made = rules.deal_scores(0, 100, False, [110, 46], [4, 3])
    assert made and scores == (210, 46)


def test_contract_made_exactly_at_the_bid() -> None:
    scores, made = rules.deal_scores(1, 80, False, [76, 80], [3, 4])
    assert made and scores == (76, 160)


def test_contract_failed_gives_160_plus_bid_to_the_defenders() -> None:
    scores, made = rules.deal_scores(0, 120, False, [100, 56], [5, 2])
    assert not made and scores == (0, 280)


def test_coinched_contract_made_doubles_both_scores() -> None:
    scores, made = rules.deal_scores(0, 100, True, [110, 46], [4, 3])
    assert made and scores == (420, 92)


def test_coinched_contract_failed_doubles_the_defenders_score() -> None:
    scores, made = rules.deal_scores(1, 150, True, [60, 96], [3, 4])
    assert not made and scores == (620, 0)


def test_capot_made_needs_all_seven_tricks() -> None:
    scores, made = rules.deal_scores(0, data.CAPOT, False, [156, 0], [7, 0])
    assert made and scores == (data.CAPOT + 156, 0)


def test_capot_failed_with_six_tricks_even_with_most_points() -> None:
    scores, made = rules.deal_scores(0, data.CAPOT, False, [150, 6], [6, 1])
    assert not made and scores == (0, 160 + data.CAPOT)


def test_first_team_over_the_target_wins() -> None:
    assert rules.game_winner([1010, 900], 1000) == 0
    assert rules.game_winner([1000, 900], 1000) is None  # « dépasser » : strictly over


def test_both_over_the_target_the_higher_wins_equal_plays_on() -> None:
    assert rules.game_winner([1100, 1200], 1000) == 1
    assert rules.game_winner([1100, 1100], 1000) is None


# --------------------------------------------------------------------------- arguments


def test_argument_is_trimmed_and_control_characters_removed() -> None:
    raw = "  Vous\x00 avez\u202e tort,\nvoilà\t! \x07 "
    assert rules.clean_argument(raw) == "Vous avez tort, voilà !"


@pytest.mark.parametrize("blank", ["\u200b", "\u3164", "\u2800", " \ufeff\u200d ", "\u115f\u1160"])
def test_an_argument_that_shows_nothing_is_no_argument(blank: str) -> None:
    """Zero-width or blank characters alone met « argument obligatoire » and counted in
    « honneur » (an audit)."""
    assert rules.clean_argument(blank) == ""
    assert rules.clean_argument(blank + "Parce que !").endswith("Parce que !")


def test_argument_keeps_markup_as_typed() -> None:
    raw = "<b>Gras</b> & [bold]riche[/bold] {p0}"
    assert rules.clean_argument(raw) == raw


def test_argument_of_280_characters_is_accepted_281_refused() -> None:
    assert rules.check_argument("a" * 280) == "a" * 280
    assert rules.check_argument("  " + "a" * 280 + "\n") == "a" * 280
    with pytest.raises(IllegalAction, match=r"trop long"):
        rules.check_argument("a" * 281)


@given(st.text(max_size=400))
def test_clean_argument_never_keeps_controls_or_outer_spaces(text: str) -> None:
    cleaned = rules.clean_argument(text)
    assert cleaned == cleaned.strip()
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in cleaned)


def test_readers_argument_goes_to_vote_only_without_a_referee_seat() -> None:
    assert rules.readers_argument_goes_to_vote(author=2, reader=2, referee=None)
    assert not rules.readers_argument_goes_to_vote(author=1, reader=2, referee=None)
    assert not rules.readers_argument_goes_to_vote(author=2, reader=2, referee=4)


def test_votes_are_shown_only_once_the_vote_is_closed() -> None:
    votes = ((0, False), (3, True))
    assert rules.votes_shown(votes, vote_open=True) == []
    assert rules.votes_shown(votes, vote_open=False) == [[0, False], [3, True]]


def test_vote_tally_counts_missing_votes_for_the_argument() -> None:
    assert rules.vote_tally([True, False, False]) == ("Vote clos : 1 pour l'argument, 2 contre.")
    assert rules.vote_tally([False]) == (
        "Vote clos : 0 pour l'argument, 1 contre ; 2 sans réponse (comptent pour l'argument)."
    )
