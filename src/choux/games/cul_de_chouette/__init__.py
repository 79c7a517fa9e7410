"""Cul de Chouette: three dice, shouts, bets and challenges, first to 343 on their turn.

>>> from choux import games
>>> games.get("cul-de-chouette").title
'Cul de Chouette'
"""

from choux.engine.native import activate, restore_docstrings

# before any module of the package: the engine's modules come compiled when `make setup`
# built them and they still match their sources (see choux/engine/native.py)
NATIVE = activate(__name__, __path__)

from choux.games.cul_de_chouette.combos import Reading, read_roll  # noqa: E402
from choux.games.cul_de_chouette.game import CulDeChouette  # noqa: E402

if NATIVE:
    restore_docstrings(__name__)

GAME = CulDeChouette()

__all__ = ["GAME", "NATIVE", "CulDeChouette", "Reading", "read_roll"]
