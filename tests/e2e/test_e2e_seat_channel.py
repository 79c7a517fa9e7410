"""The browser's SeatChannel (static/js/net.js), driven over a stand-in WebSocket: a lost
message is noticed and the full state asked for, and an action settles only once it is both
acknowledged and seen in a state. The table page and every shared-screen seat use it."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)

pytestmark = [pytest.mark.e2e]

#: a WebSocket that records what the page sends and lets the test deliver messages
FAKE_SOCKET = """
window.sockets = [];
window.WebSocket = class {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 1; this.sent = []; this.listeners = {};
    window.sockets.push(this);
    setTimeout(() => this.emit("open", {}), 0);
  }
  addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
  emit(kind, event) { for (const fn of this.listeners[kind] || []) fn(event); }
  deliver(message) { this.emit("message", { data: JSON.stringify(message) }); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
};
"""


def fake_socket_page(live_server: Any, players: Any) -> Any:
    """A page of the site whose WebSocket is `FAKE_SOCKET`, to drive net.js from a test."""
    page = players().page
    page.add_init_script(FAKE_SOCKET)
    page.goto(live_server.url + "/")
    return page


def state(version: int, log_from: int, log_to: int, full: bool = False) -> dict[str, Any]:
    lines = [{"v": version, "text": f"ligne {i}"} for i in range(log_from, log_to)]
    return {
        "type": "state",
        "full": full,
        "version": version,
        "seat": 0,
        "view": {},
        "log_from": log_from,
        "log_to": log_to,
        "log": lines,
    }


def test_seat_channel_asks_for_the_full_state_after_a_gap_and_settles_on_ack_and_state(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    page = fake_socket_page(live_server, players)
    result = page.evaluate(
        """async ([first, gap, next, afterAck]) => {
          const { SeatChannel } = await import("/static/js/net.js");
          const states = [];
          const channel = new SeatChannel("ws://example/t/x/ws", {
            initial: first, seat: 0, onState: (m) => states.push(m.version) });
          await new Promise((r) => setTimeout(r, 10));
          const socket = window.sockets[0];
          socket.deliver(gap);             // log lines 2..3 were lost: a gap
          const askedSync = socket.sent.some((m) => m.type === "sync");
          socket.deliver(next);            // the next message follows on: taken
          const sent = channel.act({ type: "jouer" });
          const second = channel.act({ type: "jouer" });  // one action in flight at a time
          const action = socket.sent.find((m) => m.type === "action");
          socket.deliver({ type: "ack", id: action.id, version: 4 });
          const busyAfterAck = channel.busy;  // the board still shows version 3
          socket.deliver(afterAck);
          return { askedSync, states, sent, second, busyAfterAck, busy: channel.busy,
                   lines: channel.logLines.length };
        }""",
        [state(1, 0, 2, full=True), state(3, 4, 5), state(2, 2, 3), state(4, 3, 4)],
    )
    assert result["askedSync"] is True
    assert result["states"][0] == 2  # the message after the gap was not drawn
    assert result["sent"] is True and result["second"] is None
    assert result["busyAfterAck"] is True and result["busy"] is False
    assert result["lines"] == 4


def test_seat_channel_drops_a_move_the_server_closed_as_too_big(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """A message over the server's frame limit (64 KB) closes the socket with 1009: sent
    again on every reconnection, it closed the socket for ever (an audit saw the loop at
    4 KB). The move is dropped with a word, and the next socket does not send it."""
    page = fake_socket_page(live_server, players)
    result = page.evaluate(
        """async (first) => {
          const { SeatChannel } = await import("/static/js/net.js");
          const notices = [];
          const channel = new SeatChannel("ws://example/t/x/ws", {
            initial: first, seat: 0, onNotice: (text) => notices.push(text) });
          await new Promise((r) => setTimeout(r, 10));
          channel.act({ type: "jouer", argument: "x".repeat(70000) });
          const old = window.sockets[0];
          old.readyState = 3;
          old.emit("close", { code: 1009 });
          await new Promise((r) => setTimeout(r, 700));  // the reconnection (500 ms)
          const fresh = window.sockets[1];
          return { busy: channel.busy, notices, count: window.sockets.length,
                   resent: fresh ? fresh.sent.filter((m) => m.type === "action").length : -1 };
        }""",
        state(1, 0, 2, full=True),
    )
    assert result["busy"] is False
    assert result["notices"] == ["Coup trop long pour être envoyé : il n'a pas été joué."]
    assert result["count"] == 2 and result["resent"] == 0


def test_seat_channel_takes_kept_view_parts_from_the_message_it_holds(
    live_server,
    players,  # type: ignore[no-untyped-def]
) -> None:
    """La parlote's recap and « mémo » are left out of a message when unchanged since the
    socket's last one: the page puts them back from the message it holds, and asks for
    everything again when that is not the message they were kept from."""
    first = state(1, 0, 1, full=True) | {"build": 10, "view": {"memo": ["m"], "hand": [1]}}
    kept = state(2, 1, 2) | {"build": 11, "kept": ["memo"], "kept_from": 10, "view": {"hand": []}}
    stray = state(3, 2, 3) | {"build": 13, "kept": ["memo"], "kept_from": 12, "view": {}}
    page = fake_socket_page(live_server, players)
    result = page.evaluate(
        """async ([first, kept, stray]) => {
          const { SeatChannel } = await import("/static/js/net.js");
          const views = [];
          const channel = new SeatChannel("ws://example/t/x/ws", {
            initial: first, seat: 0, onState: (m) => views.push(m.view) });
          await new Promise((r) => setTimeout(r, 10));
          const socket = window.sockets[0];
          socket.deliver(kept);
          const syncs = () => socket.sent.filter((m) => m.type === "sync").length;
          const before = syncs();
          socket.deliver(stray);  // kept from build 12, which this page never drew
          return { views, before, after: syncs(), version: channel.current.version };
        }""",
        [first, kept, stray],
    )
    assert result["views"] == [{"hand": [], "memo": ["m"]}]
    assert result["before"] == 0 and result["after"] == 1
    assert result["version"] == 2  # the stray message was not drawn
