"""Small pure rules of Cul de Chouette, named so that a reader finds them by name."""

from __future__ import annotations

from choux.games.cul_de_chouette.combos import SOUFFLETTE_KEEP


def next_seat(seat: int, players: int) -> int:
    """Play goes counter-clockwise: seats are numbered clockwise, so the next is seat − 1."""
    return (seat - 1) % players


def capped_score(score: int, gain: int, cap: int) -> int:
    """A challenge, bet, race or purchase gain never carries a score above the cap (and
    never lowers a score that is already above it)."""
    if gain <= 0:
        return max(0, score + gain)
    if score + gain <= cap:
        return score + gain
    return max(score, cap)


def floored_score(score: int, loss: int) -> int:
    """Scores never go below 0."""
    return max(0, score - loss)


def soufflette_kept(dice: list[int] | tuple[int, ...]) -> list[int]:
    """The dice a Soufflette challenger keeps: one 4, one 2 and one 1 when they show."""
    return [v for v in SOUFFLETTE_KEEP if v in dice]


def lowest_seats(values: dict[int, int]) -> list[int]:
    """Seats whose die is the lowest (a tie when more than one)."""
    low = min(values.values())
    return sorted(s for s, v in values.items() if v == low)


def total_is_possible(total: int) -> bool:
    """Three dice make 3 to 18: any other total announced on a Bleu-Rouge is a Bévue."""
    return 3 <= total <= 18


def may_pass_grelot(earned: bool, used: bool, players: int) -> bool:
    """Passe-Grelot: earned by winning a Grelottine challenge as the challenged, once per
    game, and without effect at two players."""
    return players > 2 and earned and not used


def grelottine_stake_allowed(stake: int, top: int) -> bool:
    """A Grelottine stake is 1 point at least, the combination's maximum at most."""
    return 1 <= stake <= top
