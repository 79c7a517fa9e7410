"""Information-set Monte Carlo tree search (single observer) for a Chouine decision.

Flat PIMC (`choux.ai.pimc`) plays every move after the candidate with the rollout policy,
so more rollouts stop paying once the policy's bias dominates (docs/perf.md, issue 13,
tenth pass). Here the first `plies` moves after the decision are searched too: one tree
for the deciding seat, its nodes keyed by what that seat sees (the action taken and, when
a trick ends, the card the seat drew), each iteration in a world dealt anew from the
seat's view. The opponent plays the rollout policy, which reads its own hand: a tree node
of the opponent's would pool worlds that differ in that very hand, a worse model of it
(measured: docs/perf.md, issue 13, tenth pass). The seat's own later moves are chosen by
their mean value over the worlds consistent with what it saw (UCB). Below the tree, the search's own
rollout (policy, cut, exact end) values the position.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from choux.games.chouine.state import ChouineState

#: exploration of the UCB rule, in units of the search's value (a partie is worth 1)
EXPLORATION = 0.7
#: below the root, a node visited fewer times than this follows the rollout policy (a
#: few visits would otherwise spread over every reply, most of them poor)
WARM = 20


class Node:
    """One node of the tree: the statistics of the move that leads to it, for its mover."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, int], Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def _select(node: Node, keys: list[tuple[int, int]]) -> tuple[int, int]:
    """The child to follow among `keys` (the moves legal in this world): an unvisited one
    first, else the best upper confidence bound."""
    best = keys[0]
    best_score = -math.inf
    for key in keys:
        child = node.children.get(key)
        if child is None or not child.visits:
            return key
        score = child.total / child.visits + EXPLORATION * math.sqrt(
            math.log(max(1, child.available)) / child.visits
        )
        if score > best_score:
            best, best_score = key, score
    return best


def search(
    state: ChouineState,
    seat: int,
    ids: list[int],
    iterations: int,
    plies: int,
    rng: random.Random,
    rollout: Callable[[ChouineState], float],
    policy: Callable[[ChouineState, int], int],
) -> list[tuple[int, float]]:
    """Run the tree search for `seat` over its legal `ids`; each root move's (visits, mean
    value). `rollout` values a world's position for `seat` (the search's own rollout);
    `policy` is the rollout policy's move for a seat in a world (its action id)."""
    root = Node()
    for _ in range(iterations):
        world = state.determinize(seat, rng)
        node = root
        path: list[tuple[Node, bool]] = []
        depth = 0
        while depth <= plies:
            mover = world.turn
            if mover is None or world.is_over():
                break
            legal = ids if depth == 0 else world.legal_action_ids(mover)
            if not legal:
                break
            mine = world.mask(seat)
            talon = len(world.talon)
            keys = [(a, -1) for a in legal]
            for key in keys:
                child = node.children.get(key)
                if child is not None:
                    child.available += 1
            if mover != seat or (depth and node.visits < WARM):
                key = (policy(world, mover), -1)
            else:
                key = _select(node, keys)
            world.apply_id(mover, key[0])
            drawn = -1
            if len(world.talon) < talon:  # a trick ended: the seat sees what it drew
                new = world.mask(seat) & ~mine
                drawn = new.bit_length() - 1 if new else -1
            full = (key[0], drawn)
            # the move's statistics live on the (action, nothing seen) node; what the seat
            # drew only splits the subtree below it
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                child.available = 1
                path.append((child, mover == seat))
                node = child
                depth = plies + 1  # expanded: roll out from here
                break
            path.append((child, mover == seat))
            if drawn >= 0:
                below = child.children.get(full)
                if below is None:
                    below = child.children[full] = Node()
                below.visits += 1  # counts passes only: its moves hold the values
                node = below
            else:
                node = child
            depth += 1
            if not world.talon:
                break
        value = rollout(world)
        for child, own in path:
            child.visits += 1
            child.total += value if own else 1.0 - value
    result = []
    for a in ids:
        child = root.children.get((a, -1))
        if child is None or not child.visits:
            result.append((0, 0.0))
        else:
            result.append((child.visits, child.total / child.visits))
    return result


__all__ = ["EXPLORATION", "Node", "search"]
