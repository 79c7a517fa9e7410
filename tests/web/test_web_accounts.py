"""Optional accounts: a guest becomes an account keeping its identity (games, ratings),
logs in on other devices, logs out everywhere; bad input gets French refusals and changes
nothing; passwords never reach the logs."""

from __future__ import annotations

import html
import logging
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from itsdangerous import URLSafeSerializer
from sqlalchemy import create_engine, select, text
from test_web_migrations import alembic_config
from web_fixtures import (
    course_fixture,  # noqa: F401 (fixture)
    db_url_fixture,  # noqa: F401 (fixture)
    sqlite_url_fixture,  # noqa: F401 (fixture)
)
from webhelpers import client, create_table, csrf_of, join, other, play_to_end, receive_state

from choux.play import accounts as accounts_module
from choux.play.store import accounts_t, migrate, seats_t, sync_url, tables_t
from choux.web.session import COOKIE

PASSWORD = "une phrase assez longue"


def text_of(response: object) -> str:
    return html.unescape(response.text)  # type: ignore[attr-defined]


def signup(c: object, pseudo: str, password: str = PASSWORD, again: str | None = None) -> object:
    page = c.get("/compte/creer")  # type: ignore[attr-defined]
    data = {
        "csrf": csrf_of(page.text),
        "pseudo": pseudo,
        "mot_de_passe": password,
        "confirmation": password if again is None else again,
    }
    return c.post("/compte/creer", data=data, follow_redirects=False)  # type: ignore[attr-defined]


def login(c: object, pseudo: str, password: str = PASSWORD) -> object:
    page = c.get("/connexion")  # type: ignore[attr-defined]
    data = {"csrf": csrf_of(page.text), "pseudo": pseudo, "mot_de_passe": password}
    return c.post("/connexion", data=data, follow_redirects=False)  # type: ignore[attr-defined]


def post(c: object, url: str, **data: str) -> object:
    page = c.get("/mes-parties")  # type: ignore[attr-defined]
    return c.post(  # type: ignore[attr-defined]
        url, data={"csrf": csrf_of(page.text), **data}, follow_redirects=False
    )


def account_count(c: object) -> int:
    store = c.app.state.service.store  # type: ignore[attr-defined]

    async def count() -> int:
        async with store.db.connect() as conn:
            return len((await conn.execute(select(accounts_t))).all())

    return int(c.portal.call(count))  # type: ignore[attr-defined]


def test_an_account_keeps_the_guest_games_and_rating(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as c:
        code = create_table(c, course, ["human", "bot:random"], "Alice")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            final = play_to_end(ws)
        ladder = c.get(f"/classement/{course}").text
        assert 'class="me"' in ladder
        response = signup(c, "Alice")
        assert response.status_code == 303 and response.headers["location"].startswith("/compte")
        assert "Connecté·e en tant que" in text_of(c.get("/compte"))
        # the same identity: the ladder still marks Alice's row as this visitor's
        assert 'class="me"' in c.get(f"/classement/{course}").text
        mine = text_of(c.get("/mes-parties"))
        assert f"/parties/{final['record_id']}" in mine
        # on a second device, logging in shows the same games and the same ladder row
        phone = other(c)
        assert f"/parties/{final['record_id']}" not in phone.get("/mes-parties").text
        assert login(phone, "alice").status_code == 303  # pseudonyms ignore case
        assert f"/parties/{final['record_id']}" in phone.get("/mes-parties").text
        assert 'class="me"' in phone.get(f"/classement/{course}").text
        assert 'href="/joueur/Alice"' in phone.get(f"/classement/{course}").text  # a profile
        profile = text_of(phone.get("/joueur/Alice"))
        rank = final["result"]["ranks"][0]
        assert f'data-game="{course}"' in profile and "Parties récentes" in profile
        assert ("victoire" if rank == 1 else f"{rank}e place") in profile


@pytest.mark.parametrize(
    ("pseudo", "message"),
    [
        ("<b>Ana</b>", "Le HTML n'est pas permis"),
        ("a" * 500, "Pseudonyme trop long"),
        ("A", "Pseudonyme trop court"),
        ("Ana Lise", "pas d'espace"),
    ],
)
def test_a_bad_pseudonym_is_refused_in_french(sqlite_url: str, pseudo: str, message: str) -> None:
    with client(sqlite_url) as c:
        response = signup(c, pseudo)
        assert response.status_code == 400
        assert message in text_of(response)
        assert "<b>Ana" not in response.text  # nothing echoed as HTML
        assert account_count(c) == 0


def test_a_taken_pseudonym_and_short_or_mismatched_passwords_are_refused(
    sqlite_url: str,
) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        other_visitor = other(c)
        taken = signup(other_visitor, "GERMAINE")
        assert taken.status_code == 409 and "déjà pris" in text_of(taken)
        twin = signup(other_visitor, "Ｇｅｒｍａｉｎｅ")  # full-width look-alike
        assert twin.status_code == 409 and "déjà pris" in text_of(twin)
        disguised = signup(other_visitor, "G\u0435rmaine")  # a Cyrillic « е »
        assert disguised.status_code == 400 and "alphabets" in text_of(disguised)
        assert signup(other_visitor, "Ольга").status_code == 303  # one alphabet: welcome
        for robot in ("Robot", "Ｂｏｔ2", "Robot_Gaston"):  # refused at every table after
            refused = signup(other(c), robot)
            assert refused.status_code == 400 and "réservés aux robots" in text_of(refused)
        other_visitor = other(c)
        short = signup(other_visitor, "Marcel", "court")
        assert short.status_code == 400 and "trop court" in text_of(short)
        mismatch = signup(other_visitor, "Marcel", PASSWORD, PASSWORD + "!")
        assert mismatch.status_code == 400 and "pas identiques" in text_of(mismatch)
        assert account_count(c) == 2


def test_wrong_password_and_unknown_pseudonym_get_the_same_answer(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        visitor = other(c)
        wrong = login(visitor, "Germaine", "pas le bon mot de passe")
        unknown = login(visitor, "Personne", "pas le bon mot de passe")
        assert wrong.status_code == unknown.status_code == 403
        assert "Pseudonyme ou mot de passe incorrect." in text_of(wrong)
        # the same page but for the pseudonym typed back
        assert re.sub(r'value="[^"]*"', "", wrong.text) == re.sub(
            r'value="[^"]*"', "", unknown.text
        )
        assert "Se connecter" in visitor.get("/").text  # still a guest


def test_an_unknown_pseudonym_costs_one_password_check_too(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No account enumeration by timing: an argon2 verification runs either way."""
    checks: list[str] = []
    real = accounts_module.hasher.verify

    def counting(password: str, hashed: str) -> bool:
        checks.append(hashed)
        return bool(real(password, hashed))

    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        monkeypatch.setattr(accounts_module.hasher, "verify", counting)
        login(other(c), "Germaine", "pas le bon mot de passe")
        login(other(c), "Inconnue", "pas le bon mot de passe")
    assert len(checks) == 2 and all(h.startswith("$argon2id$") for h in checks)


def test_log_in_is_rate_limited_with_a_french_message(sqlite_url: str) -> None:
    with client(sqlite_url, limit_login="3 per minute") as c:
        assert signup(c, "Germaine").status_code == 303
        visitor = other(c)
        for _ in range(3):
            assert login(visitor, "Germaine", "mauvais mot de passe").status_code == 403
        refused = login(visitor, "Germaine", PASSWORD)  # even the right one, for now
        assert refused.status_code == 429
        assert "Trop de tentatives de connexion" in text_of(refused)
        assert "Se connecter" in visitor.get("/").text


def test_a_stranger_cannot_lock_an_owner_out_of_their_account(sqlite_url: str) -> None:
    """Wrong passwords from another address used up the account's own budget: its owner,
    with the right password, was refused for five minutes, again and again (an audit)."""
    from starlette.testclient import TestClient

    with client(sqlite_url, limit_login="3 per minute") as c:
        assert signup(c, "Germaine").status_code == 303

        def at(address: str) -> TestClient:
            visitor = TestClient(c.app, client=(address, 40000))
            visitor.portal = c.portal
            return visitor

        stranger = at("10.4.0.1")
        for _ in range(3):
            assert login(stranger, "Germaine", "mauvais mot de passe").status_code == 403
        assert login(stranger, "Germaine", "encore faux").status_code == 429
        assert login(at("10.5.0.1"), "Germaine", PASSWORD).status_code == 303


def test_a_forged_or_revoked_session_is_a_guest(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        player = c.get("/compte")  # logged in
        assert "Germaine" in player.text
        # a cookie signed with another key, and one signed right but with a made-up session
        for key, auth in (("not-the-key", "x" * 43), ("test-secret", "y" * 43)):
            forged = URLSafeSerializer(key, salt="choux-session").dumps(
                {"csrf": "c" * 24, "player": "p" * 16, "auth": auth}
            )
            visitor = other(c)
            visitor.cookies.set(COOKIE, forged)
            page = visitor.get("/compte", follow_redirects=False)
            assert page.status_code == 303 and page.headers["location"] == "/connexion"
            assert "Se connecter" in visitor.get("/").text


def test_a_guest_cookie_copied_before_the_sign_up_is_not_the_account(
    sqlite_url: str, course: str
) -> None:
    """Session fixation (an audit): a copy of the guest cookie taken before the sign-up (a
    shared computer) carried the identity the account took over, with no account session
    to revoke: it listed the account's games, read its hand and played its seat, even after
    « déconnecter tous mes appareils ». It is now a fresh guest."""
    with client(sqlite_url) as c:
        c.get("/")
        copied = c.cookies.get(COOKIE)
        assert copied
        assert signup(c, "Germaine").status_code == 303
        code = create_table(c, course, ["human", "human"], "Germaine")
        joined = other(c)
        join(joined, code, 1, "Bob")
        form = c.get(f"/nouvelle?jeu={course}")
        made = c.post(
            "/tables",
            data={
                "csrf": csrf_of(form.text),
                "jeu": course,
                "joueurs": "2",
                "pendule": "0",
                "pseudo": "Germaine",
                "prive": "1",
                "place_0": "human",
                "place_1": "human",
            },
            follow_redirects=False,
        )
        private = made.headers["location"].rsplit("/", 1)[1]
        assert post(c, "/deconnexion-partout").status_code == 303
        thief = other(c)
        thief.cookies.set(COOKIE, copied)
        assert code not in thief.get("/mes-parties").text
        assert thief.get(f"/t/{code}/etat.json").json()["seat"] is None
        with thief.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] is None
        # logged out, the owner's own private table offers to log in (only « Retour au
        # salon » before: an evening's audit)
        refused = c.get(f"/t/{private}")
        assert refused.status_code == 403 and 'id="error-login"' in refused.text
        # the owner logs in again and has everything
        assert login(c, "Germaine").status_code == 303
        assert c.get(f"/t/{private}").status_code == 200
        assert code in c.get("/mes-parties").text
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] == 0


def test_log_out_everywhere_and_password_change(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        phone = other(c)
        assert login(phone, "Germaine").status_code == 303
        assert "2 appareils connectés" in text_of(c.get("/compte"))
        # a wrong current password changes nothing
        wrong = post(
            c,
            "/compte/mot-de-passe",
            actuel="faux faux faux",
            nouveau="x" * 12,
            confirmation="x" * 12,
        )
        assert wrong.status_code == 403 and "pas le bon" in text_of(wrong)
        assert "Germaine" in phone.get("/compte").text
        new = "un tout nouveau secret"
        changed = post(c, "/compte/mot-de-passe", actuel=PASSWORD, nouveau=new, confirmation=new)
        # a redirect (a reload sends no password again) to the page that says it is done
        assert changed.status_code == 303 and changed.headers["location"] == "/compte?modifie=1"
        assert "Mot de passe changé" in text_of(c.get(changed.headers["location"]))
        assert phone.get("/compte", follow_redirects=False).status_code == 303  # logged out
        assert login(phone, "Germaine").status_code == 403  # the old password is gone
        assert login(phone, "Germaine", new).status_code == 303
        # log out everywhere: both devices become guests
        assert post(c, "/deconnexion-partout").status_code == 303
        assert phone.get("/compte", follow_redirects=False).status_code == 303
        assert c.get("/compte", follow_redirects=False).status_code == 303


def test_passwords_never_reach_the_logs(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with client(sqlite_url) as c:
        signup(c, "Germaine", "mot de passe secret 1")
        login(other(c), "Germaine", "mot de passe secret 2")
        signup(other(c), "<i>", "mot de passe secret 3")
        login(other(c), "Germ\naine\x1b[31m", "mot de passe secret 4")
    assert "mot de passe secret" not in caplog.text
    # a refused log-in is told to the operator (fail2ban), the pseudonym as inert data
    refused = [r.getMessage() for r in caplog.records if "log-in refused" in r.getMessage()]
    assert refused == [
        "log-in refused for 'Germaine' from testclient",
        "log-in refused for 'Germ\\naine\\x1b[31m' from testclient",
    ], refused


def test_the_accounts_migration_upgrades_a_release_0002_database(db_url: str) -> None:
    command.upgrade(alembic_config(db_url), "0002")
    engine = create_engine(sync_url(db_url))
    when = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        with engine.begin() as conn:  # a table, a seat with an identity and a rating
            conn.execute(
                text(
                    "insert into tables (code, game, players, seed, options, clock, status,"
                    " version, created_at, updated_at) values ('vieille', 'chouine', 2, 1,"
                    " '{}', 0, 'live', 3, :when, :when)"
                ),
                {"when": when},
            )
            table_id = conn.execute(text("select id from tables")).scalar_one()
            conn.execute(
                text(
                    "insert into seats (table_id, seat, kind, name, host, player)"
                    " values (:t, 0, 'human', 'Ana', true, 'guest-ana')"
                ),
                {"t": table_id},
            )
            conn.execute(
                text(
                    "insert into ratings (game, player, name, mu, sigma, games, wins,"
                    " updated_at) values ('chouine', 'guest-ana', 'Ana', 27, 7, 4, 3, :when)"
                ),
                {"when": when},
            )
        migrate(db_url)
        with engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.code == "vieille")).one()
            assert (row.version, row.private, row.secret) == (3, False, None)
            seat = conn.execute(select(seats_t)).one()
            assert (seat.name, seat.player) == ("Ana", "guest-ana")
            games = conn.execute(text("select games from ratings")).scalar_one()
            assert games == 4
            assert conn.execute(select(accounts_t)).all() == []
    finally:
        engine.dispose()


def test_an_account_plays_its_seat_from_every_device_at_once(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as laptop:
        assert signup(laptop, "Germaine").status_code == 303
        code = create_table(laptop, course, ["human", "human"], "Germaine")
        phone = other(laptop)
        assert login(phone, "Germaine").status_code == 303
        assert "Vous jouez à la place 1" in text_of(phone.get(f"/t/{code}"))
        # neither device pushed the other out: both sockets play seat 0
        for device in (laptop, phone):
            with device.websocket_connect(f"/t/{code}/ws") as ws:
                assert receive_state(ws)["seat"] == 0
        # a stranger is a spectator; after « déconnecter tous mes appareils », so is the phone
        with other(laptop).websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] is None
        assert post(laptop, "/deconnexion-partout").status_code == 303
        with phone.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] is None
        assert "Vous regardez cette partie" in text_of(phone.get(f"/t/{code}"))


@pytest.mark.parametrize("how", ["partout", "mot de passe", "ici"])
def test_a_closed_sessions_open_socket_stops_playing_at_once(
    sqlite_url: str, course: str, how: str
) -> None:
    """The phone's page stayed open while its session was closed (from the laptop, by a new
    password, or on the phone itself): its socket kept playing the seat (an audit). It is now
    closed with 4401; the page reconnects with its cookie, a guest's."""
    from starlette.websockets import WebSocketDisconnect

    with client(sqlite_url) as laptop:
        assert signup(laptop, "Germaine").status_code == 303
        code = create_table(laptop, course, ["human", "human"], "Germaine")
        phone = other(laptop)
        assert login(phone, "Germaine").status_code == 303
        with (
            laptop.websocket_connect(f"/t/{code}/ws") as kept,
            phone.websocket_connect(f"/t/{code}/ws") as ws,
        ):
            assert receive_state(ws)["seat"] == 0
            receive_state(kept)
            if how == "partout":
                assert post(laptop, "/deconnexion-partout").status_code == 303
            elif how == "mot de passe":
                new = "une autre phrase assez longue"
                answer = post(
                    laptop, "/compte/mot-de-passe", actuel=PASSWORD, nouveau=new, confirmation=new
                )
                assert answer.status_code == 303
            else:
                assert post(phone, "/deconnexion").status_code == 303
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 4401
            if how == "mot de passe":  # the laptop kept its session, and its socket
                kept.send_json({"type": "ping"})
                while kept.receive_json()["type"] != "pong":
                    pass
        with phone.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] is None


def test_my_games_put_the_tables_waiting_for_me_on_top(sqlite_url: str, course: str) -> None:
    with client(sqlite_url) as alice:
        bob = other(alice)
        waiting = create_table(alice, course, ["human", "human"], "Alice")  # Alice moves first
        other_table = create_table(bob, course, ["human", "human"], "Bob")  # Bob moves first
        for visitor, code, name in ((bob, waiting, "Bob"), (alice, other_table, "Alice")):
            page = visitor.get(f"/t/{code}")
            visitor.post(
                f"/t/{code}/rejoindre",
                data={"csrf": csrf_of(page.text), "pseudo": name},
                follow_redirects=False,
            )
        mine = alice.get("/mes-parties").text
        ongoing = mine.split('id="ongoing"', 1)[1].split("</section>", 1)[0]
        # the most recent table is Bob's, yet the one where Alice must play comes first
        assert ongoing.index(f"/t/{waiting}") < ongoing.index(f"/t/{other_table}")
        assert ongoing.count("à vous de jouer") == 1 and "turn-badge" in ongoing
        bobs = bob.get("/mes-parties").text
        assert bobs.index(f"/t/{other_table}") < bobs.index(f"/t/{waiting}")


def test_an_accounts_pseudonym_is_refused_to_anyone_else_at_a_table(sqlite_url: str) -> None:
    """A guest could sit as « Germaine » beside the account Germaine (and rank on the ladder
    under her name); look-alike spellings too, and the shared screen's added players."""
    with client(sqlite_url) as germaine:
        assert signup(germaine, "Germaine").status_code == 303  # type: ignore[attr-defined]
        guest = other(germaine)
        page = guest.get("/nouvelle?jeu=chouine")
        form = {
            "csrf": csrf_of(page.text),
            "jeu": "chouine",
            "joueurs": "2",
            "pendule": "0",
            "place_0": "human",
            "place_1": "bot:random",
        }
        for spelling in ("Germaine", "germaine", "Ｇｅｒｍａｉｎｅ"):
            refused = guest.post("/tables", data={**form, "pseudo": spelling})
            assert refused.status_code == 409, (spelling, refused.status_code)
            assert "est le pseudonyme d'un compte" in text_of(refused)
        code = create_table(germaine, "chouine", ["human", "human"], name="Germaine")
        taken = join(guest, code, "GERMAINE")
        assert taken.status_code == 409 and "connectez-vous" in text_of(taken)
        assert join(guest, code, "Germain").status_code == 303
        table = germaine.app.state.service.tables[code]  # type: ignore[attr-defined]
        assert [s.name for s in table.seats] == ["Germaine", "Germain"]


def test_a_name_in_cyrillic_or_greek_look_alikes_of_an_account_is_refused(
    sqlite_url: str,
) -> None:
    """« Сосо », all in Cyrillic, reads « Coco »: mixing alphabets was refused, one
    whole alphabet of look-alikes was not. Refused as an account and at a table; a real
    Cyrillic or Greek name that reads as no account stays welcome."""
    cyrillic_coco, greek_coco = "\u0421\u043e\u0441\u043e", "\u03f9\u03bf\u03f9\u03bf"
    with client(sqlite_url) as coco:
        assert signup(coco, "Coco").status_code == 303  # type: ignore[attr-defined]
        impostor = other(coco)
        impostor.cookies.clear()
        for spelling in (cyrillic_coco, cyrillic_coco.upper(), greek_coco):
            refused = signup(impostor, spelling)
            assert refused.status_code == 409, spelling  # type: ignore[attr-defined]
            assert "se lit comme celui du compte « Coco »" in text_of(refused)
        assert account_count(coco) == 1
        code = create_table(coco, "chouine", ["human", "human"], name="Coco")
        taken = join(impostor, code, cyrillic_coco)
        assert taken.status_code == 409 and "« Coco »" in text_of(taken)
        assert signup(impostor, "\u041e\u043b\u044c\u0433\u0430").status_code == 303  # Ольга
        assert join(impostor, code, "\u041e\u043b\u044c\u0433\u0430").status_code == 303


def test_the_operator_resets_a_forgotten_password(sqlite_url: str) -> None:
    """`choux admin reset-password`: a player who forgot theirs had no way back in (the
    site has no e-mail reset); the new password works, the old one and every device's
    session no longer do. An unknown pseudonym is one line, exit 2."""
    import subprocess
    import sys

    def admin(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "choux", "admin", *args, "--db", sqlite_url]
        return subprocess.run(command, capture_output=True, text=True, timeout=60)

    with client(sqlite_url) as c:
        assert signup(c, "Germaine").status_code == 303
        phone = other(c)
        assert login(phone, "Germaine").status_code == 303
        done = admin("reset-password", "germaine")  # the pseudonym as typed, any case
        assert done.returncode == 0, done.stderr
        new = done.stdout.split("« germaine » : ")[1].split()[0]
        assert len(new) >= 16
        assert "Germaine" in admin("accounts").stdout
        assert login_needed(phone)  # the phone's session was closed
        assert login(other(c), "Germaine").status_code == 403  # the old password
        assert login(other(c), "Germaine", new).status_code == 303
    unknown = admin("reset-password", "Personne")
    assert unknown.returncode == 2 and "Aucun compte « Personne »" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    # a wrong path made and migrated a new empty base, then answered « Aucun compte »
    if sqlite_url.startswith("sqlite"):
        nowhere = sqlite_url + ".absent"
        command = [sys.executable, "-m", "choux", "admin", "accounts", "--db", nowhere]
        lost = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert lost.returncode == 2 and "Pas de base SQLite" in lost.stderr
        assert not Path(nowhere.removeprefix("sqlite:///")).exists()


def login_needed(c: object) -> bool:
    """The device's session is closed: its account page asks to log in again."""
    page = c.get("/compte", follow_redirects=False)  # type: ignore[attr-defined]
    return page.status_code == 303 and page.headers["location"].startswith("/connexion")


def admin_command(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`choux admin …` on the database at `url`, as another program (the server runs)."""
    command = [sys.executable, "-m", "choux", "admin", *args, "--db", url]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_the_operator_suspends_a_cheat_and_restores_them(sqlite_url: str, course: str) -> None:
    """`choux admin suspend`: a cheating or abusive account could not be stopped. Now it
    cannot log in (told so only with the right password: no oracle for the others), its
    phone's open table page is closed by the running server's session sweep, it leaves the
    ladder and its profile; `restore` lets it back in. A hostile note is refused."""
    from starlette.websockets import WebSocketDisconnect

    with client(sqlite_url, session_sweep_seconds=0.3) as c:
        assert signup(c, "Germaine").status_code == 303
        code = create_table(c, course, ["human", "bot:random"], "Germaine")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            play_to_end(ws)
        assert 'href="/joueur/Germaine"' in c.get(f"/classement/{course}").text
        phone = other(c)
        assert login(phone, "Germaine").status_code == 303
        table = create_table(phone, course, ["human", "human"], "Germaine")
        too_long = admin_command(sqlite_url, "suspend", "Germaine", "--reason", "x" * 201)
        assert too_long.returncode == 2 and "Raison trop longue" in too_long.stderr
        assert "Traceback" not in too_long.stderr
        assert login(other(c), "Germaine").status_code == 303  # nothing changed
        with phone.websocket_connect(f"/t/{table}/ws") as ws:
            assert receive_state(ws)["seat"] == 0
            done = admin_command(
                sqlite_url, "suspend", "germaine", "--reason", "triche\x1b[31m répétée\n[bold]"
            )
            assert done.returncode == 0, done.stderr
            assert "« Germaine » suspendu" in done.stdout
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()  # the sweep closes it within 0.3 s
            assert closed.value.code == 4401
        with phone.websocket_connect(f"/t/{table}/ws") as ws:
            assert receive_state(ws)["seat"] is None  # a guest now
        listing = admin_command(sqlite_url, "accounts").stdout
        assert "Germaine  [suspendu le " in listing and ": triche [31m répétée [bold]]" in listing
        assert "\x1b" not in listing
        refused = login(other(c), "Germaine")
        assert refused.status_code == 403 and "Ce compte est suspendu" in text_of(refused)
        wrong = login(other(c), "Germaine", "pas le bon mot de passe")
        assert wrong.status_code == 403 and "suspendu" not in text_of(wrong)
        assert "Germaine" not in c.get(f"/classement/{course}").text
        gone = c.get("/joueur/Germaine")
        assert gone.status_code == 404 and "Ce compte est suspendu" in text_of(gone)
        assert login_needed(c)  # the laptop was logged out too
        restored = admin_command(sqlite_url, "restore", "GERMAINE")
        assert restored.returncode == 0 and "« Germaine » rétabli" in restored.stdout
        assert login(other(c), "Germaine").status_code == 303
        assert 'href="/joueur/Germaine"' in c.get(f"/classement/{course}").text
        assert "suspendu" not in admin_command(sqlite_url, "accounts").stdout
    unknown = admin_command(sqlite_url, "suspend", "Personne")
    assert unknown.returncode == 2 and "Aucun compte « Personne »" in unknown.stderr


def test_a_password_reset_by_the_operator_closes_the_open_pages(sqlite_url: str) -> None:
    """`choux admin reset-password` closed the sessions in the database, but a running
    server kept their open sockets playing (a gap of the last note): the sweep closes
    them."""
    from starlette.websockets import WebSocketDisconnect

    with client(sqlite_url, session_sweep_seconds=0.3) as c:
        assert signup(c, "Germaine").status_code == 303
        code = create_table(c, "chouine", ["human", "human"], "Germaine")
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            assert receive_state(ws)["seat"] == 0
            assert admin_command(sqlite_url, "reset-password", "Germaine").returncode == 0
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):
                    ws.receive_json()
            assert closed.value.code == 4401


def test_names_that_pass_for_another_a_robot_or_the_site_are_refused(sqlite_url: str) -> None:
    """« AIice » (a capital i) beside « Alice », « BertiIIe86 » beside the account
    « Bertille86 », « Alice (robot) », « Place 3 », « Spectateur·rice », a name of accents
    alone or of accents stacked high were all accepted (an outside audit)."""
    with client(sqlite_url) as bertille:
        assert signup(bertille, "Bertille86").status_code == 303
        impostor = other(bertille)
        impostor.cookies.clear()
        for twin in ("BertiIIe86", "Berti1le86", "BERTILLE86"):
            refused = signup(impostor, twin)
            assert refused.status_code == 409, twin
        assert "se lit comme celui du compte « Bertille86 »" in text_of(
            signup(impostor, "BertiIIe86")
        )
        assert signup(impostor, "Spectatrice").status_code == 400
        assert account_count(bertille) == 1
        code = create_table(bertille, "chouine", ["human", "human", "human"], name="Alice")
        taken = join(impostor, code, "AIice")
        assert taken.status_code == 409 and "se lit comme « Alice »" in text_of(taken)
        assert join(impostor, code, "Berti1le86").status_code == 409  # the account's twin
        for name, why in (
            ("Alice (robot)", "réservés aux robots"),
            ("Place 3", "place libre"),
            ("Spectateur·rice", "place libre"),
            ("Compte supprimé", "place libre"),
            ("\u0301\u0301", "au moins une lettre"),
            ("Ze\u0301\u0301\u0301\u0301\u0301", "accents empilés"),
        ):
            refused = join(impostor, code, name)
            assert refused.status_code == 400 and why in text_of(refused), name
        assert join(impostor, code, "Talbot").status_code == 303  # a name, not a robot
        assert join(other(bertille), code, "Zoé").status_code == 303


@pytest.mark.parametrize(
    "hostile",
    [
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/t/abc",
        "/t/../x",
        "/t/abc/../../x",
        "/t/abc?x=1",
        "/t/abc\nLocation: //evil.example",
        "/t/ABC",
        "/t/",
        "/mes-parties/../t/abc",
        "javascript:alert(1)",
        "/t/%2e%2e",
    ],
)
def test_a_log_in_leads_back_to_a_table_and_nowhere_else(sqlite_url: str, hostile: str) -> None:
    """« reconnectez-vous pour reprendre votre place » led to « Mes parties »: the log-in
    now leads back to the table (`suite`), a local `/t/<code>` only (no open redirect)."""
    with client(sqlite_url) as c:
        signup(c, "Alice")
        c.post("/deconnexion", data={"csrf": csrf_of(c.get("/compte").text)})
        page = c.get("/connexion", params={"suite": "/t/abc23"})
        assert 'name="suite" value="/t/abc23"' in page.text
        data = {"csrf": csrf_of(page.text), "pseudo": "Alice", "mot_de_passe": PASSWORD}
        wrong = c.post("/connexion", data=data | {"mot_de_passe": "faux", "suite": "/t/abc23"})
        assert wrong.status_code == 403 and 'value="/t/abc23"' in wrong.text  # kept to retry
        back = c.post("/connexion", data=data | {"suite": "/t/abc23"}, follow_redirects=False)
        assert back.status_code == 303 and back.headers["location"] == "/t/abc23"
        # already logged in: straight there
        again = c.get("/connexion", params={"suite": "/t/abc23"}, follow_redirects=False)
        assert again.headers["location"] == "/t/abc23"
        refused = c.get("/connexion", params={"suite": hostile}, follow_redirects=False)
        assert refused.headers["location"] == "/mes-parties"

        c.post("/deconnexion", data={"csrf": csrf_of(c.get("/compte").text)})
        page = c.get("/connexion", params={"suite": hostile})
        assert 'name="suite"' not in page.text
        data = {"csrf": csrf_of(page.text), "pseudo": "Alice", "mot_de_passe": PASSWORD}
        response = c.post("/connexion", data=data | {"suite": hostile}, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/mes-parties"
