"""« Télécharger mes données » and « Supprimer mon compte »: the owner gets a copy of
everything kept about the account; an erasure keeps the games for the others but nothing
that names the person, and is refused (changing nothing) without the password, without
the confirmation, over the limits, or while the person still plays."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import func, select
from test_web_accounts import PASSWORD, admin_command, login, signup, text_of
from test_web_chat import receive
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, csrf_of, join, other, play_to_end

from choux.play.chat_store import chat_messages_t
from choux.play.erasure import ERASED_NAME, ERASED_TEXT
from choux.play.push_store import email_notifications_t, push_subscriptions_t
from choux.play.store import (
    account_sessions_t,
    accounts_t,
    follows_t,
    ratings_t,
    records_t,
    seats_t,
)


def rows(c: Any, table: Any, *where: Any) -> int:
    """How many rows of `table` match `where` in the client's store."""
    store = c.app.state.service.store

    async def count() -> int:
        async with store.db.connect() as conn:
            query = select(func.count()).select_from(table)
            for clause in where:
                query = query.where(clause)
            return int((await conn.execute(query)).scalar_one())

    return int(c.portal.call(count))


def erase(c: Any, password: str = PASSWORD, confirm: bool = True) -> Any:
    page = c.get("/compte/supprimer")
    data = {"csrf": csrf_of(page.text), "mot_de_passe": password}
    if confirm:
        data["confirmer"] = "oui"
    return c.post("/compte/supprimer", data=data, follow_redirects=False)


def post_form(c: Any, code: str, action: str, **data: str) -> Any:
    """Post the table page's form `action` (its CSRF token read from the page)."""
    page = c.get(f"/t/{code}").text
    return c.post(
        f"/t/{code}/{action}", data={"csrf": csrf_of(page), **data}, follow_redirects=False
    )


def chat(ws: Any, text: str) -> dict[str, Any]:
    """Say `text` on the socket; the line as the room got it."""
    ws.send_json({"type": "chat", "text": text})
    for _ in range(50):
        for line in receive(ws, "chat")["lines"]:
            if line["text"] == text:
                return dict(line)
    raise AssertionError(f"{text!r} never came back")


def finished_game_with_chat(c: Any, course: str, line: str) -> tuple[str, dict[str, Any]]:
    """A table against a bot played to its end, with one chat line of seat 0."""
    code = create_table(c, course, ["human", "bot:random"], "Alice")
    with c.websocket_connect(f"/t/{code}/ws") as ws:
        final = play_to_end(ws)
        assert chat(ws, line)["text"] == line
    return code, final


def test_an_account_downloads_everything_kept_about_it(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        assert c.get("/compte/donnees.json", follow_redirects=False).status_code == 303
        assert signup(c, "Alice").status_code == 303
        code, final = finished_game_with_chat(c, course, "Bien joué, robot")
        bob = other(c)
        assert signup(bob, "Bob").status_code == 303
        bobs = create_table(bob, course, ["human", "bot:random"], "Bob")
        with c.websocket_connect(f"/t/{bobs}/ws") as ws:  # Alice watches Bob's table
            assert chat(ws, "Je regarde")["room"] == "spectators"
        page = c.get("/joueur/Bob")
        c.post("/joueur/Bob/suivre", data={"csrf": csrf_of(page.text)})
        response = c.get("/compte/donnees.json")
        assert response.status_code == 200
        assert response.headers["content-disposition"].startswith("attachment;")
        assert response.headers["cache-control"] == "no-store"
        data = json.loads(response.text)
        assert data["compte"]["pseudonyme"] == "Alice"
        assert data["suivis"] == ["Bob"]
        games = {g["table"]: g for g in data["parties"]}
        assert games[code]["etat"] == "terminée" and games[code]["place"] == 1
        assert games[code]["resultat"]["ranks"] == final["result"]["ranks"]
        assert [r["jeu"] for r in data["cotes"]] == [course]
        said = {(m["table"], m["salon"], m["texte"]) for m in data["messages"]}
        assert said == {(code, "joueurs", "Bien joué, robot"), (bobs, "spectateurs", "Je regarde")}
        # Bob's copy holds nothing of Alice's
        theirs = json.loads(bob.get("/compte/donnees.json").text)
        assert theirs["compte"]["pseudonyme"] == "Bob"
        assert theirs["messages"] == [] and code not in {g["table"] for g in theirs["parties"]}


def test_an_erased_account_leaves_its_games_and_nothing_that_names_it(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Alice").status_code == 303
        code, final = finished_game_with_chat(c, course, "Coucou, je suis Alice")
        bob = other(c)
        assert signup(bob, "Bob").status_code == 303
        bobs = create_table(bob, course, ["human", "bot:random"], "Bob")
        with c.websocket_connect(f"/t/{bobs}/ws") as ws:
            chat(ws, "Alice regarde")
        with bob.websocket_connect(f"/t/{bobs}/ws") as ws:
            chat(ws, "Salut Alice")
        page = bob.get("/joueur/Alice")
        bob.post("/joueur/Alice/suivre", data={"csrf": csrf_of(page.text)})
        phone = other(c)
        phone.cookies.clear()
        assert login(phone, "Alice").status_code == 303
        mine = c.app.state.service.tables[code].seats[0].player
        assert rows(c, ratings_t, ratings_t.c.player == mine) == 1
        assert rows(c, follows_t, follows_t.c.followed == mine) == 1

        response = erase(c)
        assert response.status_code == 303
        assert response.headers["location"] == "/connexion?deconnecte=supprime"
        assert "Votre compte est supprimé" in text_of(c.get(response.headers["location"]))
        # this device and the other are guests now; the account is gone
        assert c.get("/compte", follow_redirects=False).headers["location"] == "/connexion"
        assert phone.get("/compte", follow_redirects=False).headers["location"] == "/connexion"
        assert login(phone, "Alice").status_code == 403
        assert bob.get("/joueur/Alice").status_code == 404
        for table, column in (
            (accounts_t, accounts_t.c.player),
            (ratings_t, ratings_t.c.player),
            (follows_t, follows_t.c.followed),
            (follows_t, follows_t.c.follower),
            (seats_t, seats_t.c.player),
            (push_subscriptions_t, push_subscriptions_t.c.player),
            (email_notifications_t, email_notifications_t.c.player),
        ):
            assert rows(c, table, column == mine) == 0, table.name
        assert rows(c, account_sessions_t) == 1  # Bob's only
        # the game stays, under « Compte supprimé », for Bob and anyone
        record = json.loads(bob.get(f"/parties/{final['record_id']}.json").text)
        assert record["names"][0] == ERASED_NAME
        assert record["actions"] and record["result"] == final["result"]
        assert rows(c, records_t) == 1
        table_page = bob.get(f"/t/{code}").text  # reloaded: the names come from the store
        assert json.dumps(ERASED_NAME) in table_page and "Alice" not in table_page
        # every chat line Alice wrote lost its text, as a player and as a spectator;
        # Bob's own line stays as he wrote it
        texts = {
            (r.table_id, r.name, r.text)
            for r in c.portal.call(_chat_rows, c.app.state.service.store)
        }
        assert all(text not in {"Coucou, je suis Alice", "Alice regarde"} for _, _, text in texts)
        assert sum(1 for _, name, text in texts if (name, text) == (ERASED_NAME, ERASED_TEXT)) == 2
        assert any(text == "Salut Alice" for _, _, text in texts)
        # the pseudonym is free again
        newcomer = other(bob)
        newcomer.cookies.clear()
        assert signup(newcomer, "Alice").status_code == 303
        assert code not in newcomer.get("/joueur/Alice").text  # not the old Alice's games


async def _chat_rows(store: Any) -> list[Any]:
    async with store.db.connect() as conn:
        return list((await conn.execute(select(chat_messages_t))).all())


def test_an_erasure_is_refused_and_changes_nothing_when_unconfirmed(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        assert erase(c).status_code == 303  # a guest: to the log-in page, nothing to erase
        assert signup(c, "Alice").status_code == 303
        response = erase(c, confirm=False)
        assert response.status_code == 400 and "Cochez la case" in text_of(response)
        response = erase(c, password="pas le bon mot de passe")
        assert response.status_code == 403 and "pas le bon mot de passe" in text_of(response)
        response = erase(c, password="x" * 100_000)  # hostile: refused, no crash
        assert response.status_code in (403, 413)
        no_csrf = c.post(
            "/compte/supprimer",
            data={"mot_de_passe": PASSWORD, "confirmer": "oui"},
            follow_redirects=False,
        )
        assert no_csrf.status_code == 403
        # seated at a table that waits for players: listed, and the erasure refused
        code = create_table(c, course, ["human", "human"], "Alice")
        page = text_of(c.get("/compte/supprimer"))
        assert f'href="/t/{code}"' in page and "en attente de joueurs" in page
        assert 'id="erase-form"' not in page
        response = erase(c)
        assert response.status_code == 409 and f"/t/{code}" in response.text
        # and while the game is being played
        bob = other(c)
        assert join(bob, code, "Bob").status_code == 303
        assert erase(c).status_code == 409
        assert rows(c, accounts_t) == 1
        assert c.get("/compte").status_code == 200


def test_erasure_attempts_draw_from_the_log_in_budget(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Alice").status_code == 303
        statuses = [erase(c, password=f"mauvais {i}").status_code for i in range(12)]
        assert statuses[0] == 403 and statuses[-1] == 429
        response = erase(c)  # the right password, over the budget: still refused
        assert response.status_code == 429 and "patientez" in text_of(response)
        assert rows(c, accounts_t) == 1


def test_the_operator_erases_an_account_on_request(sqlite_url: str, course: str) -> None:
    """`choux admin erase`: the same erasure for a player who writes to the operator;
    refused without --yes and while the account still plays."""
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        _code, final = finished_game_with_chat(c, course, "Merci pour la partie")
        waiting = create_table(c, course, ["human", "human"], "Germaine")
        unconfirmed = admin_command(sqlite_url, "erase", "germaine")
        assert unconfirmed.returncode == 2 and "--yes" in unconfirmed.stderr
        busy = admin_command(sqlite_url, "erase", "germaine", "--yes")
        assert busy.returncode == 2 and waiting in busy.stderr
        assert "Traceback" not in busy.stderr
        assert rows(c, accounts_t) == 1
        assert post_form(c, waiting, "fermer").status_code == 303
        done = admin_command(sqlite_url, "erase", "GERMAINE", "--yes")
        assert done.returncode == 0, done.stderr
        assert "« Germaine » supprimé" in done.stdout
        assert rows(c, accounts_t) == 0
        assert c.get("/compte", follow_redirects=False).headers["location"] == "/connexion"
        record = json.loads(c.get(f"/parties/{final['record_id']}.json").text)
        assert record["names"][0] == ERASED_NAME
    unknown = admin_command(sqlite_url, "erase", "Personne", "--yes")
    assert unknown.returncode == 2 and "Aucun compte « Personne »" in unknown.stderr


def test_a_player_leaves_a_waiting_table_or_hands_a_started_game_to_a_bot(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as alice:
        bob = other(alice)
        # before the start: the seat opens again for someone else
        waiting = create_table(alice, "chouine", ["human", "human", "human"], "Alice")
        assert join(bob, waiting, "Bob").status_code == 303
        table = alice.app.state.service.tables[waiting]
        assert table.seats[1].kind == "human"
        assert post_form(bob, waiting, "quitter").status_code == 303
        assert table.seats[1].kind == "open" and table.seats[1].player is None
        assert any(line == "Bob a quitté la table." for _, line in table.log)
        # the host does not leave a waiting table: she closes it (another button)
        assert 'id="leave-panel" data-host="1" hidden' in alice.get(f"/t/{waiting}").text
        refused = post_form(alice, waiting, "quitter")
        assert refused.status_code == 409 and "fermez la table" in text_of(refused)
        # a stranger has no seat to leave
        stranger = other(alice)
        refused = post_form(stranger, waiting, "quitter")
        assert refused.status_code == 403 and table.seats[0].kind == "human"
        # during the game: a bot plays the seat to the end, and the person stays out
        live = create_table(alice, course, ["human", "human"], "Alice")
        assert join(bob, live, "Bob").status_code == 303
        assert 'id="leave-form"' in bob.get(f"/t/{live}").text
        assert post_form(bob, live, "quitter").status_code == 303
        table = alice.app.state.service.tables[live]
        assert table.seats[1].kind == "bot" and table.seats[1].excluded
        assert any(
            line == "Bob est remplacé·e par un robot (à sa demande)." for _, line in table.log
        )
        back = post_form(bob, live, "reprendre", place="1")
        assert back.status_code >= 400 and table.seats[1].kind == "bot"
        with alice.websocket_connect(f"/t/{live}/ws") as ws:
            assert play_to_end(ws)["result"] is not None  # the bot answered every move
        # the host leaves a game being played: the next person still seated is the host
        game = create_table(alice, course, ["human", "human"], "Alice")
        assert join(bob, game, "Bob").status_code == 303
        assert post_form(alice, game, "quitter").status_code == 303
        table = alice.app.state.service.tables[game]
        assert [s.host for s in table.seats] == [False, True]
        assert table.log[-1][1] == "Bob est maintenant l'hôte de la table."


def test_an_account_that_left_its_game_is_erased_while_the_game_goes_on(
    sqlite_url: str, course: str
) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Alice").status_code == 303
        code = create_table(c, course, ["human", "human"], "Alice")
        bob = other(c)
        bob.cookies.clear()
        assert join(bob, code, "Bob").status_code == 303
        assert erase(c).status_code == 409
        assert post_form(c, code, "quitter").status_code == 303
        assert erase(c).status_code == 303
        table = c.app.state.service.tables[code]
        assert table.status == "live" and table.seats[0].name == "Compte supprimé (robot)"
        journal = [line for _, line in table.log if isinstance(line, str)]
        assert any("Compte supprimé est remplacé·e par un robot" in line for line in journal)
        assert not any("Alice" in line for line in journal)  # the name, gone from the journal
        assert rows(c, seats_t, seats_t.c.name == "Compte supprimé (robot)") == 1
        with bob.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        record = json.loads(bob.get(f"/parties/{final['record_id']}.json").text)
        assert record["names"] == ["Compte supprimé (robot)", "Bob"]


def test_lines_written_at_a_seat_left_before_the_start_stay_their_authors(
    sqlite_url: str,
) -> None:
    """Chat lines were keyed by seat: a person who left a waiting seat left their lines to
    whoever sat there next (shown as theirs, in their copy, wiped with their erasure), and
    an erasure missed them."""
    with client(sqlite_url) as carl:
        code = create_table(carl, "chouine", ["human", "human", "human"], "Carl")
        eve = other(carl)
        eve.cookies.clear()
        assert signup(eve, "Evelynne").status_code == 303
        assert join(eve, code, "Evelynne", seat=1).status_code == 303
        with eve.websocket_connect(f"/t/{code}/ws") as ws:
            chat(ws, "Evelynne attend à la table")
        assert post_form(eve, code, "quitter").status_code == 303
        danou = other(carl)
        danou.cookies.clear()
        assert join(danou, code, "Danou", seat=1).status_code == 303
        with danou.websocket_connect(f"/t/{code}/ws") as ws:
            chat(ws, "Danou est là")
        with danou.websocket_connect(f"/t/{code}/ws") as ws:
            full = receive(ws, "chat")  # the room as a page opening gets it
        assert full["full"]
        mine = {line["text"]: line["who"] for line in full["lines"]}
        assert mine["Danou est là"] == "s1" and mine["Evelynne attend à la table"] != "s1"
        copy = json.loads(eve.get("/compte/donnees.json").text)
        assert [m["texte"] for m in copy["messages"]] == ["Evelynne attend à la table"]
        assert erase(eve).status_code == 303
        texts = {r.text for r in carl.portal.call(_chat_rows, carl.app.state.service.store)}
        assert texts == {ERASED_TEXT, "Danou est là"}


def test_a_seat_taken_by_another_device_during_the_erasure_is_let_go(sqlite_url: str) -> None:
    """A join from a second device, already past its session check when the erasure ran,
    seated the erased identity under its old name: the erasure's last sweep lets it go."""
    from choux.play.accounts import Accounts
    from choux.play.erasure import erase_account
    from choux.web.account_data import forget_in_memory, let_late_seats_go

    with client(sqlite_url) as c:
        assert signup(c, "RdN").status_code == 303
        carl = other(c)
        carl.cookies.clear()
        waiting = create_table(carl, "chouine", ["human", "human", "human"], "Carl")
        service = c.app.state.service
        account = c.portal.call(Accounts(service.store).by_pseudo, "RdN")
        erased = c.portal.call(erase_account, service.store, account)
        # the late request: a join under the erased identity
        table = service.tables[waiting]
        c.portal.call(service.join, table, 1, "RdN", account.player)
        assert table.seats[1].player == account.player
        c.portal.call(let_late_seats_go, service, erased)
        c.portal.call(forget_in_memory, service, erased, "RdN")
        assert table.seats[1].kind == "open" and table.seats[1].player is None
        assert rows(c, seats_t, seats_t.c.player == account.player) == 0
        assert "RdN" not in " ".join(line for _, line in table.log if isinstance(line, str))


def test_what_a_person_did_keeps_their_name_once_a_bot_takes_the_seat(sqlite_url: str) -> None:
    """The journal rendered every past event with the seat's name of the moment: once Bob
    left, his own first card read « Bob (robot) : … » (an evening's audit)."""
    with client(sqlite_url) as alice:
        code = create_table(alice, "chouine", ["human", "human"], "Alice")
        bob = other(alice)
        bob.cookies.clear()
        assert join(bob, code, "Bob").status_code == 303
        service = alice.app.state.service
        table = service.tables[code]
        for _ in range(2):  # each plays a card of their own
            seat = table.state.actors()[0]
            move = table.state.legal_actions(seat)[0].to_json()
            alice.portal.call(service.act, table, seat, move, f"m{table.version}")
        before = [table.log_text(e, None, set()) for _, e in table.log]
        assert any(line and line.startswith("Bob : ") for line in before)
        assert post_form(bob, code, "quitter").status_code == 303
        after = [table.log_text(e, None, set()) for _, e in table.log]
        assert after[: len(before)] == before  # the past reads as it did
        assert not any(line and line.startswith("Bob (robot) : ") for line in after[: len(before)])
