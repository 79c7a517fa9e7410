"""The state machine of La parlote coinchée: one test per rule of the rules file."""

from __future__ import annotations

import json
import random

import pytest

from choux import games
from choux.engine.base import IllegalAction, NotYourTurn, WindowClosed
from choux.engine.playout import play_out
from choux.games.parlote import data, rules
from choux.games.parlote import state as state_module
from choux.games.parlote.actions import (
    Bid,
    ClaimLiar,
    Clock,
    Coinche,
    Contest,
    Draw,
    Judge,
    LetPass,
    Pass,
    Play,
    Vote,
)
from choux.games.parlote.content import cards_index, scenarios_index
from choux.games.parlote.recap import build_recap
from choux.games.parlote.records import COUNTS, NONE, PENDING, REJECTED, Contract
from choux.games.parlote.state import BIDDING, DRAW, LIAR, OVER, PLAY, ParloteState
from choux.games.parlote.testing import arrange, code, contract_for, standard_hands

GAME = games.get("parlote")
GAME_CARDS = cards_index()
ARG = "Il faut {enjeu}, tout le monde le dit."


def argument(state: ParloteState) -> str:
    assert state.scenario is not None
    return ARG.replace("{enjeu}", scenarios_index()[state.scenario].enjeu)


def refused(state: ParloteState, seat: int | None, action: object, match: str) -> None:
    """The action raises IllegalAction with `match` in its reason and changes nothing."""
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=match):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert state.snapshot() == before


def first(state: ParloteState, seat: int) -> str:
    return state.hands[seat][0]


# --------------------------------------------------------------------------- set-up


def test_selection_holds_one_card_of_each_depth_per_colour() -> None:
    state = ParloteState(3)
    assert len(state.selection) == 28 == len(set(state.selection))
    per = {}
    for card_code in state.selection:
        card = GAME_CARDS[card_code]
        per.setdefault(card.colour, []).append(card.depth)
    assert all(sorted(d) == [1, 2, 3, 4] for d in per.values()) and len(per) == 7
    assert state.chance[0]["selection"] == list(state.selection)


def test_scenarios_are_shuffled_into_two_piles() -> None:
    state = ParloteState(3)
    assert abs(len(state.piles[0]) - len(state.piles[1])) <= 1
    assert len(state.piles[0]) + len(state.piles[1]) == len(scenarios_index())


def test_first_reader_is_drawn_among_those_who_said_moi() -> None:
    readers = set()
    for seed in range(12):
        state = ParloteState(seed)
        assert state.phase == LIAR and set(state.actors()) == {0, 1, 2, 3}
        state.apply(1, ClaimLiar())
        state.apply(3, ClaimLiar())
        assert state.actors() == (0, 2)
        refused(state, 1, ClaimLiar(), "déjà avoué")
        state.apply_timeout()
        assert state.phase == DRAW and state.reader in (1, 3)
        readers.add(state.reader)
    assert readers == {1, 3}


def test_first_reader_is_random_among_all_when_nobody_confesses() -> None:
    state = ParloteState(5)
    state.apply(None, Clock())
    assert state.reader in range(4) and state.chance[-1] == {"first_reader": state.reader}


def test_four_confessions_close_the_liar_window_at_once() -> None:
    state = ParloteState(5)
    for seat in range(4):
        state.apply(seat, ClaimLiar())
    assert state.phase == DRAW


def test_reader_draws_from_the_pile_of_their_choice_and_deals_seven_cards() -> None:
    state = ParloteState(8)
    state.apply(None, Clock())
    reader = state.reader
    assert reader is not None and state.actors() == (reader,)
    top = state.piles[1][-1]
    assert state.view(reader)["piles"][1]["theme"] == scenarios_index()[top].theme
    refused(state, (reader + 1) % 4, Draw(1), "Seul le piocheur")
    state.apply(reader, Draw(1))
    assert state.scenario == top and state.phase == BIDDING
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert sorted(c for h in state.hands for c in h) == sorted(state.selection)
    assert state.turn == (reader + 1) % 4


def test_italic_objection_is_shown_only_to_the_reader() -> None:
    state = arrange(4, reader=2)
    objection = scenarios_index()[state.scenario or ""].objection
    assert state.view(2)["scenario"]["objection"] == objection
    for seat in (None, 0, 1, 3):
        assert state.view(seat)["scenario"]["objection"] is None
        assert objection in state.secrets(seat)


def test_each_player_sees_only_their_own_hand() -> None:
    state = arrange(4, hands=standard_hands())
    view = state.view(1)
    assert [c["code"] for c in view["hand"]] == state.hands[1]
    assert set(state.hands[0]) <= state.secrets(1)
    assert state.view(None)["hand"] == []


# --------------------------------------------------------------------------- bidding


def test_bidding_starts_left_of_the_reader() -> None:
    assert arrange(4, reader=2).turn == 3
    assert arrange(4, reader=3).turn == 0


def test_bid_below_the_current_one_is_refused() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(100, ("maths", "langage")))
    refused(state, 2, Bid(90, ("maths", "langage")), "au-dessus de 100")
    refused(state, 2, Bid(100, ("tricherie", "langage")), "au-dessus de 100")


def test_bid_not_a_multiple_of_ten_is_refused() -> None:
    refused(arrange(4, reader=0), 1, Bid(85, ("maths", "langage")), "de 10 en 10")


def test_bid_with_the_same_colour_twice_is_refused() -> None:
    refused(arrange(4, reader=0), 1, Bid(80, ("maths", "maths")), "différentes")


def test_bid_out_of_turn_is_refused() -> None:
    state = arrange(4, reader=0)
    before = state.snapshot()
    with pytest.raises(NotYourTurn):
        state.apply(2, Bid(80, ("maths", "langage")))
    assert state.snapshot() == before


def test_three_passes_after_a_bid_end_the_bidding() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(100, ("langage", "maths")))
    for seat in (2, 3):
        state.apply(seat, Pass())
        assert state.phase == BIDDING
    state.apply(0, Pass())
    assert state.phase == PLAY
    assert state.contract is not None
    assert (state.contract.seat, state.contract.amount) == (1, 100)
    assert state.contract.colours == ("maths", "langage")  # in the colours' order
    assert not state.contract.coinched


def test_a_higher_bid_restarts_the_count_of_passes() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(80, ("maths", "langage")))
    state.apply(2, Pass())
    state.apply(3, Bid(90, ("maths", "influence")))
    state.apply(0, Pass())
    state.apply(1, Pass())
    assert state.phase == BIDDING
    state.apply(2, Pass())
    assert state.phase == PLAY and state.contract is not None and state.contract.seat == 3


def test_four_passes_without_a_bid_redeal_with_the_same_reader() -> None:
    state = arrange(4, reader=2)
    scenario = state.scenario
    for seat in (3, 0, 1, 2):
        state.apply(seat, Pass())
    assert state.phase == DRAW and state.reader == 2 and state.redeals == 1
    assert state.discard == [scenario] and state.hands == [[], [], [], []]
    state.apply(2, Draw(0))
    assert state.phase == BIDDING and state.turn == 3


def test_coinche_ends_the_bidding_at_once_and_doubles_the_deal() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(110, ("maths", "langage")))
    assert set(state.actors()) == {0, 2}  # seat 2 on turn, seats 0 and 2 may coinche
    state.apply(0, Coinche())
    assert state.phase == PLAY
    assert state.contract is not None and state.contract.coinched
    assert state.contract.coinched_by == 0 and state.contract.amount == 110


def test_only_the_team_without_the_bid_may_coinche() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(110, ("maths", "langage")))
    state.apply(2, Pass())
    refused(state, 3, Coinche(), "propre camp")
    refused(state, 1, Coinche(), "propre camp")
    assert Coinche() not in state.legal_actions(3)
    assert Coinche() in state.legal_actions(2) and 2 in state.actors()


def test_no_coinche_before_any_bid() -> None:
    state = arrange(4, reader=0)
    refused(state, 1, Coinche(), "aucune enchère")
    assert state.actors() == (1,)


def test_capot_is_the_highest_bid() -> None:
    state = arrange(4, reader=0)
    state.apply(1, Bid(150, ("maths", "langage")))
    state.apply(2, Bid(data.CAPOT, ("maths", "influence")))
    legal = state.legal_actions(3)
    assert not [a for a in legal if isinstance(a, Bid)]
    assert Pass() in legal and Coinche() in legal
    refused(state, 3, Bid(data.CAPOT, ("maths", "langage")), "capot")


def test_bidding_clock_makes_the_player_pass() -> None:
    state = arrange(4, reader=0)
    deadline = state.deadline()
    assert deadline is not None and deadline.seconds == 90 and deadline.seat is None
    state.apply_timeout()
    assert state.bids[-1].kind == "pass" and state.bids[-1].seat == 1 and state.turn == 2


# --------------------------------------------------------------------------- tricks


def test_first_trick_is_led_left_of_the_reader() -> None:
    state = arrange(4, reader=2, hands=standard_hands(), contract=contract_for())
    assert state.actors() == (3,)
    assert [type(a) for a in state.legal_actions(3)] == [Play] * 7


def test_playing_out_of_turn_or_a_card_not_in_hand_is_refused() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    refused(state, 2, Play(first(state, 2), ""), "pas votre tour")
    refused(state, 1, Play(first(state, 0), ""), "pas cette carte")


def test_argument_too_long_is_refused() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    refused(state, 1, Play(first(state, 1), "x" * 281), "trop long")


def test_argument_is_stored_trimmed_without_control_characters() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), "  <b>Vous\x00 avez</b>\n tort !  "))
    assert state.trick[-1].argument == "<b>Vous avez</b>  tort !"
    assert state.view(None)["trick"]["plays"][0]["argument"] == "<b>Vous avez</b>  tort !"


def test_empty_argument_plays_the_card_alone() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), "   \n"))
    assert state.trick[-1].status == NONE and state.window is None and state.turn == 2


def test_winner_takes_the_trick_and_leads_the_next() -> None:
    # seat s holds depth s + 1 of every colour; trumps: insuffisance and influence
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    for seat in (1, 2, 3, 0):
        state.apply(seat, Play(code("maths", seat + 1), ""))
    trick = state.tricks[-1]
    assert trick.winner == 3  # the deepest card, no trump, no argument
    assert trick.points == 2 + 4 + 6 + 8
    assert state.turn == state.leader == 3 and state.trick == []


def test_trump_of_lowest_depth_takes_the_trick() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(code("influence", 2), ""))
    state.apply(2, Play(code("maths", 3), ""))
    state.apply(3, Play(code("insuffisance", 4), ""))
    state.apply(0, Play(code("langage", 1), ""))
    assert state.tricks[-1].winner == 1
    assert state.tricks[-1].points == 8 + 6 + 4 + 2


def test_only_counted_arguments_compete_for_the_trick() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(code("influence", 2), ""))  # trump, no argument
    state.apply(2, Play(code("maths", 3), argument(state)))
    state.apply(3, Play(code("maths", 4), ""))
    state.apply(0, Play(code("langage", 1), ""))
    assert state.tricks[-1].winner == 2
    assert state.tricks[-1].why == "Seul argument retenu"


def test_play_clock_plays_a_card_of_the_hand_at_random_without_argument() -> None:
    """The card the clock plays tells nothing of the hand: it is not the first in the hand's
    order (which would say the late player holds no card of an earlier colour)."""
    played = set()
    for seed in range(12):
        state = arrange(
            4,
            seed=seed,
            options={"mode": "jury"},
            reader=0,
            hands=standard_hands(),
            contract=contract_for(),
        )
        hand = list(state.hands[1])
        deadline = state.deadline()
        assert deadline is not None and deadline.seconds == 90
        state.apply(None, Clock())
        assert state.trick[-1].status == NONE and state.trick[-1].card in hand
        assert sorted(state.hands[1] + [state.trick[-1].card]) == sorted(hand)
        played.add(hand.index(state.trick[-1].card))
    assert len(played) >= 3  # not one fixed place in the hand


def test_play_clock_follows_the_table_option() -> None:
    state = GAME.new(4, 1, {"play_seconds": 30})
    assert isinstance(state, ParloteState) and state.play_seconds == 30


def test_clock_only_from_the_table_and_seat_none_only_for_the_clock() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    refused(state, 1, Clock(), "horloge")
    refused(state, None, Play(first(state, 1), ""), "horloge")


# --------------------------------------------------------------------------- modes


def test_honneur_every_typed_argument_counts() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), "n'importe quoi"))
    assert state.trick[-1].status == COUNTS and state.window is None and state.turn == 2


def test_jury_opponents_may_contest_within_a_window() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    assert state.trick[-1].status == PENDING
    assert state.actors() == (0, 2)
    deadline = state.deadline()
    assert deadline is not None and deadline.seconds == data.CONTEST_SECONDS
    refused(state, 3, Contest(), "adversaires")
    refused(state, 2, Play(first(state, 2), ""), "Attendez")


def test_jury_argument_counts_when_both_opponents_let_it_pass() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(0, LetPass())
    assert state.actors() == (2,)
    state.apply(2, LetPass())
    assert state.trick[-1].status == COUNTS and state.window is None and state.turn == 2


def test_jury_contest_window_deadline_lets_the_argument_count() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply_timeout()
    assert state.trick[-1].status == COUNTS and state.turn == 2


def test_jury_a_contest_opens_a_vote_of_the_three_others() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(2, Contest())
    assert state.contests_left == [1, 2]
    assert state.actors() == (0, 2, 3)
    refused(state, 1, Vote(True), "propre argument")
    state.apply(3, Vote(True))
    refused(state, 3, Vote(False), "déjà voté")


def test_jury_vote_majority_rejects_the_argument() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(0, Contest())
    state.apply(0, Vote(False))
    state.apply(3, Vote(True))
    state.apply(2, Vote(False))
    assert state.trick[-1].status == REJECTED
    assert state.trick[-1].votes == ((0, False), (3, True), (2, False))
    assert state.turn == 2 and state.window is None


def test_jury_vote_majority_keeps_the_argument() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(0, Contest())
    state.apply(0, Vote(False))
    state.apply(3, Vote(True))
    state.apply(2, Vote(True))
    assert state.trick[-1].status == COUNTS


def test_jury_vote_deadline_counts_missing_votes_for_the_argument() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(0, Contest())
    state.apply(0, Vote(False))
    deadline = state.deadline()
    assert deadline is not None and deadline.seconds == data.VOTE_SECONDS
    state.apply_timeout()
    assert state.trick[-1].status == COUNTS


def test_jury_two_contests_per_team_per_deal_a_third_is_refused() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    # team 0 (seats 0 and 2) contests the arguments of seats 1 and 3
    for author, contester in ((1, 0), (3, 2)):
        while state.turn != author:
            state.apply(None, Clock())
        state.apply(author, Play(first(state, author), argument(state)))
        state.apply(contester, Contest())
        for voter in state.voters():
            state.apply(voter, Vote(True))
    assert state.contests_left[0] == 0
    while state.turn not in (1, 3) or state.window is not None:
        state.apply(None, Clock())
    author = state.turn
    state.apply(author, Play(first(state, author), argument(state)))
    assert state.window is None and state.trick[-1].status == COUNTS
    refused(state, 0, Contest(), "déjà utilisé ses 2 contestations")


def test_jury_contests_are_given_back_each_deal() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.contests_left = [0, 1]
    while state.phase == PLAY:
        state.apply(None, Clock())
    state.apply(state.reader, Draw(0))
    assert state.contests_left == [2, 2]


def test_arbitre_the_reader_judges_the_arguments_of_the_others() -> None:
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    assert state.actors() == (0,)
    refused(state, 2, Judge(True), "arbitre")
    state.apply(0, Judge(False))
    assert state.trick[-1].status == REJECTED and state.trick[-1].judge == 0


def reader_argues_last_in_arbitre_mode() -> ParloteState:
    """Arbitre mode with four players, reader 0: seats 1-3 play without argument, then the
    reader plays with one."""
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    for seat in (1, 2, 3):
        state.apply(seat, Play(first(state, seat), ""))
    state.apply(0, Play(first(state, 0), argument(state)))
    return state


def test_arbitre_the_readers_own_argument_goes_to_a_vote_of_the_three_others() -> None:
    state = reader_argues_last_in_arbitre_mode()
    assert state.window is not None and state.window.kind == "vote"
    assert state.actors() == (1, 2, 3)
    for seat in (1, 2, 3):
        assert [a.to_json() for a in state.legal_actions(seat)] == [
            Vote(True).to_json(),
            Vote(False).to_json(),
        ]
    assert state.legal_actions(0) == []
    refused(state, 0, Vote(True), "propre argument")
    with pytest.raises(WindowClosed):
        state.apply(1, Judge(True))  # nobody judges it alone, the left neighbour neither
    deadline = state.deadline()
    assert deadline is not None and deadline.seconds == data.VOTE_SECONDS


def test_arbitre_the_readers_own_argument_is_rejected_by_a_majority_of_two() -> None:
    state = reader_argues_last_in_arbitre_mode()
    state.apply(1, Vote(False))
    state.apply(2, Vote(True))
    state.apply(3, Vote(False))
    played = state.tricks[-1].plays[-1]
    assert played.seat == 0 and played.status == REJECTED and played.judge is None
    assert played.votes == ((1, False), (2, True), (3, False))


def test_arbitre_the_readers_own_argument_is_kept_unless_a_majority_rejects_it() -> None:
    state = reader_argues_last_in_arbitre_mode()
    state.apply(1, Vote(False))  # the left neighbour alone no longer decides
    state.apply(2, Vote(True))
    state.apply(3, Vote(True))
    assert state.tricks[-1].plays[-1].status == COUNTS
    state = reader_argues_last_in_arbitre_mode()
    state.apply(1, Vote(False))
    state.apply_timeout()  # the two missing votes count for the argument
    assert state.tricks[-1].plays[-1].status == COUNTS


def test_arbitre_the_reader_still_judges_alone_the_arguments_of_the_others() -> None:
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    assert state.window is not None and state.window.kind == "judge"
    assert state.actors() == (0,)


def votes_seen_by(state: ParloteState, viewer: int | None) -> list[object]:
    """Every vote any part of `viewer`'s view shows on the argument under vote."""
    view = state.view(viewer)
    seen: list[object] = list(view["trick"]["plays"][-1]["votes"])
    if view["window"] is not None:
        seen += view["window"]["play"]["votes"]
    return seen


def test_jury_votes_are_secret_until_the_vote_closes() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply(0, Contest())
    state.apply(0, Vote(False))
    state.apply(3, Vote(True))
    for viewer in (None, 0, 1, 2, 3):
        assert votes_seen_by(state, viewer) == [], viewer
        view = state.view(viewer)
        assert view["trick"]["plays"][-1]["votes_cast"] == 2
        assert view["window"]["play"]["votes_cast"] == 2
        assert "false" not in json.dumps(view["trick"]["plays"][-1]["votes"])
    state.apply(2, Vote(False))
    closed = state.view(1)["trick"]["plays"][-1]
    assert closed["status"] == REJECTED
    assert closed["votes"] == [[0, False], [3, True], [2, False]]


def test_arbitre_votes_on_the_readers_argument_are_secret_until_the_vote_closes() -> None:
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), ""))
    state.apply(2, Play(first(state, 2), ""))
    state.apply(3, Play(first(state, 3), ""))
    state.apply(0, Play(first(state, 0), argument(state)))
    state.apply(2, Vote(False))
    for viewer in (None, 0, 1, 2, 3):
        assert votes_seen_by(state, viewer) == [], viewer
    state.apply(1, Vote(True))
    events = state.apply(3, Vote(False))
    assert state.tricks[-1].plays[-1].status == REJECTED
    shown = state.view(0)["last_trick"]["plays"][-1]["votes"]
    assert shown == [[2, False], [1, True], [3, False]]
    assert any(e.kind == "vote_closed" and "1 pour" in e.text for e in events)


def test_arbitre_deadline_accepts_the_argument() -> None:
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    state.apply_timeout()
    assert state.trick[-1].status == COUNTS


# --------------------------------------------------------------------------- end of a deal


def play_deal_on_the_clock(state: ParloteState) -> None:
    while state.phase == PLAY:
        state.apply(None, Clock())


def test_end_of_deal_scores_recap_and_rotates_the_reader() -> None:
    state = arrange(4, reader=1, hands=standard_hands(), contract=contract_for(seat=0, amount=80))
    scenario = state.scenario
    play_deal_on_the_clock(state)
    assert len(state.results) == 1 and state.deals_played == 1
    result = state.results[0]
    points = result["points"]
    assert sum(points) == 156
    expected, made = rules.deal_scores(0, 80, False, points, state.recap["tricks_won"])
    assert result["scores"] == list(expected) == state.scores and result["made"] == made
    recap = state.recap
    assert recap is not None and len(recap["tricks"]) == 7
    assert recap["scenario"]["objection"] == scenarios_index()[scenario or ""].objection
    play = recap["tricks"][0]["plays"][0]
    assert {"definition", "example", "name", "points", "trump"} <= set(play["card"])
    assert "why" in recap["tricks"][0] and recap["summary"]
    assert state.phase == DRAW and state.reader == 2 and state.scenario is None


def test_deal_scores_doubled_when_coinched() -> None:
    plain = arrange(4, reader=1, hands=standard_hands(), contract=contract_for(seat=0, amount=80))
    coinched = arrange(
        4, reader=1, hands=standard_hands(), contract=contract_for(seat=0, amount=80, coinched=True)
    )
    play_deal_on_the_clock(plain)
    play_deal_on_the_clock(coinched)
    assert coinched.scores == [2 * s for s in plain.scores]


def test_capot_contract_fails_unless_all_seven_tricks() -> None:
    state = arrange(
        4, reader=1, hands=standard_hands(), contract=contract_for(seat=0, amount=data.CAPOT)
    )
    play_deal_on_the_clock(state)
    won = state.recap["tricks_won"]
    if won[0] == 7:
        assert state.scores[0] == data.CAPOT + 156
    else:
        assert state.scores == [0, data.FAILED_BONUS + data.CAPOT]


def test_game_ends_when_a_team_passes_the_target() -> None:
    state = arrange(4, reader=1, hands=standard_hands(), contract=contract_for(seat=0, amount=80))
    state.scores = [995, 990]
    play_deal_on_the_clock(state)
    assert state.phase == OVER and state.is_over()
    outcome = state.outcome()
    assert outcome is not None and state.winner is not None
    assert outcome.winners == tuple(rules.team_seats(state.winner))
    assert state.actors() == () and state.deadline() is None
    assert outcome.scores[0] == outcome.scores[2] == state.scores[0]


def test_target_option_allows_short_games() -> None:
    state = GAME.new(4, 2, {"target": 100})
    bots = [GAME.make_bot("greedy", random.Random(s)) for s in range(4)]
    play_out(state, bots)
    assert isinstance(state, ParloteState) and state.is_over() and state.deals_played <= 3


# --------------------------------------------------------------------------- views & copies


def test_view_keys_are_the_documented_ones() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    docstring = state_module.__doc__ or ""
    for key in state.view(0):
        assert f'"{key}"' in docstring, key


def test_view_shows_contests_left_window_and_legal_actions() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), argument(state)))
    view = state.view(0)
    assert view["window"]["kind"] == "contest" and view["window"]["author"] == 1
    assert view["contests_left"] == [2, 2]
    assert {entry["action"]["type"] for entry in view["legal"]} == {"contester", "laisser"}
    assert state.view(None)["legal"] == []


def test_clone_is_independent() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    twin = state.clone()
    twin.apply(1, Play(first(twin, 1), ""))
    assert state.trick == [] and len(state.hands[1]) == 7
    assert twin.snapshot() != state.snapshot()


def test_determinize_keeps_own_hand_and_resamples_the_others() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    sample = state.determinize(1, random.Random(4))
    assert sample.hands[1] == state.hands[1]
    assert sample.view(1) == state.view(1)
    others = sorted(c for s in (0, 2, 3) for c in state.hands[s])
    assert sorted(c for s in (0, 2, 3) for c in sample.hands[s]) == others
    assert sample.hands != state.hands


def test_text_field_asks_for_the_argument_of_a_play() -> None:
    assert GAME.text_field(Play("ad-hominem", "")) == "argument"
    assert GAME.text_field(Pass()) is None


def test_terminal_rendering_escapes_arguments() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(first(state, 1), "[bold]crié[/bold]"))
    text = GAME.render_text(state.view(0))
    assert "\\[bold]crié" in text


def test_actions_from_json_round_trip_and_bad_json_refused() -> None:
    bid = Bid(90, ("maths", "langage"))
    assert GAME.action_from_json(bid.to_json()) == bid
    with pytest.raises(IllegalAction):
        GAME.action_from_json({"type": "encherir", "amount": 90, "colours": ["maths"]})
    assert isinstance(WindowClosed("x"), IllegalAction)


def test_memo_panel_marks_the_28_cards_in_play() -> None:
    state = ParloteState(9)
    memo = state.view(None)["memo"]
    assert len(memo) == 7

    def nodes(tree: list[dict]) -> list[dict]:
        return [n for node in tree for n in (node, *nodes(node["children"]))]

    flagged = [n for colour in memo for n in nodes(colour["tree"]) if n["in_play"]]
    assert len(flagged) == 28
    assert {n["name"] for n in flagged} == {GAME_CARDS[c].name for c in state.selection}


def test_argument_required_table_refuses_an_empty_argument() -> None:
    state = GAME.new(4, 3, {"argument_required": True})
    assert isinstance(state, ParloteState)
    state.apply(None, Clock())
    assert state.reader is not None
    state.apply(state.reader, Draw(0))
    seat = state.turn
    state.apply(seat, Bid(80, ("maths", "langage")))
    for _ in range(3):
        state.apply(state.turn, Pass())
    leader = state.turn
    legal = state.legal_actions(leader)
    assert all(isinstance(a, Play) and a.argument == "…" for a in legal)
    refused(state, leader, Play(state.hands[leader][0], "  \n "), "obligatoire")
    state.apply(None, Clock())  # the clock still plays a card without argument
    assert state.trick[-1].status == NONE


def test_piles_are_rebuilt_from_played_scenarios_when_both_run_out() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    current = state.scenario
    others = [s for s in scenarios_index() if s != current]
    state.piles = [[], []]
    state.discard = list(others)
    play_deal_on_the_clock(state)
    assert state.discard == [current]  # the scenario just played stays aside
    assert sorted(state.piles[0] + state.piles[1]) == sorted(others)
    assert state.chance[-1] == {"piles": state.piles}
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(state.view(seat), ensure_ascii=False)
        assert not any(json.dumps(s, ensure_ascii=False) in text for s in state.secrets(seat))


@pytest.mark.parametrize(
    ("points", "won", "made", "expected"),
    [
        ([0, 156], [0, 7], False, "chute avec 0 point et 0 pli : la défense marque"),
        ([1, 155], [1, 6], False, "chute avec 1 point et 1 pli : la défense marque"),
        (
            [90, 66],
            [4, 3],
            True,
            "avec 90 points et 4 plis : elle marque 80 + 90, la défense ses 66 points.",
        ),
    ],
)
def test_the_recap_summary_counts_in_good_french(
    points: list[int], won: list[int], made: bool, expected: str
) -> None:
    """« 0 point », « 1 pli »: French takes the singular below 2 (an audit read « 0 points »)."""
    contract = Contract(seat=0, amount=80, colours=("maths", "langage"), coinched=False)
    recap = build_recap(
        deal_number=1,
        reader=1,
        scenario_id=next(iter(scenarios_index())),
        contract=contract,
        deal_tricks=[],
        points=points,
        won=won,
        deal=[0, 0],
        totals=[0, 0],
        made=made,
    )
    assert expected in str(recap["summary"])


def test_a_window_keeps_its_key_through_the_clicks_it_awaits() -> None:
    """The table's clock runs through the « Moi ! » clicks and an argument's votes (one key
    for the window), and starts again for a new move (another key, or none)."""
    state = ParloteState(3)
    key = state.window_key()
    assert key is not None
    state.apply(0, state.legal_actions(0)[0])  # « Moi ! »
    assert state.phase == LIAR and state.window_key() == key
    while state.phase == LIAR:
        state.apply(None, state.deadline().action)  # type: ignore[union-attr]
    assert state.window_key() is None  # the reader draws: a move of its own
