"""The steps of a Cul de Chouette turn, as a table: one spec per step.

A turn is a chain of steps. Each step says who acts there (the action kinds that may be
legal, checked seat by seat by `legality`), whose dice the game awaits, how long the table
clock keeps it open and what its default is when the clock closes it, and, for a *fair
window*, where the turn goes once every player who may act there has acted or passed.

>>> SPECS[Step.ACHAT].seconds, SPECS[Step.ACHAT].after
(3.0, <Step.CUL: 'cul'>)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from choux.engine.base import Action
from choux.games.cul_de_chouette import actions as A
from choux.games.cul_de_chouette.combos import (
    CONTRE_SIROP,
    CRI_PELICAN,
    GRELOTTE,
    PAS_MOU,
    WINDOW_SECONDS,
)


class Step(StrEnum):
    """Where a turn stands. The values are the view's ``step`` (stable for the web UI)."""

    OUVERTURE = "ouverture"
    DEBUT = "debut"
    ACHAT = "achat"
    CUL = "cul"
    SIROTER = "siroter"
    PARIS_SIROTAGE = "paris_sirotage"
    SIROTAGE = "sirotage"
    PELICAN = "pelican"
    CHOUETTE_VELUTE = "chouette_velute"
    SUITE = "suite"
    CONTRE_SIROP = "contre_sirop"
    DEPARTAGE = "departage"
    SOUFFLETTE_CIBLE = "soufflette_cible"
    GRELOTTINE = "grelottine"
    ANNONCE = "annonce"
    DEFI = "defi"
    SIROP_GRELOT = "sirop_grelot"
    BLEU_ROUGE = "bleu_rouge"
    BLEU_ROUGE_JET = "bleu_rouge_jet"
    RAITOURNELLE = "raitournelle"
    FIN = "fin"


@dataclass(frozen=True, slots=True)
class StepSpec:
    """One step of the turn.

    - `label`: French, for the view.
    - `kinds`: the action kinds that may be legal here (besides the Bévue button, idle
      shouts and « Je passe », open at every step).
    - `who`: the seats that may have a decision here (their gates then say which):
      "all", "others" (all but the roller or buyer), "dice" (who rolls or types the
      awaited dice), "scorer", "race" (its
      eligible players), "tiebreak" (who has a die to roll), "turn" (the roller, who types
      the dice, and the seats not yet joined) or "nobody".
    - `dice`: whose dice the game awaits here: "roller", "scorer" (the roller or the buyer of
      the Cul), "target" (the challenged) or None.
    - `seconds`: how long the table clock keeps the step open (None: it waits for a player);
      the default it then applies is `turn.DEFAULTS`.
    - `fair`: the action kinds that make a seat *pending* in this fair window: the dice wait
      until no other pending seat is left (rules: « Windows are fair »).
    - `fair_seats`: who may be pending there: "roller" (the Civet before the dice), "others"
      (everyone but the roller or buyer) or "all".
    - `after`: where a fair window goes when nobody is pending any more (None: the turn ends).
    """

    label: str
    kinds: tuple[type[Action], ...] = ()
    who: str = "all"
    dice: str | None = None
    seconds: float | None = None
    fair: tuple[type[Action], ...] = ()
    fair_seats: str = "all"
    after: Step | None = None


RACE_KINDS = (A.Shout,)

SPECS: dict[Step, StepSpec] = {
    Step.OUVERTURE: StepSpec(
        "Lancer d'ouverture : le plus petit dé commence", (A.EnterDice,), who="tiebreak"
    ),
    Step.DEBUT: StepSpec(
        "Début du tour : lancer les Chouettes",
        (A.Roll, A.EnterDice, A.CivetBet, A.Deposit, A.Withdraw, A.JoinSloubi),
        who="turn",
        dice="roller",
        fair=(A.CivetBet,),
        fair_seats="roller",
        after=Step.DEBUT,
    ),
    Step.ACHAT: StepSpec(
        "Achat de dé : le Cul est à vendre",
        (A.BuyCul,),  # the roller's dice wait: the window closes when nobody may buy
        who="others",
        dice="roller",
        fair=(A.BuyCul,),
        fair_seats="others",
        after=Step.CUL,
    ),
    Step.CUL: StepSpec("Lancer du Cul", (A.Roll, A.EnterDice), who="dice", dice="scorer"),
    Step.SIROTER: StepSpec("Chouette : siroter ou non ?", (A.Sip,), who="scorer"),
    Step.PARIS_SIROTAGE: StepSpec(
        "Sirotage : paris sur le dé",
        (A.BetFace,),  # the die waits: the window closes when nobody may bet
        who="others",
        dice="scorer",
        fair=(A.BetFace,),
        fair_seats="others",
        after=Step.SIROTAGE,
    ),
    Step.SIROTAGE: StepSpec(
        "Sirotage : lancer du dé", (A.Roll, A.EnterDice), who="dice", dice="scorer"
    ),
    Step.PELICAN: StepSpec("Pélican : « Pélican ! »", RACE_KINDS, who="race"),
    Step.CHOUETTE_VELUTE: StepSpec(
        "Chouette Velute : « Pas mou le caillou ! »", RACE_KINDS, who="race"
    ),
    Step.SUITE: StepSpec("Suite : « Grelotte ça picote ! »", RACE_KINDS, who="race"),
    Step.CONTRE_SIROP: StepSpec(
        "Contre-Sirop : « J'apprécie les fruits au sirop ! »", RACE_KINDS, who="race"
    ),
    Step.DEPARTAGE: StepSpec(
        "Départage au dé : le plus petit perd", (A.EnterDice,), who="tiebreak"
    ),
    Step.SOUFFLETTE_CIBLE: StepSpec(
        "Soufflette : qui défier ?", (A.ChallengeSoufflette,), who="scorer"
    ),
    Step.GRELOTTINE: StepSpec(
        "Néant : « Grelottine ! » ?",
        (A.ChallengeGrelottine, A.Shout),
        who="others",
        fair=(A.ChallengeGrelottine,),
        fair_seats="others",
        after=None,
    ),
    Step.ANNONCE: StepSpec(
        "Défi annoncé : Boucliette, Passe-Grelot et paris",
        (A.UseBoucliette, A.PasseGrelot, A.BetChallenge, A.Roll, A.EnterDice),
        dice="target",
        fair=(A.UseBoucliette, A.PasseGrelot, A.BetChallenge),
        after=Step.DEFI,
    ),
    Step.DEFI: StepSpec("Défi : lancer du défié", (A.Roll, A.EnterDice), who="dice", dice="target"),
    Step.SIROP_GRELOT: StepSpec(
        "Sirop-Grelot : le Sirotage du défié", (A.Roll, A.EnterDice), who="dice", dice="target"
    ),
    Step.BLEU_ROUGE: StepSpec(
        "Bleu-Rouge : annonces et paris sur le total",
        (A.AnnounceTotal, A.BetTotal, A.Roll, A.EnterDice),
        dice="scorer",
        fair=(A.AnnounceTotal, A.BetTotal),
        after=Step.BLEU_ROUGE_JET,
    ),
    Step.BLEU_ROUGE_JET: StepSpec(
        "Bleu-Rouge : la relance", (A.Roll, A.EnterDice), who="dice", dice="scorer"
    ),
    Step.RAITOURNELLE: StepSpec("Banque : « Raitournelle ! » ou « Artichette ! »", RACE_KINDS),
    Step.FIN: StepSpec("Partie terminée", who="nobody"),
}

# the clock's deadlines live with the other tunable numbers (combos.WINDOW_SECONDS)
SPECS = {
    step: replace(spec, seconds=WINDOW_SECONDS.get(step.value)) for step, spec in SPECS.items()
}

#: the races: « first (or last) to click », each with the shout that counts
RACE_CRY: dict[str, str] = {
    Step.PELICAN: CRI_PELICAN,
    Step.CHOUETTE_VELUTE: PAS_MOU,
    Step.SUITE: GRELOTTE,
    Step.CONTRE_SIROP: CONTRE_SIROP,
}
RACES = frozenset({Step.PELICAN, Step.CHOUETTE_VELUTE, Step.SUITE, Step.CONTRE_SIROP})
#: races won by the first right shout (the Suite instead punishes the last)
FIRST_WINS = frozenset({Step.PELICAN, Step.CHOUETTE_VELUTE, Step.CONTRE_SIROP})
#: steps whose clock closes them (a deadline)
WINDOWS = frozenset(step for step, spec in SPECS.items() if spec.seconds is not None)
#: fair windows: nobody's fast click cuts them short
FAIR = frozenset(step for step, spec in SPECS.items() if spec.fair)
#: French label of every step, for the view
STEP_LABELS: dict[str, str] = {step.value: spec.label for step, spec in SPECS.items()}
