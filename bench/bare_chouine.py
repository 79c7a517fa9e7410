"""The yardstick of the engine's speed: a bare plain-Python random Chouine deal.

Two players, the same rules without the platform: a shuffled deck, 5 cards each, the
turned-up card, free play while the talon lasts (winner draws first), then follow suit /
beat a trump lead / trump, 10 for the last trick; no declarations, no trump seven. Next to
it, the engine plays random deals through its contract (`legal_action_ids` and `apply_id`,
with every rule: declarations, the seven, parties and manches). Both figures are printed
side by side, from the same machine in the same run.

    .venv/bin/python bench/bare_chouine.py --seconds 5
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import NEXT_DEAL_ID

POINTS = (0, 0, 0, 2, 3, 4, 10, 11) * 4


def bare_deal(rng: random.Random) -> int:
    """One random deal; returns the winner's seat (0 on a tie, it does not matter here)."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [deck[0:10:2], deck[1:10:2]]
    trump = deck[10] >> 3
    talon = [deck[10], *reversed(deck[11:])]  # the turned-up card is drawn last
    points = [0, 0]
    leader = 1
    while hands[leader]:
        lead_hand = hands[leader]
        a = rng.choice(lead_hand)
        lead_hand.remove(a)
        follower = 1 - leader
        hand = hands[follower]
        if talon:
            legal = hand
        else:
            suit = a >> 3
            legal = [c for c in hand if c >> 3 == suit]
            if legal:
                if suit == trump:
                    legal = [c for c in legal if c > a] or legal
            else:
                legal = [c for c in hand if c >> 3 == trump] or hand
        b = rng.choice(legal)
        hand.remove(b)
        if (b >> 3 == a >> 3 and b > a) or (b >> 3 == trump and a >> 3 != trump):
            winner = follower
        else:
            winner = leader
        points[winner] += POINTS[a] + POINTS[b]
        if talon:
            hands[winner].append(talon.pop())
            hands[1 - winner].append(talon.pop())
        leader = winner
    points[leader] += 10
    return 0 if points[0] >= points[1] else 1


def engine_deals(rng: random.Random, seed: int, spent: list[float] | None = None) -> int:
    """One random match through the contract; returns the number of deals it took. With
    `spent`, only the deals after the match's first count (each from the table's « next
    deal », its shuffle and deal included): their CPU time is added to `spent[0]` and their
    number returned; left out is the match's setup (the Mersenne Twister seeded from
    `seed`, the dealer's draw, the first deal)."""
    state = GAME.new(2, seed)
    assert isinstance(state, ChouineState)
    choice = rng.choice
    begin = 0.0
    counted = 0
    while True:
        seat = state.turn
        ids = state.legal_action_ids(seat)
        if ids:
            state.apply_id(seat, choice(ids))
            continue
        if spent is not None and begin:
            spent[0] += time.process_time() - begin
            counted += 1
        if state.is_over():
            return state.deals if spent is None else counted
        if spent is not None:
            begin = time.process_time()
        state.apply_id(None, NEXT_DEAL_ID)


def rate(
    step: Callable[[int], int], seconds: float, start: int, spent: list[float] | None = None
) -> tuple[float, int]:
    """Deals per second of CPU of `step` (which returns how many deals it played) for about
    `seconds`, over the whole time or, with `spent`, over the time `step` adds to it; also
    the next seed number."""
    deals = 0
    count = start
    begin = time.process_time()  # CPU time: a neighbour's load weighs less on it
    while time.process_time() - begin < seconds:
        for _ in range(20):
            deals += step(count)
            count += 1
    return deals / (time.process_time() - begin if spent is None else spent[0]), count


def interleaved(seconds: float, seed: int, rounds: int = 10) -> tuple[float, float, float]:
    """The rates measured in alternating short rounds, so that a neighbour's load on a
    shared machine weighs on all alike; the best round of each: the bare loop, whole
    matches through the contract, and the deals of a match after its first."""
    rng = random.Random(seed)
    bare = engine = later = 0.0
    count = seed
    for _ in range(rounds):
        bare = max(bare, rate(lambda _: (bare_deal(rng), 1)[1], seconds / rounds, 0)[0])
        measured, count = rate(lambda n: engine_deals(rng, n), seconds / rounds, count)
        engine = max(engine, measured)
        spent = [0.0]
        measured, count = rate(
            functools.partial(engine_deals, rng, spent=spent), seconds / rounds, count, spent
        )
        later = max(later, measured)
    return bare, engine, later


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bare, engine, later = interleaved(args.seconds, args.seed)
    print(
        "Chouine à deux, donnes au hasard par seconde de calcul (un cœur, meilleure de 10 manches) :"
    )
    print(f"  boucle nue (bench/bare_chouine.py) : {bare:,.0f} donnes/s")
    print(f"  moteur par le contrat (legal_action_ids / apply_id) : {engine:,.0f} donnes/s")
    print(f"  rapport moteur / boucle nue : {engine / bare:.2f}×")
    print(
        "  moteur, les donnes d'un match après la première (sans la graine ni le tirage "
        f"du donneur) : {later:,.0f} donnes/s, rapport {later / bare:.2f}×"
    )


if __name__ == "__main__":
    main()
