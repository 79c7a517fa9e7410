"""The Chouine search levels: what they may know, what they infer, how they roll out."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux.engine.base import Bot, BotMove
from choux.games.chouine import GAME, ChouineState, endgame
from choux.games.chouine.actions import ACTIONS, Play
from choux.games.chouine.bots import GreedyBot, expert_bot, maitre_bot
from choux.games.chouine.cards import CODES, parse, parse_all
from choux.games.chouine.search import (
    ChouineSearch,
    learned_move,
    rollout_move,
    value_estimate,
    value_features,
    win_value,
)
from choux.games.chouine.testing import arrange
from choux.games.chouine.value_weights import VALUE_WEIGHTS


def advance(state: ChouineState, moves: int, seed: int) -> ChouineState:
    greedy = GreedyBot(random.Random(seed))
    for _ in range(moves):
        if state.stage != "play":
            break
        move = greedy.choose(state, state.turn)
        assert move is not None
        state.apply(state.turn, move.action)
    return state


def twin(state: ChouineState, seat: int) -> ChouineState:
    """The same position with everything `seat` cannot see dealt differently."""
    other = state.determinize(seat, random.Random(4242))
    other.rng = random.Random(99)
    assert other.view(seat) == state.view(seat)
    return other


def full_rollout_expert() -> Bot:
    bot = expert_bot(random.Random(3), 60, None)
    bot.value_tricks = 0
    return bot


def rule_rollout_expert() -> Bot:
    bot = expert_bot(random.Random(3), 60, None)
    bot.rollout_policy = 0
    return bot


LEVELS = {
    "expert-rule": rule_rollout_expert,
    "greedy": lambda: GreedyBot(random.Random(3)),
    "expert-full": full_rollout_expert,
    "expert": lambda: expert_bot(random.Random(3), 60, None),
    "maitre": lambda: maitre_bot(random.Random(3), 90, None),
}


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("players", "moves"), [(2, 0), (2, 9), (2, 20), (3, 6), (4, 4)])
def test_bots_decide_from_what_their_seat_sees_only(level: str, players: int, moves: int) -> None:
    state = advance(GAME.new(players, 31 + moves), moves, 5)  # type: ignore[arg-type]
    seat = state.turn
    other = twin(state, seat)
    if players == 2 and state.talon:
        assert other.snapshot() != state.snapshot()  # the hidden cards did move
    first = LEVELS[level]().choose(state, seat)
    second = LEVELS[level]().choose(other, seat)
    assert first is not None and first == second


def test_playing_a_king_without_its_mariage_makes_the_queen_unlikely() -> None:
    state = arrange(2, hands=["KH 7S 8S 9S JS", "AC AD 7C 8C 9C"], turned_up="TD")
    state.apply(0, Play("KH"))
    assert state.unlikely[0] >> parse("QH") & 1
    assert not state.unlikely[0] >> parse("QS") & 1


def test_playing_while_the_seven_could_be_exchanged_makes_it_unlikely() -> None:
    state = arrange(2, hands=["KH 7S 8S 9S JS", "AC AD 8C 9C JC"], turned_up="TD")
    state.apply(0, Play("7S"))
    assert state.unlikely[0] >> parse("7D") & 1


def test_determinization_rarely_deals_an_unlikely_card_to_that_seat() -> None:
    state = advance(GAME.new(2, 8), 2, 1)  # type: ignore[arg-type]
    seat = state.turn
    other = 1 - seat
    hidden = sorted(state.hidden_cards(seat))
    marked, plain = hidden[0], hidden[1]
    state.set_unlikely(other, 1 << marked)
    rng = random.Random(0)
    counts = {marked: 0, plain: 0}
    for _ in range(600):
        world = state.determinize(seat, rng)
        for c in counts:
            counts[c] += c in world.hands[other]
    assert counts[marked] < 0.6 * counts[plain]


@pytest.mark.parametrize("policy", [rollout_move, learned_move])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rollout_policy_plays_whole_parties_legally(
    players: int, policy: Callable[[ChouineState, int, random.Random], int]
) -> None:
    """The hand-written rule and the distilled policy (`card_policy.py`)."""
    rng = random.Random(players)
    for seed in range(20):
        state = GAME.new(players, seed)
        assert isinstance(state, ChouineState)
        while state.stage == "play":
            seat = state.turn
            move = policy(state, seat, rng)
            assert ACTIONS[move] in state.legal_actions(seat)
            state.apply_id(seat, move)


def test_rollout_policy_declares_the_chouine_it_holds() -> None:
    state = arrange(2, hands=["KH QH JH TH 9S", "AS AC AD TC TD"], turned_up="KC")
    move = ACTIONS[rollout_move(state, 0, random.Random(0))]
    assert isinstance(move, Play) and move.declare == "chouine"


def test_a_lost_partie_is_played_on_with_a_sensible_card_not_the_first_listed() -> None:
    # the other seat has won 105 card points and only 25 are left: every world is lost far
    # beyond the margin the search reads, so every candidate has the same value; the first
    # listed is the trump ten, which a player fighting on keeps for the tricks to come
    state = arrange(
        2,
        hands=["TS 7H 8H 7D 8D", "9H 9D 7C 8C 9C"],
        turned_up="QS",
        talon="JS",
        won=["", "AH TH AD TD AC TC AS KH KD KC KS QH QD JH 7S 8S 9S JD JC QC"],
        leader=0,
    )
    assert isinstance(state.legal_actions(0)[0], Play)
    assert state.legal_actions(0)[0].card == "TS"
    bot = expert_bot(random.Random(0), 300, None)
    move = bot.choose(state, 0)
    assert bot.last_values is not None
    assert max(bot.last_values) - min(bot.last_values) < 1e-9
    assert isinstance(move, BotMove) and isinstance(move.action, Play)
    assert move.action.card != "TS"


#: two parties of an audit of the expert's play, up to the last chance to exchange the seven:
#: (seed, the cards played from the deal on, by seat, then the seat to decide); the seat
#: holds the seven and the king of trumps, the queen (here: spades) or the king (hearts)
#: is turned up, the other one's card is led, and after this trick the talon is too short
LAST_CHANCES = [
    (
        213,
        "0:7D 1:AD 1:8D 0:TD 0:KD 1:TS 1:9D 0:7H 1:AC 0:9S 0:JD 1:9H 0:QC 1:KC 1:QD 0:JS "
        "0:KH 1:7C 0:9C",
        1,
    ),
    (
        60,
        "1:8S 0:9C 1:QD 0:KD 0:9H 1:QC+ 0:JS 1:AH 1:KC 0:TH 0:7D 1:AD 1:7C 0:TC 0:8D 1:9S "
        "0:TD 1:8H 1:JC",
        0,
    ),
]


def replayed(seed: int, moves: str) -> ChouineState:
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    for move in moves.split():
        seat, card = move.split(":")
        declare = "mariage" if card.endswith("+") else None
        state.apply(int(seat), Play(card.rstrip("+"), declare))
    return state


@pytest.mark.parametrize(("seed", "moves", "seat"), LAST_CHANCES)
def test_the_last_chance_to_exchange_the_seven_is_taken(seed: int, moves: str, seat: int) -> None:
    """The exchange was valued by the rollout policy's next move (after it, the policy
    declares the mariage the exchange made at once, whatever the trick) and lost to a plain
    card: in an audit of the expert's play, 19 of 49 last chances went by, where exchanging
    then playing the right card was worth 0.2 to 0.35 of a partie by long searches. It is
    now searched as « exchange, then each move after it »."""
    state = replayed(seed, moves)
    assert state.turn == seat and len(state.talon) == 4 and len(state.trick) == 1
    actions = state.legal_actions(seat)
    assert any(a.kind == "exchange" for a in actions)
    for rng_seed in range(3):
        bot = expert_bot(random.Random(rng_seed), 300, None)
        move = bot.choose(state, seat)
        assert move is not None and move.action.kind == "exchange", (rng_seed, move)
        # the values reported are the candidates' own, one each (the best of its plans)
        assert bot.last_values is not None and len(bot.last_values) == len(actions)
        assert bot.last_simulations <= 300


def test_maitre_is_offered_with_the_other_levels() -> None:
    assert list(GAME.bots()) == ["random", "greedy", "expert", "maitre"]
    bot: Bot = GAME.make_bot("maitre", random.Random(0))
    state = GAME.new(2, 1)
    move = bot.choose(state, state.actors()[0])
    assert move is not None and move.action in state.legal_actions(state.actors()[0])


def test_maitre_searches_under_a_clock_of_at_most_a_second() -> None:
    """« maître » thinks at most 1 s a move: its clock is set under a second, and the search
    really stops on its clock rather than on its count of simulations (no wall-time bound
    here: a loaded machine would make such a test flaky; `docs/perf.md` has the timings)."""
    bot = GAME.make_bot("maitre", random.Random(0))
    assert isinstance(bot, ChouineSearch)
    assert bot.seconds is not None and bot.seconds <= 1.0
    state = GAME.new(2, 12)
    assert isinstance(state, ChouineState)
    clocked = ChouineSearch(random.Random(0), simulations=10**9, seconds=0.05)
    seat = state.turn
    move = clocked.choose(state, seat)
    assert move is not None and move.action in state.legal_actions(seat)
    assert 0 < clocked.last_simulations < 10**9


@given(margin=st.integers(min_value=-500, max_value=500), players=st.sampled_from([2, 3, 4]))
def test_a_chouine_is_worth_the_best_win_and_its_loss_the_worst_loss(
    margin: int, players: int
) -> None:
    """A Chouine ends the game at once: the search must never prefer a plain win to it, nor
    a Chouine against it to a plain loss (they were a bare 1 and 0, under a win by a point)."""
    won, lost = win_value(endgame.WIN, players), win_value(-endgame.WIN, players)
    assert lost <= win_value(margin, players) <= won
    if margin > 0:
        assert win_value(margin, players) > win_value(0, players) > win_value(-margin, players)


def test_the_fitted_evaluation_has_weights_for_every_talon_of_phase_one() -> None:
    state = GAME.new(2, 5)
    assert isinstance(state, ChouineState)
    size = len(value_features(state, 0))
    assert sorted(VALUE_WEIGHTS) == list(range(2, 21, 2))
    assert all(len(w) == size for w in VALUE_WEIGHTS.values())


def test_value_features_read_the_two_seats_the_other_way_round() -> None:
    state = advance(GAME.new(2, 17), 6, 2)  # type: ignore[arg-type]
    mine, theirs = value_features(state, 0), value_features(state, 1)
    side = (len(mine) - 3) // 2
    assert mine[1 : 1 + side] == theirs[1 + side : 1 + 2 * side]
    assert mine[-2] == -theirs[-2] and mine[-1] + theirs[-1] == 1.0


def test_the_fitted_evaluation_prefers_the_hand_with_the_high_trumps() -> None:
    hands = ["AH TH KH 8S 9C", "7S 8C 9D JD 7C"]
    used = set(parse_all(" ".join(hands))) | {parse("QH"), parse("7D"), parse("8D")}
    rest = " ".join(CODES[c] for c in range(32) if c not in used)  # 19 cards to draw
    state = arrange(2, hands=hands, turned_up="QH", talon=rest, won=["7D", "8D"], leader=0)
    assert len(state.talon) == 20
    strong, weak = value_estimate(state, 0), value_estimate(state, 1)
    assert strong is not None and weak is not None and strong > weak


@pytest.mark.parametrize(
    ("level", "tricks", "policy"),
    [("expert", 2, 4), ("maitre", 2, 4)],
)
def test_registered_rollouts_are_cut_short_and_valued_by_the_fitted_evaluation(
    level: str, tricks: int, policy: int
) -> None:
    """Both levels' rollouts stop two tricks after the decision, played by the distilled
    policy (« maître » has more of them)."""
    state = advance(GAME.new(2, 23), 1, 1)  # type: ignore[arg-type]
    while state.trick or len(state.talon) > 18:  # to the start of the third trick
        advance(state, 1, 1)
    assert len(state.talon) == 18
    factory = maitre_bot if level == "maitre" else expert_bot
    bot = factory(random.Random(1), 60, None)
    assert bot.rollout_policy == policy
    seat = state.turn
    world = state.determinize(seat, random.Random(5))
    value = bot._rollout(state, world, seat)
    assert len(world.talon) == len(state.talon) - 2 * tricks and not world.trick
    assert value == value_estimate(world, seat)


def test_a_bot_reads_its_own_evaluation_at_the_cut() -> None:
    """`value_weights` is the bot's own table: one without weights for any talon size never
    cuts (the same rollouts as a bot that plays them to the end), the registered table does."""
    state = advance(GAME.new(2, 23), 4, 1)  # type: ignore[arg-type]
    seat = state.turn
    world = state.determinize(seat, random.Random(5))

    def rollout(value_tricks: int, table: dict[int, tuple[float, ...]] | None) -> float:
        bot = expert_bot(random.Random(1), 60, None)
        bot.value_tricks, bot.value_weights = value_tricks, table
        return bot._rollout(state, world.clone(), seat)

    assert rollout(2, {}) == rollout(0, None)
    assert rollout(2, None) == rollout(2, VALUE_WEIGHTS) != rollout(0, None)
    constant = {size: (0.25,) + (0.0,) * (len(w) - 1) for size, w in VALUE_WEIGHTS.items()}
    assert rollout(2, constant) == 0.25
