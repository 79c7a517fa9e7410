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

Options measured no better and since removed (inference from the opponent's last plays,
exact phase-1 play of the worlds, the opponent's answer chosen from its own seat) are in
docs/perf.md, issue 13's second to fifth passes; their code is at commit 26953ed.

Cut rollouts (`ChouineSearch.value_tricks`; the registered expert cuts after two tricks,
`bots.py`): two players, a rollout stops a few tricks after the decision and is valued by
a linear evaluation fitted on the policy's own rollouts (`value_estimate`); measured as
strong for a tenth of the CPU.
Value-greedy rollouts (the rollouts answering, and leading, with the card that leaves the
best fitted evaluation after the trick: +1.8 +- 2.4 against greedy in the expert's search
over 1,000 pairs, docs/perf.md, sixth pass) rolled out « maître » from the seventh to the
ninth pass; the distilled policy below replaced them, and their code is at commit 2316589.
Distilled rollouts (`rollout_policy` 4, `learned_move`; the registered expert and maître
roll out so): a linear scorer of each card (`card_policy.py`) fitted to the search's own
values of its candidates (expert iteration, `bench/chouine_policy_fit.py`): +2.2 +- 1.8
points against greedy over 2,000 pairs (docs/perf.md, ninth pass).
Ties (`_break_tie`): candidates sharing the best value (every world lost or won beyond the
margin read) get the rollout policy's card, not the first listed (twelfth pass).
"""

from __future__ import annotations

import random

from choux.ai.pimc import Plan, SearchBot
from choux.engine.base import Action, BotMove, Seat, State
from choux.games.chouine import endgame
from choux.games.chouine.actions import DECLARE_KINDS, EXCHANGE_ID, action_id
from choux.games.chouine.card_policy import card_move
from choux.games.chouine.cards import KING, LAST_TRICK_BONUS, POINTS, QUEEN, TEN
from choux.games.chouine.rules import BRISQUE_MASK, DECLARED_QUEENS, QUEEN_BITS
from choux.games.chouine.state import PLAY, ChouineState
from choux.games.chouine.value_weights import VALUE_WEIGHTS
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
#: a Chouine ends the game at once: worth at least the best win, its loss at most the
#: worst loss (it was a bare 1 and 0, below a win by a point and above a loss by one)
CHOUINE_WON = 1.0 + MARGIN_WEIGHT * MARGIN_CAP
CHOUINE_LOST = -MARGIN_WEIGHT * MARGIN_CAP

#: two players: a rollout stops once this many tricks are done after the decision (the
#: talon not yet empty) and the position is valued by the fitted linear evaluation
#: `value_estimate` instead of being played on (0: never, the rollouts play to the talon's
#: end as before). Cuts the noise of the policy's play and of the talon's order.
VALUE_TRICKS = 0
#: ... but only where the talon still holds at least this many cards at the cut (below it
#: the rollout plays on to the solver, which is cheap and exact there)
VALUE_MIN_TALON = 2
#: the policy that plays the rollouts (both seats): 0 the hand-written rule
#: (`rollout_move`); 4 the policy distilled from the search's own values (`learned_move`,
#: `card_policy.py`; 1-3 were the value-greedy policies, removed)
ROLLOUT_POLICY = 0

#: candidates whose mean values differ by less than this are tied (equal values summed in
#: a different order differ in their last bits)
TIE = 1e-9

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
    mask = state.mask(seat)
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


def side_features(mask: int, trump: int, declared: int) -> list[float]:
    """What the fitted evaluation reads of one side's hand `mask` (see `value_features`):
    its trumps, their strength, the trump ace and ten, its other brisques, its undeclared
    pairs outside trumps and in trumps, the points in it (tens)."""
    shift = trump * 8
    trumps = mask >> shift & 0xFF
    strength = 0
    points = 0
    rest = mask
    while rest:
        low = rest & -rest
        c = low.bit_length() - 1
        rest ^= low
        points += POINTS[c]
        if c >> 3 == trump:
            strength += c & 7
    pairs = mask & (mask >> 1) & QUEEN_BITS & ~DECLARED_QUEENS[declared]
    trump_pair = 1 if pairs >> shift & 0xFF else 0
    return [
        float(_bits(trumps)),
        float(strength),
        float(trumps >> 7 & 1),
        float(trumps >> 6 & 1),
        float(_bits(mask & BRISQUE_MASK & ~(0xFF << shift))),
        float(_bits(pairs) - trump_pair),
        float(trump_pair),
        points / 10.0,
    ]


def learned_move(state: ChouineState, seat: Seat, rng: random.Random) -> int:
    """The distilled rollout policy (`ROLLOUT_POLICY` 4), as an action id: two players in
    phase 1, a choice between plain cards goes to `card_policy.card_move`; declarations,
    the exchange and everything else to `rollout_move`."""
    ids = state.legal_action_ids(seat)
    if len(ids) == 1 or ids[-1] >= 32 or state.n != 2 or not state.talon:
        return rollout_move(state, seat, rng)
    return card_move(state, seat, ids, rng)


def win_value(margin: int, players: int) -> float:
    """A final margin as the search's value: the partie (1, a tie 1/players, 0) plus a
    little of the margin, clamped to MARGIN_CAP points; a Chouine (it wins the whole game)
    is worth at least the best win and its loss at most the worst loss."""
    if margin >= endgame.WIN:
        return CHOUINE_WON
    if margin <= -endgame.WIN:
        return CHOUINE_LOST
    win = 1.0 if margin > 0 else 0.0 if margin < 0 else 1.0 / players
    return win + MARGIN_WEIGHT * max(-MARGIN_CAP, min(MARGIN_CAP, margin))


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
        return CHOUINE_WON if result["winner"] == seat else CHOUINE_LOST
    totals = [int(t) for t in result["totals"]]
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    margin = max(-MARGIN_CAP, min(MARGIN_CAP, margin))
    winner = result["winner"]
    win = 1.0 if winner == seat else 1.0 / state.n if winner is None else 0.0
    return win + MARGIN_WEIGHT * margin


def _bits(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


def value_features(state: ChouineState, seat: Seat) -> list[float]:
    """What the fitted evaluation reads of a two-player position at a trick's start, for
    `seat` (a world of the search: both hands are the world's): a constant; for each side
    (the seat first) its trumps, their strength, the trump ace and ten, its other brisques,
    its undeclared pairs (king and queen of a suit) outside trumps and in trumps, the points
    of its hand; then the margin so far (tens of points) and who leads. (The cards still in
    the talon are the same for both seats: a model fitted on both seats' views gives them
    no weight.)"""
    features = [1.0]
    for s in (seat, 1 - seat):
        features += side_features(state.mask(s), state.trump, state.declared_suits[s])
    other = 1 - seat
    mine = state.card_points[seat] + state.decl_points[seat]
    theirs = state.card_points[other] + state.decl_points[other]
    features += [(mine - theirs) / 10.0, 1.0 if state.turn == seat else 0.0]
    return features


def value_estimate(
    state: ChouineState, seat: Seat, table: dict[int, tuple[float, ...]] | None = None
) -> float | None:
    """The fitted value (the search's units: `win_value`) of a two-player position at a
    trick's start with cards still in the talon, for `seat`; None without weights for that
    talon size. A linear model per talon size (`table`, by default `VALUE_WEIGHTS`), fitted
    by least squares on rollouts of the policy to the exact end (`bench/chouine_value_fit.py`)."""
    weights = (VALUE_WEIGHTS if table is None else table).get(len(state.talon))
    if weights is None:
        return None
    total = 0.0
    for w, x in zip(weights, value_features(state, seat), strict=True):
        total += w * x
    return max(CHOUINE_LOST, min(CHOUINE_WON, total))


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
        #: rollouts valued by `value_estimate` after this many tricks (0: never)
        self.value_tricks = VALUE_TRICKS
        #: the rollouts' policy (0: `rollout_move`; 4: `learned_move`)
        self.rollout_policy = ROLLOUT_POLICY
        #: the cut's evaluation, talon size -> weights (None: `VALUE_WEIGHTS`)
        self.value_weights: dict[int, tuple[float, ...]] | None = None
        #: 1: the seven exchange is searched with each move after it (`plans`); 0: alone,
        #: valued by the rollout policy's next move (as until 2026-12-04, for benchmarks)
        self.exchange_plans = 1

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        if isinstance(state, ChouineState) and endgame.applies(state):
            self.last_simulations = self.last_worlds = 0
            if seat != state.turn:
                return None
            return BotMove(endgame.solve(state)[1])
        move = super().choose(state, seat)
        if move is None or not isinstance(state, ChouineState) or not self.last_values:
            return move
        return self._break_tie(state, seat, move)

    def plans(self, state: State, seat: Seat, actions: list[Action]) -> list[Plan]:
        """The seven exchange leaves the turn with the seat: it is searched as « exchange,
        then each move after it », against every move without it. Valued by the rollout
        policy's next move instead (which declares the mariage the exchange made at once,
        whatever the trick), it lost to plain cards, and the last chance to exchange went
        by in two deals of five where it was worth taking (found by an audit of the
        expert's play: 19 of 49 such chances missed)."""
        plans = super().plans(state, seat, actions)
        if not isinstance(state, ChouineState) or not self.exchange_plans:
            return plans
        for exchange in actions:
            if action_id(exchange) == EXCHANGE_ID:
                after = state.clone()
                after.apply(seat, exchange)
                alone = [plan for plan in plans if plan[0] is not exchange]
                return alone + [(exchange, move) for move in after.legal_actions(seat)]
        return plans

    def _break_tie(self, state: ChouineState, seat: Seat, move: BotMove) -> BotMove:
        """Where several candidates share the best value (every world lost, or won, beyond
        the margin the search reads), play the rollout policy's card among them rather than
        the first listed: a sensible card (no trump ten thrown away when all seems lost,
        the fight for points goes on) instead of an arbitrary one. Its own fixed-seed
        generator, so the search's draws are those it would draw without this step."""
        values = self.last_values
        assert values is not None
        best = max(values) - TIE
        tied = [i for i, v in enumerate(values) if v >= best]
        if len(tied) < 2:
            return move
        actions = state.legal_actions(seat)
        rng = random.Random(len(state.talon))
        if self.rollout_policy == 4 and state.n == 2:
            picked = learned_move(state, seat, rng)
        else:
            picked = rollout_move(state, seat, rng)
        for i in tied:
            if action_id(actions[i]) == picked:
                return BotMove(actions[i])
        return move

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
        # the talon size at which a rollout is cut and valued by the fitted evaluation
        policy = self.rollout_policy if two else 0
        cut = len(root.talon) - 2 * self.value_tricks if two and self.value_tricks else -1
        if cut < VALUE_MIN_TALON:
            cut = -1
        while sim.stage == PLAY and sim.deals == deals:
            if two and not sim.talon:
                break
            if len(sim.talon) <= cut and not sim.trick and not sim.chouines:
                value = value_estimate(sim, seat, self.value_weights)
                if value is not None:
                    return value
            turn = sim.turn
            if policy == 4:
                sim.apply_id(turn, learned_move(sim, turn, rng))
            else:
                sim.apply_id(turn, rollout_move(sim, turn, rng))
        return partie_margin(sim, seat)


def search_bot(rng: random.Random, simulations: int, seconds: float | None) -> ChouineSearch:
    return ChouineSearch(rng, simulations=simulations, seconds=seconds)


__all__ = [
    "ChouineSearch",
    "partie_margin",
    "rollout_move",
    "search_bot",
]
