"""« À vous de jouer » by e-mail, tested against a local SMTP sink (aiosmtpd)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from scaleout_helpers import free_port
from test_web_correspondence import create_days_table
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, csrf_of, join, other, receive_state, wait_for

from choux.play.correspondence_store import Rule


class Sink:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture(name="smtp")
def smtp_fixture() -> Iterator[tuple[Sink, str]]:
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def give_address(c: Any, code: str, address: object) -> Any:
    token = csrf_of(c.get(f"/t/{code}").text)
    return c.post(
        "/notifications/email",
        content=json.dumps({"address": address}),
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )


def confirmation_link(mail: Message) -> str:
    """The path of the confirmation link in a mail (the site's public URL stripped)."""
    assert "confirmez votre adresse" in str(mail["Subject"])
    found = re.search(r"https?://[^/\s]+(/email/confirmer\?jeton=\S+)", mail.get_content())  # type: ignore[attr-defined]
    assert found, mail.get_content()  # type: ignore[attr-defined]
    return found.group(1)


def confirm(c: Any, mail: Message) -> None:
    """Open the link the mail carries (from any device: the link is the proof)."""
    page = c.get(confirmation_link(mail))
    assert page.status_code == 200 and "Adresse confirmée" in page.text, page.text


def test_the_person_away_is_mailed_when_their_turn_comes(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        code = create_days_table(alice, "chouine")
        for bad in ("pas-une-adresse", "a@b", "x" * 250 + "@example.org", 12, "a b@example.org"):
            answer = give_address(alice, code, bad)
            assert answer.status_code == 400 and "invalide" in answer.json()["message"]
        assert give_address(alice, code, "alice@example.org").is_success
        bob = other(alice)
        assert bob.get("/notifications/email").json() == {
            "enabled": True,
            "address": None,
            "confirmed": False,
        }
        assert give_address(bob, code, "bob@example.org").is_success
        wait_for(lambda: len(sink.messages) == 2)
        for mail in sink.messages:
            confirm(other(alice), mail)
        join(bob, code, "Bob")
        table = alice.app.state.service.tables[code]
        wait_for(lambda: len(sink.messages) == 3)
        waited = table.state.actors()[0]
        mail = sink.messages[2]
        assert mail["To"] == ("alice@example.org" if waited == 0 else "bob@example.org")
        assert code in mail["Subject"] and "À vous de jouer" in mail["Subject"]
        body = mail.get_content()  # type: ignore[attr-defined]
        assert f"https://choux.example/t/{code}" in body

        # both pages open: the next turn is not mailed (the person is there)
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            ws = wa if waited == 0 else wb
            legal = receive_state(ws)["view"]["legal"]
            ws.send_json({"type": "action", "id": "m1", "action": legal[0]["action"]})
            wait_for(lambda: table.version == 1)
            alice.portal.call(asyncio.sleep, 0.5)
        assert len(sink.messages) == 3
        # an empty address stops the mails
        assert give_address(alice, code, "").json()["address"] is None
        assert alice.get("/notifications/email").json()["address"] is None


def test_without_smtp_no_address_is_taken(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        code = create_days_table(c, "chouine")
        assert c.get("/notifications/email").json() == {
            "enabled": False,
            "address": None,
            "confirmed": False,
        }
        assert give_address(c, code, "a@example.org").status_code == 404


def mailed_pair(alice: Any, sink: Sink, seconds: int = 3600) -> tuple[str, Any]:
    """Alice's correspondence Chouine, both Alice and Bob with a confirmed address, Bob not
    seated yet: the code and Bob's client."""
    code = create_days_table(alice, "chouine", seconds=seconds)
    assert give_address(alice, code, "alice@example.org").is_success
    bob = other(alice)
    assert give_address(bob, code, "bob@example.org").is_success
    wait_for(lambda: len(sink.messages) == 2)
    for mail in sink.messages:
        confirm(other(alice), mail)
    return code, bob


def test_whose_join_starts_the_game_is_not_mailed_while_their_page_loads(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    """Found by an outside audit: the person whose join started the game got « À vous de
    jouer » while their page was loading (no socket yet when the turn was told). A turn
    mail waits a few seconds, then looks again."""
    sink, url = smtp
    settings = {"smtp_url": url, "public_url": "https://choux.example"}
    with client(sqlite_url, turn_mail_grace_seconds=1.0, **settings) as alice:
        code, bob = mailed_pair(alice, sink)
        join(bob, code, "Bob")
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            receive_state(wa), receive_state(wb)
            alice.portal.call(asyncio.sleep, 2.0)
        assert len(sink.messages) == 2  # the two confirmations only
        # nobody comes: the turn is mailed, after the grace
        table = alice.app.state.service.tables[code]
        waited = table.state.actors()[0]
        before = len(sink.messages)
        alice.portal.call(table.connections.clear)
        alice.portal.call(alice.app.state.mailer.notify_turn, table, [waited])
        assert len(sink.messages) == before + 1


def test_the_turn_mail_names_the_others_and_says_the_time_left(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        code, bob = mailed_pair(alice, sink, seconds=86400)
        join(bob, code, "Bob")
        wait_for(lambda: len(sink.messages) == 3)
        table = alice.app.state.service.tables[code]
        waited = table.state.actors()[0]
        mail = sink.messages[2]
        assert mail["To"] == ("alice@example.org" if waited == 0 else "bob@example.org")
        body = mail.get_content()  # type: ignore[attr-defined]
        assert f"Autour de la table : {'Bob' if waited == 0 else 'Alice'}." in body, body
        assert (
            "Il vous reste 23 h 59 min pour jouer ; au-delà, un robot joue à votre place." in body
        ), body
        assert f"https://choux.example/t/{code}" in body
        # the last mail before the robot plays on without telling: it says so
        seat = waited
        table.actions[:] = [(seat, {}), (1 - seat, {}), (seat, {})]  # two clock moves
        warned = alice.app.state.mailer.message(table, "x@example.org", seat, Rule(3600, "bot"))
        assert "Le robot a joué vos 2 derniers coups" in warned.get_content()  # type: ignore[attr-defined]
        table.actions[:] = [(1 - seat, {}), (seat, {})]
        plain = alice.app.state.mailer.message(table, "x@example.org", seat, Rule(3600, "bot"))
        assert "Le robot a joué" not in plain.get_content()  # type: ignore[attr-defined]
