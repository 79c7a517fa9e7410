"""Chouine against a referee: a second, independent reading of the rules.

`chouine_reference.py` is a small model of the rules written from the documents
(shared/rules/chouine.md and shared/sources/chouine.txt), not from the engine: it imports
nothing from `choux`. This test drives the engine through its public surface only (`new`,
`legal_actions`, `apply`, `view`, the chance log that records each deal, and the testing
helper `arrange` for stacked deals) and replays every move in the model. At every step of
seeded random games the two must agree on:

- whose turn it is and the exact set of legal moves of every seat (the cards playable in
  phase 2, each declaration a card may carry, the trump seven exchange and its last call);
- what each move does, as the engine's events say it (declarations, trick winners, draws,
  the end of phase 1, « au sept », dix de der, the ends of partie, manche and match);
- the points of every declaration and of the cards won, the partie's result (totals,
  winner, a Chouine's winner, equal totals replayed), partie and manche counts, la belle;
- what each seat may see: its own hand and won cards, the cards known in the others' hands
  (declared, taken by the exchange, drawn last), other seats' points only with « scores
  visibles », and no hidden card (others' hands, the talon) anywhere in a view.

Whole matches cover the draw for the first dealer, the dealer passing on, manches and
matches at every table configuration; stacked deals (chosen hands, full talon) make the
Chouines, double Chouines in one trick and the seven exchange frequent.

Where the two disagree, read the documents again before changing either: the model is
only another reading, and may be the one that is wrong.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from chouine_reference import (
    DECK,
    EXCHANGE,
    SUITS,
    Match,
    Move,
    Partie,
    PartieResult,
    first_dealer,
    is_brisque,
    suit_of,
    table_rules,
)

from choux.engine.base import Action, Event
from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import EXCHANGE as ENGINE_EXCHANGE
from choux.games.chouine.actions import NEXT_DEAL, Exchange, Play
from choux.games.chouine.testing import arrange

#: (players, options): both presets at 2, 3 and 4 players, every match length, the
#: « scores visibles » option
CONFIGURATIONS = [
    pytest.param(2, {}, id="2-classique"),
    pytest.param(2, {"manches": 3, "scores_visibles": True}, id="2-classique-3manches"),
    pytest.param(2, {"preset": "lavardin"}, id="2-lavardin"),
    pytest.param(2, {"preset": "lavardin", "parties": 5}, id="2-lavardin-5parties"),
    pytest.param(3, {}, id="3-classique"),
    pytest.param(3, {"parties": 5, "scores_visibles": True}, id="3-classique-5parties"),
    pytest.param(3, {"preset": "lavardin"}, id="3-lavardin"),
    pytest.param(4, {}, id="4-classique"),
    pytest.param(4, {"preset": "lavardin", "parties": 5}, id="4-lavardin-5parties"),
]
MATCH_SEEDS = range(4)
STACKED_SEEDS = range(120)
#: how often a declaration or the exchange is chosen when one is legal (see `choose`)
DECLARE_BIAS = 0.6
CARD_CODE = re.compile(r'"([789JQKTA][SHDC])"')


# ---------------------------------------------------------------------- engine <-> model


def to_move(action: Action) -> Move:
    if isinstance(action, Play):
        return Move("play", action.card, action.declare or "")
    assert isinstance(action, Exchange), action
    return EXCHANGE


def to_action(move: Move) -> Action:
    if move == EXCHANGE:
        return ENGINE_EXCHANGE
    return Play(move.card, move.declare or None)


def card_codes(view: dict[str, Any]) -> set[str]:
    """Every card code written anywhere in a view, as a whole JSON string."""
    return set(CARD_CODE.findall(json.dumps(view)))


# ---------------------------------------------------------------------- observing deals


def first_match_deal(state: ChouineState, options: dict[str, Any]) -> Match:
    """The model's match from the engine's chance log: the draw for the first dealer, then
    the first deal."""
    rules = table_rules(state.n, options)
    rounds = [[(seat, code) for seat, code in e["draw"]] for e in state.chance if "draw" in e]
    assert sorted(seat for seat, _ in rounds[0]) == list(range(state.n)), "everyone draws"
    dealer = first_dealer(rounds)
    deal = state.chance[len(rounds)]
    assert deal["dealer"] == dealer, "the lowest card deals first"
    assert sorted(deal["deal"]) == sorted(DECK)
    return Match(rules, Partie.dealt(rules, deal["deal"], dealer))


def next_deal(state: ChouineState, match: Match) -> None:
    """The table clock deals the next partie: the dealer passes to the next seat."""
    for seat in range(state.n):
        assert state.legal_actions(seat) == [], "nobody acts between two parties"
    events = state.apply(None, NEXT_DEAL)
    deal = state.chance[-1]
    assert deal["dealer"] == match.next_dealer()
    assert [(e.kind, e.seat) for e in events] == [("deal", deal["dealer"])]
    match.new_partie(Partie.dealt(match.rules, deal["deal"], deal["dealer"]))


def stacked_partie(
    seed: int, players: int, preset: str, short_talon: bool
) -> tuple[ChouineState, Match]:
    """A partie from a stacked deck: hands holding whole or partial combinations, mostly
    Chouines (each seat its own suit), or the brisques of Cinquante, Quinte or Trente;
    often the trump seven; the rest shuffled into the talon. `short_talon`: a position
    later in the partie, few cards left to draw (maybe none), the others already won."""
    rng = random.Random(seed)
    rules = table_rules(players, {"preset": preset})
    chouine = next(c for c in rules.combinations if c.kind == "chouine")
    suits = rng.sample(SUITS, players)
    brisque_seats = {s for s in range(players) if rng.random() < 0.25}
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in set(range(players)) - brisque_seats:
        ranks = (chouine if rng.random() < 0.6 else rng.choice(rules.combinations)).ranks
        size = rng.choice([0, len(ranks) - 1, len(ranks), len(ranks)])
        hands[seat] = [rank + suits[seat] for rank in rng.sample(ranks, size)]
    for seat in sorted(brisque_seats):
        free = [c for c in DECK if is_brisque(c) and not any(c in h for h in hands)]
        hands[seat] = rng.sample(free, min(len(free), rules.brisque_size))
    rest = [c for c in DECK if not any(c in h for h in hands)]
    rng.shuffle(rest)
    if rng.random() < 0.5:  # trumps in a seat's suit: its Chouine would be in trumps
        trump = rng.choice(suits)
        rest.sort(key=lambda c: suit_of(c) == trump)
    turned_up = rest.pop()
    seven = "7" + suit_of(turned_up)
    short = [h for h in hands if len(h) < rules.hand_size]
    if seven in rest and short and rng.random() < 0.6:
        rest.remove(seven)
        rng.choice(short).append(seven)
    for hand in hands:
        while len(hand) < rules.hand_size:
            hand.append(rest.pop())
    talon = [*rest, turned_up]
    won: list[list[str]] = [[] for _ in range(players)]
    if short_talon:  # talon sizes the draws can leave: 2 players 4, 2, 0; 3: 5, 2; 4: 4, 0
        size = rng.choice({2: [0, 2, 4], 3: [2, 5], 4: [0, 4]}[players])
        for card in talon[: len(talon) - size]:
            won[rng.randrange(players)].append(card)
        talon = talon[len(talon) - size :]
    leader = rng.randrange(players)
    state = arrange(
        players,
        seed=seed,
        options={"preset": preset},
        hands=[" ".join(h) for h in hands],
        turned_up=talon[-1] if talon else None,
        talon=" ".join(talon[:-1]),
        trump=None if talon else suit_of(turned_up),
        leader=leader,
        won=[" ".join(w) for w in won],
    )
    dealer = (leader - 1) % players
    partie = Partie.laid_out(rules, dealer, hands, talon, suit_of(turned_up), won)
    return state, Match(rules, partie)


# ---------------------------------------------------------------------- checks


def check_legal_moves(state: ChouineState, match: Match) -> None:
    """Every seat's legal moves, the same set on both sides (empty out of turn)."""
    for seat in range(state.n):
        engine = {to_move(a) for a in state.legal_actions(seat)}
        assert engine == match.legal_moves(seat), f"legal moves of seat {seat}"


def check_view(view: dict[str, Any], match: Match, viewer: int | None) -> None:
    """What `viewer` (None: a spectator) sees: the table, its own cards, the others' known
    cards and, unless « scores visibles », only its own points."""
    partie, rules, n = match.partie, match.rules, match.rules.players
    playing = match.stage == "play"
    assert view["stage"] == match.stage
    assert view["turn"] == (partie.turn if playing else None)
    assert view["actors"] == ([partie.turn] if playing else [])
    assert (view["dealer"], view["leader"]) == (partie.dealer, partie.leader)
    assert view["trump"] == partie.trump
    assert view["turned_up"] == partie.turned_up()
    assert view["talon"] == len(partie.talon)
    assert view["phase"] == (1 if partie.drawing_open() else 2)
    assert view["au_sept"] == partie.au_sept
    own = partie.hands[viewer] if viewer is not None else []
    assert sorted(view["hand"]) == sorted(own)
    assert view["hand_sizes"] == [len(h) for h in partie.hands]
    assert [sorted(s) for s in view["shown"]] == [sorted(s) for s in partie.shown]
    seats = [(partie.leader + i) % n for i in range(len(partie.trick))]
    assert view["trick"] == [
        {"seat": s, "card": c} for s, c in zip(seats, partie.trick, strict=True)
    ]
    last = view["last_trick"]
    if partie.last_trick is None:
        assert last is None
    else:
        leader, cards, winner = partie.last_trick
        assert last["winner"] == winner
        assert last["cards"] == [{"seat": (leader + i) % n, "card": c} for i, c in enumerate(cards)]
    won = partie.won[viewer] if viewer is not None else []
    assert sorted(view["won_cards"]) == sorted(won)
    assert view["tricks_won"] == [len(w) // n for w in partie.won]
    assert [
        (d["seat"], d["kind"], d["suit"], sorted(d["cards"]), d["points"])
        for d in view["declarations"]
    ] == [(d.seat, d.kind, d.suit, sorted(d.cards), d.points) for d in partie.declarations]
    assert view["declared_points"] == partie.declared
    visible = [rules.scores_visible or s == viewer for s in range(n)]
    assert view["card_points"] == [
        p if v else None for p, v in zip(partie.points, visible, strict=True)
    ]
    totals = [p + d for p, d in zip(partie.points, partie.declared, strict=True)]
    assert view["points"] == [t if v else None for t, v in zip(totals, visible, strict=True)]
    assert view["partie_wins"] == match.partie_wins
    assert view["total_partie_wins"] == match.total_partie_wins
    assert view["manche_wins"] == match.manche_wins
    if n == 2 and match.stage != "over":
        assert view["belle"] == match.belle()
    assert view["belle_manche"] == match.belle_manche()
    leaked = card_codes(view) & partie.hidden_from(viewer)
    assert not leaked, f"seat {viewer} sees hidden cards {sorted(leaked)}"
    assert (view["outcome"] is not None) == (match.stage == "over")


def check_views(state: ChouineState, match: Match) -> None:
    assert state.stage == match.stage
    for viewer in [*range(state.n), None]:
        check_view(state.view(viewer), match, viewer)


def check_declaration(events: Sequence[Event], match: Match) -> None:
    """The engine's « declare » event names the model's last declaration."""
    (event,) = [e for e in events if e.kind == "declare"]
    expected = match.partie.declarations[-1]
    assert event.data["kind"] == expected.kind
    assert event.data["points"] == expected.points
    assert sorted(event.data["cards"]) == sorted(expected.cards)


def check_result(result: dict[str, Any] | None, expected: PartieResult) -> None:
    assert result is not None
    assert result["totals"] == expected.totals
    assert result["card_points"] == expected.card_points
    assert result["declared_points"] == expected.declared_points
    assert result["last_trick_winner"] == expected.last_trick_winner
    assert result["winner"] == expected.winner
    assert result["chouine"] == expected.chouine
    if expected.chouine is not None:
        assert result["reason"] == "chouine"  # the Chouine decides, not a points total
    else:
        assert result["reason"] == ("egalite" if expected.winner is None else "points")


# ---------------------------------------------------------------------- playing


def choose(moves: set[Move], rng: random.Random) -> Move:
    """A random legal move; a Chouine, another declaration or the exchange more often
    than not (random play would rarely announce anything)."""
    ordered = sorted(moves)
    chouines = [m for m in ordered if m.declare == "chouine"]
    special = [m for m in ordered if m.declare or m == EXCHANGE]
    if chouines and rng.random() < DECLARE_BIAS:
        return rng.choice(chouines)
    if special and rng.random() < DECLARE_BIAS:
        return rng.choice(special)
    return rng.choice(ordered)


def play_one_move(state: ChouineState, match: Match, rng: random.Random) -> None:
    """Both sides make the same random move and must tell the same story."""
    check_legal_moves(state, match)
    seat = match.partie.turn
    assert state.turn == seat
    move = choose(match.legal_moves(seat), rng)
    events = state.apply(seat, to_action(move))
    shown: Sequence[str] = ()
    if move.declare == match.rules.brisque_kind:
        (declared,) = [e for e in events if e.kind == "declare"]
        shown = declared.data["cards"]
        assert match.partie.brisques_shown_ok(seat, move.card, shown), shown
    expected = match.apply(seat, move, shown)
    assert [(e.kind, e.seat) for e in events] == expected, move
    if move.declare:
        check_declaration(events, match)
    if match.partie.result is not None:
        check_result(state.last_result, match.partie.result)


def play_partie(state: ChouineState, match: Match, rng: random.Random) -> None:
    """Play the partie out, checking every position."""
    check_views(state, match)
    while match.stage == "play":
        play_one_move(state, match, rng)
        check_views(state, match)


def play_match(state: ChouineState, match: Match, rng: random.Random) -> None:
    """Play the match out, checking every position, then its outcome."""
    play_partie(state, match, rng)
    while match.stage != "over":
        next_deal(state, match)
        play_partie(state, match, rng)
    assert state.is_over()
    check_legal_moves(state, match)
    outcome = state.outcome()
    assert outcome is not None
    winner = match.manche_wins.index(match.rules.manches_to_win)
    assert outcome.winners == (winner,)


@pytest.mark.parametrize("seed", MATCH_SEEDS)
@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_whole_matches_agree_with_the_referee(
    players: int, options: dict[str, Any], seed: int
) -> None:
    state = GAME.new(players, seed, options)
    assert isinstance(state, ChouineState)
    play_match(state, first_match_deal(state, options), random.Random(seed))


@pytest.mark.parametrize("seed", STACKED_SEEDS)
def test_stacked_deals_agree_with_the_referee(seed: int) -> None:
    """Chouines (double ones too, in phase 1 and 2), declarations and the seven exchange
    (and its last call) in every preset and player count."""
    players = (2, 2, 3, 4)[seed % 4]
    preset = ("classique", "lavardin")[seed // 4 % 2]
    state, match = stacked_partie(seed, players, preset, short_talon=seed // 8 % 2 == 1)
    play_partie(state, match, random.Random(seed))
