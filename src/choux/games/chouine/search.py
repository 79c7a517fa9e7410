"""The search levels of Chouine: determinized search (PIMC) that sees the end of the deal.

Each decision samples worlds consistent with what the seat has seen (`determinize`: the
suits others lack, the cards their play says they do not hold), tries every candidate in
every world (paired samples, sequential halving: `choux.ai.pimc.SearchBot`), and plays the
world on with a fast rollout policy over integer action ids until the talon runs out;
from there (two players) the exact solver of `endgame.py` finishes it. With three or four
players the rollout plays to the end of the partie. Once the talon is empty at two
players, the solver alone decides.

The rollout policy (`rollout_move`) keeps trumps, brisques and half-made combinations,
declares what it holds (a Chouine first), takes the seven exchange, and wins the tricks
worth winning with its cheapest winning card.
"""

from __future__ import annotations

import random

from choux.ai.pimc import SearchBot
from choux.engine.base import BotMove, Seat, State
from choux.games.chouine import endgame
from choux.games.chouine.actions import DECLARE_KINDS, EXCHANGE_ID
from choux.games.chouine.cards import KING, LAST_TRICK_BONUS, POINTS, QUEEN, TEN
from choux.games.chouine.state import PLAY, ChouineState
from choux.games.chouine.variants import CINQUANTE, MARIAGE, QUARTERON, QUINTE, TIERCE, TRENTE

#: weights of the rollout policy: what keeping a card in hand is worth, beyond its points
TRUMP_KEEP = 9.0  # a trump (plus its strength)
BRISQUE_KEEP = 4.0  # an ace or a ten (on top of its points)
PAIR_KEEP = 14.0  # a king or queen whose partner is in hand (a mariage to declare)
#: the least a trick must hold before a trump is spent on it in phase 1
TRUMP_WORTHY = 10
#: weight of the point margin next to winning the partie (1), and the margin beyond which
#: the exact endgame does not look (a smooth, low-variance signal for the search)
MARGIN_WEIGHT = 0.01
MARGIN_CAP = 40

#: points of each declaration kind of `DECLARE_KINDS` (plain suit; trumps double), to pick
#: the best one; a Chouine above all
_POINTS = {c.kind: c.points for c in (MARIAGE, TIERCE, QUARTERON, CINQUANTE, QUINTE, TRENTE)}
KIND_VALUE = tuple(_POINTS.get(kind, endgame.WIN) for kind in DECLARE_KINDS)


def keep_value(c: int, mask: int, trump: int, declared: int) -> float:
    """What `c` is worth keeping in a hand `mask` (its points count apart)."""
    value = 0.0
    if c >> 3 == trump:
        value += TRUMP_KEEP + (c & 7)
    rank = c & 7
    if rank >= TEN:
        value += BRISQUE_KEEP
    elif rank in (KING, QUEEN) and mask >> (c ^ 1) & 1:
        if not declared >> (c >> 3) & 1:
            value += PAIR_KEEP
    return value


def rollout_move(state: ChouineState, seat: Seat, rng: random.Random) -> int:
    """The fast policy of the rollouts, as an action id."""
    ids = state.legal_action_ids(seat)
    if len(ids) == 1:
        return ids[0]
    special = [i for i in ids if i >= 32]
    if special:
        if EXCHANGE_ID in special:
            return EXCHANGE_ID
        trump = state.trump
        return max(
            special, key=lambda i: KIND_VALUE[i // 32 - 1] * (2 if (i & 31) >> 3 == trump else 1)
        )
    trump = state.trump
    mask = state.masks[seat]
    declared = state.declared_suits[seat]
    trick = state.trick
    if not trick:
        # lead the card that costs least to lose
        return min(
            ids, key=lambda c: POINTS[c] + keep_value(c, mask, trump, declared) + rng.random()
        )
    # answer: find the trick's current best card
    top = trick[0]
    for c in trick[1:]:
        if (c >> 3 == top >> 3 and c > top) or (c >> 3 == trump and top >> 3 != trump):
            top = c
    on_table = sum(POINTS[c] for c in trick)
    last = len(trick) == state.n - 1
    if last and len(state.hands[seat]) == 1 and not state.talon:
        on_table += LAST_TRICK_BONUS
    best = -1
    best_value = -1e9
    phase_one = bool(state.talon)
    for c in ids:
        wins = (c >> 3 == top >> 3 and c > top) or (c >> 3 == trump and top >> 3 != trump)
        keep = keep_value(c, mask, trump, declared)
        if wins and last:
            if phase_one and c >> 3 == trump and on_table + POINTS[c] < TRUMP_WORTHY:
                value = -keep - POINTS[c] - 5
            else:
                value = on_table + POINTS[c] - keep * 0.5
        elif wins:
            value = (on_table + POINTS[c]) * 0.5 - keep
        else:
            value = -on_table - POINTS[c] - keep
        value += rng.random() * 0.5
        if value > best_value:
            best, best_value = c, value
    return best


def win_value(margin: int, players: int) -> float:
    """A final margin as the search's value: the partie (1, a tie 1/players, 0) plus a
    little of the margin; a Chouine is a plain win or loss."""
    if margin >= endgame.WIN:
        return 1.0
    if margin <= -endgame.WIN:
        return 0.0
    win = 1.0 if margin > 0 else 0.0 if margin < 0 else 1.0 / players
    return win + MARGIN_WEIGHT * margin


def partie_margin(state: ChouineState, seat: Seat) -> float:
    """The value for `seat` of a rollout that reached the end of the partie (or, two
    players, the empty talon: solved exactly)."""
    if endgame.applies(state):
        # solved in a window: who wins, and by how much up to MARGIN_CAP points
        return win_value(endgame.clamped_margin(state, seat, MARGIN_CAP), 2)
    result = state.last_result
    if state.stage == PLAY or result is None:  # cut short (should not happen): points so far
        totals = [state.card_points[s] + state.decl_points[s] for s in range(state.n)]
        margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
        return 1.0 / state.n + MARGIN_WEIGHT * margin
    if result.get("reason") == "chouine":
        return 1.0 if result["winner"] == seat else 0.0
    totals = [int(t) for t in result["totals"]]
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    winner = result["winner"]
    win = 1.0 if winner == seat else 1.0 / state.n if winner is None else 0.0
    return win + MARGIN_WEIGHT * margin


class ChouineSearch(SearchBot):
    """PIMC for Chouine: worlds from the game's determinization, fast integer rollouts,
    the exact solver at the end of the talon and for every decision after it."""

    def __init__(self, rng: random.Random, *, simulations: int, seconds: float | None) -> None:
        super().__init__(rng, simulations=simulations, seconds=seconds)
        self.rollout_rng = random.Random(rng.getrandbits(64))
        #: common random numbers: the same rollout stream for every candidate of a world
        #: (off: measured no better, see docs/perf.md; with it off the search draws exactly
        #: what it drew before the option existed)
        self.common_random = False
        self._world_seed = 0

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        if isinstance(state, ChouineState) and endgame.applies(state):
            self.last_simulations = self.last_worlds = 0
            if seat != state.turn:
                return None
            return BotMove(endgame.solve(state)[1])
        return super().choose(state, seat)

    def _world(self, state: State, seat: Seat) -> State:
        # the rollouts stop at the end of the partie: no need to seed future deals here
        if self.common_random:
            # every candidate of this world is rolled out with the same random stream
            self._world_seed = self.rng.getrandbits(64)
        return state.determinize(seat, self.rng)

    def _rollout(self, root: State, sim: State, seat: Seat) -> float:
        assert isinstance(root, ChouineState) and isinstance(sim, ChouineState)
        rng = self.rollout_rng
        if self.common_random:
            rng.seed(self._world_seed)
        deals = root.deals
        two = sim.n == 2
        while sim.stage == PLAY and sim.deals == deals:
            if two and not sim.talon:
                break
            turn = sim.turn
            sim.apply_id(turn, rollout_move(sim, turn, rng))
        return partie_margin(sim, seat)


def search_bot(rng: random.Random, simulations: int, seconds: float | None) -> ChouineSearch:
    return ChouineSearch(rng, simulations=simulations, seconds=seconds)


__all__ = ["ChouineSearch", "partie_margin", "rollout_move", "search_bot"]
