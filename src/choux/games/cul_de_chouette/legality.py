"""Who may do what now, and why not: the one legality computation of Cul de Chouette.

Every action kind has a *gate*: given the state and a seat, it returns either the menu of
actions of that kind the seat may play now, or the `Refusal` saying why not. Everything
else derives from the gates, so the buttons a player sees and the reason a refused action
gets can never disagree:

- `menus(state, seat)`: the open gates of the step's kinds (see `steps.SPECS`), plus the
  Bévue button, « Je passe » in a fair window and the out-of-place shouts;
- `pending(state)`: the seats that may still act in a fair window (their fair gates open);
  the dice wait for them;
- `check(state, seat, action)`: raises the gate's refusal, or the parameter's when the gate
  is open but the action is not in its menu (« mise hors limites », « total impossible »).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from choux.engine.base import (
    Action,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    WindowClosed,
)
from choux.engine.french import points_text
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
    Pass,
    PasseGrelot,
    Roll,
    Shout,
    Sip,
    UseBoucliette,
    Withdraw,
)
from choux.games.cul_de_chouette.rules import (
    grelottine_stake_allowed,
    may_pass_grelot,
    total_is_possible,
)
from choux.games.cul_de_chouette.steps import FAIR, RACE_CRY, RACES, SPECS, Step
from choux.games.cul_de_chouette.substates import Bets, Challenge
from choux.games.cul_de_chouette.table import CdcTable

Menu = tuple[Action, ...]


class Refusal(NamedTuple):
    """Why a gate is closed: the error class (callers react to it) and a French reason.
    (A named tuple: gates build one on every closed path, it must cost nothing.)"""

    error: type[IllegalAction]
    text: str

    def exception(self) -> IllegalAction:
        return self.error(self.text)


Gate = Callable[[CdcTable, int], "Menu | Refusal"]

# --------------------------------------------------------------------------- fixed menus

ROLL = Roll()
BUY = BuyCul()
PASS = Pass()
SIPS: Menu = (Sip(True), Sip(False))
BOUCLIETTE: Menu = (UseBoucliette(),)
WITHDRAW: Menu = (Withdraw(),)
JOINS: Menu = (JoinSloubi(False), JoinSloubi(True))
ENTER: dict[int, Menu] = {
    k: tuple(EnterDice(d) for d in product(range(1, 7), repeat=k)) for k in (1, 2, 3)
}
FACE_BETS: Menu = tuple(BetFace(f) for f in range(1, 7))
CHALLENGE_BETS: Menu = (BetChallenge(True), BetChallenge(False))
TOTAL_BETS: Menu = tuple(BetTotal(t) for t in range(3, 19))
#: every shout button (rules: « always on screen »): the races' cries, « Grelottine ! », the
#: two calls that answer a challenge, and the Banque's two cries
SHOUTS = {
    cry: Shout(cry)
    for cry in (
        *C.RACE_CRIES,
        C.CRI_GRELOTTINE,
        C.CRI_PASSE_GRELOT,
        C.CRI_BOUCLIETTE,
        C.RAITOURNELLE,
        C.ARTICHETTE,
    )
}
#: what anyone may shout where it does not apply: a Bévue (once per turn)
IDLE_SHOUTS: Menu = tuple(
    SHOUTS[c] for c in (*C.RACE_CRIES, C.CRI_GRELOTTINE, C.CRI_PASSE_GRELOT, C.CRI_BOUCLIETTE)
)
#: at a Banque table, « Raitournelle ! » and « Artichette ! » too (« Artichette ! » trop tôt :
#: a Bévue, says the document)
IDLE_BANK_SHOUTS: Menu = (*IDLE_SHOUTS, SHOUTS[C.RAITOURNELLE], SHOUTS[C.ARTICHETTE])
FALSE_GRELOTTINE: Menu = (SHOUTS[C.CRI_GRELOTTINE],)


@lru_cache(maxsize=512)
def grelottine_menu(smaller: int) -> Menu:
    """Every (combination, stake) a challenger may impose when the smaller score is this."""
    return tuple(
        ChallengeGrelottine(combination, stake)
        for combination in C.GRELOTTINE_PERCENT
        for stake in range(1, C.grelottine_max_stake(combination, smaller, smaller) + 1)
    )


#: a Civet stakes 1 to 102 points, whatever the score (rules: « stake 1..102 »; a lost stake
#: stops at the floor of 0 like any loss)
CIVET_BETS: Menu = tuple(
    CivetBet(c, s) for c in C.CIVET_COMBINATIONS for s in range(1, C.CIVET_MAX + 1)
)


@lru_cache(maxsize=4096)
def bevue_menu(
    seated: tuple[int, ...], seat: int, pressed: tuple[int, ...]
) -> tuple[DeclareBevue, ...]:
    return tuple(DeclareBevue(t) for t in seated if t != seat and t not in pressed)


@lru_cache(maxsize=64)
def total_menu(announced: tuple[int, ...]) -> Menu:
    return tuple(AnnounceTotal(t) for t in C.TOTAL_CHOICES if t not in announced)


# --------------------------------------------------------------------------- reasons

PASSED = Refusal(IllegalAction, "Vous avez passé : cette fenêtre est close pour vous.")
ALREADY_BET = Refusal(IllegalAction, "Vous avez déjà parié.")
NO_POINTS_TO_BET = Refusal(IllegalAction, "Il faut au moins 5 points pour parier.")
NO_DICE = Refusal(WindowClosed, "Aucun dé n'est attendu maintenant.")
ANNOUNCE_FIRST = Refusal(
    IllegalAction, "Annoncez d'abord le total que vous visez au Bleu-Rouge, puis lancez."
)
ANNOUNCE_AWAITED = Refusal(
    IllegalAction, "Pas encore : le Bleu-Rouge attend d'abord l'annonce du total visé."
)
WAIT_OTHERS = Refusal(
    IllegalAction,
    "Pas encore : d'autres joueurs peuvent encore agir dans cette fenêtre (ou passer).",
)
SITE_DICE = Refusal(IllegalAction, "À cette table, ce sont les dés du site qui roulent.")
REAL_DICE = Refusal(IllegalAction, "À cette table, on saisit les vrais dés.")
NOT_SEATED = Refusal(IllegalAction, "Ce joueur n'est pas à la table.")


# --------------------------------------------------------------------------- dice


def dice_duty(st: CdcTable) -> tuple[int, int] | None:
    """(seat whose dice these are, how many) when the game awaits dice now."""
    if st.over or st.tiebreak is not None:
        return None
    step = st.step
    who = SPECS[step].dice
    if who is None:
        return None
    if who == "roller":
        return st.roller, 2 if step == Step.DEBUT else 1
    if who == "scorer":
        if step == Step.BLEU_ROUGE:
            assert st.bleu is not None
            return (st.scorer, 3) if st.bleu.announced else None
        return st.scorer, 3 if step == Step.BLEU_ROUGE_JET else 1
    ch = st.challenge
    assert ch is not None
    if step == Step.SIROP_GRELOT:
        return ch.target, 1
    return ch.target, 3 - len(ch.kept)


def _no_dice(st: CdcTable, seat: int) -> Refusal:
    """Why no dice are taken now: a Bleu-Rouge's three dice wait for the total it aims at
    (`seat` is the one who would throw or type them), else nothing awaits dice."""
    bleu = st.bleu
    if st.step == Step.BLEU_ROUGE and bleu is not None and not bleu.announced:
        return ANNOUNCE_FIRST if seat == st.scorer else ANNOUNCE_AWAITED
    return NO_DICE


def typer(st: CdcTable, seat: int) -> int:
    """Who types `seat`'s real dice: the scribe if there is one."""
    return st.scribe if st.real and st.scribe is not None else seat


def pending(st: CdcTable) -> tuple[int, ...]:
    """Seats that may still act in this fair window (acted or passed seats are not)."""
    cached = st._pending
    if cached is not None:
        return cached
    found: list[int] = []
    step = st.step
    if step in FAIR and not st.over and st.tiebreak is None:
        spec = SPECS[step]
        gates = FAIR_GATES[step]
        who = spec.fair_seats
        if who == "roller" and typer(st, st.roller) == st.roller:
            seats: tuple[int, ...] = ()  # the roller's own choice: rolling is passing
        elif who == "roller":
            seats = (st.roller,)
        else:
            seats = st.seated
        scorer = st.scorer if who == "others" else -1
        passed = st.passed
        for s in seats:
            if s == scorer or s in passed:
                continue
            for gate in gates:
                menu = gate(st, s)
                if type(menu) is tuple and menu:
                    found.append(s)
                    break
    st._pending = result = tuple(found)
    return result


def _blocked(st: CdcTable, owner: int, by: int) -> bool:
    """Rolling now would cut a fair window: someone else may still act, or the owner of the
    dice may while a scribe types them."""
    waiting = pending(st)
    return any(p != owner for p in waiting) or (by != owner and owner in waiting)


def gate_roll(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.real:
        return REAL_DICE
    duty = dice_duty(st)
    if duty is None:
        return _no_dice(st, seat)
    if duty[0] != seat:
        return Refusal(NotYourTurn, "Ce n'est pas à vous de lancer les dés.")
    if _blocked(st, seat, seat):
        return WAIT_OTHERS
    return (ROLL,)


def gate_enter(st: CdcTable, seat: int) -> Menu | Refusal:
    if not st.real:
        return SITE_DICE
    tie = st.tiebreak
    if tie is not None:
        waiting = tie.pending
        if waiting and (seat == st.scribe or (st.scribe is None and seat in waiting)):
            return ENTER[1]
        return Refusal(NotYourTurn, "Ce n'est pas à vous de saisir ce dé.")
    duty = dice_duty(st)
    if duty is None:
        return _no_dice(st, seat)
    if typer(st, duty[0]) != seat:
        return Refusal(NotYourTurn, "Ce n'est pas à vous de saisir ces dés.")
    if _blocked(st, duty[0], seat):
        return WAIT_OTHERS
    return ENTER[duty[1]]


# --------------------------------------------------------------------------- before the dice


def gate_civet(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.DEBUT or seat != st.roller:
        return Refusal(NotYourTurn, "On mise son Civet avant ses propres dés.")
    if not st.civet[seat]:
        return Refusal(IllegalAction, "Vous n'avez pas de Civet.")
    if st.civet_bet is not None:
        return Refusal(IllegalAction, "Votre Civet est déjà misé.")
    if seat in st.passed:
        return PASSED
    return CIVET_BETS


def _bank_visit(st: CdcTable, seat: int) -> Refusal | None:
    if not st.banque:
        return Refusal(IllegalAction, "Pas de Banque à cette table.")
    if st.step != Step.DEBUT or seat != st.roller:
        return Refusal(NotYourTurn, "On passe à la Banque à son tour, avant ses dés.")
    if st.bank_moved:
        return Refusal(IllegalAction, "Un seul passage à la Banque par tour.")
    return None


def gate_deposit(st: CdcTable, seat: int) -> Menu | Refusal:
    refusal = _bank_visit(st, seat)
    if refusal is not None:
        return refusal
    tier = st.bank_tier
    menu = tuple(Deposit(k * tier) for k in range(1, st.scores[seat] // tier + 1))
    return menu or _deposit_refusal(st)


def _deposit_refusal(st: CdcTable) -> Refusal:
    return Refusal(
        IllegalAction,
        f"Dépôt par paliers de {st.bank_tier} points, dans la limite de votre score.",
    )


def gate_withdraw(st: CdcTable, seat: int) -> Menu | Refusal:
    refusal = _bank_visit(st, seat)
    if refusal is not None:
        return refusal
    if not st.bank[seat]:
        return Refusal(IllegalAction, "Vous n'avez rien à la Banque.")
    return WITHDRAW


def gate_join(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.present[seat]:
        return Refusal(IllegalAction, "Vous êtes déjà à la table.")
    if st.step != Step.DEBUT:
        return Refusal(NotYourTurn, "Rejoignez d'abord la partie, entre deux tours.")
    return JOINS


def gate_buy(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.ACHAT:
        return Refusal(WindowClosed, "Le Cul n'est pas à vendre maintenant.")
    if seat == st.roller:
        return Refusal(IllegalAction, "On n'achète pas son propre Cul.")
    if st.scores[seat] < C.PURCHASE_PRICE:
        return Refusal(IllegalAction, "Il faut au moins 30 points pour acheter le Cul.")
    if seat in st.passed:
        return PASSED
    return (BUY,)


# --------------------------------------------------------------------------- Sirotage


def gate_sip(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.SIROTER:
        return Refusal(WindowClosed, "Pas de Chouette à siroter maintenant.")
    if seat != st.scorer:
        return Refusal(NotYourTurn, "Seul le lanceur de la Chouette décide de siroter.")
    return SIPS


def _side_bet(st: CdcTable, seat: int, bets: Bets[Any], players: tuple[int, ...]) -> Refusal | None:
    if seat in players:
        return Refusal(IllegalAction, "On ne parie pas sur un coup où l'on joue soi-même.")
    if seat in bets:
        return ALREADY_BET
    if seat in st.passed:
        return PASSED
    return None


def gate_bet_face(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.scores[seat] < C.SIDE_BET_STAKE:  # whatever the moment: the real reason
        return NO_POINTS_TO_BET
    if st.step != Step.PARIS_SIROTAGE:
        return Refusal(WindowClosed, "Les paris sur le Sirotage sont fermés.")
    assert st.sip is not None
    return _side_bet(st, seat, st.sip.bets, (st.scorer,)) or FACE_BETS


# --------------------------------------------------------------------------- shouts


def gate_shout(st: CdcTable, seat: int) -> Menu | Refusal:
    """The shouts that apply now (a race, the Banque's « Raitournelle ! », a « Grelottine ! »
    without one). Out-of-place shouts are added by `menus` for an idle player."""
    step = st.step
    if step == Step.RAITOURNELLE:
        return (SHOUTS[C.RAITOURNELLE if seat == st.roller else C.ARTICHETTE],)
    if step in RACES:
        race = st.race
        assert race is not None
        if seat not in race.eligible:
            return Refusal(IllegalAction, "Cette course n'est pas pour vous.")
        if seat in race.order:
            return Refusal(IllegalAction, "Vous avez déjà crié.")
        right = SHOUTS[RACE_CRY[step]]
        if seat in race.wrong:
            return (right,)
        return (right, *(SHOUTS[c] for c in C.RACE_CRIES if SHOUTS[c] != right))
    if step == Step.GRELOTTINE and may_false_grelottine(st, seat):
        return FALSE_GRELOTTINE
    if st.bevue_button and st.shouted_out[seat]:
        return Refusal(IllegalAction, "Un seul cri hors de propos par tour : vous avez déjà crié.")
    return Refusal(WindowClosed, "Aucune course ouverte pour vous maintenant.")


def late_seats(st: CdcTable) -> tuple[int, ...]:
    """The players of the race that just ended who may still shout its cry, too late; while
    a race runs on (a Suite), those already heard, who may shout it again (once)."""
    if st.over:
        return ()
    race = st.race
    if race is not None and st.step in RACES:
        return tuple(s for s in race.order if s not in race.again and st.present[s])
    late = st.late
    if late is None:
        return ()
    return tuple(s for s in late.seats if st.present[s])


def late_cry(st: CdcTable, seat: int) -> Menu:
    """The cry of the race that just ended, heard « trop tard » (no points, no Bévue) until
    the next roll's Cul die (the next Chouettes came too fast to count: an audit saw a late
    cry fined because the next player threw 0.2 s after the race): it still applies to the
    dice it was about, it just lost the race. While a
    Suite runs on, a second « Grelotte ça picote ! » from a player already heard applies to
    the dice on the table too: already counted, no Bévue."""
    if seat not in late_seats(st):
        return ()
    race = st.race
    if race is not None and st.step in RACES:
        return (SHOUTS[RACE_CRY[st.step]],)
    assert st.late is not None
    return (SHOUTS[st.late.cry],)


def may_false_grelottine(st: CdcTable, seat: int) -> bool:
    """The « Grelottine ! » button of a player who holds none: a Bévue, once."""
    return seat != st.scorer and not st.grelottine[seat] and seat not in st.erred


# --------------------------------------------------------------------------- challenges


def gate_soufflette(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.SOUFFLETTE_CIBLE:
        return Refusal(WindowClosed, "Aucune Soufflette à lancer maintenant.")
    if seat != st.scorer:
        return Refusal(NotYourTurn, "Seul l'auteur de la Soufflette choisit qui défier.")
    return tuple(ChallengeSoufflette(t) for t in st.seated if t != seat)


def gate_grelottine(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.GRELOTTINE:
        return Refusal(WindowClosed, "Trop tard : on ne lance une Grelottine qu'après un Néant.")
    target = st.scorer
    if seat == target:
        return Refusal(IllegalAction, "On ne se défie pas soi-même.")
    if not st.grelottine[seat]:
        return Refusal(IllegalAction, "Vous n'avez pas de Grelottine.")
    if seat in st.passed:
        return PASSED
    menu = grelottine_menu(min(st.scores[seat], st.scores[target]))
    return menu or Refusal(IllegalAction, "Scores trop bas : aucune mise possible.")


def _announced_grelottine(st: CdcTable) -> Challenge | None:
    ch = st.challenge
    if st.step != Step.ANNONCE or ch is None or ch.kind != "grelottine":
        return None
    return ch


PASSED_ON = Refusal(IllegalAction, "Un défi passé par un Passe-Grelot doit être accepté.")


def gate_passe_grelot(st: CdcTable, seat: int) -> Menu | Refusal:
    ch = _announced_grelottine(st)
    if ch is None:
        return Refusal(WindowClosed, "Passe-Grelot impossible : aucun défi Grelottine annoncé.")
    if st.n == 2:
        return Refusal(IllegalAction, "Le Passe-Grelot est sans effet à deux joueurs.")
    if seat != ch.target:
        return Refusal(IllegalAction, "Seul le joueur défié peut passer le défi.")
    if ch.target != ch.origin:  # « qui doit l'accepter »
        return PASSED_ON
    if not may_pass_grelot(st.pg_earned[seat], st.pg_used[seat], st.n):
        return Refusal(
            IllegalAction,
            "Passe-Grelot impossible : il faut avoir gagné un défi Grelottine, une fois par partie.",
        )
    if seat in st.passed:
        return PASSED
    return tuple(PasseGrelot(p) for p in st.seated if p not in (seat, ch.challenger))


def gate_boucliette(st: CdcTable, seat: int) -> Menu | Refusal:
    ch = st.challenge
    if st.step != Step.ANNONCE or ch is None:
        return Refusal(WindowClosed, "Aucun défi à annuler maintenant.")
    if seat == ch.challenger:
        return Refusal(IllegalAction, "On n'annule pas son propre défi.")
    if seat == ch.target != ch.origin:  # « qui doit l'accepter »
        return PASSED_ON
    if not st.boucliette[seat]:
        return Refusal(IllegalAction, "Vous n'avez plus de Boucliette.")
    if seat in st.passed:
        return PASSED
    return BOUCLIETTE


def gate_bet_challenge(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.scores[seat] < C.SIDE_BET_STAKE:  # whatever the moment: the real reason
        return NO_POINTS_TO_BET
    ch = _announced_grelottine(st)
    if ch is None:
        return Refusal(WindowClosed, "Les paris sur un défi sont fermés.")
    return _side_bet(st, seat, ch.bets, (ch.challenger, ch.target)) or CHALLENGE_BETS


# --------------------------------------------------------------------------- Bleu-Rouge


def gate_announce(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step != Step.BLEU_ROUGE:
        return Refusal(WindowClosed, "On annonce un total seulement après un Bleu-Rouge.")
    if seat != st.scorer:
        return Refusal(NotYourTurn, "Seul le lanceur du Bleu-Rouge annonce les totaux.")
    bleu = st.bleu
    assert bleu is not None
    if bleu.announced >= C.BLEU_ROUGE_TOTALS:
        return Refusal(IllegalAction, "Trois totaux annoncés : c'est le maximum.")
    if seat in st.passed:
        return PASSED
    return total_menu(tuple(bleu.totals))


def gate_bet_total(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.scores[seat] < C.SIDE_BET_STAKE:  # whatever the moment: the real reason
        return NO_POINTS_TO_BET
    if st.step != Step.BLEU_ROUGE:
        return Refusal(WindowClosed, "Les paris sur le total sont fermés.")
    assert st.bleu is not None
    return _side_bet(st, seat, st.bleu.bets, (st.scorer,)) or TOTAL_BETS


# --------------------------------------------------------------------------- any time


def gate_bevue(st: CdcTable, seat: int) -> Menu | Refusal:
    if not st.bevue_button:
        return Refusal(IllegalAction, "Le bouton Bévue n'est pas utilisé à cette table.")
    menu = st.bevues[seat]
    return menu or Refusal(
        IllegalAction, "Vous avez déjà signalé une bévue de chaque joueur ce tour-ci."
    )


def gate_pass(st: CdcTable, seat: int) -> Menu | Refusal:
    if st.step not in FAIR:
        return Refusal(WindowClosed, "Il n'y a rien à passer maintenant.")
    if seat not in pending(st):
        return Refusal(IllegalAction, "Vous n'avez rien à décider dans cette fenêtre.")
    return (PASS,)


GATES: dict[type[Action], Gate] = {
    Roll: gate_roll,
    EnterDice: gate_enter,
    CivetBet: gate_civet,
    Deposit: gate_deposit,
    Withdraw: gate_withdraw,
    JoinSloubi: gate_join,
    BuyCul: gate_buy,
    Sip: gate_sip,
    BetFace: gate_bet_face,
    Shout: gate_shout,
    ChallengeSoufflette: gate_soufflette,
    ChallengeGrelottine: gate_grelottine,
    PasseGrelot: gate_passe_grelot,
    UseBoucliette: gate_boucliette,
    BetChallenge: gate_bet_challenge,
    AnnounceTotal: gate_announce,
    BetTotal: gate_bet_total,
    DeclareBevue: gate_bevue,
    Pass: gate_pass,
}


#: per fair window, the gates that make a seat pending there
FAIR_GATES = {step: tuple(GATES[kind] for kind in SPECS[step].fair) for step in FAIR}

# --------------------------------------------------------------------------- menus


def menus(st: CdcTable, seat: int) -> list[Menu]:
    """The seat's legal actions, grouped by kind: its decisions first, then « Je passe »,
    then the Bévue button, the cry of the race that just ended (too late, no Bévue); a seat
    without decisions may also shout out of place."""
    cached = st._cache.get(seat)
    if cached is not None:
        return cached
    found: list[Menu] = []
    if st.over:
        pass
    elif not st.present[seat]:
        if st.step == Step.DEBUT:
            found.append(JOINS)
    else:
        step = st.step
        for kind in st.kinds[step]:
            menu = GATES[kind](st, seat)
            if menu and not isinstance(menu, Refusal):
                found.append(menu)
        if found and step in FAIR and seat in pending(st):
            found.append((PASS,))
        decisions = len(found)
        if st.bevue_button and st.bevues[seat]:
            found.append(st.bevues[seat])
        late = late_cry(st, seat)  # the last race's cry, too late (before the shouts out of place)
        if late:
            found.append(late)
        if st.bevue_button and not st.shouted_out[seat]:
            out = out_of_place(st, found[:decisions], late)
            if out:
                found.append(out)
    st._cache[seat] = found
    return found


#: steps whose deciders always have a decision (the awaited dice, a race's right shout, the
#: roller's choice): `actors` need not ask their gates (`check_invariants` verifies it)
SURE = frozenset({"dice", "race", "scorer", "tiebreak"})


def deciders(st: CdcTable) -> tuple[int, ...]:
    """The seats that may have a decision at this step (the spec's `who`): the only ones
    whose gates need asking to know who acts. The dice's typer comes first."""
    who = SPECS[st.step].who
    if who == "all":
        found: tuple[int, ...] = st.seated
    elif who == "others":
        scorer = st.scorer
        return tuple(s for s in st.seated if s != scorer)
    elif who == "race":
        assert st.race is not None
        found = st.race.silent()  # who has shouted the right cry is done
    elif who == "scorer":
        found = (st.scorer,)
    elif who == "tiebreak":
        tie = st.tiebreak
        if tie is None or not tie.pending:
            return ()
        return (st.scribe,) if st.scribe is not None else tie.pending
    elif who == "nobody":
        return ()
    else:  # "dice" or "turn"
        found = (st.roller,) if who == "turn" else ()
        if who == "turn" and len(st.seated) < st.n:
            found += tuple(s for s in range(st.n) if not st.present[s])
    duty = dice_duty(st)
    if duty is not None:
        first = typer(st, duty[0])
        if who in ("dice", "turn") or first in found:
            found = (first, *(s for s in found if s != first))
    return found


def out_of_place(st: CdcTable, decisions: list[Menu], late: Menu) -> Menu:
    """The shouts a seat may make where they do not apply (each a Bévue): every button, the
    rules keep them on screen, whatever else the seat has to decide; not those that apply now
    (a race's cries, the Banque's, a « Grelottine ! » without one, the too-late cry), nor a
    call whose real move is open (a Boucliette or a Passe-Grelot to use, a Grelottine to
    launch)."""
    every = IDLE_BANK_SHOUTS if st.banque else IDLE_SHOUTS
    if not decisions and not late:
        return every
    taken = set(late)
    for menu in decisions:
        first = menu[0]
        if isinstance(first, Shout):
            taken.update(menu)
            if first.cry in C.RACE_CRIES:  # in a race, its menu says which cries are left
                taken.update(SHOUTS[c] for c in C.RACE_CRIES)
        elif isinstance(first, UseBoucliette):
            taken.add(SHOUTS[C.CRI_BOUCLIETTE])
        elif isinstance(first, PasseGrelot):
            taken.add(SHOUTS[C.CRI_PASSE_GRELOT])
        elif isinstance(first, ChallengeGrelottine):
            taken.add(SHOUTS[C.CRI_GRELOTTINE])
    return tuple(a for a in every if a not in taken)


# --------------------------------------------------------------------------- refusals


def _check_values(action: Action) -> Refusal | None:
    """What is wrong with an action whatever the moment (its values are out of bounds)."""
    if isinstance(action, EnterDice):
        for d in action.dice:
            if not 1 <= d <= 6:
                return Refusal(IllegalAction, f"Un dé montre 1 à 6 : {d} est impossible.")
    elif isinstance(action, BetFace):
        if not 1 <= action.face <= 6:
            return Refusal(
                IllegalAction,
                f"Mise hors limites : on parie sur une face de 1 à 6, pas {action.face}.",
            )
    elif isinstance(action, BetTotal):
        if not total_is_possible(action.total):
            return Refusal(
                IllegalAction,
                f"Mise hors limites : total impossible ({action.total}), trois dés font 3 à 18.",
            )
    elif isinstance(action, Shout) and action.cry not in SHOUTS:
        return Refusal(MalformedAction, "Ce cri n'existe pas.")
    return None


def _check_choice(st: CdcTable, seat: int, action: Action, menu: Menu) -> Refusal | None:
    """The gate is open: is this very action one of its menu? If not, say what is wrong."""
    if isinstance(action, EnterDice):
        expected = len(menu[0].dice)  # type: ignore[attr-defined]
        if len(action.dice) == expected:
            return None
        if st.tiebreak is not None:
            return Refusal(IllegalAction, "Un seul dé est attendu.")
        word = "dé" if expected == 1 else "dés"
        return Refusal(IllegalAction, f"Il faut saisir {expected} {word}, pas {len(action.dice)}.")
    if isinstance(action, CivetBet):
        if action.combination not in C.CIVET_COMBINATIONS:
            return Refusal(IllegalAction, f"Combinaison inconnue : {action.combination}.")
        if 1 <= action.stake <= C.CIVET_MAX:
            return None
        return Refusal(IllegalAction, f"Mise hors limites : entre 1 et {points_text(C.CIVET_MAX)}.")
    if isinstance(action, ChallengeGrelottine):
        if action.combination not in C.GRELOTTINE_PERCENT:
            return Refusal(IllegalAction, f"Combinaison non imposable : {action.combination}.")
        top = C.grelottine_max_stake(action.combination, st.scores[seat], st.scores[st.scorer])
        if grelottine_stake_allowed(action.stake, top):
            return None
        if action.stake > top:
            return Refusal(
                IllegalAction, f"Mise trop forte : {top} au plus pour {action.combination}."
            )
        return Refusal(IllegalAction, "Mise hors limites : au moins 1 point.")
    if isinstance(action, Deposit):
        tier = st.bank_tier
        if action.amount % tier == 0 and tier <= action.amount <= st.scores[seat]:
            return None
        return _deposit_refusal(st)
    if isinstance(action, AnnounceTotal):
        assert st.bleu is not None
        if action.total in st.bleu.totals:
            return Refusal(IllegalAction, f"Total déjà annoncé : {action.total}.")
        return None  # any other total: possible, or a Bévue (« total impossible »)
    if action in menu:
        return None
    if isinstance(action, ChallengeSoufflette):
        if action.target == seat:
            return Refusal(
                IllegalAction, "On ne se défie pas soi-même : choisissez un autre joueur."
            )
        return NOT_SEATED
    if isinstance(action, PasseGrelot):
        return Refusal(IllegalAction, "Ce joueur ne peut pas recevoir le défi.")
    if isinstance(action, DeclareBevue):
        if action.target == seat:
            return Refusal(IllegalAction, "La Bévue se signale sur un autre joueur, pas sur soi.")
        if action.target not in st.seated:
            return NOT_SEATED
        return Refusal(IllegalAction, "Vous avez déjà signalé une bévue de ce joueur ce tour-ci.")
    if isinstance(action, Shout):
        race = st.race
        if race is not None and seat in race.wrong:
            return Refusal(IllegalAction, "Vous avez déjà crié à tort dans cette course.")
        # a cry the open gate does not list, and no shout out of place left to make: the
        # same reasons as `gate_shout` gives outside a race (rules: never a generic refusal)
        if st.bevue_button and st.shouted_out[seat]:
            return Refusal(
                IllegalAction, "Un seul cri hors de propos par tour : vous avez déjà crié."
            )
        return Refusal(IllegalAction, f"« {action.cry} » ne s'applique pas maintenant.")
    return Refusal(IllegalAction, "Ce coup n'est pas permis maintenant.")


def check(st: CdcTable, seat: int | None, action: Action) -> None:
    """Raise the IllegalAction that says why `seat` may not play `action` now, if any."""
    found = st._cache.get(seat) if type(seat) is int else None
    if found is not None:  # the seat's menus are known already: a listed action is legal
        for menu in found:
            if action in menu:
                return
    if st.over:
        raise WindowClosed("La partie est terminée.")
    if isinstance(action, CloseWindow):
        if seat is not None:
            raise NotYourTurn("Seule l'horloge de la table ferme une fenêtre.")
        if st.deadline() is None:
            raise WindowClosed("Aucune fenêtre n'est ouverte.")
        return
    if seat is None:
        raise NotYourTurn("Seule l'horloge de la table joue sans siège.")
    if not isinstance(seat, int) or not 0 <= seat < st.n:
        raise NotYourTurn("Ce siège n'existe pas à cette table.")
    if not st.present[seat] and not isinstance(action, JoinSloubi):
        raise NotYourTurn("Rejoignez d'abord la partie, entre deux tours.")
    wrong = _check_values(action)
    if wrong is not None:
        raise wrong.exception()
    gate = GATES.get(type(action))
    if gate is None:  # pragma: no cover - the codec only builds known actions
        raise MalformedAction("Action inconnue.")
    opened: Menu | Refusal = gate(st, seat)
    if isinstance(action, Shout) and any(action in menu for menu in menus(st, seat)):
        return  # a shout that applies, too late (no Bévue) or out of place (a Bévue)
    if isinstance(opened, Refusal):
        raise opened.exception()
    wrong = _check_choice(st, seat, action, opened)
    if wrong is not None:
        raise wrong.exception()
