"""Bots: reaction delays by level, errors at the easy level, expected-value choices."""

from __future__ import annotations

import random

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BetChallenge,
    BetFace,
    BetTotal,
    BuyCul,
    ChallengeGrelottine,
    CivetBet,
    DeclareBevue,
    EnterDice,
    Pass,
    Shout,
    Sip,
)
from choux.games.cul_de_chouette.bots import (
    BOTS,
    LEVELS,
    ChouetteBot,
    bleu_rouge_value,
    cul_value,
    probability,
    side_bet_value,
    soufflette_success,
)
from choux.games.cul_de_chouette.state import CulDeChouetteState
from choux.games.cul_de_chouette.testing import arrange, dice


def chouette_velute() -> CulDeChouetteState:
    state = arrange(3)
    dice(state, 2, 2)
    dice(state, 4)
    return state


def test_bot_levels_are_registered() -> None:
    assert set(BOTS) == {"random", "easy", "medium", "hard"}


def test_bots_shout_at_a_person_s_pace_hard_ones_first() -> None:
    """A person sees the dice, finds the cry and clicks in about 1 to 2 s: at 0.3 s the
    robots won every race against people (an audit). Every level still shouts within the
    race's 4 s."""
    easy = BOTS["easy"](random.Random(1))
    hard = BOTS["hard"](random.Random(1))
    e = [easy.choose(chouette_velute(), 1) for _ in range(50)]
    h = [hard.choose(chouette_velute(), 1) for _ in range(50)]
    assert all(m is not None for m in e + h)
    easy_mean = sum(m.delay for m in e if m) / 50
    hard_mean = sum(m.delay for m in h if m) / 50
    assert 0.85 <= hard_mean <= 1.15 and 1.9 <= easy_mean <= 2.5
    assert min(m.delay for m in h if m) >= 0.7
    assert max(m.delay for m in e if m) < C.WINDOW_SECONDS["chouette_velute"]


class Lowest(random.Random):
    """A draw always at the bottom of its range: a bot's quickest possible delay."""

    def random(self) -> float:
        return 0.0


def test_the_random_bot_shouts_slower_than_the_slowest_level_can() -> None:
    """« Au hasard » reacts like a slow, distracted person: it shouted at once (held back by
    the table's pace alone) and won the races. Each of its shouts now comes no sooner than
    the quickest shout of the slowest level, within the race's 4 s, the same for the same
    seed."""
    slowest_quickest = max(
        ChouetteBot(Lowest(), level).delay(level.reaction) for level in LEVELS.values()
    )
    delays = []
    for seed in range(200):
        move = BOTS["random"](random.Random(seed)).choose(chouette_velute(), 1)
        assert move is not None and isinstance(move.action, Shout), move
        delays.append(move.delay)
    assert min(delays) >= slowest_quickest + 0.4, (min(delays), slowest_quickest)
    assert max(delays) < C.WINDOW_SECONDS["chouette_velute"]
    easy = [BOTS["easy"](random.Random(s)).choose(chouette_velute(), 1) for s in range(200)]
    assert sum(delays) / 200 > sum(m.delay for m in easy if m) / 200 + 0.4
    again = [BOTS["random"](random.Random(s)).choose(chouette_velute(), 1) for s in range(200)]
    assert [m.delay for m in again if m] == delays


def test_easy_bots_sometimes_shout_the_wrong_cry_and_hard_ones_never() -> None:
    easy = BOTS["easy"](random.Random(3))
    hard = BOTS["hard"](random.Random(3))
    right = Shout(C.PAS_MOU)
    easy_moves = [easy.choose(chouette_velute(), 2) for _ in range(300)]
    hard_moves = [hard.choose(chouette_velute(), 2) for _ in range(300)]
    assert any(m is not None and m.action != right for m in easy_moves)
    assert all(m is not None and m.action == right for m in hard_moves)


def test_bots_sip_by_expected_value() -> None:
    hard = BOTS["hard"](random.Random(1))
    for pair, other, expected in ((1, 5, True), (2, 5, True), (5, 1, False), (6, 2, False)):
        state = arrange(3, scores=[10, 0, 0])
        dice(state, pair, pair)
        dice(state, other)
        move = hard.choose(state, 0)
        assert move is not None and move.action == Sip(expected), pair


def test_bots_keep_a_chouette_that_wins() -> None:
    hard = BOTS["hard"](random.Random(1))
    state = arrange(3, scores=[330, 0, 0])
    dice(state, 4, 4)
    dice(state, 1)
    move = hard.choose(state, 0)
    assert move is not None and move.action == Sip(False)


def test_hard_bot_buys_a_valuable_cul_only() -> None:
    hard = BOTS["hard"](random.Random(1))
    assert cul_value((6, 6)) > 30 > cul_value((1, 3))
    state = arrange(3, scores=[0, 100, 0])
    dice(state, 6, 6)
    move = hard.choose(state, 1)
    assert move is not None and move.action == BuyCul()
    state = arrange(3, scores=[0, 100, 0])
    dice(state, 1, 3)
    move = hard.choose(state, 1)
    assert move is not None and move.action == Pass()  # no purchase: it says « Je passe »


def test_hard_bot_challenges_with_the_best_expected_stake() -> None:
    hard = BOTS["hard"](random.Random(1))
    state = arrange(3, scores=[100, 200, 0], grelottine=[False, True, False])
    dice(state, 1, 3)
    state.apply_timeout()
    dice(state, 6)
    move = hard.choose(state, 1)
    assert move is not None and isinstance(move.action, ChallengeGrelottine)
    assert move.action == ChallengeGrelottine("Sirop-Grelot", 20)


def bleu_rouge() -> CulDeChouetteState:
    state = arrange(3, scores=[50, 20, 20])  # (nobody else may buy the Cul)
    dice(state, 3, 3)
    dice(state, 4)
    return state


def test_bots_announce_the_bleu_rouge_totals_worth_most() -> None:
    """Not the likeliest three: 9 and 12 are as likely, but a right total scores twice
    itself (and the re-roll's points), so 12 is worth 12.7 points and 9 only 6.9 (found by
    an audit: the bots always announced 9, 10 and 11)."""
    for level in ("hard", "medium"):
        bot = BOTS[level](random.Random(1))
        state = bleu_rouge()
        totals = []
        for _ in range(3):
            move = bot.choose(state, 0)
            assert move is not None and isinstance(move.action, AnnounceTotal)
            totals.append(move.action.total)
            state.apply(0, move.action)
        assert totals == [12, 10, 11], level
    assert [round(bleu_rouge_value(t), 2) for t in (12, 10, 11, 9)] == [12.66, 10.18, 7.94, 6.85]


def test_careful_bots_bet_on_a_challenge_and_never_on_a_bleu_rouge_total() -> None:
    """A total is right 27 times in 216 at best: a bet of 5 for 25 loses 1.25 on average;
    the likelier outcome of a Grelottine challenge wins it 10 points or more."""
    assert side_bet_value(27 / 216) == -1.25 and side_bet_value(0.5) == 10
    state = bleu_rouge()
    for total in (12, 10, 11):
        state.apply(0, AnnounceTotal(total))
    assert any(isinstance(a, BetTotal) for a in state.legal_actions(1))
    for level in ("hard", "medium"):
        for seed in range(20):
            move = BOTS[level](random.Random(seed)).choose(state, 1)
            assert move is not None and move.action == Pass(), (level, seed, move)
    challenged = arrange(3, scores=[100, 200, 50], grelottine=[False, True, False])
    dice(challenged, 1, 3)
    challenged.apply_timeout()
    dice(challenged, 6)
    challenged.apply(1, ChallengeGrelottine("Chouette", 10))
    bets = [a for a in challenged.legal_actions(2) if isinstance(a, BetChallenge)]
    assert bets
    sirotage = arrange(3, scores=[10, 20, 20])  # a face breaks even: no bet either
    dice(sirotage, 2, 2)
    dice(sirotage, 5)
    sirotage.apply(0, Sip(True))
    assert any(isinstance(a, BetFace) for a in sirotage.legal_actions(1))
    for level in ("hard", "medium"):
        move = BOTS[level](random.Random(1)).choose(sirotage, 1)
        assert move is not None and move.action == Pass(), (level, move)
    for seed in range(20):
        move = BOTS["hard"](random.Random(seed)).choose(challenged, 2)
        # a Chouette is made 90 times in 216: « raté » is the likelier outcome
        assert move is not None and move.action == BetChallenge(False), (seed, move)


def test_hard_bot_keeps_a_civet_that_no_combination_makes_worth_betting() -> None:
    """Even money on a combination less likely than not loses on average (the likeliest,
    a Chouette, is made 90 times in 216): the hard bot rolls without its Civet."""
    state = arrange(3, scores=[100, 0, 0], civet=[True, False, False])
    assert any(isinstance(a, CivetBet) for a in state.legal_actions(0))
    move = BOTS["hard"](random.Random(1)).choose(state, 0)
    assert move is not None and isinstance(move.action, EnterDice)


def test_bots_never_press_the_bevue_button() -> None:
    state = arrange(3)
    assert state.legal_actions(1)[0] == DeclareBevue(0)
    for level in ("easy", "medium", "hard"):
        assert BOTS[level](random.Random(1)).choose(state, 1) is None


def test_probabilities_used_by_the_bots() -> None:
    assert abs(probability("Chouette") - 90 / 216) < 1e-9
    assert abs(probability("Cul de Chouette") - 6 / 216) < 1e-9
    assert 0.05 < soufflette_success() < 0.5


def test_the_random_bot_plays_its_own_decisions_but_never_polices_the_table() -> None:
    """At a real table the « au hasard » robot picks any of its own moves (wrong cries
    included), but neither the −10 button on another player nor a shout out of place: a
    uniform choice would press them at every turn and fine the people at the table."""
    from choux.engine.playout import first_mover

    chosen = 0
    for seed in range(4):
        bots = [BOTS["random"](random.Random(seed * 10 + s)) for s in range(3)]
        state = CulDeChouetteState(3, seed, {})
        for _ in range(20_000):
            if state.is_over():
                break
            found = first_mover((s, bots[s].choose(state, s)) for s in state.actors())
            if found is None:
                deadline = state.deadline()
                assert deadline is not None
                state.apply(deadline.seat, deadline.action)
                continue
            seat, move = found
            action = move.action
            assert not isinstance(action, DeclareBevue)
            if isinstance(action, Shout):  # a race's cry, the Banque's, or « Grelottine ! »
                assert state.race is not None or (
                    state.step == "grelottine" and action.cry == C.CRI_GRELOTTINE
                ), (state.step, action)
            state.apply(seat, action)
            chosen += 1
        assert state.is_over()  # random robots alone end their game
    assert chosen > 100
    # with nothing of its own to decide, it lets the table be
    idle = arrange(3, scores=[40, 40, 40])
    assert any(isinstance(a, DeclareBevue) for a in idle.legal_actions(1))
    assert BOTS["random"](random.Random(0)).choose(idle, 1) is None
