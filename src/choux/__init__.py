"""Choux: four French games to play in the browser, with friends and with bots."""

__version__ = "0.1.0"
