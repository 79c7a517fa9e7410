"""Reading three dice: the combination's French name and the points it gives the roller.

Every number a designer might tune (points, stakes, percentages, delays) lives here, as
data, so that the rules modules only hold logic.

>>> read_roll((6, 6, 6))
Reading(name='Pélican', points=172)
>>> read_roll((3, 2, 1)).points
18
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

# --------------------------------------------------------------------------- names

CUL_DE_CHOUETTE = "Cul de Chouette"
PELICAN = "Pélican"
BLEU_ROUGE = "Bleu-Rouge"
CHOUETTE_VELUTE = "Chouette Velute"
CHOUETTE = "Chouette"
SOUFFLETTE = "Soufflette"
SUITE = "Suite"
VELUTE = "Velute"
NEANT = "Néant"
SIROP_GRELOT = "Sirop-Grelot"
CUL_SIROTAGE = "Cul de Chouette (avec Sirotage)"
#: the combinations said « la … » (« sa Chouette », « son Pélican »)
FEMININE = frozenset({CHOUETTE_VELUTE, CHOUETTE, SOUFFLETTE, SUITE, VELUTE})


def possessive(name: str) -> str:
    """« sa Velute », « son Cul de Chouette »: the player's combination, in French.

    >>> possessive(SUITE), possessive(PELICAN)
    ('sa Suite', 'son Pélican')
    """
    return f"{'sa' if name in FEMININE else 'son'} {name}"


# --------------------------------------------------------------------------- points and bounds

TARGET = 343  # victory, only on one's own turn
CAP = 332  # challenge, bet and purchase gains stop here
PELICAN_POINTS = 172
PELICAN_SHOUT = 28
BLEU_ROUGE_POINTS = 9
BLEU_ROUGE_BONUS = 36  # + 2 x total + the re-roll's points
SUITE_123_POINTS = 18
SUITE_LAST_LOSES = 10
BEVUE = 10
PURCHASE_PRICE = 30
SIDE_BET_STAKE = 5
SIDE_BET_GAIN = 25
CIVET_MAX = 102
SOUFFLETTE_GAINS = (50, 40, 30)  # success on throw 1, 2, 3
SOUFFLETTE_FAIL = 30
SOUFFLETTE_KEEP = (4, 2, 1)
BLEU_ROUGE_TOTALS = 3  # announcements allowed
TOTAL_CHOICES = tuple(range(1, 21))  # what the announcement menu offers (3..18 possible)

#: Grelottine: imposable combination -> percent of the smaller of the two scores
GRELOTTINE_PERCENT: dict[str, int] = {
    CHOUETTE: 33,
    VELUTE: 25,
    SIROP_GRELOT: 20,
    CUL_DE_CHOUETTE: 16,
    CHOUETTE_VELUTE: 8,
}

#: combinations a Civet may be bet on
CIVET_COMBINATIONS: tuple[str, ...] = (
    CHOUETTE,
    VELUTE,
    CHOUETTE_VELUTE,
    CUL_DE_CHOUETTE,
    CUL_SIROTAGE,
    SUITE,
    SOUFFLETTE,
    NEANT,
)

#: Sirotage side bets: face -> bird
BIRDS: dict[int, str] = {
    1: "Linotte",
    2: "Alouette",
    3: "Fauvette",
    4: "Mouette",
    5: "Bergeronnette",
    6: "Chouette",
}

# --------------------------------------------------------------------------- Banque (option)

BANK_TIER = 16  # deposits by multiples of this; +1 after each transfer
BANK_INTEREST = 17  # percent, on each of the depositor's own turns
BANK_FEES = 21  # percent kept by the Bank on a withdrawal
RAITOURNELLE_ABOVE = 10  # the two Chouettes must sum to more than this

# --------------------------------------------------------------------------- shouts

PAS_MOU = "Pas mou le caillou !"
GRELOTTE = "Grelotte ça picote !"
CRI_PELICAN = "Pélican !"
CONTRE_SIROP = "J'apprécie les fruits au sirop !"
RAITOURNELLE = "Raitournelle !"  # Banque: the roller takes the Bank
ARTICHETTE = "Artichette !"  # Banque: an opponent stops the Raitournelle
CRI_GRELOTTINE = "Grelottine !"  # shouted without a Grelottine: a Bévue
# the two calls that answer a challenge, shouts too: pressed when they do not apply, a Bévue
CRI_PASSE_GRELOT = "Passe-Grelot !"
CRI_BOUCLIETTE = "Boucliette !"
RACE_CRIES: tuple[str, ...] = (PAS_MOU, GRELOTTE, CRI_PELICAN, CONTRE_SIROP)

# --------------------------------------------------------------------------- windows (seconds)

WINDOW_SECONDS: dict[str, float] = {
    "achat": 3.0,
    "siroter": 10.0,
    "paris_sirotage": 8.0,
    "contre_sirop": 4.0,
    "chouette_velute": 4.0,
    "pelican": 4.0,
    "suite": 5.0,
    "soufflette_cible": 15.0,
    "annonce": 6.0,
    "grelottine": 8.0,
    "bleu_rouge": 15.0,
    "raitournelle": 3.0,
}


class Reading(NamedTuple):
    """A roll read: its combination and the roller's points from the reading itself."""

    name: str
    points: int


class FullReading(NamedTuple):
    """A reading plus the value that matters (the pair, the triple, the third die of a
    Chouette Velute, the largest die of a Velute or a Suite; 0 for a Néant)."""

    name: str
    points: int
    value: int


def read_roll(dice: tuple[int, int, int] | tuple[int, ...]) -> Reading:
    """The combination of three dice (order irrelevant), first match of the rules file."""
    name, points, _value = _read(tuple(sorted(dice)))
    return Reading(name, points)


def read_full(dice: tuple[int, int, int] | tuple[int, ...]) -> FullReading:
    """`read_roll` with the combination's value, for the rules that need it."""
    return _read(tuple(sorted(dice)))


@cache
def _read(d: tuple[int, ...]) -> FullReading:
    a, b, c = d
    if a == b == c:
        if a == 6:
            return FullReading(PELICAN, PELICAN_POINTS, 6)
        return FullReading(CUL_DE_CHOUETTE, 40 + 10 * a, a)
    if d == (3, 3, 4):
        return FullReading(BLEU_ROUGE, BLEU_ROUGE_POINTS, 3)
    if a == b and a + b == c:
        return FullReading(CHOUETTE_VELUTE, 0, c)  # the points go to the first shout
    if a == b or b == c:
        pair = b
        return FullReading(CHOUETTE, pair * pair, pair)
    if d == (1, 2, 4):
        return FullReading(SOUFFLETTE, 0, 4)
    if b == a + 1 and c == b + 1:
        return FullReading(SUITE, SUITE_123_POINTS if a == 1 else 0, c)
    if a + b == c:
        return FullReading(VELUTE, 2 * c * c, c)
    return FullReading(NEANT, 0, 0)


def roll_points(reading: FullReading) -> int:
    """What a roll scores for its roller where no race is held (a challenge's roll, a
    Bleu-Rouge's re-roll): a Chouette Velute nobody can claim stays with the roller, like an
    unclaimed one (rules); the Pélican's 28 and a Suite's race are not played there.

    >>> roll_points(read_full((2, 2, 4))), roll_points(read_full((4, 4, 1)))
    (32, 16)
    """
    if reading.name == CHOUETTE_VELUTE:
        return chouette_velute_points(reading.value)
    return reading.points


def chouette_velute_points(value: int) -> int:
    """2v², v the third die (8, 32 or 72)."""
    return 2 * value * value


def cul_de_chouette_points(value: int) -> int:
    """40 + 10v: what a successful Sirotage scores."""
    return 40 + 10 * value


def contre_sirop_points(value: int) -> int:
    """Twice a tenth of the Cul de Chouette attempted: 8 + 2v (10 to 20)."""
    return 2 * cul_de_chouette_points(value) // 10


@cache
def has_combination(dice: tuple[int, ...], name: str) -> bool:
    """Whether the dice hold a combination, structurally (for challenges and the Civet):
    a Chouette Velute is a Chouette and a Velute, a Bleu-Rouge a Chouette, 1-2-3 a Velute."""
    a, b, c = sorted(dice)
    pair = (a == b) != (b == c)
    velute = a + b == c
    if name == CHOUETTE:
        return pair
    if name == VELUTE:
        return velute
    if name == CHOUETTE_VELUTE:
        return pair and velute
    if name in (CUL_DE_CHOUETTE, CUL_SIROTAGE, SIROP_GRELOT):
        return a == b == c
    if name == SUITE:
        return b == a + 1 and c == b + 1
    if name == SOUFFLETTE:
        return (a, b, c) == (1, 2, 4)
    if name == NEANT:
        return _read((a, b, c)).name == NEANT
    return False


def odd_die(dice: tuple[int, ...]) -> int | None:
    """The pair's value when exactly two dice are equal (what a Sirotage tries to match)."""
    a, b, c = sorted(dice)
    if a == b != c:
        return a
    if b == c != a:
        return b
    return None


def grelottine_max_stake(combination: str, score_a: int, score_b: int) -> int:
    """Smaller of the two scores times the combination's percent, rounded down."""
    return min(score_a, score_b) * GRELOTTINE_PERCENT[combination] // 100
