"""The actions of Cul de Chouette: buttons a player clicks, each with a French label."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from choux.engine.base import Action, ActionCodec
from choux.games.cul_de_chouette.combos import BIRDS


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The site's dice: roll what the game awaits (Chouettes, Cul, Sirotage, re-roll...)."""

    kind: ClassVar[str] = "lancer"

    def label(self) -> str:
        return "Lancer les dés"


@dataclass(frozen=True, slots=True)
class EnterDice(Action):
    """Real dice: the roller (or the scribe) types the values shown on the table."""

    kind: ClassVar[str] = "des"
    dice: tuple[int, ...]

    def label(self) -> str:
        return "Saisir " + "-".join(str(d) for d in self.dice)


@dataclass(frozen=True, slots=True)
class CivetBet(Action):
    """Before one's dice: stake points with the Civet on the next combination."""

    kind: ClassVar[str] = "civet"
    combination: str
    stake: int

    def label(self) -> str:
        return f"Civet : {self.stake} sur {self.combination}"


@dataclass(frozen=True, slots=True)
class BuyCul(Action):
    """Achat de dé: buy the roller's Cul for 30 points."""

    kind: ClassVar[str] = "acheter"

    def label(self) -> str:
        return "Acheter le Cul (30 points)"


@dataclass(frozen=True, slots=True)
class Sip(Action):
    """After a Chouette: re-roll the odd die (Sirotage) or keep the Chouette."""

    kind: ClassVar[str] = "siroter"
    yes: bool

    def label(self) -> str:
        return "Siroter" if self.yes else "Garder la Chouette"


@dataclass(frozen=True, slots=True)
class BetFace(Action):
    """A Sirotage side bet: 5 points on the face of the sipped die."""

    kind: ClassVar[str] = "parier_face"
    face: int

    def label(self) -> str:
        return f"Parier 5 sur {BIRDS.get(self.face, self.face)} ({self.face})"


@dataclass(frozen=True, slots=True)
class Shout(Action):
    """A race shout ("first to click"); the wrong one is a Bévue."""

    kind: ClassVar[str] = "crier"
    cry: str

    def label(self) -> str:
        return f"« {self.cry.rstrip(' !')} ! »"


@dataclass(frozen=True, slots=True)
class ChallengeSoufflette(Action):
    """On a 4-2-1: name the player who must make 421 again."""

    kind: ClassVar[str] = "souffler"
    target: int

    def label(self) -> str:
        return f"Défier {{p{self.target}}} à la Soufflette"


@dataclass(frozen=True, slots=True)
class ChallengeGrelottine(Action):
    """After a Néant: « Grelottine ! », a combination imposed and a stake."""

    kind: ClassVar[str] = "grelottine"
    combination: str
    stake: int

    def label(self) -> str:
        return f"« Grelottine ! » {self.combination} pour {self.stake}"


@dataclass(frozen=True, slots=True)
class PasseGrelot(Action):
    """Pass a Grelottine challenge aimed at oneself to another opponent."""

    kind: ClassVar[str] = "passe_grelot"
    target: int

    def label(self) -> str:
        return f"« Passe-Grelot ! » à {{p{self.target}}}"


@dataclass(frozen=True, slots=True)
class UseBoucliette(Action):
    """Cancel the challenge just announced."""

    kind: ClassVar[str] = "boucliette"

    def label(self) -> str:
        return "Boucliette : annuler le défi"


@dataclass(frozen=True, slots=True)
class BetChallenge(Action):
    """A third party's bet of 5 on a Grelottine challenge: made or missed."""

    kind: ClassVar[str] = "parier_defi"
    made: bool

    def label(self) -> str:
        return "Parier 5 : défi réussi" if self.made else "Parier 5 : défi raté"


@dataclass(frozen=True, slots=True)
class AnnounceTotal(Action):
    """Bleu-Rouge: the roller announces a total for the re-roll (three at most)."""

    kind: ClassVar[str] = "annoncer_total"
    total: int

    def label(self) -> str:
        return f"Annoncer un total de {self.total}"


@dataclass(frozen=True, slots=True)
class BetTotal(Action):
    """Bleu-Rouge: another player's bet of 5 on the total of the re-roll."""

    kind: ClassVar[str] = "parier_total"
    total: int

    def label(self) -> str:
        return f"Parier 5 sur un total de {self.total}"


@dataclass(frozen=True, slots=True)
class DeclareBevue(Action):
    """The −10 button under a player's sheet: the table spotted an error."""

    kind: ClassVar[str] = "bevue"
    target: int

    def label(self) -> str:
        return f"Bévue de {{p{self.target}}} (−10)"


@dataclass(frozen=True, slots=True)
class JoinSloubi(Action):
    """Chante-Sloubi: a late player takes their seat between two turns."""

    kind: ClassVar[str] = "sloubi"
    sing: bool

    def label(self) -> str:
        if self.sing:
            return "Rejoindre en chantant « Sloubi 1, Sloubi 2… » (×1,5)"
        return "Rejoindre la partie"


@dataclass(frozen=True, slots=True)
class Deposit(Action):
    """Banque: put points in the Bank, by tiers (16, then 17 after a transfer...)."""

    kind: ClassVar[str] = "deposer"
    amount: int

    def label(self) -> str:
        return f"Déposer {self.amount} points à la Banque"


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """Banque: take one's whole balance back, less 21 % of fees."""

    kind: ClassVar[str] = "retirer"

    def label(self) -> str:
        return "Retirer son dépôt de la Banque (21 % de frais)"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """« Je passe »: nothing to do in this window; it closes once everyone has acted or
    passed (rules: « Windows are fair »)."""

    kind: ClassVar[str] = "passer"

    def label(self) -> str:
        return "Je passe"


@dataclass(frozen=True, slots=True)
class CloseWindow(Action):
    """The table clock: the open window closes with its default (seat None only)."""

    kind: ClassVar[str] = "fermer"

    def label(self) -> str:
        return "Fin du délai"


CODEC = ActionCodec(
    Roll,
    EnterDice,
    CivetBet,
    BuyCul,
    Sip,
    BetFace,
    Shout,
    ChallengeSoufflette,
    ChallengeGrelottine,
    PasseGrelot,
    UseBoucliette,
    BetChallenge,
    AnnounceTotal,
    BetTotal,
    DeclareBevue,
    JoinSloubi,
    Deposit,
    Withdraw,
    Pass,
    CloseWindow,
)
