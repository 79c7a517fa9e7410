"""The greedy Chouine bot: a one-trick heuristic that plays like a careful beginner.

It exchanges the trump seven, declares the best combination it holds (a Chouine first),
wins tricks that are worth winning with its cheapest winning card, and otherwise throws its
least useful card, keeping brisques, trumps and half-made combinations. It only reads what
its seat can see: its hand, the trick, the trump, the talon size and which cards are still
unseen (the complement of `secrets(seat)`: every other card was played face up or shown).
Once the talon is empty at two players every card is known: it then plays exactly
(`endgame.py`), like the search levels, which live in `search.py`.
"""

from __future__ import annotations

import random

from choux.ai.random import RandomBot
from choux.engine.base import Action, Seat, State
from choux.games.chouine import endgame
from choux.games.chouine.actions import EXCHANGE, PLAIN, Play
from choux.games.chouine.cards import CODE_INDEX, KING, POINTS, QUEEN
from choux.games.chouine.rules import trick_winner
from choux.games.chouine.search import ChouineSearch
from choux.games.chouine.state import ChouineState


class GreedyBot(RandomBot):
    """Chooses by a fixed evaluation of each legal action (ties broken at random)."""

    def pick(self, state: State, seat: Seat, actions: list[Action]) -> Action:
        if not isinstance(state, ChouineState):
            return super().pick(state, seat, actions)
        return best_action(state, seat, actions, self.rng)


def best_action(
    state: ChouineState, seat: Seat, actions: list[Action], rng: random.Random
) -> Action:
    if endgame.applies(state):
        return endgame.solve(state)[1]  # two players, talon empty: exact play
    if EXCHANGE in actions:
        return EXCHANGE
    declares = [a for a in actions if isinstance(a, Play) and a.declare is not None]
    if declares:
        chouine = [a for a in declares if a.declare == "chouine"]
        if chouine:
            return chouine[0]
        return max(
            declares,
            key=lambda a: (
                _declared_points(state, seat, a),
                -_keep(state, seat, CODE_INDEX[a.card]),
            ),
        )
    plain = [a for a in actions if isinstance(a, Play)]
    cards = [CODE_INDEX[a.card] for a in plain]
    unseen = _outstanding(state, seat)
    scores = [_score(state, seat, c, unseen) for c in cards]
    best = max(scores)
    choices = [c for c, s in zip(cards, scores, strict=True) if s == best]
    return PLAIN[rng.choice(choices)]


def _declared_points(state: ChouineState, seat: Seat, action: Play) -> int:
    c = CODE_INDEX[action.card]
    for _card, kind, _, points in state.declarations_for(seat, [c]):
        if kind == action.declare:
            return points
    return 0


def _outstanding(state: ChouineState, seat: Seat) -> set[int]:
    """Cards that may still be played by others: unseen ones and those others have shown."""
    unseen = set(state.hidden_cards(seat))
    for other in range(state.n):
        if other != seat:
            unseen.update(state.shown[other])
    if state.talon:
        unseen.add(state.talon[0])
    return unseen


def _keep(state: ChouineState, seat: Seat, c: int, unseen: set[int] | None = None) -> float:
    """What a card is worth keeping in hand, beyond its points."""
    trump = state.trump
    value = 0.0
    if c >> 3 == trump:
        value += 8 + 2 * (c & 7)
    rank = c & 7
    if rank in (KING, QUEEN) and not state.declared_suits[seat] >> (c >> 3) & 1:
        partner = (c & ~7) | (QUEEN if rank == KING else KING)
        if partner in state.hands[seat]:
            value += 15
        elif state.phase() == 1 and (unseen is None or partner in unseen):
            value += 3
    return value


def _score(state: ChouineState, seat: Seat, c: int, unseen: set[int]) -> float:
    """Expected gain of playing `c` now, counting only this trick."""
    trick = state.trick
    keep = _keep(state, seat, c, unseen)
    if not trick:
        if state.phase() == 2 and _master(c, unseen):
            return POINTS[c] + 5 - keep / 4
        return -POINTS[c] - keep
    cards = [*trick, c]
    value = sum(POINTS[x] for x in cards)
    wins = trick_winner(cards, state.trump) == len(trick)
    last = len(cards) == state.n
    if wins:
        bonus = 10 if last and len(state.hands[seat]) == 1 else 0
        if state.phase() == 1 and value < 10 and c >> 3 == state.trump:
            return -keep  # do not spend a trump on a worthless trick
        return value + bonus - keep * (0.5 if last else 1.0)
    return -value - keep


def _master(c: int, unseen: set[int]) -> bool:
    """No outstanding card of its suit is higher: it wins if the others must follow."""
    return not any(h in unseen for h in range(c + 1, (c | 7) + 1))


# --------------------------------------------------------------------------- search levels

#: rollouts per decision and wall-clock cap (seconds) of the search levels
EXPERT_SIMULATIONS, EXPERT_SECONDS = 300, 0.3
MAITRE_SIMULATIONS, MAITRE_SECONDS = 2500, 0.9
#: the expert's rollouts stop two tricks after the decision and are valued by the fitted
#: evaluation (`ChouineSearch.value_tricks`): as strong as rollouts played to the end of
#: the talon over 1,000 duplicate pairs (paired -0.1 +- 2.5 points), for a tenth of the CPU
#: (docs/perf.md, « Issue 13, seventh pass »).
EXPERT_VALUE_TRICKS = 2
#: ... and played by the policy distilled from the search's own values (`rollout_policy`
#: 4, `card_policy.py`): +2.2 +- 1.8 points of duplicate deals won against greedy over
#: 2,000 pairs (docs/perf.md, « Issue 13, ninth pass »)
EXPERT_ROLLOUT_POLICY = 4
#: « maître »: the expert's search with eight times its rollouts: against the distilled
#: expert it wins more than the seventh pass's maître (rollouts cut three tricks after the
#: decision, value-greedy answers), +4.3 +- 4.5 points over 300 pairs, and a trick's cut
#: later is no better (docs/perf.md, « Issue 13, ninth pass »)
MAITRE_VALUE_TRICKS = 2
MAITRE_ROLLOUT_POLICY = 4


def expert_bot(
    rng: random.Random,
    simulations: int = EXPERT_SIMULATIONS,
    seconds: float | None = EXPERT_SECONDS,
) -> ChouineSearch:
    """The "expert" level: determinized search, rollouts played by the distilled policy
    and cut short by the fitted evaluation, the exact solver once the talon is empty."""
    bot = ChouineSearch(rng, simulations=simulations, seconds=seconds)
    bot.value_tricks = EXPERT_VALUE_TRICKS
    bot.rollout_policy = EXPERT_ROLLOUT_POLICY
    return bot


def maitre_bot(
    rng: random.Random,
    simulations: int = MAITRE_SIMULATIONS,
    seconds: float | None = MAITRE_SECONDS,
) -> ChouineSearch:
    """The « maître » level: the expert's search with about eight times its budget (under
    1 s a move)."""
    bot = ChouineSearch(rng, simulations=simulations, seconds=seconds)
    bot.value_tricks = MAITRE_VALUE_TRICKS
    bot.rollout_policy = MAITRE_ROLLOUT_POLICY
    return bot
