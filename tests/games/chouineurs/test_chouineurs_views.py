"""Views: what each seat may see, the rules page, the terminal rendering, the codec."""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux import games
from choux.engine import MalformedAction
from choux.engine.views import strings_in as strings
from choux.games.chouineurs.actions import AS_DEALT, Cry, Play, Prepare
from choux.games.chouineurs.deck import BLUE, CARD_COUNT, FACE_COLOUR
from choux.games.chouineurs.rules import score_round
from choux.games.chouineurs.state import ChouineursState
from choux.games.chouineurs.testing import arrange, code, prepare_all

GAME = games.get("chouineurs")


def test_view_shows_own_hand_with_both_ends_and_others_counts() -> None:
    state = arrange(3, hands=[["noir5/bleu1", "jaune9"], ["bleu15"], ["rouge12"]])
    view = state.view(0)
    assert view["hand"][0]["top"] == {"colour": "noir", "value": 5}
    assert view["hand"][0]["bottom"] == {"colour": "bleu", "value": 1}
    assert view["hand_counts"] == [2, 1, 1]
    assert view["bets_left"][1] == ["orange", "vert", "rouge", "bleu", "violet"]
    assert view["reserve"] == CARD_COUNT - 4
    assert {a["action"]["type"] for a in view["legal"]} == {"prepare"}
    assert state.view(None)["hand"] == [] and state.view(None)["legal"] == []
    json.dumps(view)


def test_views_never_show_others_cards_or_hidden_choices() -> None:
    state = ChouineursState(4, 12)
    rng = random.Random(3)
    while not state.is_over():
        for seat in [None, 0, 1, 2, 3]:
            assert not state.secrets(seat) & strings(state.view(seat))
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))


def test_choice_code_is_secret_for_others_before_the_reveal() -> None:
    state = arrange(3, hands=[["bleu9"], ["bleu12"], ["rouge12"]])
    state.apply(1, Prepare(AS_DEALT, "vert"))
    token = state.view(1)["my_choice"]["code"]
    assert token in state.secrets(0) and token in state.secrets(None)
    assert token not in state.secrets(1)


def test_crybaby_view_names_who_chooses() -> None:
    state = arrange(
        3, hands=[["bleu9", "bleu3"], ["bleu1", "bleu4"], ["jaune1", "rouge5"]], leader=1
    )
    prepare_all(state, ["vert", "vert", "vert"])
    for seat in (1, 2, 0):
        state.apply(seat, Play(code(state.hands[seat][0])))
    view = state.view(0)
    assert view["phase"] == "chouine"
    assert view["crybaby"] == {"seat": 1, "waiting": [2]}
    assert view["last_trick"]["winner"] == 2 and view["last_trick"]["crybabies"] == [1, 2]


def test_determinize_keeps_the_view_and_the_card_count() -> None:
    state = ChouineursState(5, 4)
    state.apply(2, Prepare(AS_DEALT, "rouge"))
    sample = state.determinize(0, random.Random(1))
    assert sample.view(0) == state.view(0)
    sample.check_invariants()
    assert sample.hands[0] == state.hands[0]


def test_rules_page_has_four_suits_of_rule_cards() -> None:
    text = resources.files("choux.games.chouineurs").joinpath("page.toml").read_text("utf-8")
    page = tomllib.loads(text)
    assert page["title"] == "Chouineurs"
    assert len(page["sections"]) == 4
    assert {s["suit"] for s in page["sections"]} == {"♠", "♥", "♦", "♣"}
    assert all(len(s["cards"]) >= 2 for s in page["sections"])


def test_render_text_shows_both_ends_of_each_card() -> None:
    state = arrange(3, hands=[["noir5/bleu1", "jaune9/rouge6"], ["bleu15"], ["rouge12"]])
    text = GAME.render_text(state.view(0))
    assert "5 noir" in text and "1 bleu" in text and "9 jaune" in text and "6 rouge" in text


def test_codec_reads_and_refuses_actions() -> None:
    for action in (Prepare("envers", "vert"), Play("c3"), Cry(turn="c5"), Cry(token=True)):
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    with pytest.raises(MalformedAction):
        GAME.action_from_json({"type": "play", "card": 3})
    state = arrange(3, hands=[["bleu9"], ["bleu12"], ["rouge12"]])
    with pytest.raises(MalformedAction):
        state.apply(0, Prepare("de travers", "vert"))
    with pytest.raises(MalformedAction):
        state.apply(0, Prepare(AS_DEALT, "noir"))


@given(seed=st.integers(min_value=0, max_value=2**31), players=st.integers(3, 5))
def test_score_sheet_follows_bets_tricks_and_tokens(seed: int, players: int) -> None:
    state = ChouineursState(players, seed)
    rng = random.Random(seed)
    spent_before = list(state.bets_left)
    while not state.is_over():
        rounds = len(state.sheet)
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
        state.check_invariants()
        if len(state.sheet) > rounds:
            for seat, (bet, tricks, points, tokens, total) in enumerate(state.sheet[-1]):
                assert (total, points > 0) == score_round(bet, tricks, tokens)
                expected = spent_before[seat] & ~(1 << bet) if points else spent_before[seat]
                assert state.bets_left[seat] == expected
            assert sum(row[1] for row in state.sheet[-1]) == 7
            spent_before = list(state.bets_left)
    outcome = state.outcome()
    assert outcome is not None
    assert list(outcome.scores) == [sum(r[s][4] for r in state.sheet) for s in range(players)]


def test_labels_name_the_end_in_play_and_its_back() -> None:
    state = arrange(3, hands=[["noir5/bleu1", "jaune9/rouge6"], ["bleu15"], ["rouge12"]])
    prepare_all(state, ["vert", "vert", "vert"])
    labels = [a.label() for a in state.legal_actions(0)]
    assert labels == ["Jouer 5 noir (dos : 1 bleu)", "Jouer 9 jaune (dos : 6 rouge)"]
    # the wording field is never compared: a bare move from the web is the same move
    assert state.legal_actions(0)[0] == Play(code(state.hands[0][0]))
    assert Cry(turn="c1", shows="5 noir").label().endswith("(devient 1 rouge)")


def test_determinize_keeps_a_shown_void_out_of_the_hand() -> None:
    state = arrange(
        3,
        hands=[
            ["bleu9", "bleu3", "rouge2"],
            ["jaune2", "rouge4", "rouge5"],
            ["bleu10", "bleu6", "bleu5"],
        ],
    )
    prepare_all(state, ["vert", "vert", "vert"])
    state.apply(0, Play(code(state.hands[0][0])))  # bleu 9 led
    state.apply(1, Play(code(state.hands[1][1])))  # rouge 4: seat 1 has no blue end
    assert state.voids[1] == 1 << 2
    rng = random.Random(5)
    for _ in range(30):
        sample = state.determinize(2, rng)
        assert not [f for f in sample.hands[1] if FACE_COLOUR[f] == BLUE]
        assert sample.view(2) == state.view(2)
