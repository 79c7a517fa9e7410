"""Chouineurs, the French edition of *Cry Baby*: bet on your tricks, cry when you lose."""

from choux.games.chouineurs.game import Chouineurs

GAME = Chouineurs()

__all__ = ["GAME", "Chouineurs"]
