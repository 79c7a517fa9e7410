"""Refusals of the table service: a French message and what kind of refusal it is.

The kind says why (not found, conflict, store unavailable...); the web layer turns it into
an HTTP status, so nothing in `play/` knows about HTTP.
"""

from __future__ import annotations

from choux.engine.base import ChouxError

#: the kinds of refusal; `web.errors.status_of` maps each to an HTTP status
KINDS = ("invalid", "forbidden", "not_found", "conflict", "gone", "busy", "unavailable")


class TableError(ChouxError):
    """A request the service refuses, with a French message for the player.

    `kind` is one of `KINDS`; the web layer may also pass an HTTP status directly."""

    def __init__(self, message: str, kind: str | int = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


#: the refusal a player gets when their move could not be stored (nothing changed)
NOT_STORED = "Le coup n'a pas pu être enregistré (serveur momentanément indisponible) : réessayez."
#: the refusal of a move from a page whose seat is no longer its own (freed by the host, given
#: to a bot)
SEAT_LOST = "Cette place n'est plus la vôtre : rechargez la page."
