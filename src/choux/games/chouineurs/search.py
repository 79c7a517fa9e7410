"""The Chouineurs expert: determinized search whose worlds end on the exact last tricks.

Each decision samples worlds consistent with what the seat has seen (`determinize`: others'
hands and the reserve re-dealt from the unseen cards with random ends, colours a player
showed it lacks kept out of its hand; before the reveal, others' hidden choices), tries every
candidate in every world (paired samples, sequential halving: `choux.ai.pimc.SearchBot`),
and plays the world on to the end of the round:

- before the reveal, a sampled player who has already chosen is given the choice its
  sampled hand calls for (the greedy bot's bet and orientation), not a random one: a bet
  follows from a hand;
- the tricks are played by a fast integer copy of the greedy policy (bet-aware: win or duck
  to land on the bet, cry for the card turn or token worth most), without Action objects;
- once `SOLVE_AT` cards or fewer remain in hand, the rest of the round is solved exactly
  (`endgame.py`, max^n over the known world: bet points and tokens as the rules count
  them); decisions taken with more than `EXACT_FROM` cards in hand (the round's choice, the
  first tricks) play their worlds on to the forced last trick instead, which costs a
  quarter of the time.

The value of a world for the seat is its total after the round against the others' mean
and best (`endgame.utility`, the same as `bots.round_value`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from choux.ai.pimc import SearchBot
from choux.engine.base import Seat, State
from choux.games.chouineurs.actions import TURNED, Prepare
from choux.games.chouineurs.deck import BET_INDEX, BET_POINTS, FACE_COLOUR, FACE_VALUE
from choux.games.chouineurs.endgame import Solver, utility
from choux.games.chouineurs.greedy import (
    CRY_VALUE,
    FACE_WIN,
    LOWER_SHARE,
    GreedyBot,
    trick_distribution,
)
from choux.games.chouineurs.rules import crybabies, legal_cards, trick_winner
from choux.games.chouineurs.state import (
    CHOOSING,
    CRYING,
    NOT_CHOSEN,
    OVER,
    ChouineursState,
)

#: players -> cards in hand from which the rest of a round is solved exactly (the solver's
#: cost grows fast with the cards and the players: at 3 players 3 cards cost about 70 ms a
#: world, 2 cards about 0.5 ms)
SOLVE_AT = {3: 2, 4: 2, 5: 2}
#: a decision taken with more cards than this in hand (the choice of the round, the first
#: tricks) plays its worlds to the last trick, forced, instead: there the solver would
#: cost more rollouts than it brings, and the first world must stay cheap (it is finished
#: whatever the clock)
EXACT_FROM = 4


def without(dist: list[float], p: float) -> list[float]:
    """The distribution `dist` with one card of rate `p` taken out (a deconvolution, in the
    numerically stable direction)."""
    q = 1.0 - p
    size = len(dist) - 1
    rest = [0.0] * size
    if q >= 0.5:
        carry = 0.0
        for k in range(size):
            carry = (dist[k] - p * carry) / q
            rest[k] = carry
    else:
        carry = 0.0
        for k in range(size, 0, -1):
            carry = (dist[k] - q * carry) / p
            rest[k - 1] = carry
    return rest


def with_card(dist: list[float], p: float) -> list[float]:
    q = 1.0 - p
    nxt = [0.0] * (len(dist) + 1)
    for k, mass in enumerate(dist):
        nxt[k] += mass * q
        nxt[k + 1] += mass * p
    return nxt


def expected(row: Sequence[int], won: int, dist: Sequence[float]) -> float:
    top = len(row) - 1
    return sum(mass * row[min(won + k, top)] for k, mass in enumerate(dist))


_takes = GreedyBot._takes


def play_policy(
    n: int, hand: list[int], trick: list[int], bet: int, won: int, win: Sequence[float]
) -> int:
    """The greedy bot's card, on ints: win or duck by the chance each card takes the trick
    against the points the rest of the hand can still reach."""
    legal = legal_cards(hand, FACE_COLOUR[trick[0]] if trick else -1)
    if len(legal) == 1:
        return legal[0]
    after = n - len(trick) - 1
    low = min((FACE_VALUE[f] for f in trick), default=99)
    dist = trick_distribution([win[f] for f in hand]) if bet >= 0 else []
    row = BET_POINTS[bet] if bet >= 0 else ()
    best_value = -1e9
    best_face = legal[0]
    for face in legal:
        if bet >= 0:
            rest = without(dist, win[face])
            lose_pts = expected(row, won, rest)
            win_pts = expected(row, won + 1, rest)
        else:
            lose_pts = win_pts = 0.0
        p = _takes(trick, face, after, win)
        value = p * win_pts + (1 - p) * lose_pts
        v = FACE_VALUE[face]
        if v <= low:
            value += CRY_VALUE * (1.0 - LOWER_SHARE[v]) ** after
        if value > best_value:
            best_value, best_face = value, face
    return best_face


def cry_policy(hand: list[int], bet: int, won: int, reserve: int, win: Sequence[float]) -> int:
    """The greedy crybaby: index of the card to turn, or -1 for a token."""
    best_gain = 1.0 if reserve else -1e9
    best = -1
    if bet < 0:
        return best if reserve else 0
    row = BET_POINTS[bet]
    dist = trick_distribution([win[f] for f in hand])
    now = expected(row, won, dist)
    for i, face in enumerate(hand):
        turned = with_card(without(dist, win[face]), win[face ^ 1])
        gain = expected(row, won, turned) - now
        if gain > best_gain:
            best_gain, best = gain, i
    return best


def rollout_points(sim: ChouineursState, solve_at: int) -> tuple[int, ...]:
    """Round points per seat: `sim` (phase jeu or chouine, every hand known) played on by
    the integer greedy policy, then solved exactly from `solve_at` cards in hand."""
    n = sim.n
    win = FACE_WIN[n]
    hands = [list(h) for h in sim.hands]
    trick = list(sim.trick)
    leader = sim.leader
    won = list(sim.tricks_won)
    tokens = [len(t) for t in sim.token_cards]
    reserve = len(sim.reserve)
    cry = list(sim.cry_queue) if sim.phase == CRYING else []
    bets = sim.choice_bet
    while True:
        seat = cry[0] if cry else (leader + len(trick)) % n
        hand = hands[seat]
        if len(hand) <= solve_at:
            solver = Solver(bets, sim.scores)
            return solver.value(
                tuple(tuple(sorted(h)) for h in hands),
                tuple(trick),
                leader,
                tuple(won),
                tuple(tokens),
                reserve,
                tuple(cry),
            )
        if cry:
            del cry[0]
            index = cry_policy(hand, bets[seat], won[seat], reserve, win)
            if index < 0:
                tokens[seat] += 1
                reserve -= 1
            else:
                hand[index] ^= 1
            continue
        face = play_policy(n, hand, trick, bets[seat], won[seat], win)
        hand.remove(face)
        trick.append(face)
        if len(trick) < n:
            continue
        winner = (leader + trick_winner(trick)) % n
        won[winner] += 1
        cry = [(leader + i) % n for i in crybabies(trick)]
        leader = winner
        trick = []
        # a hand is never empty here: solve_at >= 1 solves the last trick


class ChouineursSearch(SearchBot):
    """PIMC for Chouineurs: worlds from the game's determinization (hidden choices drawn
    from the sampled hands), integer greedy rollouts, exact last tricks."""

    def __init__(self, rng: random.Random, *, simulations: int, seconds: float | None) -> None:
        super().__init__(rng, simulations=simulations, seconds=seconds)
        self.chooser = GreedyBot(random.Random(0))

    def _world(self, state: State, seat: Seat) -> State:
        # the rollouts stop at the end of the round: future deals do not matter
        world = state.determinize(seat, self.rng)
        assert isinstance(world, ChouineursState)
        if not world.revealed:
            for other in range(world.n):
                if other != seat and world.choice_bet[other] != NOT_CHOSEN:
                    self._choose_for(world, other)
        return world

    def _choose_for(self, world: ChouineursState, seat: int) -> None:
        """Give `seat` (whose choice is hidden) the choice its sampled hand calls for. Its
        sampled hand is taken as dealt: turn it if the choice says so."""
        choice = self.chooser.prepare(world, seat)
        assert isinstance(choice, Prepare)
        world.choice_bet[seat] = BET_INDEX[choice.bet] if choice.bet is not None else -1
        turned = choice.orientation == TURNED
        world.choice_turned[seat] = turned
        if turned:
            world.hands[seat] = [f ^ 1 for f in world.hands[seat]]

    def _rollout(self, root: State, sim: State, seat: Seat) -> float:
        assert isinstance(root, ChouineursState) and isinstance(sim, ChouineursState)
        if sim.phase == OVER or sim.round != root.round:  # the candidate ended the round
            return utility(sim.scores, seat)
        while sim.phase == CHOOSING:
            other = sim.actors()[0]
            sim.apply(other, self.chooser.prepare(sim, other))
        cards = len(root.hands[seat])
        points = rollout_points(sim, SOLVE_AT[sim.n] if cards <= EXACT_FROM else 1)
        return utility([s + p for s, p in zip(sim.scores, points, strict=True)], seat)


__all__ = ["SOLVE_AT", "ChouineursSearch", "play_policy", "rollout_points"]
