"""Validation and legal actions agree: an action applies exactly when it is listed."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from choux import games
from choux.engine import Action, IllegalAction
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import (
    AnnounceTotal,
    BetChallenge,
    BetFace,
    BetTotal,
    BuyCul,
    ChallengeGrelottine,
    ChallengeSoufflette,
    CivetBet,
    CloseWindow,
    DeclareBevue,
    Deposit,
    EnterDice,
    JoinSloubi,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
    Withdraw,
)

CANDIDATES: list[Action] = [
    Roll(),
    EnterDice((1, 2)),
    EnterDice((7,)),
    EnterDice((3, 3, 4)),
    EnterDice((6,)),
    CivetBet("Chouette", 5),
    CivetBet("Néant", 200),
    BuyCul(),
    Sip(True),
    Sip(False),
    BetFace(3),
    BetFace(9),
    *(Shout(c) for c in (*C.RACE_CRIES, C.CRI_GRELOTTINE, C.RAITOURNELLE, C.ARTICHETTE)),
    ChallengeSoufflette(1),
    ChallengeGrelottine("Chouette", 1),
    ChallengeGrelottine("Velute", 500),
    PasseGrelot(2),
    UseBoucliette(),
    BetChallenge(True),
    AnnounceTotal(10),
    AnnounceTotal(40),
    BetTotal(11),
    DeclareBevue(0),
    DeclareBevue(9),
    Deposit(16),
    Deposit(15),
    Withdraw(),
    JoinSloubi(True),
    CloseWindow(),
]

OPTIONS = [
    {},
    {"des": "reels", "scribe": 1},
    {"banque": True, "chante_sloubi": 1},
    {"bouton_bevue": False},
]


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31), which=st.integers(0, len(OPTIONS) - 1))
def test_an_action_applies_exactly_when_it_is_legal(seed: int, which: int) -> None:
    game = games.get("cul-de-chouette")
    players = 4
    state = game.new(players, seed, OPTIONS[which])
    rng = random.Random(seed)
    for _ in range(40):
        if state.is_over():
            break
        before = state.snapshot()
        for seat in (None, -1, *range(players), players):
            legal = state.legal_actions(seat) if seat is not None else []
            for action in CANDIDATES:
                twin = state.clone()
                try:
                    twin.apply(seat, action)
                except IllegalAction:
                    assert twin.snapshot() == before
                    continue
                if seat is None:
                    deadline = state.deadline()
                    assert deadline is not None and action == deadline.action
                elif isinstance(action, AnnounceTotal) and not 3 <= action.total <= 18:
                    # any impossible total is a Bévue (rules), announced when totals may be
                    assert any(isinstance(a, AnnounceTotal) for a in legal)
                else:
                    assert action in legal, (seat, action, state.step)
        actors = state.actors()
        deadline = state.deadline()
        if actors and (deadline is None or rng.random() < 0.8):
            seat = rng.choice(actors)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        else:
            state.apply_timeout()
