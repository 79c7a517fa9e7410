"""Cul de Chouette against a referee: a second, independent reading of the rules.

`cdc_reference.py` is a model of the rules written from the documents
(shared/rules/cul-de-chouette.md, shared/sources/cul-de-chouette.txt, and docs/races.md for
the shouts), not from the engine: it imports nothing from `choux`. This test drives the
engine through its public surface only (`new`, `actors`, `legal_actions`, `deadline`,
`apply`, `view`, and the chance log to see the dice that fell) and replays every applied
action in the model. The two must agree after every action of seeded random games:

- every score: the combinations and their points, races and who wins or loses them (the
  Pélican's 28, « Pas mou le caillou ! », « Grelotte ça picote ! » and its tie-break, the
  Contre-Sirop), the Achat de dé, the Sirotage and its bets, the Civet, Soufflette and
  Grelottine challenges (Passe-Grelot, Boucliette, bets), the Bleu-Rouge, the Banque,
  Bévues (the −10 button, wrong cries, shouts out of place once a turn, impossible totals,
  « Grelottine ! » without one), the floor of 0, the cap of 332 and the win at 343 on one's
  own roll;
- the reading of each roll (`last_roll`), the window it opens, when the turn passes and
  to whom, the tokens (Grelottine, Civet, Boucliette, Passe-Grelot) and the Banque's
  balances; and the engine never lets through a move the rules forbid (a second shout out
  of place in a turn, a Grelottine stake above its limit...).

The games run at 2 to 6 players, with and without the −10 button, with the Banque and with
real dice typed in; all 216 dice are also read against the model's own table.

Where the two disagree, read the documents again before changing either: the model is
only another reading, and may be the one that is wrong.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from itertools import product
from typing import Any

import pytest
from cdc_reference import Referee, read

from choux import games
from choux.engine.base import Action, State

GAME = games.get("cul-de-chouette")

#: (players, options) of the random games; the −10 button is on by default
CONFIGURATIONS: list[tuple[int, dict[str, Any]]] = [
    (2, {"bouton_bevue": False}),
    (3, {}),
    (4, {"bouton_bevue": False}),
    (5, {}),
    (6, {"bouton_bevue": False}),
    (4, {"banque": True}),
    (3, {"des": "reels"}),
    (5, {"banque": True, "des": "reels", "bouton_bevue": False}),
]
CONFIG_IDS = [
    f"{n}p" + "".join(f"-{k}={v}" for k, v in options.items()) for n, options in CONFIGURATIONS
]
GAMES_PER_CONFIGURATION = 5
MAX_ACTIONS = 600  # per game: random play with the −10 button rarely ends a game
CLOSE_CHANCE = 0.2  # the table clock closes an open window
NOISE_CHANCE = 0.05  # a −10 press or a shout out of place rather than a decision
#: rules every full run must have exercised (the model counts them)
MUST_SEE = {
    *(
        "roll " + name
        for name in (
            "Pélican",
            "Cul de Chouette",
            "Bleu-Rouge",
            "Chouette Velute",
            "Chouette",
            "Soufflette",
            "Suite",
            "Velute",
            "Néant",
        )
    ),
    "race pelican won",
    "race chouette_velute won",
    "race chouette_velute unclaimed",
    "race contre_sirop won",
    "suite: last shout",
    "suite: one silent",
    "suite: tie-break",
    "cry repeated",
    "late cry",
    "wrong cry",
    "shout out of place",
    "Grelottine without one",
    "bevue button",
    "purchase",
    "sip hit",
    "sip missed",
    "keep the Chouette",
    "side bet",
    "civet won",
    "civet pending",
    "civet lost",
    "Soufflette made",
    "Soufflette missed",
    "Grelottine made",
    "Grelottine missed",
    "Sirop-Grelot sip",
    "Boucliette",
    "Passe-Grelot",
    "Chouette Velute off a race",
    "Bleu-Rouge total made",
    "Bleu-Rouge total missed",
    "impossible total",
    "deposit",
    "withdraw",
    "Raitournelle !",
    "floor",
    "cap",
    "win",
}


#: steps where shouting is a decision (a race, the Banque's cries, a Grelottine's call)
SHOUTING_STEPS = frozenset(
    {"pelican", "chouette_velute", "suite", "contre_sirop", "raitournelle", "grelottine"}
)


def is_noise(action: Action, step: str) -> bool:
    """The −10 button, and shouts where no race, Banque or Grelottine call is on."""
    kind = action.kind  # the action's JSON type
    return kind == "bevue" or (kind == "crier" and step not in SHOUTING_STEPS)


def choose(state: State, view: dict[str, Any], rng: random.Random) -> tuple[int | None, Action]:
    """A random applied action: the clock now and then, mostly a decision, some noise. With
    real dice, a Bleu-Rouge's re-roll is typed to an announced total half of the time (a
    uniform re-roll rarely makes one)."""
    deadline = state.deadline()
    actors = state.actors()
    if deadline is not None and (not actors or rng.random() < CLOSE_CHANCE):
        return None, deadline.action
    if rng.random() >= NOISE_CHANCE:
        step = view["step"]
        decisions = [
            (seat, menu)
            for seat in actors
            if (menu := [a for a in state.legal_actions(seat) if not is_noise(a, step)])
        ]
        if decisions:
            seat, menu = rng.choice(decisions)
            bleu = view["bleu_rouge"]
            if bleu and bleu["totals"] and rng.random() < 0.5:
                made = [
                    a
                    for a in menu
                    if a.kind == "des" and sum(a.to_json()["dice"]) in bleu["totals"]
                ]
                menu = made or menu
            return seat, rng.choice(menu)
    seat = rng.choice(actors)
    return seat, rng.choice(state.legal_actions(seat))


def play(players: int, options: dict[str, Any], seed: int, seen: Counter[str]) -> None:
    """One seeded random game, every action checked by the referee."""
    state = GAME.new(players, seed, options)
    rng = random.Random(seed)
    view = state.view(None)
    referee = Referee(
        view,
        button=options.get("bouton_bevue", True),
        banque=options.get("banque", False),
        real=options.get("des") == "reels",
    )
    chance: list[Any] = state.chance
    for index in range(MAX_ACTIONS):
        if state.is_over():
            break
        seat, action = choose(state, view, rng)
        fallen = len(chance)
        state.apply(seat, action)
        after = state.view(None)
        problems = referee.follow(view, seat, action.to_json(), chance[fallen:], after)
        assert not problems, (
            f"{players} players {options} seed {seed}, action {index} at step "
            f"{view['step']!r}: seat {seat} {action.to_json()} with dice {chance[fallen:]}\n"
            f"scores before {[s['score'] for s in view['sheets']]}\n" + "\n".join(problems)
        )
        view = after
    seen.update(referee.seen)


@functools.cache
def run_configuration(index: int) -> Counter[str]:
    players, options = CONFIGURATIONS[index]
    seen: Counter[str] = Counter()
    for seed in range(GAMES_PER_CONFIGURATION):
        play(players, options, 1000 * index + seed, seen)
    return seen


@pytest.mark.parametrize("index", range(len(CONFIGURATIONS)), ids=CONFIG_IDS)
def test_random_games_agree_with_the_referee(index: int) -> None:
    run_configuration(index)


def test_the_random_games_exercise_every_rule() -> None:
    seen: Counter[str] = Counter()
    for index in range(len(CONFIGURATIONS)):
        seen.update(run_configuration(index))
    assert not MUST_SEE - set(seen), f"never exercised: {sorted(MUST_SEE - set(seen))}"


def test_all_216_dice_read_as_the_documents_say() -> None:
    """Every ordered roll typed at a real-dice table: the engine's reading, the roller's
    points and the window opened agree with the model's table, whose counts over the 216
    rolls are those of the combinations' definitions."""
    counts: Counter[str] = Counter()
    for a, b, c in product(range(1, 7), repeat=3):
        counts[read((a, b, c))[0]] += 1
        state = GAME.new(2, 0, {"des": "reels"})
        for seat, die in ((0, 1), (1, 2)):  # the opening roll: seat 0 has the lowest die
            state.apply(seat, GAME.codec.from_json({"type": "des", "dice": [die]}))
        view = state.view(None)
        referee = Referee(view, button=True, banque=False, real=True)
        for typed in ([a, b], [c]):
            action = {"type": "des", "dice": typed}
            fallen = len(state.chance)
            state.apply(0, GAME.codec.from_json(action))
            after = state.view(None)
            dice = state.chance[fallen:]
            problems = referee.follow(view, 0, action, dice, after)
            assert not problems, f"{a}-{b}-{c}: " + "; ".join(problems)
            view = after
    assert counts == {
        "Pélican": 1,
        "Cul de Chouette": 5,
        "Bleu-Rouge": 3,
        "Chouette Velute": 9,
        "Chouette": 78,
        "Soufflette": 6,
        "Suite": 24,
        "Velute": 30,
        "Néant": 60,
    }
