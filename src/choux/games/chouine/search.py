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

Optional inference (`ChouineSearch.inference`, off by default): each world is drawn among
several candidates in proportion to how well it explains the opponent's last plays under a
model of a reasonable player (`world_likelihood`); measured no better so far.

Optional exact finish (`ChouineSearch.exact_talon`, off by default): late in phase 1, each
world is finished by perfect-information alpha-beta (`exact_margin`) instead of the
rollout policy; measured worse (the all-seeing opponent is a poor model), see docs/perf.md.

Optional cut rollouts (`ChouineSearch.value_tricks`, off by default): two players, a
rollout stops a few tricks after the decision and is valued by a linear evaluation fitted
on the policy's own rollouts (`value_estimate`); measured as strong for a tenth of the CPU.
Optional opponent answers (`ChouineSearch.opponent_worlds`, off by default): the answer to
a lead chosen from the opponent's seat in worlds re-dealt from its point of view; measured
no better against greedy.
Optional value-greedy rollouts (`ChouineSearch.rollout_policy`, off by default): the
rollouts answer (and, policies 2-3, lead) with the card that leaves the best fitted
evaluation after the trick (`value_move`): one step of policy improvement, +4 points as a
policy, +1.8 +- 2.4 in the search over 1,000 pairs (docs/perf.md, sixth pass).
Optional information-set search (`ChouineSearch.ismcts`, off by default): two players,
phase 1, one SO-ISMCTS tree over the seat's information set instead of PIMC (`_ismcts`);
measured no better than PIMC (docs/perf.md, seventh pass).
Optional inference from the whole partie (`ChouineSearch.history_inference`, off by
default): the bot remembers every play of the opponent (`observe`) and weighs each world
by all of them (`history_likelihood`); measured no better (seventh pass).
"""

from __future__ import annotations

import math
import random
import time

from choux.ai.pimc import SearchBot
from choux.engine.base import BotMove, Seat, State
from choux.games.chouine import endgame
from choux.games.chouine.actions import ACTIONS, DECLARE_KINDS, EXCHANGE_ID
from choux.games.chouine.cards import KING, LAST_TRICK_BONUS, POINTS, QUEEN, TEN
from choux.games.chouine.rules import BRISQUE_MASK, DECLARED_QUEENS, QUEEN_BITS
from choux.games.chouine.state import PLAY, ChouineState
from choux.games.chouine.value_weights import POLICY_WEIGHTS, VALUE_WEIGHTS
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

#: two players: once the talon holds at most this many cards at the decision, every world
#: is finished by exact perfect-information play (`exact_margin`: the rest of phase 1 in the
#: world's talon order, then the solver) instead of the rollout policy (0: never)
EXACT_TALON = 0
#: the same inside the rollouts of every decision: the policy plays until the talon holds
#: this many cards, exact play after (0: never)
EXACT_ROLLOUT_TALON = 0
#: the budget (worlds × candidates) of a decision whose worlds are all finished exactly,
#: each costing several solver calls (0: the level's own budget)
EXACT_SIMULATIONS = 0
#: two players: a rollout stops once this many tricks are done after the decision (the
#: talon not yet empty) and the position is valued by the fitted linear evaluation
#: `value_estimate` instead of being played on (0: never, the rollouts play to the talon's
#: end as before). Cuts the noise of the policy's play and of the talon's order.
VALUE_TRICKS = 0
#: ... but only where the talon still holds at least this many cards at the cut (below it
#: the rollout plays on to the solver, which is cheap and exact there)
VALUE_MIN_TALON = 2
#: two players, phase 1: when the seat leads, the opponent's answer to each candidate in
#: each world is chosen from what the opponent can see (its hand in that world, the public
#: cards): each answer valued by `value_estimate` after the trick in this many worlds
#: re-dealt from its point of view (0: the rollout policy answers, as before)
OPPONENT_WORLDS = 0
#: the policy that plays the rollouts (both seats): 0 the hand-written rule
#: (`rollout_move`); 1 answers value-greedy (`value_move`: the card that leaves the best
#: fitted evaluation after the trick, read without the cards drawn), leads by the rule;
#: 2 leads value-greedy too, each lead valued against the opponent's value-greedy answer
#: in the world (it then knows the opponent's hand: a peek, to be measured);
#: 3 as 2, but the opponent's hand is not read: each lead is valued against the answers
#: from `LEAD_SAMPLES` hands dealt from what the leader cannot see
ROLLOUT_POLICY = 0
LEAD_SAMPLES = 4
#: the noise that breaks the value-greedy policy's ties (units of the evaluation)
POLICY_NOISE = 0.01
#: two players, phase 1: information-set search (SO-ISMCTS, Cowling, Powley and Whitehouse
#: 2012) instead of PIMC (`ChouineSearch.ismcts`): one tree over the seat's information
#: set, a new world (`determinize`) each iteration, UCB over the moves the world allows
#: (availability counts), each iteration ended by the search's rollout (cut evaluation or
#: solver). 0: off (PIMC, as before); 1: the opponent's moves in the tree too, chosen by
#: UCB to our cost; 2: only our moves in the tree, the opponent plays the rollout policy
#: from its hand in the world (its moves key the tree: we see them)
ISMCTS = 0
#: UCB's exploration constant, in hundredths (the values span about a partie: 0 to 1,
#: the margin adding at most 0.4 either way)
ISMCTS_C = 70

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


def side_value(w: tuple[float, ...], at: int, mask: int, trump: int, declared: int) -> float:
    """The part of the fitted evaluation (weights `w` from index `at`) that reads one
    side's hand `mask`."""
    total = 0.0
    for i, x in enumerate(side_features(mask, trump, declared)):
        total += w[at + i] * x
    return total


def _beats(c: int, top: int, trump: int) -> bool:
    return (c >> 3 == top >> 3 and c > top) or (c >> 3 == trump and top >> 3 != trump)


def _answer_values(
    w: tuple[float, ...], ids: list[int], mask: int, led: int, trump: int, declared: int
) -> list[float]:
    """What each plain card of `ids` answering `led` leaves for the answering side by the
    fitted evaluation after the trick (its hand without the card, the trick's points,
    who leads next), without the parts the answer does not change."""
    values = []
    on_table = POINTS[led]
    for c in ids:
        gained = (on_table + POINTS[c]) / 10.0
        value = w[17] * gained + w[18] if _beats(c, led, trump) else -w[17] * gained
        values.append(value + side_value(w, 1, mask & ~(1 << c), trump, declared))
    return values


def value_move(state: ChouineState, seat: Seat, rng: random.Random, policy: int) -> int:
    """The value-greedy rollout policy (`ROLLOUT_POLICY` 1 or 2), as an action id: the
    exchange and declarations as `rollout_move`, then the card whose trick leaves the best
    fitted evaluation (`POLICY_WEIGHTS` of the talon size after the draw, the drawn cards
    left out: both draw one, and reading them would peek at the talon). Leads by the rule
    (policy 1) or each valued against the opponent's value-greedy answer (policy 2, which
    reads the opponent's hand of the world; policy 3, hands it could hold). Two players only, phase 1 before its last
    trick; elsewhere `rollout_move`."""
    weights = POLICY_WEIGHTS.get(len(state.talon) - 2)
    trick = state.trick
    if weights is None or state.n != 2 or (not trick and policy < 2):
        return rollout_move(state, seat, rng)
    ids = state.legal_action_ids(seat)
    if len(ids) == 1 or ids[-1] >= 32:
        return rollout_move(state, seat, rng)
    trump = state.trump
    mask = state.mask(seat)
    declared = state.declared_suits[seat]
    if trick:
        values = _answer_values(weights, ids, mask, trick[0], trump, declared)
        best = -1
        best_value = -1e9
        for c, value in zip(ids, values, strict=True):
            value += rng.random() * POLICY_NOISE
            if value > best_value:
                best, best_value = c, value
        return best
    # lead: the opponent answers value-greedy from its own hand (its legal cards: phase 1,
    # all of them; a declaration it might make with the answer is left out): the world's
    # hand (policy 2), or hands the leader could imagine (policy 3: `LEAD_SAMPLES` hands
    # dealt from what it cannot see, the opponent's shown cards kept)
    other = 1 - seat
    other_declared = state.declared_suits[other]
    hands: list[list[int]] = []
    if policy == 2:
        hands.append(state.hands[other])
    else:
        shown = state.shown[other]
        pool = [x for x in state.hands[other] if x not in shown]
        hidden = len(pool)
        pool.extend(state.talon[1:])
        pool.sort()  # what it cannot see, in an order that does not tell where it lies
        for _ in range(LEAD_SAMPLES):
            hands.append([*shown, *rng.sample(pool, hidden)])
    totals = [0.0] * len(ids)
    for hand in hands:
        other_mask = 0
        for x in hand:
            other_mask |= 1 << x
        for j, c in enumerate(ids):
            answers = _answer_values(weights, hand, other_mask, c, trump, other_declared)
            a = hand[max(range(len(answers)), key=answers.__getitem__)]
            gained = (POINTS[c] + POINTS[a]) / 10.0
            if _beats(a, c, trump):
                value = -weights[17] * gained
            else:
                value = weights[17] * gained + weights[18]
            totals[j] += value + side_value(
                weights, 9, other_mask & ~(1 << a), trump, other_declared
            )
    best = -1
    best_value = -1e9
    for j, c in enumerate(ids):
        value = totals[j] / len(hands) + side_value(weights, 1, mask & ~(1 << c), trump, declared)
        value += rng.random() * POLICY_NOISE
        if value > best_value:
            best, best_value = c, value
    return best


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


def value_estimate(state: ChouineState, seat: Seat) -> float | None:
    """The fitted value (the search's units: `win_value`) of a two-player position at a
    trick's start with cards still in the talon, for `seat`; None without weights for that
    talon size. A linear model per talon size, fitted by least squares on rollouts of the
    policy to the exact end (`bench/chouine_value_fit.py`)."""
    weights = VALUE_WEIGHTS.get(len(state.talon))
    if weights is None:
        return None
    total = 0.0
    for w, x in zip(weights, value_features(state, seat), strict=True):
        total += w * x
    return max(CHOUINE_LOST, min(CHOUINE_WON, total))


def exact_moves(state: ChouineState, turn: Seat) -> list[int]:
    """The moves the exact phase-1 search tries: the seven exchange alone when possible
    (the rollouts always take it), else every card, declaring with it the best combination
    it allows (declaring reveals nothing to a player who sees everything); trumps and high
    cards first (they tend to decide, so alpha-beta cuts sooner)."""
    ids = state.legal_action_ids(turn)
    if len(ids) == 1:
        return [ids[0]]
    if EXCHANGE_ID in ids:
        return [EXCHANGE_ID]
    trump = state.trump
    best: dict[int, int] = {}
    best_value: dict[int, int] = {}
    for i in ids:
        if 32 <= i < EXCHANGE_ID:
            c = i & 31
            value = KIND_VALUE[i // 32 - 1] * (2 if c >> 3 == trump else 1)
            if value > best_value.get(c, -1):
                best[c], best_value[c] = i, value
    cards = [c for c in ids if c < 32]
    cards.sort(key=lambda c: -((c >> 3 == trump) * 16 + (c & 7)))
    return [best.get(c, c) for c in cards]


def exact_margin(state: ChouineState, seat: Seat, low: int, high: int, cap: int) -> int:
    """The final margin for `seat`, clamped to [-cap, cap], of the rest of the partie when
    both players see everything (two players: hands and talon order): alpha-beta over the
    rest of phase 1, fail-soft in the window (`low`, `high`), the solver of `endgame.py`
    once the talon is empty. A few tricks of phase 1 only: 25 leaves a trick."""
    if state.stage != PLAY:
        result = state.last_result
        if result is None:
            return 0
        if result.get("reason") == "chouine":
            return cap if result["winner"] == seat else -cap
        totals = [int(t) for t in result["totals"]]
        return max(-cap, min(cap, totals[seat] - totals[1 - seat]))
    if not state.talon:
        return endgame.bounded_margin(state, seat, low, high, cap)
    turn = state.turn
    mine = turn == seat
    best = -cap - 1 if mine else cap + 1
    for move in exact_moves(state, turn):
        child = state.clone()
        child.apply_id(turn, move)
        value = exact_margin(child, seat, low, high, cap)
        if mine:
            if value > best:
                best = value
                if value > low:
                    low = value
        elif value < best:
            best = value
            if value < high:
                high = value
        if low >= high:
            break
    return best


# --------------------------------------------------------------------------- inference
#: how sharply the opponent model prefers its best card (points of its scores); the
#: number of candidate worlds each sampled world is chosen from (sampling-importance-
#: resampling: 1 = no inference, the default: 8 measured no better, see docs/perf.md)
MODEL_TEMPERATURE = 3.0
INFERENCE_CANDIDATES = 1


def model_keep(c: int, mask: int, trump: int, declared: int) -> float:
    """What the opponent model (a careful beginner, like the greedy bot) keeps a card for."""
    value = 0.0
    rank = c & 7
    if c >> 3 == trump:
        value += 8 + 2 * rank
    if (rank in (KING, QUEEN)) and not declared >> (c >> 3) & 1 and mask >> (c ^ 1) & 1:
        value += 15
    return value


def model_score(c: int, mask: int, led: int, trump: int, declared: int) -> float:
    """The opponent model's preference for playing `c` from `mask` in phase 1, leading
    (`led` < 0) or answering `led` (two players): the greedy bot's one-trick evaluation."""
    keep = model_keep(c, mask, trump, declared)
    if led < 0:
        return -POINTS[c] - keep
    value = POINTS[led] + POINTS[c]
    if (c >> 3 == led >> 3 and c > led) or (c >> 3 == trump and led >> 3 != trump):
        if value < 10 and c >> 3 == trump:
            return -keep
        return value - keep * 0.5
    return -value - keep


def play_likelihood(mask: int, c: int, led: int, trump: int, declared: int) -> float:
    """How likely the model plays `c` out of the hand `mask` (softmax of its scores)."""
    target = model_score(c, mask, led, trump, declared)
    total = 0.0
    rest = mask
    while rest:
        low = rest & -rest
        x = low.bit_length() - 1
        rest ^= low
        total += math.exp((model_score(x, mask, led, trump, declared) - target) / MODEL_TEMPERATURE)
    return 1.0 / total if total > 0 else 0.0


def _declared_with(state: ChouineState, seat: Seat, c: int) -> bool:
    """Did `seat` declare a combination with `c` (its play then said nothing of its hand)?"""
    return any(d[0] == seat and c in d[3] for d in state.declarations)


def world_likelihood(root: ChouineState, world: ChouineState, seat: Seat) -> float:
    """How likely the opponent's last plays are if its hand is the world's (two players,
    phase 1): the card it led to the current trick (its hand then: today's plus that
    card), and its card of the last trick (its hand then: today's plus that card, minus the
    card it drew since, averaged over which one it was)."""
    other = 1 - seat
    trump = root.trump
    declared = root.declared_suits[other]
    mask = world.mask(other)
    weight = 1.0
    trick = root.trick
    if trick and root.trick_seats[0] == other:
        led = trick[0]
        mask |= 1 << led
        if not _declared_with(root, other, led):
            weight = play_likelihood(mask, led, -1, trump, declared)
    last = root.last_trick
    if last is None:
        return weight
    seats, cards, _ = last
    at = 0 if seats[0] == other else 1
    c = cards[at]
    if _declared_with(root, other, c):
        return weight
    opening = -1 if at == 0 else cards[0]
    shown = 0
    for x in root.shown[other]:
        shown |= 1 << x
    drawn = mask & ~shown  # the card drawn since the last trick is one of these
    total = 0.0
    count = 0
    rest = drawn
    while rest:
        low = rest & -rest
        rest ^= low
        total += play_likelihood((mask ^ low) | (1 << c), c, opening, trump, declared)
        count += 1
    if count:
        weight *= total / count
    return weight


#: two players: each sampled world is weighed (`inference` candidates, as above) by how
#: well it explains every play of the opponent in the partie so far, which the bot
#: remembers from decision to decision (`ChouineSearch.history`), not the last two only
#: (`history_likelihood`; 0: off)
HISTORY_INFERENCE = 0

#: one play of the opponent seen by the bot: (card, card it answered or -1 when it led,
#: its declared suits then, whether it declared a combination with the card)
Seen = tuple[int, int, int, bool]


def history_likelihood(
    root: ChouineState,
    world: ChouineState,
    seat: Seat,
    history: dict[int, Seen],
    rng: random.Random,
) -> float:
    """How likely the opponent's plays of the partie (`history`, by trick number) are if
    its hand is the world's (two players, phase 1), under the opponent model
    (`play_likelihood`). Its hand at each past trick is rebuilt backwards from the world's:
    the card it played put back, and the card it drew after that trick (unknown: one of its
    cards since, drawn at random here) taken out. A play made with a declaration says
    nothing (the declaration chose it). A gap in the history ends the product."""
    other = 1 - seat
    trump = root.trump
    done = sum(root.tricks_won)
    hand = world.mask(other)
    weight = 1.0
    entry = history.get(done)
    if entry is not None and root.trick and root.trick_seats[0] == other:
        c, led, declared, with_declaration = entry
        hand |= 1 << c
        if not with_declaration:
            weight *= play_likelihood(hand, c, led, trump, declared)
    for j in range(done - 1, -1, -1):
        entry = history.get(j)
        if entry is None:
            break
        c, led, declared, with_declaration = entry
        # the card drawn at the end of trick j: one of the cards held since
        count = _bits(hand)
        if count == 0:
            break
        pick = int(rng.random() * count)
        rest = hand
        while pick:
            rest &= rest - 1
            pick -= 1
        hand = (hand & ~(rest & -rest)) | (1 << c)
        if not with_declaration:
            weight *= play_likelihood(hand, c, led, trump, declared)
    return weight


class TreeNode:
    """A node of the information-set tree: the moves seen since the decision lead here.
    `visits` and `total` (the value for the searching seat) count the iterations through
    it, `avail` those where its move was legal at its parent (UCB's availability)."""

    def __init__(self) -> None:
        self.children: dict[int, TreeNode] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def _ucb_pick(node: TreeNode, ids: list[int], mine: bool, c: float) -> int:
    """The child of `node` among the legal `ids` (all already in the tree) with the best
    UCB score, for us (`mine`) or against us; each one's availability counted."""
    best = -1
    best_score = -1e18
    children = node.children
    for move in ids:
        child = children[move]
        child.avail += 1
    for move in ids:
        child = children[move]
        mean = child.total / child.visits
        score = (mean if mine else -mean) + c * math.sqrt(math.log(child.avail) / child.visits)
        if score > best_score:
            best, best_score = move, score
    return best


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
        #: candidate worlds per sampled world, weighted by the opponent model (1: none)
        self.inference = INFERENCE_CANDIDATES
        #: exact finish of the worlds from this talon size at the decision, and inside the
        #: rollouts (two players; 0: never): see `EXACT_TALON`, `EXACT_ROLLOUT_TALON`
        self.exact_talon = EXACT_TALON
        self.exact_rollout_talon = EXACT_ROLLOUT_TALON
        self.exact_simulations = EXACT_SIMULATIONS
        #: rollouts valued by `value_estimate` after this many tricks (0: never)
        self.value_tricks = VALUE_TRICKS
        #: worlds of the opponent's own answer to a lead (0: the rollout policy answers)
        self.opponent_worlds = OPPONENT_WORLDS
        #: the rollouts' policy (0: `rollout_move`; 1, 2: `value_move`)
        self.rollout_policy = ROLLOUT_POLICY
        #: the opponent's plays of the partie seen so far, by trick number, and the deal
        #: they belong to (two players; read only with `history_inference`)
        self.history: dict[int, Seen] = {}
        self._history_deal = -1
        self.history_inference = HISTORY_INFERENCE
        #: information-set search in phase 1 at two players (0: PIMC), see `ISMCTS`
        self.ismcts = ISMCTS
        self.ismcts_c = ISMCTS_C

    def observe(self, state: ChouineState, seat: Seat) -> None:
        """Remember the opponent's plays the seat can see now (two players): its card of
        the last trick and the card it led to the current one. Every trick passes by a
        decision of ours, so a bot asked at each of its turns sees the whole partie."""
        if state.n != 2 or state.stage != PLAY:
            return
        done = sum(state.tricks_won)
        history = self.history
        if state.deals != self._history_deal or any(k > done for k in history):
            history.clear()
            self._history_deal = state.deals
        other = 1 - seat
        declared = state.declared_suits[other]
        last = state.last_trick
        if last is not None and done >= 1 and done - 1 not in history:
            seats, cards, _ = last
            at = 0 if seats[0] == other else 1
            c = cards[at]
            led = -1 if at == 0 else cards[0]
            history[done - 1] = (c, led, declared, _declared_with(state, other, c))
        trick = state.trick
        if trick and state.trick_seats[0] == other and done not in history:
            c = trick[0]
            history[done] = (c, -1, declared, _declared_with(state, other, c))

    def choose(self, state: State, seat: Seat) -> BotMove | None:
        if isinstance(state, ChouineState) and self.history_inference:
            self.observe(state, seat)
        if isinstance(state, ChouineState) and endgame.applies(state):
            self.last_simulations = self.last_worlds = 0
            if seat != state.turn:
                return None
            return BotMove(endgame.solve(state)[1])
        if (
            self.ismcts
            and isinstance(state, ChouineState)
            and state.n == 2
            and state.talon
            and state.stage == PLAY
            and seat == state.turn
        ):
            ids = list(state.legal_action_ids(seat))
            self.last_simulations = self.last_worlds = 0
            if not ids:
                return None
            if len(ids) == 1:
                return BotMove(ACTIONS[ids[0]])
            return BotMove(ACTIONS[self._ismcts(state, seat, ids)])
        if (
            self.exact_simulations
            and isinstance(state, ChouineState)
            and state.n == 2
            and len(state.talon) <= self.exact_talon
        ):
            budget = self.simulations
            self.simulations = self.exact_simulations
            try:
                return super().choose(state, seat)
            finally:
                self.simulations = budget
        return super().choose(state, seat)

    def _ismcts(self, root: ChouineState, seat: Seat, ids: list[int]) -> int:
        """Single-observer information-set MCTS over the rest of phase 1 (two players):
        `simulations` iterations, each in a new world of what the seat cannot see; the
        tree's nodes are keyed by the moves played since the decision (ours and the
        opponent's, which we see; never the cards drawn, which only change what is
        available), so a node's statistics average over every world that reaches it and
        no move of ours is chosen knowing the world. Returns the most visited move."""
        rng = self.rng
        policy_rng = self.rollout_rng
        c = self.ismcts_c / 100.0
        opponent_in_tree = self.ismcts == 1
        policy = self.rollout_policy
        tree = TreeNode()
        stop_at = None if self.seconds is None else time.perf_counter() + self.seconds
        deals = root.deals
        iterations = 0
        path: list[TreeNode] = []
        while iterations < self.simulations:
            sim = root.determinize(seat, rng)
            node = tree
            path.clear()
            path.append(node)
            value = -1e9
            expanded = False
            while not expanded:
                if sim.stage != PLAY or sim.deals != deals or not sim.talon:
                    value = partie_margin(sim, seat)  # the solver once the talon is empty
                    break
                turn = sim.turn
                legal = sim.legal_action_ids(turn)
                mine = turn == seat
                children = node.children
                if mine or opponent_in_tree:
                    fresh = [m for m in legal if m not in children]
                    if fresh:
                        move = fresh[int(rng.random() * len(fresh))] if len(fresh) > 1 else fresh[0]
                        children[move] = TreeNode()
                        for m in legal:
                            child = children.get(m)
                            if child is not None:
                                child.avail += 1
                        expanded = len(legal) > 1
                    elif len(legal) == 1:
                        move = legal[0]
                        children[move].avail += 1
                    else:
                        move = _ucb_pick(node, legal, mine, c)
                else:
                    if policy:
                        move = value_move(sim, turn, policy_rng, policy)
                    else:
                        move = rollout_move(sim, turn, policy_rng)
                    if move not in children:
                        children[move] = TreeNode()
                sim.apply_id(turn, move)
                node = children[move]
                path.append(node)
            if expanded:
                value = self._rollout(root, sim, seat)
            for n in path:
                n.visits += 1
                n.total += value
            iterations += 1
            if stop_at is not None and time.perf_counter() > stop_at:
                break
        self.last_simulations = iterations
        self.last_worlds = iterations
        best = ids[0]
        best_key = (-1, 0.0)
        for move in ids:
            child = tree.children.get(move)
            if child is None or not child.visits:
                continue
            key = (child.visits, child.total / child.visits)
            if key > best_key:
                best, best_key = move, key
        return best

    def _world(self, state: State, seat: Seat) -> State:
        # the rollouts stop at the end of the partie: no need to seed future deals here
        if self.common_random:
            # every candidate of this world is rolled out with the same random stream
            self._world_seed = self.rng.getrandbits(64)
        if (
            self.history_inference
            and self.inference > 1
            and isinstance(state, ChouineState)
            and state.n == 2
            and state.talon
            and self.history
        ):
            return self._history_world(state, seat)
        if (
            self.inference > 1
            and isinstance(state, ChouineState)
            and state.n == 2
            and state.talon
            and (state.trick or state.last_trick is not None)
        ):
            return self._inferred_world(state, seat)
        return state.determinize(seat, self.rng)

    def _inferred_world(self, state: ChouineState, seat: Seat) -> ChouineState:
        """One world among `inference` candidates, drawn in proportion to how well each
        explains the opponent's last plays (sampling-importance-resampling)."""
        rng = self.rng
        worlds = [state.determinize(seat, rng) for _ in range(self.inference)]
        weights = [world_likelihood(state, w, seat) for w in worlds]
        pick = rng.random() * sum(weights)
        for world, weight in zip(worlds, weights, strict=True):
            pick -= weight
            if pick <= 0:
                return world
        return worlds[-1]

    def _history_world(self, state: ChouineState, seat: Seat) -> ChouineState:
        """One world among `inference` candidates, drawn in proportion to how well each
        explains the opponent's plays of the whole partie (`history_likelihood`)."""
        rng = self.rng
        worlds = [state.determinize(seat, rng) for _ in range(self.inference)]
        weights = [history_likelihood(state, w, seat, self.history, rng) for w in worlds]
        pick = rng.random() * sum(weights)
        for world, weight in zip(worlds, weights, strict=True):
            pick -= weight
            if pick <= 0:
                return world
        return worlds[-1]

    def _rollout(self, root: State, sim: State, seat: Seat) -> float:
        assert isinstance(root, ChouineState) and isinstance(sim, ChouineState)
        rng = self.rollout_rng
        if self.common_random:
            rng.seed(self._world_seed)
        deals = root.deals
        two = sim.n == 2
        exact = self.exact_rollout_talon
        if two and len(root.talon) <= self.exact_talon:
            exact = self.exact_talon
        if (
            self.opponent_worlds
            and two
            and len(sim.talon) >= 4
            and len(sim.trick) == 1
            and sim.turn != seat
            and sim.stage == PLAY
            and not sim.chouines
        ):
            self._answer_as_opponent(sim, sim.turn, rng)
        # the talon size at which a rollout is cut and valued by the fitted evaluation
        policy = self.rollout_policy if two else 0
        cut = len(root.talon) - 2 * self.value_tricks if two and self.value_tricks else -1
        if cut < VALUE_MIN_TALON:
            cut = -1
        while sim.stage == PLAY and sim.deals == deals:
            if exact and two and len(sim.talon) <= exact:
                cap = MARGIN_CAP
                return win_value(exact_margin(sim, seat, -cap, cap, cap), 2)
            if two and not sim.talon:
                break
            if len(sim.talon) <= cut and not sim.trick and not sim.chouines:
                value = value_estimate(sim, seat)
                if value is not None:
                    return value
            turn = sim.turn
            if policy:
                sim.apply_id(turn, value_move(sim, turn, rng, policy))
            else:
                sim.apply_id(turn, rollout_move(sim, turn, rng))
        return partie_margin(sim, seat)

    def _answer_as_opponent(self, sim: ChouineState, opp: Seat, rng: random.Random) -> None:
        """Play the opponent's answer to the card led in `sim` as it would choose it from
        its own seat: every answer valued (for it, by `value_estimate` at the next trick's
        start) in `opponent_worlds` worlds where what it cannot see (our other cards, the
        talon) is dealt anew; the best mean is played. The seven exchange first, as the
        rollout policy does."""
        ids = sim.legal_action_ids(opp)
        if EXCHANGE_ID in ids:
            sim.apply_id(opp, EXCHANGE_ID)
            ids = sim.legal_action_ids(opp)
        if len(ids) == 1:
            sim.apply_id(opp, ids[0])
            return
        ids = list(ids)
        totals = [0.0] * len(ids)
        for _ in range(self.opponent_worlds):
            view = sim.determinize(opp, rng)
            for j, move in enumerate(ids):
                after = view.clone()
                after.apply_id(opp, move)
                value = value_estimate(after, opp) if after.stage == PLAY else None
                totals[j] += partie_margin(after, opp) if value is None else value
        best = max(range(len(ids)), key=lambda j: (totals[j], -j))
        sim.apply_id(opp, ids[best])


def search_bot(rng: random.Random, simulations: int, seconds: float | None) -> ChouineSearch:
    return ChouineSearch(rng, simulations=simulations, seconds=seconds)


__all__ = [
    "ChouineSearch",
    "exact_margin",
    "partie_margin",
    "rollout_move",
    "search_bot",
    "value_move",
]
