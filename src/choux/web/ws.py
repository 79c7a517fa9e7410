"""The WebSocket hub: one socket per open table page.

Client -> server (JSON text, at most MAX_MESSAGE bytes):
  {"type": "action", "id": "<client action id>", "action": {...}}
  {"type": "sync"}            full view and log again (after a gap)
  {"type": "pong"} / {"type": "ping"}
  {"type": "chat", ...} / {"type": "chat_mute", ...}   table chat, see `chat_socket.py`
Server -> client:
  {"type": "state", "version": V, "full": bool, "view": {...}, "log": [...], ...}
      (a game's `rare_view_keys` left out of a view are listed in "kept": the page takes
      them from the message it holds, whose "build" must be "kept_from")
  {"type": "ack", "id": ..., "version": V} / {"type": "refused", "id": ..., "message": "..."}
  {"type": "ping"} heartbeats, {"type": "pong"}, {"type": "error", "message": "..."}
Only the seat's own view is ever sent; a socket without a valid seat token is a spectator.
A socket whose seat stops being its own (the host frees it, or gives it to a bot) is closed
with SEAT_LOST: the page reconnects as what it is now (a spectator, or its new seat).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected
from uvicorn.protocols.utils import ClientDisconnected

from choux.engine.base import IllegalAction
from choux.play.chat import Speaker, speaker_for
from choux.play.errors import TableError
from choux.play.seating import identity_seat, own_seat
from choux.play.service import TableService
from choux.play.settings import Settings
from choux.play.tables import LiveTable, Subscriber, dumps
from choux.web import chat_socket
from choux.web.accounts import attach
from choux.web.middleware import TRANSPORT
from choux.web.ratelimits import Limits, client_key
from choux.web.seating import may_watch
from choux.web.session import Session, Sessions
from choux.web.session_sockets import SessionSockets

router = APIRouter()
log = logging.getLogger("choux.web")

MAX_MESSAGE = 4096
TOO_LONG = f"Message trop long : {MAX_MESSAGE} caractères au plus, il n'a pas été envoyé."
#: seconds a socket over its message budget is not read (after its refusal)
FLOOD_PAUSE = 1.0
CLIENT_TYPES = {"action", "sync", "ping", "pong"} | chat_socket.CHAT_TYPES
#: close code of a socket whose seat is no longer its own
SEAT_LOST = 4409
#: seconds uvicorn waits for a client's answer to a close before it closes the transport
CLOSE_GRACE = 10.0


def origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """Browsers always send Origin: it must be this site (or an allowed one)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: cookies are not sent cross-site by scripts anyway
    if origin in settings.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc == host


def seat_of(table: LiveTable, session: Session, wanted: str | None) -> int | None:
    """The seat a socket of `session` plays at `table` now (None: a spectator): by the seat
    token in its cookie, by a shared-screen seat's token (`wanted`, the page's `?seat=`),
    else by its identity."""
    if wanted is not None:  # shared screen: one socket per other seat played on this device
        return shared_seat(table, session.shared_at(table.code), wanted)
    entry = session.seat_at(table.code)
    seat = table.seat_for_token(*entry) if entry is not None else None
    if seat is None:  # the same person on another device (an account), or token evicted
        seat = identity_seat(table, session.player)
    return seat


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        table: LiveTable,
        sub: Subscriber,
        session: Session | None = None,
        wanted: str | None = None,
    ) -> None:
        self.websocket = websocket
        #: seconds a message may wait for the client to take it (`send_text`)
        self.send_timeout = float(websocket.app.state.settings.heartbeat_seconds)
        self.table = table
        self.sub = sub
        #: what proved the seat when the socket opened (the cookie, the page's `?seat=`)
        self.session = session
        self.wanted = wanted
        #: the table's `meta` when the seat was last proved: seats change only with it
        self.seat_proved_at = -1
        self.send_lock = asyncio.Lock()
        self.closed = False
        self.full = True
        self.speaker: Speaker | None = None
        #: loop time of the client's last message: a socket that speaks needs no ping
        self.last_heard = asyncio.get_running_loop().time()

    def seat_lost(self) -> bool:
        """Whether the seat this socket was opened for is no longer its own: the host freed
        it (then someone else may sit there) or gave it to a bot. Such a socket must not be
        sent that seat's hand nor play its moves."""
        seat = self.sub.seat
        if seat is None or self.session is None or self.seat_proved_at == self.table.meta:
            return False  # asked before each push: proved again only after a seat change
        if seat_of(self.table, self.session, self.wanted) != seat:
            return True
        self.seat_proved_at = self.table.meta
        return False

    async def close(self, code: int, reason: str) -> None:
        async with self.send_lock:
            if not self.closed:
                self.closed = True
                try:
                    async with asyncio.timeout(self.send_timeout):
                        await self.websocket.close(code=code, reason=reason)
                except TimeoutError:  # its close frame waits behind what it never read
                    cut(self.websocket)
                    return
                # the close frame queued, uvicorn closes the transport 10 s later, which
                # waits for its buffer to be taken: against a client that reads nothing,
                # for ever (its file descriptor and buffers held): cut it after that
                loop = asyncio.get_running_loop()
                loop.call_later(self.send_timeout + CLOSE_GRACE, cut_if_unread, self.websocket)

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(dumps(message))

    async def send_text(self, text: str) -> None:
        """Send, unless the client has not taken what it was sent for `send_timeout`
        seconds: then the connection is cut. A phone gone from the network without a word,
        or a client that asks and never reads, would otherwise block this socket's sends
        (and its close) for as long as TCP keeps trying (a quarter of an hour, for ever
        against a zero window): its seat shown present all that time, no robot taking it,
        its buffers held."""
        async with self.send_lock:
            if self.closed:
                return
            try:
                async with asyncio.timeout(self.send_timeout):
                    await self.websocket.send_text(text)
            except TimeoutError:
                self.closed = True
                log.info("table %s: a client that does not read is cut off", self.table.code)
                cut(self.websocket)

    async def pusher(self) -> None:
        """Send the seat's view whenever the table changes (coalescing bursts); close the
        socket once its seat is no longer its own."""
        sub = self.sub
        while True:
            await sub.wake.wait()
            sub.wake.clear()
            if self.seat_lost():
                await self.close(SEAT_LOST, "place perdue")
                return
            table = self.table
            if (
                not self.full
                and sub.sent_version == table.version
                and sub.sent_log == len(table.log)
                and sub.sent_meta == table.meta
            ):
                continue
            try:
                text = table.message_text(sub, full=self.full)
            except Exception:  # a game's view failed: say so rather than hang the page
                log.exception("table %s: view for seat %s failed", table.code, sub.seat)
                await self.send({"type": "error", "message": "Erreur du serveur."})
                continue
            self.full = False
            await self.send_text(text)


def cut_if_unread(websocket: WebSocket) -> None:
    """`cut`, if the connection still holds bytes its client has not taken."""
    size = getattr(websocket.scope.get(TRANSPORT), "get_write_buffer_size", None)
    if callable(size) and size() > 0:
        cut(websocket)


def cut(websocket: WebSocket) -> None:
    """Drop the connection at once, its unsent bytes with it: uvicorn's close would wait
    for them to be taken first. The receive loop then gets the disconnect and the socket's
    tasks end as for any client that left. (Without a transport in the scope, see
    `KeepTransport`, nothing is cut: the sends stop and the receive loop ends on its own.)"""
    abort = getattr(websocket.scope.get(TRANSPORT), "abort", None)
    if callable(abort):  # asyncio's transports, and uvloop's (not their subclasses)
        abort()


@router.websocket("/t/{code}/ws")
async def table_socket(websocket: WebSocket, code: str) -> None:
    """A table's socket, if its client address has fewer than `max_sockets_per_client` open
    (each costs memory and a view at every move: thousands from one address would take
    the server's memory and file descriptors from everyone else)."""
    sockets: Counter[str] = websocket.app.state.sockets
    client = client_key(websocket)
    cap = websocket.app.state.settings.max_sockets_per_client
    if cap and sockets[client] >= cap:
        await refuse_socket(websocket, 4429, "trop de connexions")
        return
    sockets[client] += 1
    try:
        await serve_socket(websocket, code)
    except ClientDisconnected:  # hung up before it was accepted or answered: nothing to say
        log.debug("table %s: a client left while its socket opened", code)
    finally:
        sockets[client] -= 1
        if sockets[client] <= 0:
            del sockets[client]


async def refuse_socket(websocket: WebSocket, code: int, reason: str) -> None:
    """Open, then close with `code`: a socket closed before it is accepted reaches the page
    as a bare HTTP 403 without its code, and the page tried again for ever where it should
    say why (« Cette table n'existe plus. »). A foreign origin still gets the bare 403."""
    await websocket.accept()
    await websocket.close(code=code, reason=reason)


async def serve_socket(websocket: WebSocket, code: str) -> None:
    app = websocket.app
    service: TableService = app.state.service
    settings: Settings = app.state.settings
    sessions: Sessions = app.state.sessions
    if not origin_allowed(websocket, settings):
        await websocket.close(code=4403, reason="origine refusée")
        return
    try:
        table = await service.get(code)
    except TableError:
        await refuse_socket(websocket, 4404, "table inconnue")
        return
    except Exception as error:  # the store away: say so with a close code, no traceback
        log.warning("table %s: cannot open a socket: %s", code, error)
        await websocket.close(code=1011, reason="serveur indisponible")
        return
    session = sessions.load(websocket)
    await attach(websocket, session)  # an account session revoked elsewhere: a guest
    wanted = websocket.query_params.get("seat")
    seat = seat_of(table, session, wanted)
    if seat is None and wanted is None:
        seat = await back_from_absence(service, table, session)
    if seat is None and table.row.private and not may_watch(table, session):
        await refuse_socket(websocket, 4403, "table privée")
        return
    speaker = speaker_for(table, seat, session.player, session.name)
    chat_room = await service.chat_room(table)  # read here: the pusher task never queries
    await websocket.accept()
    sub = service.subscribe(table, seat)
    conn = Connection(websocket, table, sub, session, wanted)
    conn.speaker = speaker
    sub.wake.set()  # first message: the full view
    registry: SessionSockets = app.state.session_sockets
    if session.auth:  # an account's session: closed with it (`session_sockets`)
        registry.add(session.player, session.auth, conn)
    tasks = [
        asyncio.create_task(conn.pusher()),
        asyncio.create_task(heartbeat(conn, settings.heartbeat_seconds)),
        asyncio.create_task(chat_socket.pusher(conn, chat_room, conn.speaker)),
    ]
    try:
        await receive_loop(conn, service, seat)
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass  # the client left, possibly while we were answering it
    finally:
        for task in tasks:
            task.cancel()
        service.unsubscribe(table, sub)
        registry.remove(session.player, conn)


async def back_from_absence(
    service: TableService, table: LiveTable, session: Session
) -> int | None:
    """A person whose seat a bot took while they were away (a network cut longer than the
    grace) and whose page reconnects gets it back, as a page load gives it back
    (`seating.arrive`): their page went on showing a spectator's view, hand gone, with
    nothing to say why. Not a seat the host or the person gave away for good."""
    mine = own_seat(table, session.player)
    if mine is None or table.status != "live":
        return None
    row = table.seats[mine]
    if row.kind != "bot" or row.excluded:
        return None
    try:
        await service.return_to_seat(table, mine, session.player)
    except TableError:
        return None
    return mine


def shared_seat(table: LiveTable, shared: list[tuple[int, str]], wanted: str) -> int | None:
    """The seat `wanted` if this device holds its token (shared screen), else None."""
    for seat, token in shared:
        if str(seat) == wanted:
            return table.seat_for_token(seat, token)
    return None


async def heartbeat(conn: Connection, seconds: float) -> None:
    """Every `seconds`, a ping unless the client spoke in the last half of that (its pong,
    or anything it sends, shows it is there; the receive loop closes a socket silent three
    times as long). Each socket keeps its own random phase: sockets opened in the same
    second (a server restart, a crowd arriving) would otherwise all be pinged in the same
    instant, every time (3,000 sockets: a 100-ms pause, issue 17)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(seconds * (0.5 + random.random()))
    while True:
        if loop.time() - conn.last_heard >= seconds / 2:
            await conn.send({"type": "ping"})
        await asyncio.sleep(seconds)


async def receive_loop(conn: Connection, service: TableService, seat: int | None) -> None:
    websocket = conn.websocket
    timeout = max(30.0, service.settings.heartbeat_seconds * 3)
    limits: Limits = websocket.app.state.limits
    client = client_key(websocket)
    while True:
        try:
            # a timeout scope, not `wait_for`: no task wrapped around each receive (every
            # socket's waiting objects are young, and the GC's young passes walk them all)
            async with asyncio.timeout(timeout):
                text = await websocket.receive_text()
            conn.last_heard = asyncio.get_running_loop().time()
        except TimeoutError:
            await conn.close(4408, "plus de nouvelles")
            return
        except WebSocketDisconnected:  # closed meanwhile (its seat lost): a RuntimeError
            raise  # too, but read again it fails at once, for ever, never yielding the loop
        except (KeyError, RuntimeError):  # a binary frame
            await refuse(conn, None, "Message illisible.")
            continue
        if conn.closed:  # cut off meanwhile (it did not read what it was sent): nothing more
            return
        if not await limits.allow("messages", client):
            await refuse(conn, None, "Trop de messages : ralentissez.")
            # read nothing more from this socket for a moment: a flood then waits in its own
            # buffers instead of taking the event loop from every other table
            await asyncio.sleep(FLOOD_PAUSE)
            continue
        if len(text) > MAX_MESSAGE:
            # refused, not closed: the page sent its move again on every reconnection, for
            # ever (an audit: an argument of 10,000 characters pasted in La parlote)
            await refuse(conn, message_id(text), TOO_LONG)
            continue
        try:
            # orjson: strict JSON (no NaN), nesting capped, and no lone surrogate: a "\ud800"
            # escape passes json.loads, then breaks every reply and view that carries it
            message = orjson.loads(text)
        except orjson.JSONDecodeError:
            await refuse(conn, None, "Message illisible.")
            continue
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await refuse(conn, None, "Message inconnu.")
            continue
        if message["type"] not in CLIENT_TYPES:
            await refuse(conn, None, "Message inconnu.")
            continue
        if conn.seat_lost():  # the pusher closes it too: nothing more as that seat
            await conn.close(SEAT_LOST, "place perdue")
            return
        kind = message["type"]
        if kind == "ping":
            await conn.send({"type": "pong"})
        elif kind == "sync":
            conn.full = True
            conn.sub.wake.set()
        elif kind == "action":
            await handle_action(conn, service, seat, message)
        elif kind in chat_socket.CHAT_TYPES and conn.speaker is not None:
            await chat_socket.handle(conn, service, conn.speaker, message, limits, client)


def action_id_of(message: object) -> str | None:
    """A client message's action id, if it has a valid one (1 to 64 characters)."""
    action_id = message.get("id") if isinstance(message, dict) else None
    return action_id if isinstance(action_id, str) and 0 < len(action_id) <= 64 else None


def message_id(text: str) -> str | None:
    """The id of an action in `text` (under the socket's frame limit, 64 KB), so that its
    refusal settles the move in flight; None if there is none to read."""
    try:
        return action_id_of(orjson.loads(text))
    except orjson.JSONDecodeError:
        return None


async def refuse(conn: Connection, action_id: object, text: str) -> None:
    await conn.send({"type": "refused", "id": action_id, "message": text})


async def handle_action(
    conn: Connection, service: TableService, seat: int | None, message: dict[str, Any]
) -> None:
    action_id = action_id_of(message)
    if action_id is None:
        await refuse(conn, None, "Action sans identifiant.")
        return
    if seat is None:
        await refuse(conn, action_id, "Vous regardez la partie : vous ne pouvez pas jouer.")
        return
    try:
        version = await service.act(
            conn.table, seat, message.get("action"), action_id, seat_lost=conn.seat_lost
        )
    except IllegalAction as error:
        await refuse(conn, action_id, error.reason)
        conn.full = True  # the client may be out of date: resend everything
        conn.sub.wake.set()
        return
    except TableError as error:
        await refuse(conn, action_id, error.message)
        return
    except Exception:  # a bug in a game must not kill the socket nor change the table
        log.exception("table %s: action %r failed", conn.table.code, message.get("action"))
        await refuse(conn, action_id, "Ce coup n'a pas pu être joué (erreur du serveur).")
        return
    await conn.send({"type": "ack", "id": action_id, "version": version})
