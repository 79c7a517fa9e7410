"""La Chouine: the trick-taking card game of the Loire valley, 2 to 4 players.

>>> from choux import games
>>> games.get("chouine").title
'La Chouine'
"""

from choux.engine.native import activate, restore_docstrings

# before any module of the package: its engine modules come compiled when `make setup`
# built them and they still match their sources (see choux/engine/native.py)
NATIVE = activate(__name__, __path__)

from choux.games.chouine.game import GAME, ChouineGame  # noqa: E402
from choux.games.chouine.state import ChouineState  # noqa: E402

if NATIVE:
    restore_docstrings(__name__)

__all__ = ["GAME", "NATIVE", "ChouineGame", "ChouineState"]
