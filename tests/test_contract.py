"""Generic tests of the engine contract, run on every game of the registry.

Random legal playouts from hypothesis-drawn seeds check the invariants every game owes:
the actor always has a legal action, every legal action applies, an illegal action raises
and leaves the state equal, views never hold a secret, the game ends, replay is exact.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux import games
from choux.ai.pimc import SearchBot
from choux.engine import IllegalAction, State
from choux.engine.base import Bot
from choux.engine.playout import play_out
from choux.engine.record import Record, replay, start
from choux.engine.views import leaked_secrets

CASES = [
    (name, players, options)
    for name in games.names()
    for players, options in games.get(name).configurations()
]
IDS = [f"{n}-{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, p, o in CASES]


def check_views(state: State, players: int) -> None:
    for seat in [None, *range(players)]:
        json.dumps(state.view(seat))  # JSON-ready
        leaked = leaked_secrets(state, seat)
        assert not leaked, f"seat {seat} sees hidden {sorted(leaked)[:5]}"


def random_playout(name: str, players: int, options: dict, seed: int, deep: bool) -> None:
    game = games.get(name)
    state, record = start(game, players, seed, options)
    rng = random.Random(seed)
    for _step in range(20_000):
        state.check_invariants()
        if state.is_over():
            break
        actors = state.actors()
        deadline = state.deadline()
        assert actors or deadline is not None, "nobody may act and no window is open"
        for seat in actors:
            assert state.legal_actions(seat), f"actor {seat} has no legal action"
        for seat in set(range(players)) - set(actors):
            assert not state.legal_actions(seat), f"non-actor {seat} has legal actions"
        if deep:
            check_views(state, players)
            check_illegal_leaves_state(state, players, rng)
        if actors and (deadline is None or rng.random() < 0.9):
            seat = rng.choice(actors)
            action = rng.choice(state.legal_actions(seat))
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            assert isinstance(action.label(), str) and action.label()
        else:
            assert deadline is not None
            seat, action = deadline.seat, deadline.action
        events = state.apply(seat, action)
        record.append(seat, action)
        for event in events:
            json.dumps(event.to_json())
    else:
        pytest.fail("the game did not end")
    outcome = state.outcome()
    assert outcome is not None and len(outcome.scores) == players == len(outcome.ranks)
    assert min(outcome.ranks) == 1
    assert not state.actors() and state.deadline() is None
    check_views(state, players)
    record.close(state)
    again = replay(Record.from_json(json.loads(record.dumps())), game)
    assert again.snapshot() == state.snapshot()


def check_illegal_leaves_state(state: State, players: int, rng: random.Random) -> None:
    before = state.snapshot()
    actors = state.actors()
    others = [s for s in range(players) if s not in actors]
    for seat in actors:
        for action in state.legal_actions(seat):
            for other in others:
                with pytest.raises(IllegalAction):
                    state.apply(other, action)
                assert state.snapshot() == before
            break
    # an action legal for one actor but not for another
    if len(actors) >= 2:
        a, b = rng.sample(list(actors), 2)
        legal_b = state.legal_actions(b)
        for action in state.legal_actions(a):
            if action not in legal_b:
                with pytest.raises(IllegalAction):
                    state.apply(b, action)
                assert state.snapshot() == before
                break


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_playout_keeps_invariants(name: str, players: int, options: dict, seed: int) -> None:
    random_playout(name, players, options, seed, deep=False)


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_deep_checks_on_one_playout(name: str, players: int, options: dict) -> None:
    random_playout(name, players, options, 7, deep=True)


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_same_seed_same_game(name: str, players: int, options: dict) -> None:
    game = games.get(name)
    finals = []
    for _ in range(2):
        state, _record = start(game, players, 11, options)
        bots = [game.make_bot("random", random.Random(100 + s)) for s in range(players)]
        finals.append(play_out(state, bots).snapshot())
    assert finals[0] == finals[1]


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_every_bot_level_finishes_a_game(name: str, players: int, options: dict) -> None:
    game = games.get(name)
    for level in game.bots():
        state, record = start(game, players, 3, options)
        bots = [small_budget(game.make_bot(level, random.Random(s))) for s in range(players)]
        play_out(state, bots, record)
        assert state.is_over()
        assert replay(record, game).snapshot() == state.snapshot()


def small_budget(bot: Bot) -> Bot:
    """The contract is that every level finishes a game legally, not how strong it is: a
    searching level keeps its own code path with few simulations (a whole Chouine match of
    « maître » at full budget costs minutes)."""
    if isinstance(bot, SearchBot):
        bot.simulations = min(bot.simulations, 24)
    return bot


@pytest.mark.parametrize(("name", "players", "options"), CASES, ids=IDS)
def test_determinize_keeps_what_the_seat_sees(name: str, players: int, options: dict) -> None:
    game = games.get(name)
    state, _ = start(game, players, 5, options)
    rng = random.Random(1)
    for _ in range(15):
        if state.is_over():
            break
        for seat in range(players):
            sample = state.determinize(seat, random.Random(2))
            assert sample.view(seat) == state.view(seat)
            sample.check_invariants()
        seat = rng.choice(state.actors()) if state.actors() else None
        if seat is None:
            state.apply_timeout()
        else:
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_random_bot_is_registered_everywhere() -> None:
    for name in games.names():
        assert "random" in games.get(name).bots()
