"""« Mot de passe oublié » : a link mailed to the account's address (a local SMTP sink),
good once and for an hour; the form tells a stranger nothing; hostile links and floods are
refused in French and change nothing."""

from __future__ import annotations

import asyncio
import html
import re
from typing import Any

import pytest
from test_web_accounts import PASSWORD, login, post, signup
from test_web_mail import Sink, confirm, smtp_fixture  # noqa: F401 (fixture)
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, csrf_of, other, wait_for

from choux.web import password_reset

NEW = "un tout autre mot de passe"


def ask_link(c: Any, pseudo: str) -> Any:
    page = c.get("/mot-de-passe-oublie")
    return c.post(
        "/mot-de-passe-oublie",
        data={"csrf": csrf_of(page.text), "pseudo": pseudo},
        follow_redirects=False,
    )


def link_in(mail: Any) -> str:
    found = re.search(
        r"https://choux\.example(/mot-de-passe/nouveau\?jeton=\S+)", mail.get_content()
    )
    assert found, mail.get_content()
    return found.group(1)


def choose(c: Any, path: str, new: str = NEW, again: str | None = None) -> Any:
    page = c.get(path)
    token = path.split("jeton=", 1)[1]
    data = {"csrf": csrf_of(page.text), "jeton": token, "nouveau": new}
    data["confirmation"] = new if again is None else again
    return c.post("/mot-de-passe/nouveau", data=data, follow_redirects=False)


def test_a_forgotten_password_is_replaced_through_a_mailed_link_good_once(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as alice:
        assert signup(alice, "Alice").status_code == 303  # type: ignore[attr-defined]
        for bad in ("pas-une-adresse", "a@b", "<x>@example.org"):
            refused = post(alice, "/compte/email", email=bad)
            assert refused.status_code == 400  # type: ignore[attr-defined]
            assert "Adresse e-mail invalide" in refused.text  # type: ignore[attr-defined]
        saved = post(alice, "/compte/email", email="alice@example.org")
        assert "Un lien de confirmation vient de partir à alice@example.org" in html.unescape(
            saved.text  # type: ignore[attr-defined]
        )
        assert 'value="alice@example.org"' in alice.get("/compte").text
        assert "En attente de confirmation" in html.unescape(alice.get("/compte").text)
        wait_for(lambda: len(sink.messages) == 1)
        # not confirmed yet: no password link goes there
        assert ask_link(other(alice), "Alice").status_code == 200
        alice.portal.call(asyncio.sleep, 0.3)
        assert len(sink.messages) == 1
        confirm(other(alice), sink.messages[0])
        assert "Adresse confirmée." in html.unescape(alice.get("/compte").text)
        phone = other(alice)  # Alice's phone, logged in: the reset logs it out
        assert login(phone, "Alice").status_code == 303  # type: ignore[attr-defined]

        stranger = other(alice)
        answers = [ask_link(stranger, name) for name in ("Alice", "Personne", "")]
        assert answers[0].status_code == answers[1].status_code == 200
        assert html.unescape(answers[0].text).count("un lien vient d'y partir") == 1
        assert answers[0].text == answers[1].text.replace("Personne", "Alice")  # the same
        wait_for(lambda: len(sink.messages) == 2)
        mail = sink.messages[1]
        assert mail["To"] == "alice@example.org" and "mot de passe" in mail["Subject"]
        path = link_in(mail)

        assert "Nouveau mot de passe" in html.unescape(stranger.get(path).text)
        mismatch = choose(stranger, path, again="autre chose encore")
        assert mismatch.status_code == 400 and "pas identiques" in html.unescape(mismatch.text)
        short = choose(stranger, path, new="court")
        assert short.status_code == 400
        done = choose(stranger, path)
        assert done.status_code == 303 and done.headers["location"].endswith("reinitialise")
        assert "connectez-vous avec le nouveau" in html.unescape(
            stranger.get(done.headers["location"]).text
        )
        assert login(other(alice), "Alice").status_code == 403  # type: ignore[attr-defined]
        assert login(other(alice), "Alice", NEW).status_code == 303  # type: ignore[attr-defined]
        assert phone.get("/compte", follow_redirects=False).status_code == 303  # logged out
        # the link served once
        again = stranger.get(path)
        assert again.status_code == 400 and "plus valable" in html.unescape(again.text)
        assert choose(stranger, path, new="encore un autre mot").status_code == 400
        assert login(other(alice), "Alice", NEW).status_code == 303  # type: ignore[attr-defined]
        assert len(sink.messages) == 2


def test_no_mail_leaves_without_an_address_and_hostile_links_change_nothing(
    sqlite_url: str, smtp: tuple[Sink, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sink, url = smtp
    with client(sqlite_url, smtp_url=url, public_url="https://choux.example") as bob:
        assert signup(bob, "Bob").status_code == 303  # type: ignore[attr-defined]
        stranger = other(bob)
        assert ask_link(stranger, "Bob").status_code == 200  # no address: nothing sent
        assert ask_link(stranger, "x" * 5000).status_code == 200
        tokens = ["", "x", "a" * 5000, "WzEsImFiYyJd.garbage.sig", "<script>", "jeton\x00nul"]
        for token in tokens:
            page = stranger.get("/mot-de-passe/nouveau", params={"jeton": token})
            assert page.status_code == 400 and "plus valable" in html.unescape(page.text)
            refused = stranger.post(
                "/mot-de-passe/nouveau",
                data={
                    "csrf": csrf_of(stranger.get("/").text),
                    "jeton": token,
                    "nouveau": NEW,
                    "confirmation": NEW,
                },
            )
            assert refused.status_code == 400
        # a link signed by another server's key, and an expired one
        links = bob.app.state.reset_links
        account = bob.portal.call(bob.app.state.accounts.by_pseudo, "Bob")
        fingerprint = bob.portal.call(bob.app.state.accounts.password_fingerprint, account)
        forged = password_reset.ResetLinks("another key").token(account.id, fingerprint)
        assert stranger.get("/mot-de-passe/nouveau", params={"jeton": forged}).status_code == 400
        fresh = links.token(account.id, fingerprint)
        monkeypatch.setattr(password_reset, "LINK_SECONDS", -1)
        assert stranger.get("/mot-de-passe/nouveau", params={"jeton": fresh}).status_code == 400
        assert login(other(bob), "Bob", PASSWORD).status_code == 303  # type: ignore[attr-defined]
    assert sink.messages == []


def test_asking_for_links_is_limited_and_servers_without_mail_say_so(
    sqlite_url: str, smtp: tuple[Sink, str]
) -> None:
    _, url = smtp
    with client(sqlite_url, smtp_url=url, limit_login="2 per minute") as c:
        answers = [ask_link(c, "Alice") for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[-1].headers["retry-after"] == "60"
        assert "Trop de tentatives" in html.unescape(ask_link(c, "Alice").text)
    with client(sqlite_url) as c:
        page = html.unescape(c.get("/mot-de-passe-oublie").text)
        assert "n'envoie pas d'e-mails" in page and 'id="forgot-form"' not in page
        assert ask_link(c, "Alice").status_code == 404
        assert 'id="forgot-link"' in c.get("/connexion").text
