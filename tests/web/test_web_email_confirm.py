"""An e-mail address is confirmed by its owner before anything is mailed there: a stranger
who types someone's address sends them one confirmation mail at most (a few per hour,
whoever asks), and no « À vous de jouer »; hostile or stale links confirm nothing; addresses
given before the rule stay usable."""

from __future__ import annotations

import asyncio
import html
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from test_web_correspondence import create_days_table
from test_web_mail import Sink, confirm, confirmation_link, give_address, smtp_fixture  # noqa: F401
from test_web_migrations import alembic_config
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, join, other, wait_for

from choux.play import push_store
from choux.play.store import migrate, sync_url
from choux.web import email_confirm


def settle(c: Any) -> None:
    """Give a mail that should not leave the time to leave anyway."""
    c.portal.call(asyncio.sleep, 0.3)


def test_an_address_typed_by_a_stranger_gets_one_link_and_no_turn(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        code = create_days_table(alice, "chouine")
        answer = give_address(alice, code, "victime@example.org")
        assert answer.json()["confirmed"] is False
        assert "Un lien de confirmation vient de partir" in answer.json()["message"]
        wait_for(lambda: len(sink.messages) == 1)
        mail = sink.messages[0]
        assert mail["To"] == "victime@example.org"
        body = mail.get_content()  # type: ignore[attr-defined]
        assert "Sinon, ignorez ce message" in body and code not in body
        assert alice.get("/notifications/email").json() == {
            "enabled": True,
            "address": "victime@example.org",
            "confirmed": False,
        }
        # Bob gives an address too, unconfirmed: whoever the game waits for, nobody is mailed
        bob = other(alice)
        give_address(bob, code, "bob@example.org")
        wait_for(lambda: len(sink.messages) == 2)
        join(bob, code, "Bob")
        table = alice.app.state.service.tables[code]
        assert table.status == "live" and table.state.actors()
        settle(alice)
        assert len(sink.messages) == 2
        # the same address again, from other people: three links an hour at most in all
        answers = [give_address(other(alice), code, "VICTIME@example.org") for _ in range(3)]
        assert all(a.status_code == 200 for a in answers)
        assert "déjà parti" in answers[-1].json()["message"]
        wait_for(lambda: len(sink.messages) == 4)
        settle(alice)
        assert len(sink.messages) == 4


def test_a_confirmed_address_is_not_asked_again_and_a_changed_one_is(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        code = create_days_table(alice, "chouine")
        give_address(alice, code, "alice@example.org")
        wait_for(lambda: len(sink.messages) == 1)
        first = sink.messages[0]
        confirm(alice, first)
        confirm(alice, first)  # opened twice: still confirmed, no harm
        again = give_address(alice, code, "alice@example.org").json()
        assert again["confirmed"] is True and again["message"].startswith("Vos tours")
        settle(alice)
        assert len(sink.messages) == 1
        # a new address waits for its own link; the old link confirms nothing any more
        give_address(alice, code, "alice@autre.example")
        wait_for(lambda: len(sink.messages) == 2)
        stale = alice.get(confirmation_link(first))
        assert stale.status_code == 400 and "plus valable" in html.unescape(stale.text)
        assert alice.get("/notifications/email").json()["confirmed"] is False
        confirm(other(alice), sink.messages[1])
        assert alice.get("/notifications/email").json() == {
            "enabled": True,
            "address": "alice@autre.example",
            "confirmed": True,
        }
        # cleared: its link dies too
        assert give_address(alice, code, "").json()["address"] is None
        dead = alice.get(confirmation_link(sink.messages[1]))
        assert dead.status_code == 400


def test_hostile_or_old_links_confirm_nothing(
    sqlite_url: str, smtp: tuple[Sink, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        code = create_days_table(alice, "chouine")
        give_address(alice, code, "alice@example.org")
        wait_for(lambda: len(sink.messages) == 1)
        player = alice.app.state.service.tables[code].seats[0].player
        tokens = ["", "x", "a" * 5000, "WyJhIiwiYiJd.garbage.sig", "<script>", "jeton\x00nul"]
        tokens.append(email_confirm.ConfirmLinks("another key").token(player, "alice@example.org"))
        # signed by this server, for another identity or another address
        links = alice.app.state.confirm_links
        tokens += [links.token("someone-else", "alice@example.org")]
        tokens += [links.token(player, "mallory@example.org")]
        for token in tokens:
            page = alice.get("/email/confirmer", params={"jeton": token})
            assert page.status_code == 400, token
            assert "plus valable" in html.unescape(page.text)
        fresh = links.token(player, "alice@example.org")
        monkeypatch.setattr(email_confirm, "LINK_SECONDS", -1)
        assert alice.get("/email/confirmer", params={"jeton": fresh}).status_code == 400
        assert alice.get("/notifications/email").json()["confirmed"] is False


def test_addresses_given_before_confirmation_existed_stay_usable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'choux.sqlite3'}"
    command.upgrade(alembic_config(url), "0009")
    engine = create_engine(sync_url(url))
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "insert into email_notifications (player, address, created_at)"
                    " values ('ancien', 'ancien@example.org', :when)"
                ),
                {"when": datetime(2026, 11, 1, tzinfo=UTC)},
            )
    finally:
        engine.dispose()
    migrate(url)

    async def read() -> dict[str, str]:
        from choux.play.store import Store

        store = Store(url)
        await store.open()
        try:
            return await push_store.emails_of(store, ["ancien"])
        finally:
            await store.close()

    assert asyncio.run(read()) == {"ancien": "ancien@example.org"}


def test_one_client_cannot_make_the_server_mail_a_list_of_strangers(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as c:
        code = create_days_table(c, "chouine")
        answers = [give_address(c, code, f"inconnu{i}@example.org").json() for i in range(14)]
        assert all("vient de partir" in a["message"] for a in answers[:12])
        assert all("Trop de liens de confirmation" in a["message"] for a in answers[12:])
        wait_for(lambda: len(sink.messages) == 12)
        settle(c)
        assert len(sink.messages) == 12


def test_a_confirmation_link_does_not_carry_the_identity(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    import base64
    import json

    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as c:
        code = create_days_table(c, "chouine")
        give_address(c, code, "alice@example.org")
        wait_for(lambda: len(sink.messages) == 1)
        token = confirmation_link(sink.messages[0]).split("jeton=", 1)[1]
        payload = token.split(".", 1)[0]
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        player = c.app.state.service.tables[code].seats[0].player
        assert player not in json.dumps(data) and data[1] == "alice@example.org"
        confirm(other(c), sink.messages[0])
        assert c.get("/notifications/email").json()["confirmed"] is True
