"""Correspondence tables (« partie par correspondance »): a game played over days.

Each person to move has the table's move time (an hour to days); nobody is replaced by a
bot for being away while it lasts. When it runs out, the table's rule applies: a bot plays
that one move (`bot`), or the game is abandoned and not rated (`abandon`).

The deadline of each version is written in the store by the first process that reaches
that version (a restart or another process finds it there and keeps it). One loop per
process polls the store for deadlines that are due; firing goes through the scheduler's
`_play_at` (or the same claim for an abandon), so one process plays each timeout.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from choux.engine.base import State
from choux.play import correspondence_store as cs
from choux.play.base import cancel_running
from choux.play.correspondence_store import Rule
from choux.play.errors import TableError
from choux.play.presence import Presence
from choux.play.scheduler import Planned, Scheduler
from choux.play.settings import Settings
from choux.play.store import Store
from choux.play.tables import LiveTable

log = logging.getLogger("choux.play")

#: move times offered on the form, in seconds, with their French label
MOVE_TIMES = {3600: "1 heure", 43200: "12 heures", 86400: "1 jour", 259200: "3 jours"}
ON_TIMEOUT = {
    "bot": "un robot joue le coup",
    "abandon": "la partie est abandonnée (non classée)",
}
#: games that can be played over days, and why the others cannot: their own clocks (a
#: race, « Moi ! », the time to argue a card) are the rules, and a move a day would stop them
GAMES = ("chouine", "chouineurs")
WHY_NOT = {
    "cul-de-chouette": "ses courses demandent que tout le monde soit là en même temps",
    "parlote": "ses « Moi ! », ses plaidoiries et ses votes ont leur propre minuterie, de quelques secondes",
}
#: seconds an open correspondence table waits for its players before it closes
OPEN_SECONDS = 7 * 86400
#: seconds before the same due deadline is tried again when firing it did nothing
REFIRE_SECONDS = 5.0

#: after this many of a person's moves in a row played by the clock, their turns at that
#: table are no longer notified (mail, push), until they make a move of their own again
QUIET_AFTER_TIMEOUTS = 3

#: called when it becomes these seats' turn at a correspondence table (notifications)
TurnHook = Callable[[LiveTable, list[int]], Awaitable[None]]


def decision_of(state: State, seat: int) -> frozenset[str]:
    """What `seat` is asked: the kinds of its legal actions (« prepare »; a bid, a pass or
    a coinche), to tell the same decision still open from a new one."""
    return frozenset(action.kind for action in state.legal_actions(seat))


def days_line(rule: Rule) -> str:
    """What the journal says of a correspondence table, from its rule."""
    pace = MOVE_TIMES.get(rule.move_seconds) or f"{rule.move_seconds} secondes"
    what = ON_TIMEOUT.get(rule.on_timeout, rule.on_timeout)
    return f"Partie par correspondance : {pace} par coup ; au-delà, {what}."


def timeouts_in_a_row(table: LiveTable, seat: int) -> int:
    """How many of `seat`'s last moves in a row the clock played: its moves since the last
    one of the person's own (a person's move carries their page's client id, kept in
    `client_ids` from the store, so this survives a restart)."""
    own = {seq for (s, _), seq in table.client_ids.items() if s == seat}
    count = 0
    for seq in range(len(table.actions), 0, -1):
        if table.actions[seq - 1][0] != seat:
            continue
        if seq in own:
            break
        count += 1
    return count


def abandoned_line(table: LiveTable) -> str:
    """What the log says of a game abandoned at its deadline (the seats it waited for)."""
    late = [table.names()[s] for s in table.state.actors()]
    return f"Temps écoulé pour {', '.join(late)} : partie abandonnée, non classée."


def parse_rule(game: str, move_seconds: object, on_timeout: object) -> Rule | None:
    """The rule a creation form asks for (None: a table played in one sitting)."""
    if move_seconds in (None, "", "0", 0):
        return None
    try:
        seconds = int(str(move_seconds))
    except ValueError as error:
        raise TableError("Temps par coup impossible.") from error
    if seconds not in MOVE_TIMES:
        raise TableError("Temps par coup impossible.")
    if game not in GAMES:
        why = WHY_NOT.get(game, "tout le monde doit être là en même temps")
        raise TableError(f"Ce jeu ne se joue pas par correspondance : {why}.")
    rule = str(on_timeout or "bot")
    if rule not in ON_TIMEOUT:
        raise TableError("Règle de fin de temps inconnue.")
    return Rule(seconds, rule)


class Correspondence(Presence, Scheduler):
    def __init__(self, settings: Settings, store: Store) -> None:
        super().__init__(settings, store)
        #: the rule of each table id seen here (None: not a correspondence table)
        self.rules: dict[int, Rule | None] = {}
        #: (code, version) of deadlines being fired here, or fired lately (monotonic time)
        self._fired: dict[tuple[str, int], float] = {}
        #: turn notifications (web push, e-mail) hook in here
        self.turn_hooks: list[TurnHook] = []
        #: the version each table id was last seen at here and the seats it waited for
        self._waited: dict[
            int, tuple[int, frozenset[int], datetime | None, dict[int, frozenset[str]]]
        ] = {}
        #: deadlines fired by this process: (due, fired) wall-clock times (benchmarks)
        self.fired_log: list[tuple[float, float]] = []
        self._days_tasks: weakref.WeakSet[asyncio.Task[None]] = weakref.WeakSet()

    async def get(self, code: str) -> LiveTable:  # service.TableService
        raise NotImplementedError

    # ------------------------------------------------------------------ rules

    async def make_correspondence(self, table: LiveTable, rule: Rule) -> None:
        """Make a just-created table a correspondence table and arm its first deadline."""
        await cs.create(self.store, table.row.id, rule)
        self.rules[table.row.id] = rule
        for seat in range(len(table.seats)):  # they have days: armed at its creation
            self._cancel(table, f"grace{seat}")
        table.log.append((table.version, days_line(rule)))
        if table.status == "live":
            self._after_change(table)

    async def know_rules(self, table_ids: list[int]) -> None:
        """Read the rules of tables about to be rebuilt, in one query (start-up)."""
        try:
            rules = await cs.rules_of(self.store, table_ids)
        except Exception as error:  # each table reads its own later
            log.warning("correspondence rules not read: %s", error)
            return
        for table_id, rule in rules.items():
            self.rules.setdefault(table_id, rule)

    async def recall_rule(self, table: LiveTable) -> None:
        """A table rebuilt from the store: its journal says again that it is played over
        days, where it said it when the table was made (that line lived in memory only: a
        restarted server showed the game as one played in one sitting). Its place: right
        after « Table ouverte » for a table that waited for players (made a correspondence
        table before anyone joined), else after the game's opening lines (a table live at
        once, against bots), as `opening_lines` tells them apart."""
        try:
            rule = await self.rule_for(table)
        except Exception as error:  # the store away: the journal as it is
            log.warning("table %s: correspondence rule not read: %s", table.code, error)
            return
        if rule is None:
            return
        line = days_line(rule)
        if any(text == line for _, text in table.log):
            return
        waited = any(s.kind == "human" and s.name and not s.host for s in table.row.seats)
        at = next((i for i, (v, _) in enumerate(table.log) if v > 0), len(table.log))
        table.log.insert(min(1, at) if waited else at, (0, line))

    async def rule_for(self, table: LiveTable) -> Rule | None:
        if table.row.id not in self.rules:
            rule = await cs.rule_of(self.store, table.row.id)
            # a table made a correspondence table while this read was on its way (a table
            # live at creation: its first deadline is looked for at once) keeps its rule
            self.rules.setdefault(table.row.id, rule)
        return self.rules[table.row.id]

    # ------------------------------------------------------------------ deadlines

    def _after_change(self, table: LiveTable) -> None:
        super()._after_change(table)
        if table.status == "over" or self._closing:
            self._waited.pop(table.row.id, None)
            return
        rule = self.rules.get(table.row.id, Rule(0, ""))
        if rule is None:  # known: not a correspondence table
            return
        self._days_task(self._set_deadline(table, table.version))

    def _days_task(self, coro: Any) -> None:
        """A background task of this part, awaited by `stop_deadlines` (it may be in the
        middle of a query: the store must not close under it)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        self._days_tasks.add(task)

    async def stop_deadlines(self) -> None:
        """Before the store closes: cancel this part's tasks and let them unwind."""
        tasks = cancel_running(self._days_tasks)
        if tasks:
            await asyncio.wait(tasks, timeout=5)

    async def _set_deadline(self, table: LiveTable, version: int) -> None:
        """Write (or read back) the deadline of `version`, show it, tell whom it waits for."""
        if self._fired.get((table.code, version)) == float("inf"):
            return  # being fired here: its deadline is the stored one, passed
        try:
            rule = await self.rule_for(table)
        except Exception as error:  # the store away: try again while the table waits
            log.warning("table %s: correspondence rule not read: %s", table.code, error)
            self._retry_deadline(table, version)
            return
        if rule is None or table.version != version:
            return
        waited = [s for s in table.state.actors() if table.seats[s].kind == "human"]
        menus = {s: decision_of(table.state, s) for s in waited}
        due = None
        before = self._waited.get(table.row.id)
        mover = table.actions[version - 1][0] if 0 < version <= len(table.actions) else None
        if table.status == "live" and waited:
            seconds = rule.move_seconds * self.settings.correspondence_scale
            due = datetime.now(UTC) + timedelta(seconds=seconds)
            if (
                before is not None
                and before[0] == version - 1
                and before[2] is not None
                and mover in before[1]
                and set(waited) == before[1] - {mover}
                and all(before[3].get(s) == menus[s] for s in waited)
            ):
                # the very decision the others were asked with the mover (everyone's secret
                # choice): one answering does not give the rest a new day
                due = before[2]
        try:
            stored = await cs.set_due(self.store, table.row.id, version, due)
        except Exception as error:  # the store away: try again while the table waits
            log.warning("table %s: deadline not stored: %s", table.code, error)
            self._retry_deadline(table, version)
            return
        if stored is not True:
            due = stored if isinstance(stored, datetime) else None
        if table.version != version:
            return
        table.move_at = due.timestamp() if due is not None else None
        table.meta += 1
        table.wake_all()
        # « À vous de jouer » goes to those the table starts waiting for: not to the person
        # whose move made this version (a trick's winner leads the next one), nor to those
        # it already waited for at the version before (everyone's claim in the Parlote)
        self._waited[table.row.id] = (version, frozenset(waited), due, menus)
        already = before[1] if before is not None and before[0] == version - 1 else frozenset()
        told = [s for s in waited if s != mover and s not in already]
        # a person the clock has kept playing for is not told every move of a whole game
        # (one mail an hour at an hour's pace): quiet until they play again
        told = [s for s in told if timeouts_in_a_row(table, s) < QUIET_AFTER_TIMEOUTS]
        if stored is True and told:
            for hook in self.turn_hooks:
                self._days_task(self._run_hook(hook, table, told))

    def _retry_deadline(self, table: LiveTable, version: int) -> None:
        """The store could not read the rule or keep the deadline of `version`: write it a
        little later, as long as the table waits at that version. Without it, that turn
        had no deadline at all (its timeout never fired, nobody was told it was their
        turn) until the next restart."""

        async def later() -> None:
            await asyncio.sleep(self.settings.store_retry_seconds)
            if table.version == version and table.status == "live" and not self._closing:
                await self._set_deadline(table, version)

        self._days_task(later())

    async def _run_hook(self, hook: TurnHook, table: LiveTable, seats: list[int]) -> None:
        try:
            await hook(table, seats)
        except Exception:  # a notification must never disturb the game
            log.exception("table %s: turn notification failed", table.code)

    async def _grace(self, table: LiveTable, seat: int) -> None:
        """No bot replaces an absent person at a correspondence table: they have days."""
        try:
            days = await self.rule_for(table) is not None
        except Exception as error:  # cannot tell: the usual grace (it retries its writes)
            log.warning("table %s: correspondence rule not read: %s", table.code, error)
            days = False
        if days:
            return
        await super()._grace(table, seat)

    async def _expire(self, table: LiveTable, delay: float) -> None:
        """An open correspondence table waits `OPEN_SECONDS` for its players (a friend may
        answer the invitation days later), not the few hours of a table played at once."""
        await asyncio.sleep(delay)
        try:
            days = await self.rule_for(table) is not None
        except Exception:  # cannot tell: the usual limit
            days = False
        if days and table.row.created_at is not None:
            left = table.row.created_at.timestamp() + OPEN_SECONDS - time.time()
            if left > 0:
                await asyncio.sleep(left)
        await super()._expire(table, 0)

    # ------------------------------------------------------------------ firing

    def start_deadlines(self) -> None:
        """Called once at start-up: the loop that fires due correspondence deadlines."""
        self._days_task(self._deadline_loop())

    async def _deadline_loop(self) -> None:
        interval = self.settings.correspondence_poll_seconds
        while not self._closing:
            try:
                await self.fire_due()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("correspondence deadlines not checked: %s", error)
            await asyncio.sleep(interval)

    async def fire_due(self) -> int:
        """Start firing every deadline that is due (returns how many were started)."""
        now = time.monotonic()
        self._fired = {k: t for k, t in self._fired.items() if t > now - REFIRE_SECONDS}
        started = 0
        for item in await cs.due(self.store, datetime.now(UTC)):
            key = (item.code, item.version)
            if key in self._fired:
                continue
            self._fired[key] = float("inf")  # running
            self.rules.setdefault(item.table_id, item.rule)
            self._days_task(self._fire(item))
            started += 1
        return started

    async def _fire(self, item: cs.Due) -> None:
        key = (item.code, item.version)
        try:
            table = await self.get(item.code)
            rule = await self.rule_for(table)
            if rule is None or table.version != item.version or table.status != "live":
                return  # moved on (its own deadline is written by then) or over
            if rule.on_timeout == "abandon":
                fired = await self._abandon(table, item.version)
            else:
                fired = await self._bot_for_timeout(table, item.version)
            if fired:
                self.fired_log.append((item.due_at.timestamp(), time.time()))
        except TableError as error:
            log.warning("table %s: deadline not fired: %s", item.code, error)
        except Exception:
            log.exception("table %s: deadline failed", item.code)
        finally:
            self._fired[key] = time.monotonic()

    async def _bot_for_timeout(self, table: LiveTable, version: int) -> bool:
        """A bot plays the timed-out move, through the scheduler's one path for timers (the
        claim: one process plays it). True if this process played it."""
        choose = self._clock_move(table)
        claimed = False

        async def counted() -> Planned | None:
            nonlocal claimed
            claimed = True  # only the claim's holder gets here
            return await choose()

        # written here: after a conflict the table catches up on the other process's
        # move, its version changes all the same (both processes counted that fire)
        applied = await self._play_at(table, "move", version, 0, counted)
        return claimed and applied

    def _finished(self, table: LiveTable) -> None:
        super()._finished(table)
        if table.record_id is None and all(s.kind != "open" for s in table.seats):
            self._days_task(self._say_abandoned(table))

    async def _say_abandoned(self, table: LiveTable) -> None:
        """A game abandoned at a deadline has no record, and the log line that said so
        lived in memory only: reloaded (a restart, or days later once it left memory), its
        table says again why it ended, rather than a bare « terminée »."""
        try:
            rule = await self.rule_for(table)
        except Exception:  # the store away: the page shows the table as it is
            return
        if rule is None or rule.on_timeout != "abandon" or table.record_id is not None:
            return
        line = abandoned_line(table)
        if all(text != line for _, text in table.log):
            table.log.append((table.version, line))
            table.meta += 1
            table.wake_all()

    async def _abandon(self, table: LiveTable, version: int) -> bool:
        """Time ran out and the table said so: the game ends here, without a record (not
        rated). True if this process ended it."""
        if await self._take_turn(table, version, "abandon") is None:
            return False
        async with table.lock:
            if table.version != version or table.status != "live":
                return False
            await self._end_unrated(table, abandoned_line(table))
            await cs.clear_due(self.store, table.row.id)
        self._publish(table.code)
        self._finished(table)
        return True
