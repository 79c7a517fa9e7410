"""La Chouine: the trick-taking card game of the Loire valley, 2 to 4 players.

>>> from choux import games
>>> games.get("chouine").title
'La Chouine'
"""

from choux.games.chouine.game import GAME, ChouineGame
from choux.games.chouine.state import ChouineState

__all__ = ["GAME", "ChouineGame", "ChouineState"]
