"""Table chat: players and spectators talk apart, text only, refusals in French."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from scaleout_helpers import free_port, redis_on
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import (
    alice_and_bob,
    client,
    create_table,
    join,
    other,
    play_to_end,
    postgres_or_skip,
    receive_state,
)

from choux.engine.views import strings_in
from choux.play.chat import MAX_CHARS


def receive(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    """The next message of `kind` (states, pings and acks in between are skipped)."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")


def receive_line(ws: Any) -> dict[str, Any]:
    """The next chat message that carries a line."""
    for _ in range(50):
        message = receive(ws, "chat")
        if message["lines"]:
            return dict(message["lines"][0])
    raise AssertionError("no chat line")


def test_players_talk_together_and_spectators_apart(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, bob = alice_and_bob(alice, course)
        watcher = other(alice)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
            watcher.websocket_connect(f"/t/{code}/ws") as ws,
        ):
            first = receive(wa, "chat")
            assert first["full"] and first["lines"] == [] and first["me"] == "s0"
            assert first["host"] is True
            assert receive(ws, "chat")["room"] == "spectators"
            receive(wb, "chat")
            wa.send_json({"type": "chat", "text": "  Bonne <b>chance</b> !\n"})
            line = receive_line(wb)
            assert line["who"] == "s0" and line["name"] == "Alice"
            assert line["text"] == "Bonne <b>chance</b> !"  # kept as text, the page escapes
            assert set(line) == {"id", "room", "who", "name", "text", "at"}
            assert receive_line(wa)["id"] == line["id"]
            ws.send_json({"type": "chat", "text": "Je regarde"})
            said = receive_line(ws)
            assert said["room"] == "spectators" and said["who"].startswith("v")
            wb.send_json({"type": "chat", "text": "Merci"})
            assert receive_line(wb)["text"] == "Merci"  # Bob never got the spectator's line
            assert receive_line(wa)["text"] == "Merci"
            table = alice.app.state.service.tables[code]
            tokens = {s.token_hash for s in table.seats if s.token_hash}
            session_ids = {alice.cookies.get("choux"), bob.cookies.get("choux")}
            assert not (tokens | session_ids) & strings_in(said)


def test_bad_messages_are_refused_in_french_and_change_nothing(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url, limit_chat="3 per minute") as alice:
        code, bob = alice_and_bob(alice, course)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            before = receive_state(wa)["version"]
            # invisible lines too: zero-width, Hangul filler, blank Braille, BOM and joiner
            blanks = ("\u200b", "\u3164", "\u2800 \u2800", "\ufeff\u200d", "\u202e")
            for text in ("", "   \n ", "x" * (MAX_CHARS + 1), 42, *blanks):
                wb.send_json({"type": "chat", "text": text})
                refused = receive(wb, "chat_refused")
                assert "Message" in refused["message"]
            wb.send_json({"type": "chat", "text": "x" * MAX_CHARS})  # exactly the limit: said
            assert len(receive_line(wa)["text"]) == MAX_CHARS
            # a flood: the first ones pass, then a French refusal; Alice may still talk
            for n in range(4):
                wb.send_json({"type": "chat", "text": f"spam {n}"})
            assert "Trop de messages" in receive(wb, "chat_refused")["message"]
            wa.send_json({"type": "chat", "text": "Calme-toi"})
            texts = [receive_line(wa)["text"] for _ in range(3)]
            assert texts == ["spam 0", "spam 1", "Calme-toi"]
            service = alice.app.state.service
            assert service.tables[code].version == before  # the game did not move


def test_a_right_to_left_override_never_reaches_the_page() -> None:
    from choux.play.chat import clean_text

    assert clean_text("\u202eBien joué\u202c !") == "Bien joué !"
    assert clean_text("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"  # emoji joiners kept


def test_the_host_silences_a_player_and_others_cannot(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, bob = alice_and_bob(alice, course)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            receive(wa, "chat")
            receive(wb, "chat")
            wb.send_json({"type": "chat_mute", "who": "s0", "muted": True})
            assert "Seul l'hôte" in receive(wb, "chat_refused")["message"]
            wa.send_json({"type": "chat_mute", "who": "s1", "muted": True})
            assert receive(wb, "chat")["muted"] == ["s1"]
            wb.send_json({"type": "chat", "text": "hé !"})
            assert "retiré la parole" in receive(wb, "chat_refused")["message"]
            wa.send_json({"type": "chat_mute", "who": "s1", "muted": False})
            assert receive(wb, "chat")["muted"] == []
            wb.send_json({"type": "chat", "text": "merci"})
            assert receive_line(wa)["text"] == "merci"


def test_a_host_cannot_swell_the_silenced_list_without_end(sqlite_url: str, course: str) -> None:
    """Every chat message carries the list of the silenced: 600 made-up names made a
    one-word line weigh 10 KB (an audit). Past MAX_MUTED the host is told in French."""
    from choux.play.chat import MAX_MUTED

    with client(sqlite_url, limit_messages="1000 per second") as alice:
        code, _ = alice_and_bob(alice, course)
        with alice.websocket_connect(f"/t/{code}/ws") as wa:
            receive(wa, "chat")
            for n in range(MAX_MUTED):
                wa.send_json({"type": "chat_mute", "who": f"v{n:012x}", "muted": True})
                assert len(receive(wa, "chat")["muted"]) == n + 1
            wa.send_json({"type": "chat_mute", "who": f"v{MAX_MUTED:012x}", "muted": True})
            assert f"Déjà {MAX_MUTED} personnes" in receive(wa, "chat_refused")["message"]
            # giving the word back still works
            wa.send_json({"type": "chat_mute", "who": "v000000000000", "muted": False})
            assert len(receive(wa, "chat")["muted"]) == MAX_MUTED - 1


def test_chat_is_kept_with_the_table_across_a_restart(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, _ = alice_and_bob(alice, course)  # Bob is seated, his page stays closed
        with alice.websocket_connect(f"/t/{code}/ws") as wa:
            wa.send_json({"type": "chat", "text": "à demain"})
            assert receive_line(wa)["text"] == "à demain"
        alice_cookies = dict(alice.cookies)
    with client(sqlite_url) as again:
        again.cookies.update(alice_cookies)
        with again.websocket_connect(f"/t/{code}/ws") as wa:
            history = receive(wa, "chat")
            assert history["full"] and [x["text"] for x in history["lines"]] == ["à demain"]


def test_the_replay_shows_the_chat_as_text(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code = create_table(alice, course, ["human", "bot:random"], "Alice")
        with alice.websocket_connect(f"/t/{code}/ws") as wa:
            wa.send_json({"type": "chat", "text": "<script>alert(1)</script> bien joué"})
            assert receive_line(wa)["text"].startswith("<script>")
            wa.send_json({"type": "sync"})
            end = play_to_end(wa)
        page = alice.get(f"/parties/{end['record_id']}")
        assert page.status_code == 200
        assert "&lt;script&gt;alert(1)&lt;/script&gt; bien joué" in page.text
        assert "<script>alert(1)" not in page.text


@pytest.mark.postgres
def test_chat_crosses_processes(course: str) -> None:
    with (
        postgres_or_skip() as db,
        redis_on(free_port()) as redis_url,
        client(db, redis_url=redis_url, resync_seconds=0.5) as a,
        client(db, redis_url=redis_url, resync_seconds=0.5) as b,
    ):
        code = create_table(a, course, ["human", "human"], "Alice")
        bob = TestClient(b.app)
        bob.portal = b.portal
        join(bob, code, "Bob")
        with (
            a.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            receive(wa, "chat")
            receive(wb, "chat")
            wa.send_json({"type": "chat", "text": "Salut depuis A"})
            assert receive_line(wb)["text"] == "Salut depuis A"
            wa.send_json({"type": "chat_mute", "who": "s1", "muted": True})
            assert receive(wb, "chat")["muted"] == ["s1"]
            wb.send_json({"type": "chat", "text": "et B ?"})
            assert "retiré la parole" in receive(wb, "chat_refused")["message"]


def test_spectators_without_cookies_share_their_addresss_budget(
    sqlite_url: str, course: str
) -> None:
    """Each socket opened without a cookie is a new spectator: one address got 199 lines of
    200 through a budget of 5 a person (an audit). Spectators draw from their address's."""
    from starlette.testclient import TestClient

    with client(sqlite_url, limit_chat="3 per minute") as alice:
        code, _ = alice_and_bob(alice, course)
        refused = 0
        said = 0
        for _ in range(6):
            fresh = TestClient(alice.app)  # no cookie: a new spectator each time
            fresh.portal = alice.portal
            with fresh.websocket_connect(f"/t/{code}/ws") as ws:
                receive(ws, "chat")
                ws.send_json({"type": "chat", "text": "spam"})
                message = ws.receive_json()
                while message["type"] not in ("chat", "chat_refused") or (
                    message["type"] == "chat" and not message["lines"]
                ):
                    message = ws.receive_json()
                if message["type"] == "chat_refused":
                    assert "Trop de messages" in message["message"]
                    refused += 1
                else:
                    said += 1
        assert (said, refused) == (3, 3)
        # a seated player keeps a budget of their own
        with alice.websocket_connect(f"/t/{code}/ws") as wa:
            receive(wa, "chat")
            wa.send_json({"type": "chat", "text": "Bonjour"})
            assert receive_line(wa)["text"] == "Bonjour"


def test_the_host_can_close_the_spectators_chat(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        code, _ = alice_and_bob(alice, course)  # Bob is seated, his page stays closed
        watcher = other(alice)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            watcher.websocket_connect(f"/t/{code}/ws") as ws,
        ):
            receive(wa, "chat")
            receive(ws, "chat")
            wa.send_json({"type": "chat_mute", "who": "spectators", "muted": True})
            assert receive(ws, "chat")["muted"] == ["spectators"]
            ws.send_json({"type": "chat", "text": "psst"})
            assert "fermé la discussion des spectateurs" in receive(ws, "chat_refused")["message"]
            wa.send_json({"type": "chat", "text": "entre nous"})
            assert receive_line(wa)["text"] == "entre nous"
            wa.send_json({"type": "chat_mute", "who": "spectators", "muted": False})
            assert receive(ws, "chat")["muted"] == []
            ws.send_json({"type": "chat", "text": "merci"})
            assert receive_line(ws)["text"] == "merci"


def test_rooms_of_tables_gone_from_memory_are_swept_now_and_then(
    sqlite_url: str, course: str
) -> None:
    """A room whose table left memory is dropped (read again if the table comes back),
    but not by a pass over every room each time a room is read: only once they doubled."""
    from choux.play.chat import ChatRoom

    with client(sqlite_url) as c:
        service = c.app.state.service
        code = create_table(c, course, ["human", "human"], "Alice")
        table = service.tables[code]
        service.chat_rooms.pop(code)
        stale = {f"gone{i}": ChatRoom() for i in range(10)}
        service.chat_rooms.update(stale)
        c.portal.call(service.chat_room, table)
        assert set(stale) <= set(service.chat_rooms)  # few rooms: no sweep yet
        service.chat_rooms.pop(code)
        service.chat_rooms.update({f"gone{i}": ChatRoom() for i in range(10, 100)})
        watched = service.chat_rooms["gone0"]
        watched.watchers.add(object())  # type: ignore[arg-type]
        room = c.portal.call(service.chat_room, table)
        assert service.chat_rooms == {"gone0": watched, code: room}
        assert service._chat_sweep_at == 64
