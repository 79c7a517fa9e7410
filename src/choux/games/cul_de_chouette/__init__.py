"""Cul de Chouette: three dice, shouts, bets and challenges, first to 343 on their turn.

>>> from choux import games
>>> games.get("cul-de-chouette").title
'Cul de Chouette'
"""

from choux.games.cul_de_chouette.combos import Reading, read_roll
from choux.games.cul_de_chouette.game import CulDeChouette

GAME = CulDeChouette()

__all__ = ["GAME", "CulDeChouette", "Reading", "read_roll"]
