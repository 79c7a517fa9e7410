"""The contract every game implements: Game, State, Action, Event, Outcome, Deadline.

A game is a state machine. The table service, the CLI, the bots and the tests only ever
talk to a game through this module, so a new game gets all of them for free.

>>> from choux.engine.base import Outcome
>>> Outcome(scores=(3, 5), ranks=(2, 1), reason="Fin de la partie").winners
(1,)
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re
import types
import typing
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypedDict, TypeVar

Seat = int
JSON = Any  # a JSON-ready value: dict, list, str, int, float, bool or None


# --------------------------------------------------------------------------- errors


class ChouxError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(ChouxError):
    """An action that the rules refuse. `reason` is French, for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class WindowClosed(IllegalAction):
    """The action came after its window (race, bet, vote) had closed."""


class MalformedAction(IllegalAction):
    """The action could not even be read (unknown type, missing or wrong field)."""


class InvalidOptions(ChouxError):
    """Options or a number of players that the game does not allow. French reason."""


class UnknownGame(ChouxError):
    """No game is registered under that name."""


# --------------------------------------------------------------------------- actions

_A = TypeVar("_A", bound="Action")


@dataclass(frozen=True, slots=True)
class Action:
    """An immutable move. Subclasses are frozen dataclasses with JSON-friendly fields.

    `kind` names the subclass in the JSON form: ``{"type": kind, **fields}``.
    """

    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"type": self.kind}
        for name in field_names(type(self)):
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    def label(self) -> str:
        """A short French label for a button or a menu."""
        return self.kind


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type[Action]) -> tuple[str, ...]:
    """The fields of an action class, once per class (`dataclasses.fields` builds them
    anew on each call: a few µs for every legal action of every view sent)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


class ActionCodec:
    """Reads untrusted JSON into one of a game's action classes, checking every field.

    Each class's fields and their checks are worked out once (`dataclasses.fields` and
    `typing.get_origin` cost more than the check itself, and every move is decoded)."""

    def __init__(self, *classes: type[Action]) -> None:
        self._classes = {cls.kind: cls for cls in classes}
        self._fields = {cls.kind: _field_checks(cls) for cls in classes}
        self._names = {cls.kind: frozenset({"type", *field_names(cls)}) for cls in classes}

    def from_json(self, data: object) -> Action:
        if not isinstance(data, Mapping):
            raise MalformedAction("Action illisible : un objet JSON est attendu.")
        kind = data.get("type")
        cls = self._classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise MalformedAction(f"Action inconnue : {kind!r}.")
        values: dict[str, Any] = {}
        for name, required, check in self._fields[cls.kind]:
            if name not in data:
                if not required:
                    continue
                raise MalformedAction(f"Champ manquant dans l'action : {name}.")
            values[name] = check(data[name])
        names = self._names[cls.kind]
        if not names.issuperset(data):
            extra = sorted(key for key in data if key not in names)
            raise MalformedAction(f"Champ inattendu dans l'action : {extra[0]}.")
        return cls(**values)


Check = Callable[[object], Any]


def _field_checks(cls: type[Action]) -> tuple[tuple[str, bool, Check], ...]:
    """Each field's name, whether the JSON must give it, and its check."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (
            f.name,
            f.default is dataclasses.MISSING,
            _check_for(hints[f.name], f.name),
        )
        for f in dataclasses.fields(cls)
    )


def _check_for(hint: Any, name: str) -> Check:
    """The check of a JSON value against a field's type hint (tuples arrive as lists):
    it returns the value to store, or raises MalformedAction in French."""
    invalid = f"Valeur invalide pour {name}."
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_check_for(option, name) for option in typing.get_args(hint)]

        def one_of(value: object) -> Any:
            for option in options:
                try:
                    return option(value)
                except MalformedAction:
                    continue
            raise MalformedAction(invalid)

        return one_of
    if origin is tuple:
        return _tuple_check(typing.get_args(hint), name)
    simple = _SIMPLE_CHECKS.get(hint)
    if simple is None:
        raise TypeError(f"no JSON check for {hint!r} (field {name})")

    def check(value: object) -> Any:
        ok, stored = simple(value)
        if ok:
            return stored
        raise MalformedAction(invalid)

    return check


def _tuple_check(args: tuple[Any, ...], name: str) -> Check:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _check_for(args[0], name)
        items: list[Check] | None = None
    else:
        item = None
        items = [_check_for(arg, name) for arg in args]

    def check(value: object) -> Any:
        if not isinstance(value, list | tuple) or len(value) > 64:
            raise MalformedAction(f"Liste attendue pour {name}.")
        if item is not None:
            return tuple(item(v) for v in value)
        assert items is not None
        if len(items) != len(value):
            raise MalformedAction(f"Mauvaise longueur pour {name}.")
        return tuple(each(v) for v, each in zip(value, items, strict=True))

    return check


def _is_int(value: object) -> tuple[bool, object]:
    return isinstance(value, int) and not isinstance(value, bool), value


def _is_float(value: object) -> tuple[bool, object]:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    return ok, float(value) if ok else value  # type: ignore[arg-type]


#: the scalar types an action field may have, and how a JSON value passes for each
_SIMPLE_CHECKS: dict[Any, Callable[[object], tuple[bool, object]]] = {
    type(None): lambda value: (value is None, None),
    bool: lambda value: (isinstance(value, bool), value),
    int: _is_int,
    float: _is_float,
    str: lambda value: (isinstance(value, str) and len(value) <= 10_000, value),
}


# --------------------------------------------------------------------------- events & outcome


#: « de » and « que » before a placeholder (they drop their vowel before a vowel), or a
#: placeholder alone; the same as the pages' `withNames` (widgets.js)
_PLACEHOLDER = re.compile(r"(^|[^\w])(de|De|que|Que) \{p(\d+)\}|\{p(\d+)\}")
_ELIDED = {"de": "d'", "De": "D'", "que": "qu'", "Que": "Qu'"}
_VOWELS = "aeiouæœ"


def elides(name: str) -> bool:
    """Does « de » before `name` become « d' »? Before a vowel, accented or not (« d'Élise »,
    « d'Ångström »), and before a « y » that a consonant follows (« d'Yves »), not one that
    a vowel follows (« de Yann »); not before an h (most names keep it aspirate).

    >>> [elides(n) for n in ("Élise", "Álvaro", "Yves", "Yann", "Hugo", "Bob", "")]
    [True, True, True, False, False, False, False]
    """
    bare = "".join(c for c in unicodedata.normalize("NFKD", name[:2].casefold()) if c.isalpha())
    if not bare:
        return False
    if bare[0] == "y":
        return len(bare) > 1 and bare[1] not in _VOWELS + "y"
    return bare[0] in _VOWELS


def fill_names(text: str, names: Sequence[str]) -> str:
    """Replace the ``{p0}``, ``{p1}``… placeholders of a French text by the players' names,
    « de » and « que » elided before a vowel (not before an h: most names keep it aspirate).

    >>> fill_names("{p1} crie : {p0} fait une bévue !", ["Ana", "Bob"])
    'Bob crie : Ana fait une bévue !'
    >>> fill_names("Carte de {p0}, plus forte que {p1} et que {p2}", ["Élise", "Yvon", "Hugo"])
    "Carte d'Élise, plus forte qu'Yvon et que Hugo"
    """
    if "{p" not in text:
        return text
    if "e {p" not in text:  # no « de » nor « que » before a name: plain replacements
        for seat, name in enumerate(names):
            text = text.replace(f"{{p{seat}}}", name)
        return text

    def name_of(seat: str) -> str:
        index = int(seat)
        return names[index] if index < len(names) else f"{{p{seat}}}"

    def one(match: re.Match[str]) -> str:
        before, word, elided_seat, seat = match.groups()
        if word is None:
            return name_of(seat)
        name = name_of(elided_seat)
        return before + (_ELIDED[word] if elides(name) else f"{word} ") + name

    return _PLACEHOLDER.sub(one, text)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the table log and the animations.

    `text` is French; ``{p0}``, ``{p1}``… stand for the players' names (see `render`).
    """

    kind: str
    text: str
    seat: Seat | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)

    def render(self, names: Sequence[str]) -> str:
        return fill_names(self.text, names)

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "text": self.text, "seat": self.seat, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result: points per seat, rank per seat (1 = best, ties share) and why it ended."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    reason: str

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)

    def to_json(self) -> dict[str, JSON]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "reason": self.reason}

    @staticmethod
    def ranked(scores: Sequence[int], reason: str) -> Outcome:
        """Ranks from scores, higher is better, equal scores share a rank.

        >>> Outcome.ranked([10, 30, 10], "fin").ranks
        (2, 1, 2)
        """
        ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
        return Outcome(tuple(scores), ranks, reason)


@dataclass(frozen=True, slots=True)
class Deadline:
    """A window that closes by itself: after `seconds`, the table service applies `action`
    for `seat` (None: the game itself, e.g. closing a race)."""

    seconds: float
    action: Action
    seat: Seat | None = None


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class Option:
    """One table option: a French label, a default and the allowed values."""

    name: str
    label: str
    default: JSON
    choices: tuple[tuple[JSON, str], ...] = ()  # (value, French label); empty: see kind
    kind: str = "choice"  # "choice", "bool" or "int"
    minimum: int = 0
    maximum: int = 0

    def check(self, value: object) -> JSON:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise InvalidOptions(f"L'option « {self.label} » attend oui ou non.")
        if self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool):
                if self.minimum <= value <= self.maximum:
                    return value
            raise InvalidOptions(
                f"L'option « {self.label} » doit être un nombre entre {self.minimum} "
                f"et {self.maximum}."
            )
        allowed = [v for v, _ in self.choices]
        if value in allowed:  # the choice itself: true and 1.0 are equal to 1, not 1
            return allowed[allowed.index(value)]
        raise InvalidOptions(
            f"Valeur impossible pour « {self.label} » : {value!r} "
            f"(choix : {', '.join(map(str, allowed))})."
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "label": self.label,
            "default": self.default,
            "kind": self.kind,
            "choices": [[v, lab] for v, lab in self.choices],
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


#: `option_tables` by the id of a game's option tuple (with the tuple, kept alive)
_OPTION_TABLES: dict[int, tuple[tuple[Option, ...], dict[str, Option], dict[str, JSON]]] = {}


#: `Game.new` without options: the validated defaults by (id of the game, players), with
#: the game (kept alive); only successes are kept (a refused count raises every time)
_DEFAULTS_CHECKED: dict[tuple[int, int], tuple[Game, dict[str, JSON]]] = {}


def option_tables(options: tuple[Option, ...]) -> tuple[dict[str, Option], dict[str, JSON]]:
    """A game's options by name and their defaults, made once per option tuple: every
    `Game.new` validates its options (read them, never change them)."""
    entry = _OPTION_TABLES.get(id(options))
    if entry is None or entry[0] is not options:
        entry = (options, {o.name: o for o in options}, {o.name: o.default for o in options})
        _OPTION_TABLES[id(options)] = entry
    return entry[1], entry[2]


# --------------------------------------------------------------------------- rng helpers


def copy_rng(rng: random.Random) -> random.Random:
    """An independent RNG in the same state (for `clone`)."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def rng_fingerprint(rng: random.Random) -> str:
    """A short digest of an RNG's state, for `snapshot` (replay must leave it identical)."""
    import hashlib

    return hashlib.blake2b(repr(rng.getstate()).encode(), digest_size=8).hexdigest()


# --------------------------------------------------------------------------- views


class LegalEntry(TypedDict):
    """One legal action in a view: its JSON form and its French label for the button."""

    action: dict[str, JSON]
    label: str


class ViewEnvelope(TypedDict):
    """The keys every view shares, built once by `State.view_envelope`."""

    game: str
    seat: Seat | None
    actors: list[Seat]
    legal: list[LegalEntry]


#: the keys of `ViewEnvelope`: a board view never holds them
ENVELOPE_KEYS: frozenset[str] = frozenset(ViewEnvelope.__annotations__)


# --------------------------------------------------------------------------- state


class State(ABC):
    """A game in progress: a mutable, cloneable state machine.

    Randomness comes only from `self.rng`, seeded at creation. Every chance outcome (a deal,
    a roll) is appended to `self.chance` so that a record holds it in the clear.
    """

    rng: random.Random
    chance: list[JSON]

    @abstractmethod
    def actors(self) -> tuple[Seat, ...]:
        """Seats that may act now (several at once in simultaneous choices and races)."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every legal action for `seat` now (empty when it may not act)."""

    @abstractmethod
    def apply(self, seat: Seat | None, action: Action) -> list[Event]:
        """Validate then apply. Raises IllegalAction, with the state left as it was."""

    #: the registry name of the game: the "game" key of every view
    game_name: ClassVar[str] = ""

    def seat_count(self) -> int:
        """How many seats the table has; any other seat sees the spectator's view."""
        raise NotImplementedError(f"{type(self).__name__} must define seat_count()")

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """What `seat` may see (None, or a seat that is not at the table: a spectator),
        JSON-ready: the envelope every game shares (`view_envelope`) around the game's
        own `board_view`. A game may still override `view` whole."""
        viewer = seat if seat is not None and 0 <= seat < self.seat_count() else None
        return {**self.view_envelope(viewer), **self.board_view(viewer)}

    def view_envelope(self, viewer: Seat | None) -> ViewEnvelope:
        """The keys every view has: the game, the viewer's seat, who acts, what it may do."""
        legal: list[LegalEntry] = (
            [{"action": a.to_json(), "label": a.label()} for a in self.legal_actions(viewer)]
            if viewer is not None
            else []
        )
        return {
            "game": self.game_name,
            "seat": viewer,
            "actors": list(self.actors()),
            "legal": legal,
        }

    def board_view(self, seat: Seat | None) -> Mapping[str, JSON]:
        """The game's own part of `view(seat)`: everything but the envelope keys. `seat` is
        a seat at the table or None (a spectator). Described per game by a TypedDict."""
        raise NotImplementedError(f"{type(self).__name__} must define board_view() or view()")

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def snapshot(self) -> dict[str, JSON]:
        """The whole state, hidden parts included, as JSON: equal snapshots, equal states."""

    def deadline(self) -> Deadline | None:
        """The window that closes by itself now, if any."""
        return None

    def window_key(self) -> object:
        """What names the open window while it stays the same one (None: every change opens
        a new one). The table's clocks keep running through changes that leave the key as it
        was (a bet, a pass, a shout, a −10 in a window of the others): a window stays open
        until its deadline, not for its length after the last click."""
        return None

    def opening_events(self) -> list[Event]:
        """What the game's creation did before any move (Cul de Chouette with the site's
        dice: the opening rolls), for the table's journal when the game starts."""
        return []

    def secrets(self, seat: Seat | None) -> set[str]:
        """String tokens that must never appear in `view(seat)` (cards of others' hands...)."""
        return set()

    def check_invariants(self) -> None:
        """Raise AssertionError when the state breaks a conservation law (tests call it)."""

    def clone(self) -> State:
        """A cheap independent copy. Games override it when a faster copy is possible."""
        return copy.deepcopy(self)

    def determinize(self, seat: Seat, rng: random.Random) -> State:
        """A copy where what `seat` cannot see is re-sampled consistently (for the determinized searches of ai/pimc.py)."""
        return self.clone()

    def apply_timeout(self) -> list[Event]:
        """Apply the action of the current deadline (what the table clock does)."""
        deadline = self.deadline()
        if deadline is None:
            raise WindowClosed("Aucune fenêtre n'est ouverte.")
        return self.apply(deadline.seat, deadline.action)

    def require_actor(self, seat: Seat | None) -> Seat:
        """Shared check: `seat` is one of the actors now."""
        if seat is None or seat not in self.actors():
            raise NotYourTurn("Ce n'est pas à vous de jouer.")
        return seat

    def require_legal(self, seat: Seat | None, action: Action) -> Seat:
        """Shared check for enumerable games: the action is one of `legal_actions(seat)`."""
        seat = self.require_actor(seat)
        if action not in self.legal_actions(seat):
            raise IllegalAction("Ce coup n'est pas permis maintenant.")
        return seat


# --------------------------------------------------------------------------- bots


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's decision, with the human-like delay the table service should wait first."""

    action: Action
    delay: float = 0.0


class Bot(Protocol):
    """Chooses for one seat. Returns None to let a window pass without acting."""

    def choose(self, state: State, seat: Seat) -> BotMove | None: ...


BotFactory = Callable[[random.Random], Bot]


# --------------------------------------------------------------------------- game


@dataclass(frozen=True, slots=True)
class SeatRole:
    """A seat with a role of its own (the Parlote arbiter): its French label, and the
    option value the table needs for that seat to exist."""

    label: str
    option: str
    value: JSON


#: French labels of the bot levels most games share; a game adds or overrides its own
BOT_LABELS: Mapping[str, str] = {"random": "au hasard", "greedy": "gourmand", "expert": "expert"}


class Game(ABC):
    """A registered game: metadata, options schema, bots and the factory of states."""

    name: ClassVar[str]
    title: ClassVar[str]  # French
    rules_version: ClassVar[str] = "1"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    codec: ClassVar[ActionCodec]
    #: whether one device may play several seats (a tablet on the table); card games say
    #: no, since one screen would show several hidden hands
    shared_screen: ClassVar[bool] = False
    #: seats with a role, by seat number (for the table creation form)
    seat_roles: ClassVar[Mapping[Seat, SeatRole]] = types.MappingProxyType({})
    #: French label of each bot level of `bots()`
    bot_labels: ClassVar[Mapping[str, str]] = BOT_LABELS
    #: keys of the view that are large, seldom change, and are the same for every viewer
    #: (La parlote's recap and « mémo »): a socket is sent them again only when they changed
    #: since its last message (`LiveTable.message`)
    rare_view_keys: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def create(self, players: int, seed: int, options: dict[str, JSON]) -> State:
        """Build the initial state from already validated options."""

    @abstractmethod
    def bots(self) -> dict[str, BotFactory]:
        """Bot levels by name ("random" always among them)."""

    def new(self, players: int, seed: int, options: Mapping[str, JSON] | None = None) -> State:
        """The initial state, after checking the number of players and the options."""
        if not options and type(players) is int:
            # no options: the defaults' validation is the same every time (simulations and
            # playouts create many matches so; it cost 9,600 instructions a match)
            entry = _DEFAULTS_CHECKED.get((id(self), players))
            if entry is None or entry[0] is not self:
                entry = (self, self.validate_options(players, {}))
                _DEFAULTS_CHECKED[(id(self), players)] = entry
            return self.create(players, seed, dict(entry[1]))
        full = self.validate_options(players, options or {})
        return self.create(players, seed, full)

    def validate_options(self, players: int, options: Mapping[str, JSON]) -> dict[str, JSON]:
        if not isinstance(players, int) or not (self.min_players <= players <= self.max_players):
            raise InvalidOptions(
                f"{self.title} se joue de {self.min_players} à {self.max_players} joueurs, "
                f"pas {players}."
            )
        known, defaults = option_tables(self.options)
        for name in options:
            if name not in known:
                unknown = sorted(set(options) - set(known))[0]
                raise InvalidOptions(f"Option inconnue pour {self.title} : {unknown}.")
        full = dict(defaults)
        for name, value in options.items():
            full[name] = known[name].check(value)
        self.check_options(players, full)
        return full

    def check_options(self, players: int, options: dict[str, JSON]) -> None:
        """Hook for cross-option constraints (raise InvalidOptions)."""

    def action_from_json(self, data: object) -> Action:
        return self.codec.from_json(data)

    def render_text(self, view: dict[str, JSON]) -> str:
        """A plain-text rendering of a seat's view, for `choux play` in a terminal."""
        import json

        return json.dumps(view, ensure_ascii=False, indent=1)

    #: what `count_units` counts, in French plural ("donnes", "tours"), for the benchmark
    unit_name: ClassVar[str] = "parties"

    def count_units(self, state: State) -> int:
        """How many units (deals, turns) a finished game holds, for throughput figures."""
        return 1

    def summary_stats(self, state: State) -> dict[str, float]:
        """Extra per-game figures that `choux simulate` averages (e.g. turns per game)."""
        return {}

    def text_field(self, action: Action) -> str | None:
        """Name of the free-text field a person fills in for this action (an argument)."""
        return None

    def competitors(self, players: int, options: Mapping[str, JSON]) -> tuple[Seat, ...]:
        """The seats that play for a result, hence are rated (a referee is not)."""
        return tuple(range(players))

    def configurations(self) -> list[tuple[int, dict[str, JSON]]]:
        """(players, options) worth testing: every player count, plus presets (override)."""
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    def client_constants(self) -> dict[str, JSON]:
        """Constants the game's browser interface needs (shout texts, length limits), sent
        with the table and replay pages so that no script copies them."""
        return {}

    def level_label(self, level: str) -> str:
        """The French label of a bot level (« au hasard », « expert »…)."""
        return self.bot_labels.get(level, level)

    def bot_levels(self) -> list[tuple[str, str]]:
        """Every bot level with its French label, in the order of `bots()`."""
        return [(level, self.level_label(level)) for level in self.bots()]

    def make_bot(self, level: str, rng: random.Random) -> Bot:
        factories = self.bots()
        if level not in factories:
            raise InvalidOptions(
                f"Niveau de robot inconnu pour {self.title} : {level} "
                f"(choix : {', '.join(factories)})."
            )
        return factories[level](rng)
