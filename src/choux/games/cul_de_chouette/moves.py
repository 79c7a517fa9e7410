"""What each action does once `legality.check` has let it through: one handler per action
kind, dispatched by `state.CulDeChouetteState.apply`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from choux.engine.base import Action
from choux.games.cul_de_chouette import bleu_rouge, challenges, races, rotation, sirotage, turn
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
    DeclareBevue,
    Deposit,
    EnterDice,
    JoinSloubi,
    Pass,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
    Withdraw,
)
from choux.games.cul_de_chouette.civet import bet_civet
from choux.games.cul_de_chouette.legality import dice_duty, gate_shout, late_cry
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.table import CdcTable

Handler = Callable[[CdcTable, int, Any], None]
#: the Banque's shouts, heard only in the Raitournelle window
BANK_CRIES = frozenset({C.RAITOURNELLE, C.ARTICHETTE})


def roll(st: CdcTable, seat: int, action: Roll) -> None:
    duty = dice_duty(st)
    assert duty is not None
    turn.on_dice(st, st.roll(duty[1]))


def enter_dice(st: CdcTable, seat: int, action: EnterDice) -> None:
    st.chance.append({"dice": list(action.dice), "typed": True})
    if st.tiebreak is not None:
        owner = st.tiebreak.pending[0] if st.scribe == seat else seat
        rotation.tiebreak_value(st, owner, action.dice[0])
    else:
        turn.on_dice(st, list(action.dice))


def declare_bevue(st: CdcTable, seat: int, action: DeclareBevue) -> None:
    st.bevue_pressed[seat] = (*st.bevue_pressed[seat], action.target)
    target = action.target
    st.bevues[seat] = tuple(a for a in st.bevues[seat] if a.target != target)
    st.bevue(action.target, f"{{p{seat}}} signale une bévue de {{p{action.target}}}")


def shout(st: CdcTable, seat: int, action: Shout) -> None:
    proper = gate_shout(st, seat)
    if type(proper) is tuple and action in proper:
        if action.cry in BANK_CRIES:
            turn.bank_shout(st, seat, action.cry)
        else:
            races.shout(st, seat, action.cry)
    elif action in late_cry(st, seat):
        races.late_shout(st, seat)
    else:
        st.shouted_out[seat] = True
        race = st.race
        own = race is not None and race.kind == Step.CONTRE_SIROP and seat not in race.eligible
        # the one race a seated player is left out of: the Contre-Sirop of their own Sirotage
        st.bevue(seat, f"« {action.cry} » {'sur son propre Sirotage' if own else 'hors de propos'}")


def pass_(st: CdcTable, seat: int, action: Pass) -> None:
    st.passed.append(seat)
    st.say("passe", f"{{p{seat}}} passe", seat)


def grelottine(st: CdcTable, seat: int, action: ChallengeGrelottine) -> None:
    st.say("grelottine", f"{{p{seat}}} : « Grelottine ! »", seat)
    challenges.announce(st, "grelottine", seat, st.scorer, action.combination, action.stake)


def deposit(st: CdcTable, seat: int, action: Deposit) -> None:
    st.bank_moved = True
    st.set_score(seat, st.scores[seat] - action.amount)
    st.bank[seat] += action.amount
    st.say("banque", f"{{p{seat}}} dépose {action.amount} points à la Banque", seat)


def withdraw(st: CdcTable, seat: int, action: Withdraw) -> None:
    st.bank_moved = True
    balance, st.bank[seat] = st.bank[seat], 0
    fees = balance * C.BANK_FEES // 100
    st.say("banque", f"{{p{seat}}} retire {balance} de la Banque ({fees} de frais)", seat)
    st.gain(seat, balance - fees, False, "retire son dépôt")


HANDLERS: dict[type[Action], Handler] = {
    Roll: roll,
    EnterDice: enter_dice,
    DeclareBevue: declare_bevue,
    Shout: shout,
    Pass: pass_,
    CivetBet: lambda st, seat, a: bet_civet(st, seat, a.combination, a.stake),
    BuyCul: lambda st, seat, a: turn.buy(st, seat),
    Sip: lambda st, seat, a: sirotage.decide_sip(st, a.yes),
    BetFace: lambda st, seat, a: sirotage.bet_face(st, seat, a.face),
    ChallengeSoufflette: lambda st, seat, a: challenges.announce(
        st, "soufflette", seat, a.target, C.SOUFFLETTE, 0
    ),
    ChallengeGrelottine: grelottine,
    PasseGrelot: lambda st, seat, a: challenges.passe_grelot(st, seat, a.target),
    UseBoucliette: lambda st, seat, a: challenges.use_boucliette(st, seat),
    BetChallenge: lambda st, seat, a: challenges.bet(st, seat, a.made),
    AnnounceTotal: lambda st, seat, a: bleu_rouge.announce_total(st, seat, a.total),
    BetTotal: lambda st, seat, a: bleu_rouge.bet_total(st, seat, a.total),
    JoinSloubi: lambda st, seat, a: rotation.join(st, seat, a.sing),
    Deposit: deposit,
    Withdraw: withdraw,
}
