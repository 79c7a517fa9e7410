"""WebSocket play: own views only, versions, resync, idempotent actions, bad messages."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    db_url_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import (
    alice_and_bob,
    client,
    create_table,
    join,
    other,
    play_to_end,
    receive_state,
    receive_version,
)

from choux import games
from choux.engine.record import Record, replay
from choux.engine.views import strings_in


def test_each_seat_receives_only_its_own_view(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, bob = alice_and_bob(alice, course)
        spectator = other(alice)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
            spectator.websocket_connect(f"/t/{code}/ws") as ws,
        ):
            a, b, s = receive_state(wa), receive_state(wb), receive_state(ws)
            table = alice.app.state.service.tables[code]
            cards = table.state.cards
            assert a["seat"] == 0 and a["view"]["card"] == cards[0]
            assert b["seat"] == 1 and b["view"]["card"] == cards[1]
            assert s["seat"] is None and s["view"]["card"] is None
            assert cards[1] not in strings_in(a) and cards[0] not in strings_in(b)
            assert not set(cards) & strings_in(s)
            assert s["view"]["legal"] == []


def test_every_seat_gets_the_new_version_after_an_action(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, bob = alice_and_bob(alice, course)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            first = receive_state(wa)
            receive_state(wb)
            wa.send_json({"type": "action", "id": "a1", "action": {"type": "add", "n": 2}})
            after_a = receive_version(wa, 1)
            after_b = receive_version(wb, 1)
            assert first["version"] == 0
            assert after_a["version"] == after_b["version"] == 1
            assert after_b["view"]["total"] == 2 and after_b["view"]["actors"] == [1]
            assert any("Alice ajoute 2" in line["text"] for line in after_b["log"])


def test_an_action_sent_twice_is_applied_once(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        visitor = other(c)
        join(visitor, code, "Bob")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            action = {"type": "action", "id": "same", "action": {"type": "add", "n": 1}}
            ws.send_json(action)
            acks = []
            while len(acks) < 1:
                message = ws.receive_json()
                if message["type"] == "ack":
                    acks.append(message)
            ws.send_json(action)
            while True:
                message = ws.receive_json()
                if message["type"] == "ack":
                    acks.append(message)
                    break
            assert acks[0]["version"] == acks[1]["version"] == 1
        table = c.app.state.service.tables[code]
        assert table.version == 1 and table.state.total == 1


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"type": "action", "id": "o1", "action": {"type": "add", "n": 1}}, "pas à vous"),
        ({"type": "action", "id": "o2", "action": {"type": "add", "n": 7}}, ""),
        ({"type": "action", "id": "o3", "action": {"type": "fly"}}, "inconnue"),
        ({"type": "action", "id": "o4", "action": "add"}, "illisible"),
        ({"type": "action", "action": {"type": "add", "n": 1}}, "identifiant"),
        ({"type": "hack"}, "inconnu"),
        ([1, 2, 3], "inconnu"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(
    sqlite_url: str, course: str, payload: object, reason: str
) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        bob = other(c)
        join(bob, code, "Bob")
        with bob.websocket_connect(f"/t/{code}/ws") as ws:  # Bob is not the actor
            receive_state(ws)
            ws.send_json(payload)
            while True:
                message = ws.receive_json()
                if message["type"] == "refused":
                    break
            assert reason in message["message"]
        table = c.app.state.service.tables[code]
        assert table.version == 0 and table.state.total == 0


def test_spectators_never_act(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        spectator = other(c)
        with spectator.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_json({"type": "action", "id": "s", "action": {"type": "add", "n": 1}})
            message = ws.receive_json()
            while message["type"] != "refused":
                message = ws.receive_json()
            assert "regardez" in message["message"]
        assert c.app.state.service.tables[code].version == 0


def test_a_forged_seat_token_is_a_spectator(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        forger = other(c)
        serializer = c.app.state.sessions.serializer
        forger.cookies.set("choux", serializer.dumps({"csrf": "x", "seats": {code: [0, "guess"]}}))
        assert forger.get(f"/t/{code}/etat.json").json()["seat"] is None
        unsigned = other(c)
        unsigned.cookies.set("choux", json.dumps({"csrf": "x", "seats": {code: [0, "guess"]}}))
        assert unsigned.get(f"/t/{code}/etat.json").json()["seat"] is None
        with forger.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] is None


def test_oversized_and_unreadable_messages(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_text("{not json")
            message = ws.receive_json()
            while message["type"] != "refused":
                message = ws.receive_json()
            assert "illisible" in message["message"]
            # too long: refused with its id (the page settles its move), the socket kept (the
            # page, closed, sent the same move again on every reconnection)
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 10_000}))
            message = ws.receive_json()
            while message["type"] != "refused":
                message = ws.receive_json()
            assert message["id"] is None and "trop long" in message["message"]
            ws.send_text(
                json.dumps({"type": "action", "id": "a1", "action": {"pad": "x" * 10_000}})
            )
            message = ws.receive_json()
            while message["type"] != "refused":
                message = ws.receive_json()
            assert message == {
                "type": "refused",
                "id": "a1",
                "message": "Message trop long : 4096 caractères au plus, il n'a pas été envoyé.",
            }
            ws.send_text(json.dumps({"type": "ping"}))
            while ws.receive_json()["type"] != "pong":
                pass
        assert c.app.state.service.tables[code].version == 0


def test_foreign_origin_is_rejected(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            c.websocket_connect(f"/t/{code}/ws", headers={"origin": "https://evil.example"}) as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 4403
        with c.websocket_connect(f"/t/{code}/ws", headers={"origin": "http://testserver"}) as ws:
            assert receive_state(ws)["seat"] == 0


def test_unknown_table_socket_is_closed(sqlite_url: str) -> None:
    with client(sqlite_url) as c, pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
        with c.websocket_connect("/t/nope/ws") as ws:
            ws.receive_json()
    assert closed.value.code == 4404


def test_sync_resends_the_full_view_and_log(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "human"], "Alice")
        join(other(c), code, "Bob")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_json({"type": "action", "id": "a", "action": {"type": "add", "n": 1}})
            receive_version(ws, 1)
            ws.send_json({"type": "sync"})
            full = receive_state(ws)
            assert full["full"] and full["log_from"] == 0 and full["version"] == 1
            assert full["log_to"] == len(c.app.state.service.tables[code].log)


def test_ping_gets_pong(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            receive_state(ws)
            ws.send_json({"type": "ping"})
            message = ws.receive_json()
            while message["type"] != "pong":
                message = ws.receive_json()


def test_server_heartbeats_reach_the_client(sqlite_url: str, course: str) -> None:
    with client(sqlite_url, heartbeat_seconds=0.05) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            kinds = {ws.receive_json()["type"] for _ in range(3)}
            assert "ping" in kinds


@pytest.mark.parametrize("players", [2, 3])
def test_whole_chouine_game_over_websocket_stores_a_replayable_record(
    db_url: str, players: int
) -> None:
    if "chouine" not in games.names():
        pytest.skip("chouine not registered")
    with client(db_url) as c:
        seats = ["human"] + ["bot:random"] * (players - 1)
        code = create_table(c, "chouine", seats, "Alice", {"manches": "1"})
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        assert final["status"] == "over" and final["record_id"]
        record_json = c.get(f"/parties/{final['record_id']}.json").json()
        state = replay(Record.from_json(record_json), games.get("chouine"))
        assert state.is_over()
        assert record_json["result"] == final["result"]
        seat_steps = c.get(f"/parties/{final['record_id']}/etapes.json?place=0").json()["steps"]
        assert len(seat_steps) == len(record_json["actions"]) + 1
        assert seat_steps[0]["view"]["hand"]  # a finished game may be replayed from a seat
        bad = c.get(f"/parties/{final['record_id']}/etapes.json?place=9")
        assert bad.status_code == 404
        page = c.get(f"/parties/{final['record_id']}")
        assert (page.status_code == 200 and "Coup" in page.text) or "replay-data" in page.text


def test_log_lines_that_would_reveal_a_secret_are_not_sent() -> None:
    from choux.play.tables import reveals

    assert reveals("Alice pioche AH.", {"AH", "7S"})
    assert not reveals("Alice pioche : AHA !", {"AH"})
    assert reveals("carte c17 (1 ↕ 2)", {"c17"})
    assert not reveals("carte c170", {"c17"})


@given(
    st.text(alphabet="ab1 _-♠.", max_size=30),
    st.sets(st.text(alphabet="ab1_-♠", min_size=1, max_size=4), max_size=5),
)
def test_the_secret_check_says_what_its_definition_says(text: str, secrets: set[str]) -> None:
    """A secret shows as a whole word if alphanumeric, anywhere if not (with the odd
    tokens given or not)."""
    from choux.play.tables import WORD, reveals

    words = set(WORD.findall(text))
    meant = any((s in words) if s.isalnum() else (s in text) for s in secrets)
    assert reveals(text, secrets) is meant
    assert reveals(text, secrets, [s for s in secrets if not s.isalnum()]) is meant


@pytest.mark.parametrize("game", ["chouine", "chouineurs"])
def test_no_message_of_a_whole_game_holds_a_secret_of_its_seat(
    sqlite_url: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every message built for a seat (or a spectator) is checked against `secrets(seat)`."""
    if game not in games.names():
        pytest.skip(f"{game} not registered")
    from choux.play.tables import LiveTable

    checked = []
    original = LiveTable.message

    def checking(self, sub, full=False):  # type: ignore[no-untyped-def]
        message = original(self, sub, full)
        leaked = self.state.secrets(sub.seat) & strings_in(message)
        assert not leaked, f"seat {sub.seat} was sent {sorted(leaked)[:3]}"
        checked.append(sub.seat)
        return message

    monkeypatch.setattr(LiveTable, "message", checking)
    players = games.get(game).min_players
    seats = ["human"] + ["bot:random"] * (players - 1)
    with client(sqlite_url) as c:
        code = create_table(c, game, seats, "Alice", {"manches": "1"} if game == "chouine" else {})
        with (
            c.websocket_connect(f"/t/{code}/ws") as ws,
            other(c).websocket_connect(f"/t/{code}/ws") as spectator,
        ):
            final = play_to_end(ws)
            assert final["result"] is not None
            receive_state(spectator)
    assert 0 in checked and None in checked


def test_a_seats_extra_sockets_opening_and_closing_send_nothing_to_the_others(
    sqlite_url: str, course: str
) -> None:
    """Only a seat coming online or going offline changes what pages show. Extra sockets of a
    seat already online, opened and dropped in a loop, sent a state to every page at the
    table each time (an audit: 200 cycles, 400 identical states to each page)."""
    with client(sqlite_url) as alice:
        code, bob = alice_and_bob(alice, course)
        with (
            bob.websocket_connect(f"/t/{code}/ws") as wb,
            alice.websocket_connect(f"/t/{code}/ws") as first,
        ):
            receive_state(first)
            # Bob's page sees Alice come online (that one is news)
            seen = receive_state(wb)
            while not all(s["connected"] for s in seen["seats"]):
                seen = receive_state(wb)
            for _ in range(10):
                with alice.websocket_connect(f"/t/{code}/ws") as extra:
                    receive_state(extra)
            wb.send_json({"type": "ping"})
            between = []
            while (message := wb.receive_json())["type"] != "pong":
                between.append(message["type"])
            assert "state" not in between, between
