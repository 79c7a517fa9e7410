"""Properties over whole games: scores never below 0, nobody wins off their own turn,
replay is exact."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from choux import games
from choux.engine.record import Record, replay, start
from choux.games.cul_de_chouette.state import CulDeChouetteState

LEVELS = ("easy", "medium", "hard")


def bot_game(
    players: int, seed: int, options: dict[str, object]
) -> tuple[CulDeChouetteState, Record]:
    game = games.get("cul-de-chouette")
    state, record = start(game, players, seed, options)  # type: ignore[arg-type]
    assert isinstance(state, CulDeChouetteState)
    bots = [game.make_bot(LEVELS[s % 3], random.Random(seed + s)) for s in range(players)]
    for _ in range(20_000):
        state.check_invariants()
        if state.is_over():
            break
        roller = state.roller
        best = None
        for seat in state.actors():
            move = bots[seat].choose(state, seat)
            if move is not None and (best is None or move.delay < best[1].delay):
                best = (seat, move)
        if best is None:
            deadline = state.deadline()
            assert deadline is not None
            state.apply(None, deadline.action)
            record.append(None, deadline.action)
        else:
            state.apply(best[0], best[1].action)
            record.append(best[0], best[1].action)
        assert all(score >= 0 for score in state.scores)
        if state.is_over():
            assert state.winner == roller, "a win off one's own turn"
    assert state.is_over()
    record.close(state)
    return state, record


@settings(max_examples=12)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 8))
def test_bot_games_keep_scores_at_or_above_zero_and_wins_on_own_turn(
    seed: int, players: int
) -> None:
    state, _record = bot_game(players, seed, {})
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (state.winner,)
    assert state.scores[state.winner] >= 343  # type: ignore[index]


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31))
def test_replay_of_a_record_is_exact(seed: int) -> None:
    state, record = bot_game(4, seed, {})
    again = replay(Record.from_json(json.loads(record.dumps())), games.get("cul-de-chouette"))
    assert again.snapshot() == state.snapshot()


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31))
def test_real_dice_games_replay_exactly(seed: int) -> None:
    state, record = bot_game(3, seed, {"des": "reels", "scribe": 0})
    again = replay(Record.from_json(json.loads(record.dumps())), games.get("cul-de-chouette"))
    assert again.snapshot() == state.snapshot()


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31))
def test_clone_is_independent_and_equal(seed: int) -> None:
    game = games.get("cul-de-chouette")
    state = game.new(4, seed)
    rng = random.Random(seed)
    for _ in range(200):
        if state.is_over():
            break
        twin = state.clone()
        assert twin.snapshot() == state.snapshot()
        actors = state.actors()
        if not actors:
            state.apply_timeout()
            twin.apply_timeout()
        else:
            seat = rng.choice(actors)
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            assert twin.actors() == actors
            twin.apply(seat, action)
        assert twin.snapshot() == state.snapshot()
