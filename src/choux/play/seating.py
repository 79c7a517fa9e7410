"""Seats beyond the first join: a person coming back to their seat (from a bot that
stood in, or from another device of the same identity), a host removing someone who sat
down by mistake, empty seats of a quick-play table given to bots, and the oldest public
table waiting for players (quick play).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from choux.engine.record import ROBOT_SUFFIX
from choux.play.base import ServiceBase
from choux.play.errors import TableError
from choux.play.names import bot_name
from choux.play.scheduler import preferred_level
from choux.play.store import tables_t
from choux.play.tables import LiveTable, hash_token

log = logging.getLogger("choux.play")

#: open tables of other processes loaded at most by one quick-play request
MAX_QUICK_LOOKUPS = 50

EVERYONE_HERE = "Tout le monde est là : la partie commence !"


def own_seat(table: LiveTable, player: str) -> int | None:
    """The seat identity `player` holds (or held, before a bot took over) at `table`;
    not one the host gave to a bot for good."""
    for row in table.seats:
        if (
            row.player is not None
            and not row.excluded
            and row.kind in ("human", "bot")
            and hmac.compare_digest(row.player, player)
        ):
            return row.seat
    return None


def identity_seat(table: LiveTable, player: str) -> int | None:
    """The seat identity `player` plays now (a person's seat, not one a bot took). The
    identity lives in the same signed cookie as the seat tokens and is shown to nobody, so
    it proves the seat as well as a token: an account's devices all play it."""
    seat = own_seat(table, player)
    return seat if seat is not None and table.seats[seat].kind == "human" else None


def sat_here(table: LiveTable, player: str) -> bool:
    """Identity `player` has (or had) a seat at `table`, even one given to a bot for good."""
    return any(
        row.player is not None and hmac.compare_digest(row.player, player) for row in table.seats
    )


class Seating(ServiceBase):
    async def get(self, code: str) -> LiveTable:
        raise NotImplementedError  # service.TableService

    async def return_to_seat(self, table: LiveTable, seat: int, player: str) -> str:
        """Give `seat` back to the identity that held it, with a new token. A bot standing
        in hands over at once: its pending move is dropped and the person plays the seat's
        next decision. Refused to any other identity; nothing changes then."""
        async with table.lock:
            if not 0 <= seat < len(table.seats):
                raise TableError("Place invalide.")
            row = table.seats[seat]
            if table.status == "over":
                raise TableError("La partie est terminée : cette place ne se reprend plus.", "gone")
            if (
                row.player is None
                or row.kind not in ("human", "bot")
                or not hmac.compare_digest(row.player, player)
            ):
                raise TableError(
                    "Cette place était celle d'une autre personne : elle seule peut la reprendre.",
                    "forbidden",
                )
            if row.excluded:
                raise TableError(
                    "Cette place est confiée à un robot jusqu'à la fin de la partie : vous "
                    "pouvez la suivre.",
                    "forbidden",
                )
            token = secrets.token_urlsafe(18)
            back = row.kind == "bot"
            name = row.name or f"Place {seat + 1}"
            if back and name.endswith(ROBOT_SUFFIX):
                name = name[: -len(ROBOT_SUFFIX)]
            new = replace(row, kind="human", level=None, name=name, token_hash=hash_token(token))
            await self.store.update_seat(table.row.id, new)  # first: a failure changes nothing
            if back:
                table.keep_past_names()  # the bot's moves stay « X (robot) »'s
            row.kind, row.level, row.name, row.token_hash = "human", None, name, new.token_hash
            if back:
                table.bots.pop(seat, None)
                table.log.append(
                    (table.version, f"{name} reprend sa place : le robot lui rend la main.")
                )
                if table.status == "live":
                    self._after_change(table)  # drops the bot's pending move
            if not table.connections.get(seat):
                self._arm_grace(table, seat)  # cancelled as soon as their page connects
            table.meta += 1
            table.wake_all()
            self._publish(table.code)
            return token

    async def exclude(
        self, table: LiveTable, seat: int, reason: str = "décision de l'hôte"
    ) -> None:
        """A bot plays this person's seat, and it does not come back (the host's decision,
        or the person's own)."""
        await self.replace_with_bot(table, seat, reason)
        async with table.lock:
            row = table.seats[seat]
            if row.kind == "bot" and row.player is not None and not row.excluded:
                await self.store.update_seat(table.row.id, replace(row, excluded=True))
                row.excluded = True
                self._publish(table.code)  # the others read the seat again

    async def unseat(self, table: LiveTable, host_seat: int, seat: int) -> None:
        """The host frees a seat someone took by mistake, before the game starts."""
        async with table.lock:
            if not table.seats[host_seat].host:
                raise TableError("Seul l'hôte de la table peut retirer un joueur.", "forbidden")
            if table.status != "open":
                raise TableError(
                    "La partie a commencé : on ne retire plus personne (remplacez-le par un robot).",
                    "conflict",
                )
            if not 0 <= seat < len(table.seats) or seat == host_seat:
                raise TableError("Place invalide.")
            await self._free_seat(table, seat, "L'hôte a libéré la place de {name}.")

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A person leaves their seat: before the start it opens again for someone else;
        during the game a bot plays it to the end, and the person does not take it back
        (they may have gone for good: an account erased, a train to catch)."""
        if table.status == "live":
            await self.exclude(table, seat, "à sa demande")
            await self._pass_host_on(table, seat)
            return
        async with table.lock:
            if table.status != "open":
                raise TableError(
                    "La partie est finie : il n'y a plus de place à quitter.", "conflict"
                )
            if table.seats[seat].host:
                raise TableError(
                    "Vous êtes l'hôte : fermez la table plutôt (menu « Hôte de la table »).",
                    "conflict",
                )
            await self._free_seat(table, seat, "{name} a quitté la table.")

    async def _pass_host_on(self, table: LiveTable, seat: int) -> None:
        """The host left a game being played: the next person still seated becomes the
        host (replacing someone by a bot, the chat's silences), if there is one."""
        async with table.lock:
            row = table.seats[seat]
            n = len(table.seats)
            heirs = [table.seats[(seat + i) % n] for i in range(1, n)]
            heir = next((s for s in heirs if s.kind == "human"), None)
            if not row.host or heir is None or table.status != "live":
                return
            await self.store.update_seat(table.row.id, replace(heir, host=True))
            await self.store.update_seat(table.row.id, replace(row, host=False))
            heir.host, row.host = True, False
            name = heir.name or f"Place {heir.seat + 1}"
            table.log.append((table.version, f"{name} est maintenant l'hôte de la table."))
            table.meta += 1
            table.wake_all()
            self._publish(table.code)

    async def _free_seat(self, table: LiveTable, seat: int, line: str) -> None:
        """Under the table's lock, before the start: the seat opens again; `line` (with
        the person's name for {name}) goes to the journal."""
        row = table.seats[seat]
        if row.kind != "human":
            raise TableError("Personne n'est assis à cette place.")
        freed = replace(row, kind="open", name=None, token_hash=None, player=None)
        await self.store.update_seat(table.row.id, freed)
        old = row.name or f"Place {seat + 1}"
        person = row.player
        row.kind, row.name, row.token_hash, row.player = "open", None, None, None
        if person:  # their chat lines leave the seat with them (not the next occupant's)
            try:
                await self.rekey_seat_lines(table, seat, person)
            except Exception as error:  # the store away: the seat is free all the same
                log.warning("table %s: chat of seat %s not moved: %s", table.code, seat, error)
        table.log.append((table.version, line.format(name=old)))
        table.meta += 1
        table.wake_all()
        self._publish(table.code)

    async def close_waiting(self, table: LiveTable, host_seat: int) -> None:
        """The host closes a table still waiting for players (a mistake, friends who will
        not come): it ends unplayed, and no longer counts among the host's waiting tables."""
        async with table.lock:
            if not table.seats[host_seat].host:
                raise TableError("Seul l'hôte peut fermer la table.", "forbidden")
            if table.status != "open":
                raise TableError(
                    "La partie a commencé : la table ne se ferme plus (quittez-la, ou "
                    "remplacez les absents par des robots).",
                    "conflict",
                )
            await self._close_waiting(table, "Table fermée par son hôte avant la partie.")
            self._cancel(table, "expire")
        self._publish(table.code)
        self._finished(table)

    async def _start_if_full(self, table: LiveTable) -> None:
        """Under the table's lock: the last seat taken starts the game."""
        if table.open_seats() or table.status != "open":
            return
        await self.store.set_status(table.row.id, "live")
        table.row.status = "live"
        table.log.append((table.version, EVERYONE_HERE))
        # what the game did as it was made (the site's dice rolling who starts)
        table.log.extend((table.version, event) for event in table.state.opening_events())
        self._cancel(table, "expire")
        self._after_change(table)
        self.arm_absent_graces(table)

    async def fill_with_bots(self, table: LiveTable) -> None:
        """Quick play: the seats nobody took get bots, and the game starts."""
        async with table.lock:
            if table.status != "open":
                return
            level = preferred_level(table.game)
            for seat in table.open_seats():
                row = table.seats[seat]
                new = replace(row, kind="bot", level=level, name=bot_name(seat, level))
                await self.store.update_seat(table.row.id, new)
                row.kind, row.level, row.name = "bot", level, new.name
            self._make_bots(table)
            table.log.append((table.version, "Des robots prennent les places restées libres."))
            await self._start_if_full(table)
            table.meta += 1
            table.wake_all()
            self._publish(table.code)

    async def fill_later(self, table: LiveTable, seconds: float) -> None:
        """Quick play: bots in the empty seats after the wait the player chose (the time
        is stored, so that a restarted server keeps the promise)."""
        when = datetime.now(UTC) + timedelta(seconds=seconds)
        async with self.store.db.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table.row.id).values(fill_at=when)
            )
        table.row.fill_at = when
        self._arm_fill(table)

    def _arm_fill(self, table: LiveTable) -> None:
        """The quick-play timer of an open table (at creation, or when a server restarts)."""
        delay = table.fill_in()
        if delay is None or self._closing:
            return

        async def later() -> None:
            await asyncio.sleep(delay)
            await self.fill_with_bots(table)

        self._spawn(table, "fill", later())

    async def load_open_elsewhere(self) -> None:
        """Several processes: load the open tables the other processes created since this
        one started (it loaded those of before at start-up), so that its lobby and quick
        play offer them too."""
        if not self.settings.redis_url:
            return
        for code in (await self.store.table_codes(("open",)))[:MAX_QUICK_LOOKUPS]:
            if code not in self.tables:
                try:
                    await self.get(code)
                except TableError:
                    continue

    async def waiting_public(self, game: str, player: str) -> list[LiveTable]:
        """The public tables of `game` waiting for players, oldest first, not `player`'s.
        With several processes, open tables created elsewhere are loaded first."""
        await self.load_open_elsewhere()
        waiting = [
            t
            for t in self.tables.values()
            if t.row.game == game
            and t.status == "open"
            and not t.row.private
            and t.open_seats()
            and own_seat(t, player) is None
        ]
        return sorted(waiting, key=lambda t: t.row.id)
