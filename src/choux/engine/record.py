"""Game records: one JSON object per game (JSON Lines for many), see docs/records.md.

A record holds everything needed to re-check a game without our code: the options, the
seed, every chance outcome in the clear (card orders, dice) and every applied action with
its seat. Replaying it through the engine must give the same state, bit for bit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from choux.engine.base import JSON, Action, ChouxError, Game, Seat, State

FORMAT = "choux-record/1"


class RecordError(ChouxError):
    """A record that cannot be read or does not replay."""


@dataclass
class Record:
    """A game as it was played. `actions` are (seat, action JSON); seat None = the clock."""

    game: str
    players: int
    seed: int
    options: dict[str, JSON]
    rules_version: str = "1"
    names: list[str] = field(default_factory=list)
    chance: list[JSON] = field(default_factory=list)
    actions: list[tuple[Seat | None, dict[str, JSON]]] = field(default_factory=list)
    result: dict[str, JSON] | None = None
    #: SHA-256 commitment to the seed shown before the game (`choux.engine.fairness`), if any
    commitment: str | None = None
    #: the seats a bot held (the lobby and the replay mark them « robot »)
    bots: list[int] = field(default_factory=list)

    def player_names(self) -> list[str]:
        """The names to show: the recorded ones, else « Place 1 », « Place 2 »…"""
        return self.names or [f"Place {i + 1}" for i in range(self.players)]

    def append(self, seat: Seat | None, action: Action) -> None:
        self.actions.append((seat, action.to_json()))

    def close(self, state: State) -> None:
        """Copy the chance log and the result from the final state."""
        self.chance = list(state.chance)
        outcome = state.outcome()
        self.result = outcome.to_json() if outcome is not None else None

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "format": FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "players": self.players,
            "names": self.names,
            "seed": self.seed,
            "chance": self.chance,
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "result": self.result,
        }
        if self.commitment is not None:
            data["commitment"] = self.commitment
        if self.bots:
            data["bots"] = list(self.bots)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_json(data: object) -> Record:
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r}")
        try:
            actions = [(_seat(a["seat"]), dict(a["action"])) for a in data["actions"]]
            return Record(
                game=str(data["game"]),
                players=int(data["players"]),
                seed=int(data["seed"]),
                options=dict(data["options"]),
                rules_version=str(data.get("rules_version", "1")),
                names=[str(n) for n in data.get("names", [])],
                chance=list(data.get("chance", [])),
                actions=actions,
                result=data.get("result"),
                commitment=str(data["commitment"]) if data.get("commitment") else None,
                bots=bot_seats(data.get("bots", []), int(data["players"])),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"incomplete record: {error!r}") from error


def bot_seats(value: object, players: int) -> list[int]:
    """The `bots` of a record: distinct seats of the game, in order; anything else is an
    empty list (an old record has none; a bad one must not break a page)."""
    if not isinstance(value, list):
        return []
    seats = {v for v in value if type(v) is int and 0 <= v < players}
    return sorted(seats)


#: what marks a bot's name on the pages, and the seat of a person a bot stands in for
ROBOT_SUFFIX = " (robot)"


def robot_name(name: str) -> str:
    """A bot's name as the pages show it: « (robot) » after it, once (a person replaced by a
    bot during the game already carries it).

    >>> robot_name("Bob"), robot_name("Anne (robot)")
    ('Bob (robot)', 'Anne (robot)')
    """
    return name if name.endswith(ROBOT_SUFFIX) else name + ROBOT_SUFFIX


def winner_names(names: Sequence[str], result: object, bots: Sequence[int] = ()) -> list[str]:
    """The names ranked first in a stored result (read defensively: a bad one names nobody),
    « (robot) » after a bot's, for the pages that tell who won.

    >>> winner_names(["Anne", "Bob"], {"ranks": [2, 1]}, [1]), winner_names(["Anne"], None)
    (['Bob (robot)'], [])
    >>> winner_names(["Anne (robot)", "Bob"], {"ranks": [1, 2]}, [0])
    ['Anne (robot)']
    """
    ranks = result.get("ranks") if isinstance(result, dict) else None
    if not isinstance(ranks, list):
        return []
    return [
        robot_name(names[seat]) if seat in bots else names[seat]
        for seat, rank in enumerate(ranks[: len(names)])
        if rank == 1
    ]


def _seat(value: Any) -> Seat | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise RecordError(f"bad seat {value!r}")


def start(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, JSON] | None = None,
    names: Sequence[str] = (),
) -> tuple[State, Record]:
    """A new game and its empty record, with options completed by their defaults."""
    full = game.validate_options(players, options or {})
    state = game.create(players, seed, full)
    record = Record(game.name, players, seed, full, game.rules_version, list(names))
    return state, record


def replay(record: Record, game: Game) -> State:
    """Rebuild the state from a record, checking chance outcomes and the result.

    The caller looks the game up (`choux.games.get(record.game)`): the engine knows no game.
    """
    _check_version(record, game)
    state = game.new(record.players, record.seed, record.options)
    for index, (seat, data) in enumerate(record.actions):
        try:
            state.apply(seat, game.action_from_json(data))
        except ChouxError as error:
            raise RecordError(f"action {index} ({data}) does not apply: {error}") from error
    _check_ending(record, state)
    return state


def _check_ending(record: Record, state: State) -> None:
    """RecordError unless the replayed `state` has the record's chance outcomes and result."""
    if record.chance and state.chance != record.chance:
        raise RecordError("the chance outcomes (deals, dice) differ from the record")
    outcome = state.outcome()
    result = outcome.to_json() if outcome is not None else None
    if record.result != result:
        raise RecordError(f"the result differs: record {record.result}, replay {result}")


def _check_version(record: Record, game: Game) -> None:
    if record.game != game.name:
        raise RecordError(f"a record of {record.game} cannot be replayed by {game.name}")
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"rules version {record.rules_version} cannot be replayed by version "
            f"{game.rules_version}"
        )


class Film(NamedTuple):
    """A finished game as the replay viewer shows it."""

    #: the view before the first move and after each one, its log lines and the move's label
    steps: list[dict[str, JSON]]
    #: whether today's rules give the record's chance outcomes and result: a game finished
    #: before a rule changed may replay differently (its recorded result still stands)
    agrees: bool


def replay_steps(record: Record, game: Game, viewer: Seat | None = None) -> list[dict[str, JSON]]:
    """What the replay viewer shows (`Film.steps`). ChouxError if it does not replay."""
    return film(record, game, viewer).steps


def film(record: Record, game: Game, viewer: Seat | None = None) -> Film:
    """The view of `viewer` (None: a spectator) before the first move and after each one,
    with its log lines and the move's label, and whether the replay ends as recorded. Only
    finished games are replayed, so any seat's view may be shown. ChouxError if it does not
    replay."""
    state = game.new(record.players, record.seed, record.options)
    names = record.player_names()
    # the first step's log: what the game did as it was made (the site's opening dice)
    opening: list[JSON] = [e.render(names) for e in state.opening_events()]
    steps: list[dict[str, JSON]] = [
        {"view": state.view(viewer), "log": opening, "seat": None, "label": "Début"}
    ]
    for seat, data in record.actions:
        action = game.action_from_json(data)
        events = state.apply(seat, action)
        steps.append(
            {
                "view": state.view(viewer),
                "log": [e.render(names) for e in events],
                "seat": seat,
                "label": action.label(),
            }
        )
    try:
        _check_version(record, game)
        _check_ending(record, state)
    except RecordError:
        return Film(steps, False)
    return Film(steps, True)


def read_jsonl(path: Path) -> Iterator[Record]:
    """Records of a JSON Lines file; RecordError names the line that cannot be read."""
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                raise RecordError(f"line {number}: not JSON ({error.msg})") from error
            try:
                yield Record.from_json(data)
            except RecordError as error:
                raise RecordError(f"line {number}: {error}") from error
