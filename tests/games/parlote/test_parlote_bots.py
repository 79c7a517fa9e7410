"""Bots of La parlote coinchée: arguments from templates, honest votes, sound bids, and
whole games (bots' arguments included) that keep every invariant."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from choux import games
from choux.engine.base import IllegalAction
from choux.engine.playout import play_out
from choux.engine.record import replay, start
from choux.games.parlote import data
from choux.games.parlote.actions import Bid, Coinche, Contest, LetPass, Pass, Play, Vote
from choux.games.parlote.bots import OFF_TOPIC, GreedyBot, RandomParloteBot, on_topic
from choux.games.parlote.content import cards_index, scenarios_index
from choux.games.parlote.state import ParloteState
from choux.games.parlote.testing import arrange, code, contract_for, standard_hands

GAME = games.get("parlote")


def on_topic_argument(state: ParloteState) -> str:
    assert state.scenario is not None
    return f"Il faut {scenarios_index()[state.scenario].enjeu}, c'est évident."


def test_bots_write_arguments_from_the_card_templates_without_repeating() -> None:
    state = arrange(4, reader=0, hands=standard_hands(), contract=contract_for())
    bot = GreedyBot(random.Random(1))
    scenario = scenarios_index()[state.scenario or ""]
    texts = [bot.argue("ad-hominem", scenario) for _ in range(3)]
    assert len(set(texts)) == 3
    for text in texts:
        assert scenario.public in text and scenario.enjeu in text and len(text) <= 280
    move = bot.choose(state, 1)
    assert move is not None and isinstance(move.action, Play) and move.action.argument


def test_simple_check_flags_empty_and_off_topic_arguments() -> None:
    scenario = scenarios_index()["mythes-icare"]
    assert on_topic("Papa, tout le monde le fait !", scenario)
    assert on_topic("Il faut VOLER plus près du SOLEIL.", scenario)
    assert not on_topic("", scenario)
    for filler in OFF_TOPIC:
        assert not on_topic(filler, scenario)


def test_the_simple_check_is_generous_with_people_s_sentences() -> None:
    """People write as people do: plurals, other words for the stakes, the scenario's world
    (an audit's friends saw bots contest and vote down all of these); a name said over and
    over is still no argument."""
    by_title = {s.title: s for s in scenarios_index().values()}
    monday, shortcut = by_title["La réunion du lundi"], by_title["Le raccourci"]
    for text in (
        "Franchement, personne n'aime ces réunions, donc on arrête !",
        "Si on garde ce rendez-vous hebdomadaire, c'est la faillite assurée.",
    ):
        assert on_topic(text, monday), text
    assert on_topic("Le loup ? Il n'existe pas, personne ne l'a jamais prouvé.", shortcut)
    assert not on_topic("Clara, Clara, Clara, Clara !", monday)
    assert not on_topic("Maman, maman, maman, maman.", shortcut)
    # nor is gibberish, nor a filler with a word added (a review's finds)
    for text in (
        "aaaa bbbb cccc dddd",
        "1234 5678 9012 3456",
        "haha hahaha hahahaha hahahahaha",
        "Euh… j'ai oublié ce que je voulais dire, voilà.",
    ):
        assert not on_topic(text, monday), text


def test_bots_vote_counts_unless_empty_or_off_topic() -> None:
    for text, expected in (("on topic", True), (OFF_TOPIC[0], False)):
        state = arrange(
            4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
        )
        state.apply(1, Play(state.hands[1][0], on_topic_argument(state) if expected else text))
        state.apply(0, Contest())
        for bot in (RandomParloteBot(random.Random(2)), GreedyBot(random.Random(2))):
            move = bot.choose(state, 3)
            assert move is not None and move.action == Vote(expected)


def test_random_bot_never_contests() -> None:
    state = arrange(
        4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    state.apply(1, Play(state.hands[1][0], OFF_TOPIC[0]))
    for seed in range(20):
        move = RandomParloteBot(random.Random(seed)).choose(state, 0)
        assert move is not None and move.action == LetPass()


def test_greedy_contests_only_off_topic_arguments() -> None:
    for text, expected in ((OFF_TOPIC[1], Contest()), (None, LetPass())):
        state = arrange(
            4, options={"mode": "jury"}, reader=0, hands=standard_hands(), contract=contract_for()
        )
        state.apply(1, Play(state.hands[1][0], text or on_topic_argument(state)))
        move = GreedyBot(random.Random(1)).choose(state, 0)
        assert move is not None and move.action == expected


def test_greedy_bids_the_colours_where_its_trumps_are_strong() -> None:
    hands = standard_hands()
    strong = [code("maths", 1), code("maths", 2), code("langage", 1), code("langage", 2)]
    hands[1] = [*strong, code("tricherie", 4), code("obstruction", 4), code("influence", 3)]
    rest = [c for h in standard_hands() for c in h if c not in hands[1]]
    hands[0], hands[2], hands[3] = rest[:7], rest[7:14], rest[14:]
    state = arrange(4, reader=0, hands=hands)
    move = GreedyBot(random.Random(1)).choose(state, 1)
    assert move is not None and isinstance(move.action, Bid)
    assert set(move.action.colours) == {"maths", "langage"} and move.action.amount >= 100


def test_greedy_passes_a_weak_hand() -> None:
    state = arrange(4, reader=0, hands=standard_hands())  # seat 1: all depth 2, no pair
    move = GreedyBot(random.Random(1)).choose(state, 1)
    assert move is not None and move.action == Pass()


def test_greedy_coinches_a_capot_when_it_holds_their_trumps() -> None:
    state = arrange(4, reader=0, hands=standard_hands())
    state.apply(1, Bid(data.CAPOT, ("maths", "langage")))
    # seat 0 holds maths and langage at depth 1: the capot cannot be made
    move = GreedyBot(random.Random(1)).choose(state, 0)
    assert move is not None and move.action == Coinche()


def test_greedy_wins_cheaply_and_loads_its_partners_trick() -> None:
    state = arrange(
        4, options={"mode": "honneur"}, reader=0, hands=standard_hands(), contract=contract_for()
    )
    trumps = ("insuffisance", "influence")
    state.apply(1, Play(code("maths", 2), "x"))
    state.apply(2, Play(code("maths", 3), "x"))
    # seat 3 can win with maths 4 (deepest) or a trump: it takes the cheapest winner
    move = GreedyBot(random.Random(1)).choose(state, 3)
    assert move is not None and isinstance(move.action, Play)
    chosen = cards_index()[move.action.card]
    assert chosen.colour not in trumps and chosen.depth == 4
    state.apply(3, move.action)
    # seat 0, last, partner (seat 2) is not winning: it plays its cheapest card
    move = GreedyBot(random.Random(1)).choose(state, 0)
    assert move is not None and isinstance(move.action, Play)


@pytest.mark.parametrize("mode", ["jury", "arbitre", "honneur"])
def test_bot_games_keep_every_invariant_with_arguments(mode: str) -> None:
    """Like the generic deep check, but driven by bots, so windows and votes happen."""
    state, record = start(GAME, 4, 21, {"mode": mode, "target": 400})
    bots = [(GreedyBot if s % 2 else RandomParloteBot)(random.Random(s)) for s in range(4)]
    windows = set()
    for _ in range(5000):
        if state.is_over():
            break
        assert isinstance(state, ParloteState)
        state.check_invariants()
        if state.window is not None:
            windows.add(state.window.kind)
        for seat in [None, 0, 1, 2, 3]:
            view = state.view(seat)
            text = json.dumps(view, ensure_ascii=False)
            for secret in state.secrets(seat):
                assert json.dumps(secret, ensure_ascii=False) not in text
            if view["window"] is not None and view["window"]["kind"] == "vote":
                assert view["window"]["play"]["votes"] == []  # secret until the vote closes
        before = state.snapshot()
        for seat in set(range(4)) - set(state.actors()):
            for actor in state.actors():
                for action in state.legal_actions(actor)[:1]:
                    with pytest.raises(IllegalAction):
                        state.apply(seat, action)
        assert state.snapshot() == before
        moves = [(bots[s].choose(state, s), s) for s in state.actors()]
        chosen = [(m.delay, s, m.action) for m, s in moves if m is not None]
        if chosen:
            _, seat, action = min(chosen, key=lambda item: (item[0], item[1]))
            state.apply(seat, action)
            record.append(seat, action)
        else:
            deadline = state.deadline()
            assert deadline is not None
            state.apply(deadline.seat, deadline.action)
            record.append(deadline.seat, deadline.action)
    assert state.is_over()
    record.close(state)
    assert replay(record, GAME).snapshot() == state.snapshot()
    # Arbitre with four players: the reader's own arguments go to a vote of the three others
    expected = {"jury": {"contest", "vote"}, "arbitre": {"judge", "vote"}, "honneur": set()}[mode]
    assert windows == expected


def test_greedy_team_beats_random_team_most_of_the_time() -> None:
    wins = 0
    count = 30
    for index in range(count):
        greedy_team = index % 2
        bots = [
            GAME.make_bot(
                "greedy" if s % 2 == greedy_team else "random", random.Random(index * 4 + s)
            )
            for s in range(4)
        ]
        state = GAME.new(4, 100 + index)
        play_out(state, bots)
        outcome = state.outcome()
        assert outcome is not None
        wins += greedy_team in {s % 2 for s in outcome.winners}
    assert wins >= 0.8 * count


@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=2**31), mode=st.sampled_from(["jury", "arbitre"]))
def test_every_deal_distributes_156_points_and_scores_follow_the_contract(
    seed: int, mode: str
) -> None:
    state = GAME.new(4, seed, {"mode": mode, "target": 600})
    rng = random.Random(seed)
    bots = [
        GAME.make_bot(rng.choice(["random", "greedy"]), random.Random(seed + s)) for s in range(4)
    ]
    play_out(state, bots)
    assert isinstance(state, ParloteState)
    totals = [0, 0]
    for result in state.results:
        assert sum(result["points"]) == data.DEAL_POINTS
        contract = result["contract"]
        won = 7 if contract["capot"] and result["made"] else None
        if won is not None:
            assert result["points"][contract["team"]] == data.DEAL_POINTS
        totals = [totals[t] + result["scores"][t] for t in (0, 1)]
        if contract["coinched"]:
            assert all(s % 2 == 0 for s in result["scores"])
    assert totals == state.scores
    assert max(state.scores) > 600


def test_the_easiest_bot_bids_only_the_smallest_amount() -> None:
    """Bidding at random up to the capot, it made none of 22 contracts in an audit and gave
    its partner's opponents 820 points in one deal; now it bids low or passes."""
    bids = 0
    for seed in range(12):
        state = GAME.new(4, seed)
        bots = [RandomParloteBot(random.Random(seed * 4 + s)) for s in range(4)]
        for _ in range(400):
            if state.is_over() or getattr(state, "phase", None) == "play":
                break
            moved = False
            for seat in state.actors():
                move = bots[seat].choose(state, seat)
                if move is None:
                    continue
                if isinstance(move.action, Bid):
                    legal = [a.amount for a in state.legal_actions(seat) if isinstance(a, Bid)]
                    assert move.action.amount == min(legal), (move.action, legal)
                    bids += 1
                state.apply(seat, move.action)
                moved = True
                break
            if not moved:
                deadline = state.deadline()
                assert deadline is not None
                state.apply(deadline.seat, deadline.action)
    assert bids > 5
