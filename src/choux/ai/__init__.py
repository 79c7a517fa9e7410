"""Game-agnostic bots."""
