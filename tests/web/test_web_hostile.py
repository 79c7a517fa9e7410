"""What a hostile client found on a running server, each kept from coming back: a lone
surrogate in the socket's JSON (a "\\ud800" escape), hostile numbers in the creation form,
bodies far too big, a push service answering with a redirect, control characters in an
e-mail address, floods and crowds of sockets.
Every refusal is French, and the table stays as it was."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pushstub import Device
from starlette.websockets import WebSocketDisconnect
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, csrf_of, receive_state, wait_for

from choux.play.errors import TableError
from choux.web import pages, ws
from choux.web.push import parse_subscription

SURROGATE = "\\ud800"  # as a client writes it in JSON: json.loads makes it a lone surrogate


def reply_to(socket: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    for _ in range(500):
        message = socket.receive_json()
        if message["type"] in kinds:
            return dict(message)
    raise AssertionError(f"no {kinds}")


def still_answers(socket: Any) -> None:
    socket.send_json({"type": "ping"})
    reply_to(socket, ("pong",))


def test_a_lone_surrogate_on_the_socket_is_refused_and_the_socket_kept(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, "chouine", ["human", "human"])
        with c.websocket_connect(f"/t/{code}/ws") as socket:
            version = receive_state(socket)["version"]
            for frame in (
                '{"type":"action","id":"' + SURROGATE + '","action":{}}',
                '{"type":"chat","text":"' + SURROGATE + ' salut"}',
                '{"type":"action","id":"n","action":{"type":"play","card":NaN}}',
            ):
                socket.send_text(frame)
                assert reply_to(socket, ("refused",))["message"] == "Message illisible."
            still_answers(socket)
        assert c.get(f"/t/{code}/etat.json").json()["version"] == version


def test_a_parlote_argument_with_a_lone_surrogate_never_reaches_the_table(
    sqlite_url: str,
) -> None:
    """It was played: every view of the trick then failed (« Erreur du serveur. ») and the
    record of the finished game could not be stored, so the table never ended."""
    seats = ["human", "bot:random", "bot:random", "bot:random"]
    with client(sqlite_url) as c:
        code = create_table(c, "parlote", seats)
        with c.websocket_connect(f"/t/{code}/ws") as socket:
            sent = 0
            for _ in range(200):
                state = reply_to(socket, ("state",))
                legal = [entry["action"] for entry in state["view"].get("legal") or []]
                plays = [action for action in legal if action["type"] == "jouer"]
                if plays:
                    break
                if legal:  # bid or pass until a card is to be played
                    pick = next((a for a in legal if a["type"] == "passer"), legal[0])
                    sent += 1
                    socket.send_json({"type": "action", "id": f"p{sent}", "action": pick})
            else:
                raise AssertionError("no card to play")
            action = {**plays[0], "argument": "@"}
            text = json.dumps({"type": "action", "id": "s", "action": action})
            socket.send_text(text.replace('"@"', f'"{SURROGATE} et pourtant"'))
            refusal = reply_to(socket, ("refused", "ack", "error"))
            assert refusal == {"type": "refused", "id": None, "message": "Message illisible."}
            assert c.get(f"/t/{code}/etat.json").json()["version"] == state["version"]
            socket.send_json({"type": "action", "id": "ok", "action": plays[0]})
            assert reply_to(socket, ("ack", "refused", "error"))["type"] == "ack"


def test_the_json_forms_refuse_a_lone_surrogate_in_french(sqlite_url: str) -> None:
    with client(sqlite_url, raise_server_exceptions=False) as c:
        token = csrf_of(c.get("/nouvelle").text)
        for path in ("/push/desabonnement", "/push/abonnement"):
            answer = c.post(
                path,
                content='{"endpoint":"https://push.example.org/' + SURROGATE + '"}',
                headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
            )
            assert answer.status_code == 400, (path, answer.text[:200])
            assert "illisible" in answer.json()["message"]


def test_an_e_mail_address_with_control_characters_is_refused(sqlite_url: str) -> None:
    with client(sqlite_url, smtp_url="smtp://127.0.0.1:1") as c:
        token = csrf_of(c.get("/nouvelle").text)
        for address in ("a\x00b@example.org", "a\x1bb@example.org", "a\x7f@example.org"):
            answer = c.post(
                "/notifications/email",
                content=json.dumps({"address": address}),
                headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
            )
            assert answer.status_code == 400, address
            assert answer.json()["message"] == "Adresse e-mail invalide."
        assert c.get("/notifications/email").json()["address"] is None


def creation_form(c: Any, **fields: str) -> dict[str, str]:
    form = {
        "csrf": csrf_of(c.get("/nouvelle?jeu=chouine").text),
        "jeu": "chouine",
        "joueurs": "2",
        "pendule": "0",
        "pseudo": "Alice",
        "place_0": "human",
        "place_1": "human",
    }
    return form | fields


def test_a_huge_number_of_players_is_refused_before_any_seat_is_built(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« joueurs=99999999999999999999 » made the page build that many seats: the event
    loop blocked and the process grew by gigabytes until it was killed."""
    built: list[object] = []

    def counted(*args: Any) -> object:
        built.append(args)
        assert len(built) < 100, "seats built for a number of players the game refuses"
        return pages.SeatSpec(*args)

    with client(sqlite_url) as c:
        form = creation_form(c, joueurs="99999999999999999999")
        monkeypatch.setattr(pages, "SeatSpec", counted)
        answer = c.post("/tables", data=form, follow_redirects=False)
    assert answer.status_code == 400
    assert "se joue de 2 à 4 joueurs" in answer.text
    assert built == []


@pytest.mark.parametrize("value", ["9" * 5000, "[" * 5000])
def test_hostile_option_values_are_a_french_400(sqlite_url: str, value: str) -> None:
    """A number of more than 4,300 digits, or JSON nested too deep: a 500 before."""
    with client(sqlite_url, raise_server_exceptions=False) as c:
        form = creation_form(c, opt_manches=value)
        answer = c.post("/tables", data=form, follow_redirects=False)
    assert answer.status_code == 400, answer.text[:300]
    assert "Valeur impossible" in answer.text


def test_a_choice_given_as_an_equal_value_of_another_type_is_kept_as_the_choice(
    sqlite_url: str,
) -> None:
    """« true » and « 3.0 » equal the choices 1 and 3: they were stored as they came."""
    with client(sqlite_url) as c:
        form = creation_form(c, opt_manches="true", opt_parties="3.0")
        answer = c.post("/tables", data=form, follow_redirects=False)
        assert answer.status_code == 303
        code = answer.headers["location"].rsplit("/", 1)[1]
        options = c.app.state.service.tables[code].row.options
    assert (options["manches"], options["parties"]) == (1, 3)
    assert type(options["manches"]) is int and type(options["parties"]) is int


def test_a_body_too_big_is_a_french_413_before_it_is_read(sqlite_url: str) -> None:
    """Forms took up to a thousand fields of 1 MB each, the push routes any body: one
    300-MB form made the server grow by 470 MB."""

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"x" * 1000

    with client(sqlite_url) as c:
        token = csrf_of(c.get("/nouvelle").text)
        fields = {f"f{i}": "x" * 1000 for i in range(100)}
        answers = [
            c.post("/tables", data={"csrf": token, **fields}),
            c.post("/push/abonnement", content=b"[" + b"1," * 50000 + b"1]"),
            c.post(
                "/tables",
                content=chunks(),  # no Content-Length: counted as it comes
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            ),
        ]
        fine = c.post("/tables", data={"csrf": token, "jeu": "nulle-part"})
    for answer in answers:
        assert answer.status_code == 413
        assert "Demande trop volumineuse" in answer.text
    assert fine.status_code == 404  # a form of ordinary size is read as before


class Recorder:
    """A small HTTP server: each request is answered by `answer(handler)` and recorded."""

    def __init__(self, status: int = 201, location: str = "") -> None:
        self.requests: list[tuple[str, str]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                recorder.requests.append((self.command, self.path))
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    @contextmanager
    def running(self) -> Iterator[Recorder]:
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
            self.server.server_close()


@pytest.mark.parametrize("status", [303, 307])
def test_a_push_service_redirect_is_not_followed(sqlite_url: str, status: int) -> None:
    """A public push endpoint answering « 307 → http://169.254.169.254/… » made the server
    post (303: get) to an address of its own network."""
    device = Device()
    with (
        Recorder().running() as internal,
        Recorder(status, f"{internal.url}/latest/meta-data").running() as push,
        client(sqlite_url, push_allow_local=True) as c,
    ):
        sub = parse_subscription(device.subscription(f"{push.url}/abc"), allow_local=True)
        sent = c.portal.call(c.app.state.push.send, sub, "{}")
    assert push.requests == [("POST", "/abc")]
    assert internal.requests == []
    assert sent is False


@pytest.mark.parametrize(
    "host", ["127.1", "2130706433", "0x7f.1", "0177.0.0.1", "localhost.", "x.localhost"]
)
def test_push_endpoints_on_local_addresses_in_any_spelling_are_refused(host: str) -> None:
    data = Device().subscription(f"https://{host}/push")
    with pytest.raises(TableError, match="illisible"):
        parse_subscription(data)
    parse_subscription(Device().subscription("https://fcm.googleapis.com/fcm/send/x"))


def test_a_flooding_socket_is_not_read_for_a_moment(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each frame over the budget was answered at once: one socket sending as fast as it
    could took the event loop from the other tables (their pings went from 1 ms to 60)."""
    monkeypatch.setattr(ws, "FLOOD_PAUSE", 0.4)
    with client(sqlite_url, limit_messages="2 per minute") as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        with c.websocket_connect(f"/t/{code}/ws") as socket:
            receive_state(socket)
            start = time.monotonic()  # before the frames: the first pause may begin at once
            for _ in range(5):
                socket.send_json({"type": "ping"})
            replies = [reply_to(socket, ("pong", "refused"))["type"] for _ in range(5)]
            elapsed = time.monotonic() - start
    assert replies == ["pong", "pong", "refused", "refused", "refused"]
    assert elapsed >= 0.8  # the third refusal waited for two pauses


def test_sockets_per_client_are_capped_with_a_close_code(sqlite_url: str) -> None:
    """Nothing limited them: 3,000 sockets from one address were all accepted (45 KB
    each), and the file descriptors of the process are a few thousand more."""
    with client(sqlite_url, max_sockets_per_client=2) as c:
        code = create_table(c, "chouine", ["human", "bot:random"])
        with c.websocket_connect(f"/t/{code}/ws") as first:
            receive_state(first)
            with c.websocket_connect(f"/t/{code}/ws") as second:
                receive_state(second)
                with (
                    pytest.raises(WebSocketDisconnect) as refused,
                    c.websocket_connect(f"/t/{code}/ws") as third,
                ):
                    third.receive_json()
                assert refused.value.code == 4429
            with c.websocket_connect(f"/t/{code}/ws") as again:  # one left: room again
                receive_state(again)
                still_answers(first)
        wait_for(lambda: not c.app.state.sockets)  # each closed socket counted out
