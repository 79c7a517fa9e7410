"""The optional fifth seat of the Arbitre mode: one test per rule it adds."""

from __future__ import annotations

import json
import random

import pytest

from choux import games
from choux.engine.base import IllegalAction, InvalidOptions, NotYourTurn
from choux.engine.playout import play_out
from choux.games.parlote import data
from choux.games.parlote.actions import ClaimLiar, Clock, Draw, Judge, Pass, Play
from choux.games.parlote.bots import GreedyBot, RandomParloteBot
from choux.games.parlote.content import scenarios_index
from choux.games.parlote.records import COUNTS, NONE, REJECTED
from choux.games.parlote.state import DRAW, LIAR, PLAY, ParloteState
from choux.games.parlote.testing import arrange, contract_for, standard_hands

GAME = games.get("parlote")
ARBITER = 4


def on_topic_argument(state: ParloteState) -> str:
    assert state.scenario is not None
    return f"Il faut {scenarios_index()[state.scenario].enjeu}, tout le monde le dit."


def five(target: int = data.TARGET) -> ParloteState:
    """The first card of the first trick of a five-seat game, reader 0."""
    return arrange(
        5,
        options={"mode": "arbitre", "target": target},
        reader=0,
        hands=standard_hands(),
        contract=contract_for(),
    )


def test_arbiter_judges_every_argument_including_the_readers() -> None:
    state = five()
    for seat in (1, 2, 3, 0):  # the reader (seat 0) plays last in the first trick
        state.apply(seat, Play(state.hands[seat][0], on_topic_argument(state)))
        assert state.actors() == (ARBITER,)
        assert [a.to_json() for a in state.legal_actions(ARBITER)] == [
            Judge(True).to_json(),
            Judge(False).to_json(),
        ]
        for other in range(4):
            assert state.legal_actions(other) == []
            with pytest.raises(NotYourTurn):
                state.apply(other, Judge(True))
        state.apply(ARBITER, Judge(seat != 0))
    verdicts = {p.seat: (p.status, p.judge) for p in state.tricks[-1].plays}
    assert verdicts[0] == (REJECTED, ARBITER)
    assert all(verdicts[s] == (COUNTS, ARBITER) for s in (1, 2, 3))


def test_arbiter_has_no_legal_action_outside_judging() -> None:
    state = ParloteState(5, mode="arbitre", players=5)
    assert state.phase == LIAR and ARBITER not in state.actors()
    with pytest.raises(IllegalAction, match="arbitre"):
        state.apply(ARBITER, ClaimLiar())
    for seat in range(4):
        state.apply(seat, ClaimLiar())
    assert state.phase == DRAW and state.reader in range(4)
    with pytest.raises(IllegalAction, match="arbitre"):
        state.apply(ARBITER, Draw(0))
    deal = arrange(5, options={"mode": "arbitre"}, reader=0)
    assert deal.legal_actions(ARBITER) == []
    with pytest.raises(IllegalAction, match="arbitre"):
        deal.apply(ARBITER, Pass())
    play = five()
    assert play.legal_actions(ARBITER) == []
    with pytest.raises(IllegalAction, match="arbitre"):
        play.apply(ARBITER, Play(play.hands[1][0], "moi aussi"))
    play.apply(1, Play(play.hands[1][0], ""))  # no argument: nothing to judge
    assert play.trick[-1].status == NONE and ARBITER not in play.actors()


def test_five_players_refused_outside_arbitre_mode() -> None:
    for mode in ("jury", "honneur"):
        with pytest.raises(InvalidOptions, match="cinquième siège"):
            GAME.new(5, 1, {"mode": mode})
    with pytest.raises(InvalidOptions):
        GAME.new(5, 1, {})
    with pytest.raises(InvalidOptions):
        GAME.new(6, 1, {"mode": "arbitre"})
    assert GAME.new(5, 1, {"mode": "arbitre"}).view(ARBITER)["arbiter"] == ARBITER
    assert GAME.new(4, 1, {"mode": "arbitre"}).view(0)["arbiter"] is None


def test_four_players_in_arbitre_mode_keep_the_reader_as_judge() -> None:
    state = arrange(
        4, options={"mode": "arbitre"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(state.hands[1][0], on_topic_argument(state)))
    assert state.actors() == (0,)


def test_arbiter_view_hides_the_hands_and_the_italic_line() -> None:
    state = five()
    state.apply(1, Play(state.hands[1][0], on_topic_argument(state)))
    view = state.view(ARBITER)
    assert view["hand"] == [] and view["team"] is None and view["seat"] == ARBITER
    assert view["players"] == 5 and view["arbiter"] == ARBITER
    assert view["scenario"] is not None and view["scenario"]["objection"] is None
    assert view["window"] is not None and view["window"]["kind"] == "judge"
    assert view["trick"] is not None and len(view["trick"]["plays"]) == 1
    assert [entry["action"]["type"] for entry in view["legal"]] == ["arbitrer", "arbitrer"]
    text = json.dumps(view, ensure_ascii=False)
    hidden = state.secrets(ARBITER)
    assert all(code in hidden for hand in state.hands for code in hand)
    assert not any(f'"{secret}"' in text for secret in hidden)
    assert state.view(0)["scenario"]["objection"] is not None  # the reader still sees it


def test_a_timeout_still_counts_the_argument() -> None:
    state = five()
    state.apply(1, Play(state.hands[1][0], "Un argument que personne ne juge."))
    assert state.actors() == (ARBITER,)
    state.apply_timeout()
    assert state.trick[-1].status == COUNTS and state.trick[-1].judge is None
    assert state.turn == 2 and state.window is None


def test_outcome_gives_the_arbiter_score_zero_and_the_last_rank() -> None:
    state = five(target=100)
    while state.phase == PLAY:
        state.apply(None, Clock())
    outcome = state.outcome()
    assert outcome is not None and len(outcome.scores) == 5 == len(outcome.ranks)
    assert outcome.scores[ARBITER] == 0 and outcome.ranks[ARBITER] == 3
    assert ARBITER not in outcome.winners


def test_greedy_arbiter_accepts_on_topic_and_rejects_empty_or_off_topic() -> None:
    bot = GreedyBot(random.Random(1))
    state = five()
    state.apply(1, Play(state.hands[1][0], on_topic_argument(state)))
    move = bot.choose(state, ARBITER)
    assert move is not None and move.action == Judge(True)
    state.apply(ARBITER, move.action)
    state.apply(2, Play(state.hands[2][0], "Joker !"))
    move = bot.choose(state, ARBITER)
    assert move is not None and move.action == Judge(False)


def test_the_easiest_arbiter_judges_honestly_too() -> None:
    """It tossed a coin: people's good arguments were rejected half the time."""
    for seed in range(20):
        state = five()
        state.apply(1, Play(state.hands[1][0], on_topic_argument(state)))
        move = RandomParloteBot(random.Random(seed)).choose(state, ARBITER)
        assert move is not None and move.action == Judge(True)
        state.apply(ARBITER, move.action)
        state.apply(2, Play(state.hands[2][0], "Joker !"))
        move = RandomParloteBot(random.Random(seed)).choose(state, ARBITER)
        assert move is not None and move.action == Judge(False)


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_bots_finish_a_five_seat_game(level: str) -> None:
    state = GAME.new(5, 4, {"mode": "arbitre", "argument_required": True, "target": 300})
    bots = [GAME.make_bot(level, random.Random(s)) for s in range(5)]
    play_out(state, bots)
    assert state.is_over()
    assert state.recap is not None
    judges = {p["judge"] for t in state.recap["tricks"] for p in t["plays"]}  # type: ignore[index, union-attr]
    assert ARBITER in judges
