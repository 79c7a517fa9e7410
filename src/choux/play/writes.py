"""The single write path: every change of a table's game goes through `_apply`.

Under the table's lock, the game validates the action on a copy, the store appends it and
bumps the version in one transaction, and only once that COMMIT succeeded does the copy
replace the table's state. A failed write leaves memory at the stored version and the
player gets a French refusal; the store's writer keeps running for the next move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from choux.engine.base import Action, Seat, State
from choux.engine.fairness import commitment
from choux.engine.french import sentence
from choux.engine.record import Record
from choux.play.base import ServiceBase
from choux.play.errors import NOT_STORED, SEAT_LOST, TableError
from choux.play.store import StoreUnavailable, VersionConflict
from choux.play.tables import LiveTable

#: per action class, its wording fields: not compared (a Chouineurs card's end in words),
#: the engine's to fill, never the client's
_WORDING: dict[type, tuple[dataclasses.Field[object], ...]] = {}


def stored_form(state: State, seat: Seat | None, action: Action) -> Action:
    """The action as it is stored and replayed: the legal action equal to it, whose wording
    the engine wrote. A client's own wording (« AS de pique, allez voir evil.example »)
    would otherwise reach the record and every replay's list of moves."""
    cls = type(action)
    wording = _WORDING.get(cls)
    if wording is None:
        fields = dataclasses.fields(action)
        wording = _WORDING[cls] = tuple(f for f in fields if not f.compare)
    if not wording:
        return action
    if seat is not None:
        for legal in state.legal_actions(seat):
            if legal == action:
                return legal
    return dataclasses.replace(action, **{f.name: f.default for f in wording})


class WritePath(ServiceBase):
    async def act(
        self,
        table: LiveTable,
        seat: int,
        action_json: object,
        client_id: str | None = None,
        seat_lost: Callable[[], bool] | None = None,
    ) -> int:
        """Apply a person's action; the same client id twice is applied once. Returns the
        version once the action is committed (only then may the client be told so).
        `seat_lost`, asked under the lock: whether the caller no longer holds `seat` (the
        host freed it or gave it to a bot since its page opened)."""
        async with table.lock:
            if seat_lost is not None and seat_lost():
                raise TableError(SEAT_LOST, "forbidden")
            if client_id is not None and (seat, client_id) in table.client_ids:
                return table.client_ids[(seat, client_id)]
            if table.status == "open":
                raise TableError("La partie n'a pas encore commencé : il manque des joueurs.")
            if table.status == "over":
                raise TableError("La partie est terminée.")
            action = table.game.action_from_json(action_json)
            await self._apply(table, seat, action, client_id)
            return table.version

    async def _apply(
        self,
        table: LiveTable,
        seat: Seat | None,
        action: Action,
        client_id: str | None,
        retry: bool = True,
    ) -> bool:
        """Validate on a copy, persist, then swap: a failure anywhere changes nothing.
        True if this process wrote the action (not when another process's write came first
        and the table caught up on it instead).

        If another process wrote first (version conflict), catch up and try once more: the
        action is validated again against the newer state. Not so for the clock's and the
        bots' moves (`retry=False`): they were chosen for the version they were armed at,
        and the other process serving the table has most likely just played that very move;
        applying it again could play a bot twice or close a window twice.

        A store that cannot write raises TableError of kind "unavailable"."""
        try:
            try:
                await self._apply_once(table, seat, action, client_id)
            except VersionConflict:
                await self._catch_up(table)
                if not retry:
                    return False
                if client_id is not None and (seat, client_id) in table.client_ids:
                    return False
                try:
                    await self._apply_once(table, seat, action, client_id)
                except VersionConflict as error:
                    raise TableError(
                        "La table a changé entre-temps : réessayez.", "conflict"
                    ) from error
        except StoreUnavailable as error:
            raise TableError(NOT_STORED, "unavailable") from error
        _, data = table.actions[-1]  # the action just stored (an early return publishes nothing)
        change = {"v": table.version, "seat": seat, "action": data, "client_id": client_id}
        if table.status == "over":  # the others need not read the record's id back
            change["record_id"] = table.record_id
        self._publish(table.code, change)
        return True

    async def _apply_once(
        self, table: LiveTable, seat: Seat | None, action: Action, client_id: str | None
    ) -> None:
        new = table.state.clone()
        events = new.apply(seat, action)
        seq = table.version + 1
        data = stored_form(table.state, seat, action).to_json()
        record = None
        if new.is_over():
            rec = Record(
                table.game.name,
                table.row.players,
                table.row.seed,
                dict(table.row.options),
                table.game.rules_version,
                table.names(),
                actions=[*table.actions, (seat, data)],
                commitment=commitment(table.row.seed),
                bots=[i for i, s in enumerate(table.seats) if s.kind == "bot"],
            )
            rec.close(new)
            record = rec.to_json()
        # raises (VersionConflict, StoreUnavailable) unless the COMMIT succeeded
        record_id = await self.store.append_action(table.row.id, seq, seat, data, client_id, record)
        table.state = new
        table.version = seq
        table.actions.append((seat, data))
        table.log.extend((seq, event) for event in events)
        if client_id is not None:
            table.client_ids[(seat, client_id)] = seq
        if record is not None:
            table.row.status = "over"
            table.record_id = record_id
            self._finished(table)
            outcome = new.outcome()
            if outcome is not None:
                table.log.append((seq, f"Partie terminée. {sentence(outcome.reason)}"))
        self._after_change(table)
