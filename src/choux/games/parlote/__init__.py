"""La parlote coinchée: a coinche-like card game where every card is a fallacy to argue.

>>> from choux import games
>>> games.get("parlote").title
'La parlote coinchée'
"""

from choux.games.parlote.game import ParloteGame

GAME = ParloteGame()

__all__ = ["GAME", "ParloteGame"]
