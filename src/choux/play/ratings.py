"""Player ratings per game (openskill's Plackett-Luce model), updated once per finished game.

Who is rated: a person who sat down with the guest identity of their browser cookie, and
each bot level (one rating per level and game, so the ladder also shows how strong the bots
are). Not rated: seats played from a shared screen by someone else, a person replaced by a
bot during the game, a person whose every move was played by the clock (the timeout bot of
a correspondence game, or a move clock: they did not play, as if replaced), a referee, and
games with no rated person at all (bot-only tables, or nobody made a move of their own).

Seats that share a final rank form one team for the update: partners in a team game finish
together, and a tie between opponents is a draw either way. A bot level may hold several
seats (a person against two greedy robots, the usual solo game): each seat is rated from the
level's rating and the level keeps their mean.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
BOT_PREFIX = "bot:"


@dataclass
class Standing:
    """One entry of a game's ladder."""

    player: str  # the guest identity, or "bot:<level>"
    name: str  # the latest pseudonym (or the bot's label)
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def score(self) -> int:
        """The shown rating: the conservative estimate mu - 3 sigma, on a 1000-point scale
        where a newcomer starts at 1000.

        >>> Standing("x", "X").score
        1000
        """
        return round(1000 + 40 * (self.mu - 3 * self.sigma))

    @property
    def is_bot(self) -> bool:
        return self.player.startswith(BOT_PREFIX)

    @property
    def level(self) -> str | None:
        """The bot level of a bot's entry (None for a person)."""
        return self.player[len(BOT_PREFIX) :] if self.is_bot else None


@dataclass(frozen=True)
class Entrant:
    """A rated seat of a finished game: who, under which name, and their final rank."""

    player: str
    name: str
    rank: int


def entrants(
    seats: Sequence[tuple[str, str | None, str | None, str | None]],
    ranks: Sequence[int],
    competitors: Sequence[int],
    clocked: Collection[int] = (),
) -> list[Entrant]:
    """The rated seats of a game from its seats (kind, name, level, player) and ranks;
    `clocked`: the people's seats whose every move the clock played (not rated, as a person
    replaced by a bot).

    >>> seats = [("human", "Ana", None, "p1"), ("bot", "Robot", "greedy", None)]
    >>> [e.player for e in entrants(seats, [2, 1], [0, 1])]
    ['p1', 'bot:greedy']
    >>> entrants([("human", "Ana", None, "p1"), ("bot", "R", "greedy", None)], [1, 2], [1])
    []
    """
    found: list[Entrant] = []
    for seat in competitors:
        if seat >= len(seats) or seat >= len(ranks):
            continue
        kind, name, level, player = seats[seat]
        if kind == "human" and player and seat not in clocked:
            found.append(Entrant(player, name or "?", ranks[seat]))
        elif kind == "bot" and player is None and level:  # a replaced person is not rated
            found.append(Entrant(BOT_PREFIX + level, name or level, ranks[seat]))
    keys = [e.player for e in found]
    # one identity, one seat; but one bot level may hold several (a person against two
    # greedy robots: `rate` gives the level one update for all its seats)
    found = [e for e in found if e.player.startswith(BOT_PREFIX) or keys.count(e.player) == 1]
    if not any(not e.player.startswith(BOT_PREFIX) for e in found):
        return []
    if len({e.player for e in found}) < 2:
        return []
    return found


def rate(found: Sequence[Entrant], before: dict[str, Standing]) -> list[Standing]:
    """The entrants' standings after the game (new ones start at the model's prior)."""
    by_rank: dict[int, list[Entrant]] = {}
    for entrant in found:
        by_rank.setdefault(entrant.rank, []).append(entrant)
    order = sorted(by_rank)
    teams = []
    for rank in order:
        team = []
        for entrant in by_rank[rank]:
            old = before.get(entrant.player) or Standing(entrant.player, entrant.name)
            team.append(MODEL.create_rating([old.mu, old.sigma]))
        teams.append(team)
    if len(teams) > 1:
        teams = MODEL.rate(teams, ranks=[float(r) for r in order])
    # each seat's new rating, gathered by player: a bot level at several seats (each rated
    # from the level's rating before the game) takes their mean, one game, a win if any won
    seats: dict[str, list[tuple[float, float, bool]]] = {}
    names: dict[str, str] = {}
    best = order[0]
    for rank, team in zip(order, teams, strict=True):
        for entrant, rating in zip(by_rank[rank], team, strict=True):
            won = rank == best and len(order) > 1
            seats.setdefault(entrant.player, []).append((rating.mu, rating.sigma, won))
            names[entrant.player] = entrant.name
    after: list[Standing] = []
    for player, ratings in seats.items():
        old = before.get(player) or Standing(player, names[player])
        after.append(
            Standing(
                player,
                names[player],
                sum(r[0] for r in ratings) / len(ratings),
                sum(r[1] for r in ratings) / len(ratings),
                old.games + 1,
                old.wins + (1 if any(r[2] for r in ratings) else 0),
            )
        )
    return after
