"""Exact play of the last tricks of a Chouineurs round in a world where every hand is known.

The search levels deal the hidden cards at random (`ChouineursState.determinize`); once few
cards remain in a sampled world, the rest of the round is a small game of perfect
information, solved here exactly. Three to five players have different goals, so the tree
is solved by **max^n**: every player, at its own decision (a card to play, or as a crybaby:
a card to turn or a token to take), picks the child best for itself; ties go to the first
child in the canonical order (cards by face; a crybaby's turns by face, then the token).

What a player wants (`utility`): its total after the round against the others' totals,
half against their mean and half against the best of them (the expert's evaluation,
`round_value`). A leaf is the round's scoring as the rules define it (shared/rules/
chouineurs.md): the bet card's points for the tricks won (0 when the bet misses; no bet:
0) plus one point per token; after the seventh trick each crybaby takes a token while the
reserve lasts, in play order.

A position is a few tuples of ints: hands (each sorted), the cards of the trick under way,
its leader, tricks won and tokens per seat, the reserve's size and the crybabies still to
choose. A transposition table keeps the positions at the start of a trick. The result is
the vector of round points per seat. `tests/games/chouineurs/test_chouineurs_endgame.py`
checks it against a brute force over the engine's own legal actions.

>>> from choux.games.chouineurs.testing import arrange, prepare_all
>>> state = arrange(3, hands=[["noir5", "bleu2"], ["jaune3", "bleu9"], ["rouge4", "bleu5"]])
>>> _ = prepare_all(state, ["vert", "orange", "vert"])
>>> points, move = solve_state(state)
>>> points, move.label()
((9, 4, 2), 'Jouer 2 bleu (dos : 15 rouge)')

(Both cards win seat 0 nine points; the 2 bleu also leaves the others fewer.)
"""

from __future__ import annotations

from collections.abc import Sequence

from choux.engine.base import Action
from choux.games.chouineurs.actions import CRY_FACE, CRY_TOKEN, PLAY_FACE
from choux.games.chouineurs.deck import (
    BET_POINTS,
    FACE_COLOUR,
    FACE_VALUE,
    HAND_SIZE,
    TOKEN_POINTS,
)
from choux.games.chouineurs.rules import TRUMP_RANK, crybabies, legal_cards, trick_winner
from choux.games.chouineurs.state import CRYING, PLAYING, ChouineursState

#: positions kept in a transposition table before it is cleared
TABLE_LIMIT = 200_000

NO_BET_ROW = (0,) * (HAND_SIZE + 1)

Hands = tuple[tuple[int, ...], ...]
Points = tuple[int, ...]


def utility(totals: Sequence[int], seat: int) -> float:
    """What `seat` makes of final totals: its own against the others' mean and best."""
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - 0.5 * (sum(others) / len(others) + max(others))


class Solver:
    """Max^n over the rest of a round, for fixed bets and scores (one sampled world)."""

    __slots__ = ("bets", "memo", "n", "nodes", "rows", "scores", "table")

    def __init__(self, bets: Sequence[int], scores: Sequence[int]) -> None:
        self.n = len(bets)
        self.bets = tuple(bets)
        self.scores = tuple(scores)
        self.table: dict[tuple[object, ...], Points] = {}
        self.memo: dict[Points, tuple[float, ...]] = {}
        self.nodes = 0
        #: seat -> points by tricks won (no bet: zeros)
        self.rows = tuple(BET_POINTS[b] if b >= 0 else NO_BET_ROW for b in self.bets)

    # ------------------------------------------------------------------ values

    def leaf(self, won: Sequence[int], tokens: Sequence[int]) -> Points:
        """Round points per seat: the bet card's points plus the tokens."""
        return tuple(
            (BET_POINTS[b][w] if b >= 0 else 0) + TOKEN_POINTS * t
            for b, w, t in zip(self.bets, won, tokens, strict=True)
        )

    def utilities(self, points: Points) -> tuple[float, ...]:
        """Every seat's utility of round points `points` (memoised: few distinct vectors)."""
        found = self.memo.get(points)
        if found is None:
            totals = [s + p for s, p in zip(self.scores, points, strict=True)]
            found = tuple(utility(totals, s) for s in range(self.n))
            self.memo[points] = found
        return found

    def better(self, seat: int, a: Points, b: Points) -> bool:
        """True when `seat` strictly prefers round points `a` to `b`."""
        return self.utilities(a)[seat] > self.utilities(b)[seat]

    # ------------------------------------------------------------------ the tree

    def value(
        self,
        hands: Hands,
        trick: tuple[int, ...],
        leader: int,
        won: tuple[int, ...],
        tokens: tuple[int, ...],
        reserve: int,
        cry: tuple[int, ...],
    ) -> Points:
        """Round points per seat of the position under max^n play (hands sorted)."""
        self.nodes += 1
        if cry:
            return self._cry(hands, leader, won, tokens, reserve, cry)
        key: tuple[object, ...] | None = None
        if not trick:
            key = (hands, leader, won, tokens, reserve)
            found = self.table.get(key)
            if found is not None:
                return found
        n = self.n
        seat = (leader + len(trick)) % n
        hand = hands[seat]
        if len(hand) == 1:
            return self._last(hands, trick, leader, won, tokens, reserve)
        legal = legal_cards(hand, FACE_COLOUR[trick[0]] if trick else -1)
        best: Points | None = None
        for face in legal:
            child = self._play(hands, trick, leader, won, tokens, reserve, seat, face)
            if best is None or self.better(seat, child, best):
                best = child
        assert best is not None
        if key is not None:
            if len(self.table) >= TABLE_LIMIT:
                self.table.clear()
            self.table[key] = best
        return best

    def _last(
        self,
        hands: Hands,
        trick: tuple[int, ...],
        leader: int,
        won: tuple[int, ...],
        tokens: tuple[int, ...],
        reserve: int,
    ) -> Points:
        """The last trick: every card left is forced (the rules' functions, inlined)."""
        n = self.n
        done = list(trick)
        for i in range(len(trick), n):
            done.append(hands[(leader + i) % n][0])
        led = FACE_COLOUR[done[0]]
        best = best_rank = -1
        low = 99
        for i, face in enumerate(done):
            rank = TRUMP_RANK[face] or (FACE_VALUE[face] if FACE_COLOUR[face] == led else -1)
            if rank > best_rank:
                best, best_rank = i, rank
            value = FACE_VALUE[face]
            if value < low:
                low = value
        winner = (leader + best) % n
        counts = list(tokens)
        if reserve:
            for i, face in enumerate(done):
                if FACE_VALUE[face] == low and reserve:
                    reserve -= 1
                    counts[(leader + i) % n] += 1
        rows = self.rows
        return tuple(rows[s][won[s] + (s == winner)] + TOKEN_POINTS * counts[s] for s in range(n))

    def _play(
        self,
        hands: Hands,
        trick: tuple[int, ...],
        leader: int,
        won: tuple[int, ...],
        tokens: tuple[int, ...],
        reserve: int,
        seat: int,
        face: int,
    ) -> Points:
        """Value after `seat` plays `face`."""
        hand = hands[seat]
        rest = tuple(f for f in hand if f != face)
        hands = (*hands[:seat], rest, *hands[seat + 1 :])
        done = (*trick, face)
        n = self.n
        if len(done) < n:
            return self.value(hands, done, leader, won, tokens, reserve, ())
        winner = (leader + trick_winner(done)) % n
        cry = tuple((leader + i) % n for i in crybabies(done))
        won = (*won[:winner], won[winner] + 1, *won[winner + 1 :])
        if rest:
            return self.value(hands, (), winner, won, tokens, reserve, cry)
        # the last trick: each crybaby takes a token while the reserve lasts
        counts = list(tokens)
        for s in cry:
            if reserve:
                reserve -= 1
                counts[s] += 1
        return self.leaf(won, counts)

    def _cry(
        self,
        hands: Hands,
        leader: int,
        won: tuple[int, ...],
        tokens: tuple[int, ...],
        reserve: int,
        cry: tuple[int, ...],
    ) -> Points:
        seat = cry[0]
        rest = cry[1:]
        best: Points | None = None
        for child in self.cry_children(hands, tokens, reserve, seat):
            c_hands, c_tokens, c_reserve = child
            value = self.value(c_hands, (), leader, won, c_tokens, c_reserve, rest)
            if best is None or self.better(seat, value, best):
                best = value
        assert best is not None
        return best

    @staticmethod
    def cry_children(
        hands: Hands, tokens: tuple[int, ...], reserve: int, seat: int
    ) -> list[tuple[Hands, tuple[int, ...], int]]:
        """(hands, tokens, reserve) after each choice of crybaby `seat`, in the canonical
        order: turn each card (by face), then take a token."""
        hand = hands[seat]
        children = []
        for i in range(len(hand)):
            turned = tuple(sorted((*hand[:i], hand[i] ^ 1, *hand[i + 1 :])))
            children.append(((*hands[:seat], turned, *hands[seat + 1 :]), tokens, reserve))
        if reserve:
            more = (*tokens[:seat], tokens[seat] + 1, *tokens[seat + 1 :])
            children.append((hands, more, reserve - 1))
        return children


# --------------------------------------------------------------------------- engine states


def position(
    state: ChouineursState,
) -> tuple[Hands, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]:
    """The solver's position of an engine state during the tricks (phase jeu or chouine)."""
    return (
        tuple(tuple(sorted(h)) for h in state.hands),
        tuple(state.trick),
        state.leader,
        tuple(state.tricks_won),
        tuple(len(t) for t in state.token_cards),
        len(state.reserve),
        tuple(state.cry_queue) if state.phase == CRYING else (),
    )


def solver_for(state: ChouineursState) -> Solver:
    return Solver(state.choice_bet, state.scores)


def round_points(state: ChouineursState, solver: Solver | None = None) -> Points:
    """Round points per seat of an engine state whose every hand is taken as known."""
    solver = solver or solver_for(state)
    return solver.value(*position(state))


def solve_state(state: ChouineursState) -> tuple[Points, Action]:
    """(round points per seat, the move of the seat to act) under max^n, every hand known."""
    assert state.phase in (PLAYING, CRYING)
    solver = solver_for(state)
    hands, trick, leader, won, tokens, reserve, cry = position(state)
    best: tuple[Points, Action] | None = None
    if cry:
        seat = cry[0]
        hand = hands[seat]
        options: list[Action] = [CRY_FACE[f] for f in hand]
        if reserve:
            options.append(CRY_TOKEN)
        children = solver.cry_children(hands, tokens, reserve, seat)
        for action, (c_hands, c_tokens, c_reserve) in zip(options, children, strict=True):
            value = solver.value(c_hands, (), leader, won, c_tokens, c_reserve, cry[1:])
            if best is None or solver.better(seat, value, best[0]):
                best = (value, action)
    else:
        seat = (leader + len(trick)) % state.n
        legal = legal_cards(hands[seat], FACE_COLOUR[trick[0]] if trick else -1)
        for face in legal:
            value = solver._play(hands, trick, leader, won, tokens, reserve, seat, face)
            if best is None or solver.better(seat, value, best[0]):
                best = (value, PLAY_FACE[face])
    assert best is not None
    return best


__all__ = ["Solver", "position", "round_points", "solve_state", "utility"]
