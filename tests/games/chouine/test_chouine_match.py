"""Parties, replayed ties, manches, la belle and the match length options."""

from __future__ import annotations

import pytest

from choux.engine import InvalidOptions
from choux.engine.base import JSON
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import Play
from choux.games.chouine.testing import arrange

HIGH = "AS AH AD AC TS TH TD TC"  # 84 points


def last_trick_won_by_seat0(
    preset: str = "classique", options: dict[str, JSON] | None = None
) -> ChouineState:
    """Two players, one card each, seat 0 wins the last trick with 84 points in its pile."""
    return arrange(
        2,
        options={"preset": preset, **(options or {})},
        hands=["8S", "7S"],
        trump="D",
        talon="",
        won=[HIGH, ""],
    )


def play_last_trick(state: ChouineState) -> None:
    while state.stage == "play":
        seat = state.turn
        state.apply(seat, Play(state.view(seat)["hand"][0]))


def test_partie_won_by_the_higher_total() -> None:
    state = last_trick_won_by_seat0()
    play_last_trick(state)
    assert state.last_result is not None
    assert state.last_result["totals"] == [94, 36]
    assert state.last_result["winner"] == 0
    assert state.partie_wins == [1, 0]


def test_totals_add_cards_declarations_and_dix_de_der() -> None:
    state = last_trick_won_by_seat0()
    state.decl_points = [0, 60]
    play_last_trick(state)
    assert state.last_result is not None and state.last_result["totals"] == [94, 96]
    assert state.last_result["winner"] == 1


def test_equal_totals_replay_the_partie() -> None:
    # seat 1 wins the last trick: 55 + 10 against 65 in seat 0's pile
    state = arrange(2, hands=["7S", "8S"], trump="D", talon="", won=["AS AH AD TS TH TD JS", ""])
    dealer = state.dealer
    play_last_trick(state)
    assert state.last_result is not None
    assert state.last_result["totals"] == [65, 65]
    assert state.last_result["winner"] is None
    assert state.partie_wins == [0, 0] and state.stage == "between"
    state.apply_timeout()
    assert state.stage == "play" and state.dealer != dealer and state.deals == 2


def test_manche_first_to_win_two_parties() -> None:
    state = last_trick_won_by_seat0()
    state.partie_wins = [1, 0]
    play_last_trick(state)
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_la_belle_decides_the_manche_at_one_partie_each() -> None:
    state = last_trick_won_by_seat0()
    state.partie_wins = [1, 1]
    assert state.view(0)["belle"] is True
    play_last_trick(state)
    assert state.is_over() and state.manche_wins == [1, 0]


def test_one_partie_does_not_end_the_manche() -> None:
    state = last_trick_won_by_seat0()
    play_last_trick(state)
    assert state.stage == "between" and not state.is_over()
    assert state.deadline() is not None


def test_match_of_one_manche_by_default() -> None:
    state = GAME.new(2, 1)
    assert isinstance(state, ChouineState) and state.manches_to_win == 1


def test_match_option_best_of_three_manches() -> None:
    state = last_trick_won_by_seat0(options={"manches": 3})
    assert state.manches_to_win == 2
    state.partie_wins = [1, 0]
    play_last_trick(state)
    assert state.manche_wins == [1, 0] and not state.is_over()
    assert state.partie_wins == [0, 0] and state.manche_number == 2
    state.apply_timeout()
    assert state.stage == "play"


def test_match_ends_after_two_winning_manches() -> None:
    state = last_trick_won_by_seat0(options={"manches": 3})
    state.manche_wins = [1, 1]
    state.partie_wins = [1, 1]
    play_last_trick(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    # read by everyone, the loser too: it says the match ended and orders the counts
    assert outcome.reason == "Match terminé : 2 manches à 1."


def test_lavardin_match_in_two_winning_manches_by_default() -> None:
    state = GAME.new(2, 1, {"preset": "lavardin"})
    assert isinstance(state, ChouineState) and state.manches_to_win == 2


def test_lavardin_manche_of_five_parties_needs_three_wins() -> None:
    state = last_trick_won_by_seat0(preset="lavardin", options={"parties": 5})
    state.partie_wins = [1, 2]
    play_last_trick(state)
    assert state.manche_wins == [0, 0]
    state = last_trick_won_by_seat0(preset="lavardin", options={"parties": 5})
    state.partie_wins = [2, 2]
    assert state.is_belle()
    play_last_trick(state)
    assert state.manche_wins == [1, 0]


def test_multi_player_manche_of_three_parties_most_wins() -> None:
    state = arrange(
        3, hands=["8S", "7S", "9S"], turned_up="8H", talon="9H", won=[HIGH, "", ""], leader=0
    )
    state.partie_wins = [1, 1, 0]
    state.decided = 2
    play_last_trick(state)  # seat 2 wins the trick with the nine, seat 0 the partie
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_multi_player_tie_for_most_parties_plays_a_belle() -> None:
    state = arrange(
        3, hands=["8S", "7S", "9S"], turned_up="8H", talon="9H", won=[HIGH, "", ""], leader=0
    )
    state.partie_wins = [0, 1, 1]
    state.decided = 2
    play_last_trick(state)  # three parties, one each: another partie
    assert not state.is_over() and state.stage == "between"
    assert state.is_belle()


def test_multi_player_highest_total_wins_and_top_tie_is_replayed() -> None:
    state = arrange(3, hands=["8S", "7S", "9S"], turned_up="8H", talon="9H", won=[HIGH, "", ""])
    play_last_trick(state)
    assert state.last_result is not None and state.last_result["winner"] == 0
    # 65 for seat 0, 55 + dix de der for seat 2 (who wins the last trick): replayed
    tied = "AS AH AD TS TH TD JS"
    state = arrange(3, hands=["8S", "7S", "9S"], turned_up="8H", talon="9H", won=[tied, "", ""])
    play_last_trick(state)
    assert state.last_result is not None
    assert state.last_result["totals"] == [65, 0, 65]
    assert state.last_result["winner"] is None and state.partie_wins == [0, 0, 0]


def test_five_players_refused() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(5, 1)


def test_multi_player_plays_a_single_manche() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(3, 1, {"manches": 3})


def test_unknown_preset_refused() -> None:
    with pytest.raises(InvalidOptions):
        GAME.new(2, 1, {"preset": "belote"})


def three_player_last_trick(partie_wins: list[int], decided: int, parties: int = 3) -> ChouineState:
    """Three players, one card each; seat 0 wins the partie (84 points in its pile)."""
    state = arrange(
        3,
        options={"parties": parties},
        hands=["8S", "7S", "9S"],
        turned_up="8H",
        talon="9H",
        won=[HIGH, "", ""],
    )
    state.partie_wins = partie_wins
    state.decided = decided
    return state


def test_multi_player_manche_of_five_parties() -> None:
    state = three_player_last_trick([1, 2, 0], 3, parties=5)
    play_last_trick(state)  # four parties played, 2-2-0: one more to go
    assert not state.is_over() and state.partie_wins == [2, 2, 0]


def test_multi_player_manche_stops_when_nobody_can_catch_up_the_leader() -> None:
    # 3 parties planned: after two wins of seat 0, one partie left cannot save the others
    state = three_player_last_trick([1, 0, 0], 1)
    play_last_trick(state)
    assert state.is_over() and state.partie_wins == [2, 0, 0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    # 5 planned, 3-1-0 after four: the last partie cannot bring seat 1 level
    state = three_player_last_trick([2, 1, 0], 3, parties=5)
    play_last_trick(state)
    assert state.is_over() and state.partie_wins == [3, 1, 0]


def test_multi_player_manche_goes_on_while_someone_can_still_draw_level() -> None:
    # 5 planned, 2-1-0 after three: seat 1 could still draw level in the last two
    state = three_player_last_trick([1, 1, 0], 2, parties=5)
    play_last_trick(state)
    assert not state.is_over() and state.partie_wins == [2, 1, 0]


def test_multi_player_shared_lead_after_the_planned_parties_plays_on_until_one_leads_alone() -> (
    None
):
    state = three_player_last_trick([0, 1, 1], 2)
    play_last_trick(state)  # 1-1-1 after three: play on
    assert not state.is_over() and state.is_belle()
    state = three_player_last_trick([1, 2, 1], 4)
    play_last_trick(state)  # 2-2-1 after five: still shared, play on
    assert not state.is_over()
    state = three_player_last_trick([2, 2, 1], 5)
    play_last_trick(state)  # 3-2-1: seat 0 leads alone
    assert state.is_over() and state.outcome() is not None


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"parties": 5}),
        (2, {"preset": "lavardin", "manches": 1}),
        (3, {"manches": 3}),
        (4, {"preset": "lavardin", "manches": 3}),
    ],
)
def test_match_options_only_the_lengths_of_the_rules(
    players: int, options: dict[str, object]
) -> None:
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(players, 1, options)
    assert refused.value.args[0].startswith(("Aux règles", "À "))


@pytest.mark.parametrize(
    ("players", "options", "parties", "manches_to_win"),
    [
        (2, {}, 3, 1),
        (2, {"manches": 3}, 3, 2),
        (2, {"preset": "lavardin"}, 3, 2),
        (2, {"preset": "lavardin", "parties": 5, "manches": 3}, 5, 2),
        (3, {"parties": 5}, 5, 1),
        (4, {"preset": "lavardin", "manches": 1}, 3, 1),
    ],
)
def test_match_options_the_lengths_of_the_rules_are_accepted(
    players: int, options: dict[str, object], parties: int, manches_to_win: int
) -> None:
    state = GAME.new(players, 1, options)
    assert isinstance(state, ChouineState)
    assert (state.parties_per_manche, state.manches_to_win) == (parties, manches_to_win)


def test_the_result_line_of_a_manche_says_what_is_counted_and_in_which_order() -> None:
    """Shown to everyone without names: « Manche gagnée » alone read like the reader's win."""
    state = three_player_last_trick([1, 0, 1], decided=2)
    state.total_partie_wins = [1, 0, 1]
    play_last_trick(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.reason == "Manche terminée : 2 parties, 1 et 0."


def test_the_journal_names_the_manche_winner_and_each_count() -> None:
    state = three_player_last_trick([1, 0, 1], decided=2)
    events = []
    while state.stage == "play":
        seat = state.turn
        events += state.apply(seat, Play(state.view(seat)["hand"][0]))
    texts = {e.kind: e.render(["Ana", "Bob", "Cléo"]) for e in events}
    assert texts["manche"] == "Ana gagne la manche. Parties gagnées : Ana 2, Bob 0, Cléo 1."
    assert texts["match"] == "Ana gagne le match."


def test_the_journal_of_a_longer_match_counts_the_manches() -> None:
    state = last_trick_won_by_seat0(options={"manches": 3})
    state.manche_wins = [1, 1]
    state.partie_wins = [1, 1]
    events = []
    while state.stage == "play":
        seat = state.turn
        events += state.apply(seat, Play(state.view(seat)["hand"][0]))
    match = [e.render(["Ana", "Bob"]) for e in events if e.kind == "match"]
    assert match == ["Ana gagne le match. Manches gagnées : Ana 2, Bob 1."]
