"""The greedy Chouine bot: a one-trick heuristic that plays like a careful beginner.

It exchanges the trump seven, declares the best combination it holds (a Chouine first),
wins tricks that are worth winning with its cheapest winning card, and otherwise throws its
least useful card, keeping brisques, trumps and half-made combinations. It only reads what
its seat can see: its hand, the trick, the trump, the talon size and which cards are still
unseen (the complement of `secrets(seat)`: every other card was played face up or shown).
"""

from __future__ import annotations

import random

from choux.ai.pimc import SearchBot
from choux.engine.base import Action, BotMove, Seat, State
from choux.games.chouine import endgame
from choux.games.chouine.actions import EXCHANGE, PLAIN, Play
from choux.games.chouine.cards import CODE_INDEX, KING, POINTS, QUEEN
from choux.games.chouine.rules import trick_winner
from choux.games.chouine.state import PLAY, ChouineState

#: rollouts per decision of the "expert" level (its wall-clock cap is 0.3 s)
EXPERT_SIMULATIONS = 100


class GreedyBot:
    """Chooses by a fixed evaluation of each legal action (ties broken at random)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        actions = state.legal_actions(seat)
        if not actions:
            return None
        if not isinstance(state, ChouineState):
            return BotMove(self.rng.choice(actions))
        return BotMove(best_action(state, seat, actions, self.rng))


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


# --------------------------------------------------------------------------- expert

#: weight of the point margin next to winning the partie (1): a tie-break between moves
#: that win (or lose) anyway, and a smoother signal for the search
MARGIN_WEIGHT = 0.01


def partie_over(root: State, now: State) -> bool:
    """The search's horizon: the partie being played at `root` has ended, or (two players)
    the talon is empty and the exact solver can finish it."""
    assert isinstance(root, ChouineState) and isinstance(now, ChouineState)
    return now.stage != PLAY or now.deals != root.deals or endgame.applies(now)


def _win_value(margin: int, players: int) -> float:
    if margin >= endgame.WIN:
        return 1.0
    if margin <= -endgame.WIN:
        return 0.0
    win = 1.0 if margin > 0 else 0.0 if margin < 0 else 1.0 / players
    return win + MARGIN_WEIGHT * margin


def partie_value(state: State, seat: Seat) -> float:
    """Winning the partie (1, a replayed tie 1/players) plus a little of the point margin
    over the best opponent; with two players and the talon empty, the exact solver's
    result; a rollout cut short otherwise counts its points so far."""
    assert isinstance(state, ChouineState)
    if endgame.applies(state):
        return _win_value(endgame.final_margin(state, seat), 2)
    result = state.last_result
    if state.stage == PLAY or result is None:
        totals = [state.card_points[s] + state.decl_points[s] for s in range(state.n)]
        win = 1.0 / state.n
    else:
        if result.get("reason") == "chouine":
            return 1.0 if result["winner"] == seat else 0.0
        totals = [int(t) for t in result["totals"]]
        winner = result["winner"]
        win = 1.0 if winner == seat else 1.0 / state.n if winner is None else 0.0
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return win + MARGIN_WEIGHT * margin


class ChouineSearch:
    """The search levels: exact play once the talon is empty (two players), determinized
    search before, whose worlds are finished by the same exact solver."""

    def __init__(self, search: SearchBot) -> None:
        self.search = search

    @property
    def last_simulations(self) -> int:
        return self.search.last_simulations

    @property
    def last_worlds(self) -> int:
        return self.search.last_worlds

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        if isinstance(state, ChouineState) and endgame.applies(state):
            self.search.last_simulations = self.search.last_worlds = 0
            if seat != state.turn:
                return None
            return BotMove(endgame.solve(state)[1])
        return self.search.choose(state, seat)


def expert_bot(
    rng: random.Random, simulations: int = EXPERT_SIMULATIONS, seconds: float | None = 0.3
) -> ChouineSearch:
    """The "expert" level: determinized search over the partie, greedy rollouts."""
    return ChouineSearch(
        SearchBot(
            rng,
            rollout=GreedyBot,
            evaluate=partie_value,
            horizon=partie_over,
            simulations=simulations,
            seconds=seconds,
        )
    )
