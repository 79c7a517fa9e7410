"""« Modération »: only the accounts the operator named (`choux admin moderator`) see it
(404 for anyone else, and for a newcomer under a moderator's freed pseudonym); they stop
any game (unrated, the journal says why), take a chat line off every page at once,
suspend an account; hostile forms change nothing."""

from __future__ import annotations

import html
from typing import Any

from sqlalchemy import select
from test_web_account_data import chat, erase, post_form, rows
from test_web_accounts import admin_command, login, signup
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, csrf_of, join, other, receive_state

from choux.play.chat_store import chat_messages_t
from choux.play.moderation import REMOVED
from choux.play.store import records_t


def name_moderator(c: Any, pseudo: str, moderator: bool = True) -> None:
    """The operator's `choux admin moderator PSEUDO`, on the running app's store."""
    accounts = c.app.state.accounts

    async def name() -> None:
        account = await accounts.by_pseudo(pseudo)
        assert account is not None
        await accounts.set_moderator(account, moderator)

    c.portal.call(name)


def moderate(c: Any, path: str, **data: str) -> Any:
    page = c.get("/compte")
    return c.post(path, data={"csrf": csrf_of(page.text), **data}, follow_redirects=False)


def test_only_the_named_accounts_see_the_moderation(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as hector:
        assert hector.get("/moderation").status_code == 404  # a guest
        assert signup(hector, "Hector").status_code == 303
        assert hector.get("/moderation").status_code == 404  # not named yet
        named = admin_command(sqlite_url, "moderator", "hector")
        assert named.returncode == 0 and "« Hector » est modérateur" in named.stdout
        assert "[modérateur]" in admin_command(sqlite_url, "accounts").stdout
        assert 'id="moderation-link"' in hector.get("/compte").text
        assert hector.get("/moderation").status_code == 200
        simone = other(hector)
        simone.cookies.clear()
        assert signup(simone, "Simone").status_code == 303
        assert 'id="moderation-link"' not in simone.get("/compte").text
        code = create_table(simone, course, ["human", "human"], "Simone")
        for path in ("/moderation", "/moderation?fait=retire"):
            page = simone.get(path)
            assert page.status_code == 404 and "Cette page n'existe pas" in html.unescape(page.text)
        for path in (f"/moderation/t/{code}/arreter", "/moderation/chat/1/retirer"):
            assert moderate(simone, path).status_code == 404
        assert moderate(simone, "/moderation/suspendre", pseudo="Hector").status_code == 404
        assert moderate(simone, "/moderation/retablir", pseudo="Hector").status_code == 404
        assert simone.app.state.service.tables[code].status == "open"
        assert login(other(hector), "Hector").status_code == 303  # not suspended


def test_a_moderator_stops_a_game_and_takes_a_line_off_every_page(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as hector:
        assert signup(hector, "Hector").status_code == 303
        name_moderator(hector, "Hector")
        alice = other(hector)
        alice.cookies.clear()
        code = create_table(alice, course, ["human", "human"], "Alice")
        bob = other(alice)
        bob.cookies.clear()
        assert join(bob, code, "Bob").status_code == 303
        page = html.unescape(hector.get("/moderation").text)
        assert f'href="/t/{code}"' in page and "Alice, Bob" in page
        with (
            alice.websocket_connect(f"/t/{code}/ws") as wa,
            bob.websocket_connect(f"/t/{code}/ws") as wb,
        ):
            said = chat(wb, "un message injurieux")
            assert chat(wa, "bonjour")["text"] == "bonjour"
            listed = html.unescape(hector.get("/moderation").text)
            assert "un message injurieux" in listed
            done = moderate(hector, f"/moderation/chat/{said['id']}/retirer")
            assert done.status_code == 303
            # Alice's open page gets the room again, the line replaced
            for _ in range(50):
                message = wa.receive_json()
                if message["type"] == "chat" and message["full"]:
                    break
            texts = {line["id"]: line["text"] for line in message["lines"]}
            assert texts[said["id"]] == REMOVED and "bonjour" in texts.values()
            stopped = moderate(hector, f"/moderation/t/{code}/arreter", raison="triche")
            assert stopped.status_code == 303
            for _ in range(50):
                state = receive_state(wa)
                if state["status"] == "over":
                    break
            assert state["status"] == "over" and state["result"] is None
        journal = [text for _, text in hector.app.state.service.tables[code].log]
        assert journal[-1] == "Partie arrêtée par la modération : triche"
        assert rows(hector, records_t) == 0  # not rated: no record
        again = moderate(hector, f"/moderation/t/{code}/arreter")
        assert again.status_code == 409 and "déjà finie" in html.unescape(again.text)

        def stored() -> list[str]:
            async def read() -> list[str]:
                async with hector.app.state.service.store.db.connect() as conn:
                    result = await conn.execute(select(chat_messages_t.c.text))
                    return [r.text for r in result]

            return list(hector.portal.call(read))

        assert "un message injurieux" not in stored() and REMOVED in stored()


def test_a_moderator_closes_a_waiting_table_and_suspends_an_account(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as hector:
        assert signup(hector, "Hector").status_code == 303
        name_moderator(hector, "Hector")
        spammer = other(hector)
        spammer.cookies.clear()
        assert signup(spammer, "Spammeur").status_code == 303
        code = create_table(spammer, course, ["human", "human"], "Spammeur")
        assert moderate(hector, f"/moderation/t/{code}/arreter").status_code == 303
        table = hector.app.state.service.tables[code]
        assert table.status == "over" and table.log[-1][1] == "Partie arrêtée par la modération."
        done = moderate(hector, "/moderation/suspendre", pseudo="spammeur", raison="pourriels")
        assert done.status_code == 303
        assert spammer.get("/compte", follow_redirects=False).status_code == 303  # logged out
        assert login(other(hector), "Spammeur").status_code == 403
        listed = html.unescape(hector.get("/moderation").text)
        assert 'id="moderation-suspended"' in listed and "pourriels" in listed
        assert moderate(hector, "/moderation/retablir", pseudo="Hector").status_code == 404
        assert moderate(hector, "/moderation/retablir", pseudo="Spammeur").status_code == 303
        assert login(other(hector), "Spammeur").status_code == 303
        assert 'id="moderation-suspended"' not in hector.get("/moderation").text
        assert moderate(hector, "/moderation/suspendre", pseudo="Spammeur").status_code == 303
        # hostile or mistaken forms: a French refusal, nothing changed
        assert moderate(hector, "/moderation/suspendre", pseudo="Hector").status_code == 400
        assert moderate(hector, "/moderation/suspendre", pseudo="Personne").status_code == 404
        assert moderate(hector, "/moderation/suspendre", pseudo="x" * 5000).status_code == 404
        assert moderate(hector, "/moderation/t/nexistepas/arreter").status_code == 404
        assert moderate(hector, "/moderation/chat/999999/retirer").status_code == 404
        assert moderate(hector, "/moderation/chat/-3/retirer").status_code == 404
        assert moderate(hector, "/moderation/chat/abc/retirer").status_code in (404, 422)
        other_table = create_table(hector, course, ["human", "human"], "Hector")
        long = moderate(hector, f"/moderation/t/{other_table}/arreter", raison="x" * 201)
        assert long.status_code == 400 and "Raison trop longue" in html.unescape(long.text)
        assert hector.app.state.service.tables[other_table].status == "open"
        no_csrf = hector.post(f"/moderation/t/{other_table}/arreter", follow_redirects=False)
        assert no_csrf.status_code == 403
        assert hector.app.state.service.tables[other_table].status == "open"
        assert post_form(hector, other_table, "fermer").status_code == 303


def test_the_right_goes_with_the_account_not_the_pseudonym(sqlite_url: str) -> None:
    """A moderator's pseudonym freed by an erasure, taken by a newcomer: the newcomer is no
    moderator (the right was a list of pseudonyms in a setting, and went to whoever
    registered one). The operator takes the right back with `--remove`."""
    with client(sqlite_url) as hector:
        assert signup(hector, "Hector").status_code == 303
        name_moderator(hector, "Hector")
        assert hector.get("/moderation").status_code == 200
        assert erase(hector).status_code == 303
        stranger = other(hector)
        stranger.cookies.clear()
        assert signup(stranger, "Hector").status_code == 303
        assert stranger.get("/moderation").status_code == 404
        assert 'id="moderation-link"' not in stranger.get("/compte").text
        assert moderate(stranger, "/moderation/suspendre", pseudo="Hector").status_code == 404
        germaine = other(hector)
        germaine.cookies.clear()
        assert signup(germaine, "Germaine").status_code == 303
        name_moderator(germaine, "Germaine")
        assert germaine.get("/moderation").status_code == 200
        removed = admin_command(sqlite_url, "moderator", "Germaine", "--remove")
        assert removed.returncode == 0 and "n'est plus modérateur" in removed.stdout
        assert germaine.get("/moderation").status_code == 404
        unknown = admin_command(sqlite_url, "moderator", "Personne")
        assert unknown.returncode == 2 and "Aucun compte « Personne »" in unknown.stderr
