"""The moments where several players may act: their names, their French labels, their
right shout (for races) and how long the table clock keeps them open.

A window is one value of `CulDeChouetteState.step`; `deadline()` closes it with
`CloseWindow()` applied by the clock (seat None).
"""

from __future__ import annotations

from choux.games.cul_de_chouette.combos import (
    CONTRE_SIROP,
    CRI_PELICAN,
    GRELOTTE,
    PAS_MOU,
    WINDOW_SECONDS,
)

#: race step -> the shout that counts
RACE_CRY: dict[str, str] = {
    "pelican": CRI_PELICAN,
    "chouette_velute": PAS_MOU,
    "suite": GRELOTTE,
    "contre_sirop": CONTRE_SIROP,
}

#: races won by the first right shout (the Suite instead punishes the last)
FIRST_WINS = frozenset({"pelican", "chouette_velute", "contre_sirop"})

#: every step, in French, for the view
STEP_LABELS: dict[str, str] = {
    "ouverture": "Lancer d'ouverture : le plus petit dé commence",
    "debut": "Début du tour : lancer les Chouettes",
    "achat": "Achat de dé : le Cul est à vendre",
    "cul": "Lancer du Cul",
    "siroter": "Chouette : siroter ou non ?",
    "paris_sirotage": "Sirotage : paris sur le dé",
    "sirotage": "Sirotage : lancer du dé",
    "pelican": "Pélican : « Pélican ! »",
    "chouette_velute": "Chouette Velute : « Pas mou le caillou ! »",
    "suite": "Suite : « Grelotte ça picote ! »",
    "contre_sirop": "Contre-Sirop : « J'apprécie les fruits au sirop ! »",
    "departage": "Départage au dé : le plus petit perd",
    "soufflette_cible": "Soufflette : qui défier ?",
    "grelottine": "Néant : « Grelottine ! » ?",
    "annonce": "Défi annoncé : Boucliette, Passe-Grelot et paris",
    "defi": "Défi : lancer du défié",
    "sirop_grelot": "Sirop-Grelot : le Sirotage du défié",
    "bleu_rouge": "Bleu-Rouge : annonces et paris sur le total",
    "bleu_rouge_jet": "Bleu-Rouge : la relance",
    "raitournelle": "Banque : « Raitournelle ! » ou « Artichette ! »",
    "fin": "Partie terminée",
}


def window_seconds(step: str) -> float | None:
    """How long the clock keeps this step open (None: it waits for a player)."""
    return WINDOW_SECONDS.get(step)
