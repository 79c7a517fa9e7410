"""The state machine, one test per rule and per refused move (nothing changes on refusal)."""

from __future__ import annotations

import pytest

from choux import games
from choux.engine import IllegalAction, NotYourTurn
from choux.engine.playout import play_out
from choux.games.chouineurs.actions import AS_DEALT, TURNED, Cry, Play, Prepare
from choux.games.chouineurs.deck import BET_INDEX, CARDS
from choux.games.chouineurs.state import ChouineursState
from choux.games.chouineurs.testing import arrange, code, prepare_all


def refused(state: ChouineursState, seat: int, action: object, words: str) -> None:
    """The move is refused with a French reason containing `words`, state unchanged."""
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)  # type: ignore[arg-type]
    assert words in error.value.reason
    assert state.snapshot() == before


def hand_codes(state: ChouineursState, seat: int) -> list[str]:
    return [code(f) for f in state.hands[seat]]


def three_players() -> ChouineursState:
    return arrange(
        3,
        hands=[
            ["bleu9", "rouge2", "noir1", "jaune3", "bleu2", "rouge8", "bleu5"],
            ["bleu12", "rouge14", "jaune8", "bleu1", "rouge4", "rouge5", "bleu6"],
            ["rouge12", "rouge13", "jaune7", "noir4", "bleu10", "rouge3", "rouge6"],
        ],
    )


# --------------------------------------------------------------------------- the choice


def test_choice_is_simultaneous_every_player_acts() -> None:
    state = three_players()
    assert state.actors() == (0, 1, 2)
    state.apply(1, Prepare(AS_DEALT, "vert"))
    assert state.actors() == (0, 2)
    assert state.legal_actions(1) == []


def test_choice_stays_hidden_until_first_lead() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    assert state.actors() == (0,)
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["bets"] == [None, None, None]
        assert view["orientations"] == [None, None, None]
        assert not state.secrets(seat) & {str(v) for v in view.values()}
    assert state.view(1)["my_choice"]["bet"] == "rouge"
    assert state.view(0)["my_choice"]["bet"] == "vert"
    events = state.apply(0, Play(hand_codes(state, 0)[0]))
    assert events[0].kind == "reveal"
    assert state.view(2)["bets"] == ["vert", "rouge", "orange"]
    assert state.view(2)["orientations"] == [AS_DEALT] * 3
    assert state.view(0)["my_choice"] is None


def test_orientation_turns_the_whole_hand() -> None:
    state = three_players()
    before = list(state.hands[1])
    state.apply(1, Prepare(TURNED, "vert"))
    assert state.hands[1] == [f ^ 1 for f in before]
    first = state.view(1)["hand"][0]
    assert first["bottom"] == {"colour": "bleu", "value": 12}
    assert first["top"]["colour"] != "bleu"


def test_orientation_twice_is_refused() -> None:
    state = three_players()
    state.apply(0, Prepare(TURNED, "vert"))
    refused(state, 0, Prepare(AS_DEALT, "rouge"), "déjà choisi")


def test_spent_bet_card_is_refused() -> None:
    spent = 0b11111 & ~(1 << BET_INDEX["vert"])
    state = arrange(3, hands=[["bleu9"], ["bleu12"], ["rouge12"]], bets_left=[spent] * 3)
    refused(state, 0, Prepare(AS_DEALT, "vert"), "quitté le jeu")
    assert Prepare(AS_DEALT, "vert") not in state.legal_actions(0)


def test_player_with_no_bet_card_left_plays_without_bet() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu12"], ["rouge12"]], bets_left=[0, 0b11111, 0b11111])
    assert state.legal_actions(0) == [Prepare(AS_DEALT, None), Prepare(TURNED, None)]
    refused(state, 1, Prepare(AS_DEALT, None), "Choisissez une de vos cartes de pari")
    prepare_all(state, [None, "orange", "vert"])
    state.apply(0, Play(hand_codes(state, 0)[0]))
    assert state.view(1)["bets"] == [None, "orange", "vert"]


def test_playing_before_everyone_chose_is_refused() -> None:
    state = three_players()
    refused(state, 0, Play(hand_codes(state, 0)[0]), "choisi")


# --------------------------------------------------------------------------- tricks


def test_card_not_in_hand_is_refused() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    refused(state, 0, Play(hand_codes(state, 1)[0]), "pas dans votre main")


def test_play_out_of_turn_is_refused() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    with pytest.raises(NotYourTurn):
        state.apply(1, Play(hand_codes(state, 1)[0]))


def test_card_breaking_follow_rule_is_refused() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    state.apply(0, Play(hand_codes(state, 0)[0]))  # bleu 9
    refused(state, 1, Play(hand_codes(state, 1)[1]), "fournissez la couleur demandée (bleu)")


def test_black_card_may_be_played_when_following_was_possible() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    state.apply(0, Play(hand_codes(state, 0)[0]))  # bleu 9
    state.apply(1, Play(hand_codes(state, 1)[0]))  # bleu 12
    state.apply(2, Play(hand_codes(state, 2)[3]))  # noir 4, though it holds bleu 10
    assert state.last_trick is not None and state.last_trick[2] == 2


def test_trick_winner_leads_next_trick_after_cries() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    state.apply(0, Play(hand_codes(state, 0)[0]))  # bleu 9
    state.apply(1, Play(hand_codes(state, 1)[3]))  # bleu 1: crybaby
    state.apply(2, Play(hand_codes(state, 2)[4]))  # bleu 10 wins
    assert state.tricks_won == [0, 0, 1]
    assert state.view(None)["phase"] == "chouine"
    assert state.actors() == (1,)
    state.apply(1, Cry(token=True))
    assert state.actors() == (2,)
    assert state.view(None)["phase"] == "jeu"


def test_crying_when_not_a_crybaby_is_refused() -> None:
    state = three_players()
    prepare_all(state, ["vert", "rouge", "orange"])
    state.apply(0, Play(hand_codes(state, 0)[0]))
    state.apply(1, Play(hand_codes(state, 1)[3]))  # bleu 1: crybaby
    state.apply(2, Play(hand_codes(state, 2)[4]))
    refused(state, 0, Cry(token=True), "pas chouineur")
    refused(state, 2, Cry(turn=hand_codes(state, 2)[0]), "pas chouineur")
    refused(state, 1, Cry(turn=hand_codes(state, 0)[0]), "pas dans votre main")
    refused(state, 1, Cry(), "retourner une carte de votre main ou prendre une carte de la réserve")
    refused(
        state,
        1,
        Cry(turn=hand_codes(state, 1)[0], token=True),
        "ou prendre une carte de la réserve",
    )


def test_crybaby_ties_choose_in_play_order() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["bleu1", "bleu4"], ["jaune1", "rouge5"]], leader=1, reserve=5
    )
    prepare_all(state, ["vert", "vert", "vert"])
    state.apply(1, Play(hand_codes(state, 1)[0]))  # bleu 1, leads
    state.apply(2, Play(hand_codes(state, 2)[0]))  # jaune 1 wins
    state.apply(0, Play(hand_codes(state, 0)[0]))  # bleu 9
    assert state.cry_queue == [1, 2]
    assert state.actors() == (1,)
    refused(state, 2, Cry(token=True), "avant vous")
    state.apply(1, Cry(token=True))
    assert state.actors() == (2,)


def test_crybaby_who_also_wins_gets_the_bonus() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["noir1", "bleu4"], ["bleu6", "bleu5"]], reserve=5
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    assert state.tricks_won == [0, 1, 0]
    assert state.actors() == (1,)
    state.apply(1, Cry(token=True))
    assert state.view(None)["tokens"] == [0, 1, 0]
    assert state.actors() == (1,)  # and leads the next trick


def test_cry_turn_shows_the_other_end_of_one_card() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["noir1", "bleu4"], ["bleu6", "bleu5"]], reserve=5
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    face = state.hands[1][0]
    state.apply(1, Cry(turn=code(face)))
    assert state.hands[1] == [face ^ 1]
    assert len(state.reserve) == 5


def test_cry_token_takes_top_of_reserve() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["noir1", "bleu4"], ["bleu6", "bleu5"]], reserve=5
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    top = state.reserve[-1]
    state.apply(1, Cry(token=True))
    assert state.token_cards[1] == [top] and len(state.reserve) == 4


def test_empty_reserve_leaves_only_turning_a_card() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["noir1", "bleu4"], ["bleu6", "bleu5"]], reserve=0
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    assert state.legal_actions(1) == [Cry(turn=hand_codes(state, 1)[0])]
    refused(state, 1, Cry(token=True), "réserve est vide")


def test_last_trick_crybaby_takes_a_token_while_the_reserve_lasts() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=1)
    prepare_all(state, ["vert", "orange", "rouge"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    # both 1s cry; only one reserve card: seat 1 (first in play order) gets it
    assert state.sheet[-1][1][3] == 1 and state.sheet[-1][2][3] == 0


# --------------------------------------------------------------------------- scoring


def test_round_scoring_bet_spent_or_returned() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, tricks_won=[0, 0, 1])
    prepare_all(state, ["vert", "orange", "rouge"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    # seat 0 wins its only trick: vert hits 1 trick -> 8, card spent
    # seat 1: 0 tricks on orange -> 8, spent; seat 2: 1 trick on rouge -> 4, spent
    rows = [row[:5] for row in state.sheet[-1]]
    assert rows[0] == (BET_INDEX["vert"], 1, 8, 0, 8)
    assert rows[1] == (BET_INDEX["orange"], 0, 8, 0, 8)
    assert rows[2] == (BET_INDEX["rouge"], 1, 4, 0, 4)
    assert state.scores == [8, 8, 4]
    assert state.view(None)["bets_left"][0] == ["orange", "rouge", "bleu", "violet"]


def test_missed_bet_card_comes_back() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0)
    prepare_all(state, ["violet", "violet", "violet"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    assert state.scores == [0, 0, 0]
    assert all("violet" in bets for bets in state.view(None)["bets_left"])


def test_next_round_led_by_highest_score() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, scores=[0, 5, 0])
    prepare_all(state, ["violet", "violet", "violet"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    assert state.round == 2 and state.round_leader == 1
    assert all(len(hand) == 7 for hand in state.hands)
    assert state.view(None)["phase"] == "choix"


def test_tied_previous_leader_hands_the_next_round_to_the_next_tied_player() -> None:
    # seats 1 and 2 tie at the top after the round; seat 1 led it: seat 2 leads round 2
    state = arrange(
        3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, leader=1, scores=[0, 6, 6]
    )
    prepare_all(state, ["violet", "violet", "violet"])
    for seat in (1, 2, 0):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    assert state.scores == [0, 6, 6]
    assert state.round == 2 and state.round_leader == 2 and state.leader == 2


def test_first_round_leader_is_drawn_and_recorded() -> None:
    leaders = {ChouineursState(4, seed).round_leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    state = ChouineursState(4, 3)
    assert state.chance[0] == {"first_leader": state.round_leader}


def test_game_ends_after_four_rounds_with_tie_breaks() -> None:
    game = games.get("chouineurs")
    state = game.new(4, 9)
    bots = [game.make_bot("random", __import__("random").Random(s)) for s in range(4)]
    play_out(state, bots)
    assert isinstance(state, ChouineursState)
    assert state.is_over() and len(state.sheet) == 4
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [sum(r[s][4] for r in state.sheet) for s in range(4)]
    last = [row[4] for row in state.sheet[-1]]
    for a in range(4):
        for b in range(4):
            if (outcome.scores[a], last[a]) > (outcome.scores[b], last[b]):
                assert outcome.ranks[a] < outcome.ranks[b]


def test_final_tie_broken_by_last_round() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, scores=[10, 2, 10])
    state.round = 4
    prepare_all(state, ["orange", "violet", "vert"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    # seat 0: 1 trick on orange -> 3; seat 2: 0 tricks on vert -> 2
    assert state.scores == [13, 2, 12]
    state2 = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, scores=[10, 2, 11])
    state2.round = 4
    prepare_all(state2, ["orange", "violet", "vert"])
    for seat in (0, 1, 2):
        state2.apply(seat, Play(hand_codes(state2, seat)[0]))
    outcome = state2.outcome()
    assert outcome is not None and outcome.scores == (13, 2, 13)
    assert outcome.ranks == (1, 3, 2) and "dernière manche" in outcome.reason


def test_perfect_tie_is_a_shared_victory() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=0, scores=[10, 13, 0])
    state.round = 4
    prepare_all(state, ["orange", "violet", "violet"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (13, 13, 0)
    # seat 0 scored 3 in the last round, seat 1 none: seat 0 wins
    assert outcome.ranks == (1, 2, 3)
    # seat 0: orange with 1 trick -> 3; seat 1: vert with 0 trick -> 2, plus the only
    # reserve card as a token -> 3: same total, same last round: shared victory
    state = arrange(3, hands=[["bleu9"], ["bleu1"], ["rouge1"]], reserve=1, scores=[10, 10, 0])
    state.round = 4
    prepare_all(state, ["orange", "vert", "violet"])
    for seat in (0, 1, 2):
        state.apply(seat, Play(hand_codes(state, seat)[0]))
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (13, 13, 0)
    assert outcome.ranks == (1, 1, 3) and outcome.winners == (0, 1)
    assert "partagée" in outcome.reason


def test_cards_are_identified_by_id_with_both_ends() -> None:
    state = three_players()
    card = state.view(0)["hand"][0]
    index = int(card["card"][1:])
    assert {(CARDS[index][0]), CARDS[index][1]} == {
        (
            {"noir": 0, "jaune": 1, "bleu": 2, "rouge": 3}[card["top"]["colour"]],
            card["top"]["value"],
        ),
        (
            {"noir": 0, "jaune": 1, "bleu": 2, "rouge": 3}[card["bottom"]["colour"]],
            card["bottom"]["value"],
        ),
    }


def test_event_texts_speak_of_the_reserve_and_take_the_french_singular() -> None:
    from choux.games.chouineurs.state import READY_EVENTS, TOKEN_EVENTS, _score_event

    names = ["Odette", "Marcel", "Anne"]
    assert READY_EVENTS[0].render(names) == "Odette a fait son choix."
    token = TOKEN_EVENTS[1].render(names)
    assert "réserve" in token and "jeton" not in token
    assert _score_event(2, 2, 2, 8, 1).render(names) == (
        "Anne : 2 plis, pari Rouge réussi (8) + 1 point de chouineur = 9 points."
    )
    assert _score_event(2, 2, 0, 0, 0).render(names) == "Anne : 0 pli, pari Rouge manqué : 0 point."
    assert _score_event(0, -1, 1, 0, 2).render(names) == (
        "Odette : 1 pli, sans pari (0) + 2 points de chouineur = 2 points."
    )
