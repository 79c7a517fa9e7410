"""Arguments typed into La parlote's moves: a moderator takes one off every page, out of
the stored moves and out of the record; an erased account's arguments go the same way.
The game replays the same (an argument removed still counts as typed), hostile forms
change nothing."""

from __future__ import annotations

import html
import json
from typing import Any

from sqlalchemy import select
from test_web_account_data import erase, post_form
from test_web_accounts import signup
from test_web_moderation import moderate, name_moderator
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, other, play_to_end, receive_state

from choux.play.store import actions_t, records_t
from choux.play.typed_texts import (
    REMOVED_BY_MODERATION,
    REMOVED_WITH_ACCOUNT,
    remove_typed_text,
)

INSULT = "Tu joues comme un pied, Bruno"
SEATS = ["human", "bot:random", "bot:random", "bot:random"]


def play_until_argued(ws: Any, text: str, typed: str | None = None) -> dict[str, Any]:
    """Play the first legal action of each state, the first card with `typed` (else
    `text`) as its argument; the first state that shows `text`."""
    argued = False
    for _ in range(3000):
        message = ws.receive_json()
        if message.get("type") != "state":
            continue
        if argued and text in json.dumps(message["view"], ensure_ascii=False):
            return dict(message)
        legal = message["view"].get("legal") or []
        if legal and message["status"] == "live":
            action = dict(legal[0]["action"])
            if action.get("type") == "jouer" and not argued:
                action["argument"] = text if typed is None else typed
                argued = True
            ws.send_json({"type": "action", "id": f"a{message['version']}", "action": action})
    raise AssertionError("the argument never showed")


def stored(c: Any, code: str) -> tuple[list[str], list[str]]:
    """The table's stored moves and records, as JSON texts."""
    store = c.app.state.service.store

    async def read() -> tuple[list[str], list[str]]:
        table_id = c.app.state.service.tables[code].row.id
        async with store.db.connect() as conn:
            moves = await conn.execute(
                select(actions_t.c.action).where(actions_t.c.table_id == table_id)
            )
            records = await conn.execute(
                select(records_t.c.record).where(records_t.c.table_id == table_id)
            )
            return [m.action for m in moves], [r.record for r in records]

    result: tuple[list[str], list[str]] = c.portal.call(read)
    return result


def argued_move(c: Any, code: str, text: str) -> int:
    """The number of the stored move whose argument is `text`."""
    moves, _ = stored(c, code)
    found = [i for i, m in enumerate(moves, start=1) if json.loads(m).get("argument") == text]
    assert len(found) == 1
    return found[0]


def test_a_moderator_takes_an_argument_off_the_game(sqlite_url: str) -> None:
    with client(sqlite_url) as hector:
        assert signup(hector, "Hector").status_code == 303
        name_moderator(hector, "Hector")
        alice = other(hector)
        alice.cookies.clear()
        code = create_table(alice, "parlote", SEATS, "Alice", {"target": "100"})
        with alice.websocket_connect(f"/t/{code}/ws") as ws:
            play_until_argued(ws, INSULT)
            listed = html.unescape(hector.get("/moderation").text)
            assert INSULT in listed and 'id="moderation-arguments"' in listed
            seq = argued_move(hector, code, INSULT)
            # hostile or mistaken forms first: nothing changes
            assert alice.post(
                f"/moderation/t/{code}/coup/{seq}/retirer", follow_redirects=False
            ).status_code in (403, 404)
            assert moderate(alice, f"/moderation/t/{code}/coup/{seq}/retirer").status_code == 404
            for path in (
                f"/moderation/t/{code}/coup/{seq + 1}/retirer",  # a move without text
                f"/moderation/t/{code}/coup/999999/retirer",
                f"/moderation/t/{code}/coup/-2/retirer",
                f"/moderation/t/{'x' * 40}/coup/{seq}/retirer",
                f"/moderation/t/nexistepas/coup/{seq}/retirer",
            ):
                assert moderate(hector, path).status_code == 404, path
            assert INSULT in stored(hector, code)[0][seq - 1]
            done = moderate(hector, f"/moderation/t/{code}/coup/{seq}/retirer")
            assert done.status_code == 303
            # the open page gets the view again, the argument replaced
            for _ in range(200):
                message = receive_state(ws)
                shown = json.dumps(message, ensure_ascii=False)
                if REMOVED_BY_MODERATION in shown:
                    break
            assert INSULT not in shown
            assert moderate(hector, f"/moderation/t/{code}/coup/{seq}/retirer").status_code == 404
            final = play_to_end(ws, message)
        moves, records = stored(hector, code)
        assert final["result"] is not None and len(records) == 1
        assert not any(INSULT in text for text in moves + records)
        assert json.loads(moves[seq - 1])["argument"] == REMOVED_BY_MODERATION
        record = json.loads(records[0])
        assert record["actions"][seq - 1]["action"]["argument"] == REMOVED_BY_MODERATION
        # the record still replays: the game is the same
        assert hector.get(f"/parties/{final['record_id']}").status_code == 200
        page = html.unescape(hector.get("/moderation").text)
        assert INSULT not in page


def test_an_erased_account_takes_its_arguments_along(sqlite_url: str) -> None:
    with client(sqlite_url) as alice:
        assert signup(alice, "Alice").status_code == 303
        code = create_table(alice, "parlote", SEATS, "Alice", {"target": "100"})
        with alice.websocket_connect(f"/t/{code}/ws") as ws:
            play_until_argued(ws, INSULT)
        copy = json.loads(alice.get("/compte/donnees.json").text)
        assert [a["texte"] for a in copy["arguments"]] == [INSULT]
        seq = argued_move(alice, code, INSULT)
        assert post_form(alice, code, "quitter").status_code == 303
        bruno = other(alice)
        bruno.cookies.clear()
        with bruno.websocket_connect(f"/t/{code}/ws") as watcher:
            receive_state(watcher)
            assert erase(alice).status_code == 303
            for _ in range(200):
                message = receive_state(watcher)
                if REMOVED_WITH_ACCOUNT in json.dumps(message, ensure_ascii=False):
                    break
            final = play_to_end(watcher, message)
            assert INSULT not in json.dumps(message, ensure_ascii=False)
        moves, records = stored(bruno, code)
        assert final["result"] is not None
        assert not any(INSULT in text for text in moves + records)
        assert json.loads(moves[seq - 1])["argument"] == REMOVED_WITH_ACCOUNT


def test_another_process_s_removal_reaches_the_state_held_here(sqlite_url: str) -> None:
    """Several processes: the one that removed the text says so (« moves: reread »); a
    process holding the table rebuilds its state from the store's moves."""
    with client(sqlite_url) as alice:
        code = create_table(alice, "parlote", SEATS, "Alice", {"target": "100"})
        with alice.websocket_connect(f"/t/{code}/ws") as ws:
            play_until_argued(ws, INSULT)
            service = alice.app.state.service
            table = service.tables[code]
            seq = argued_move(alice, code, INSULT)
            removed = alice.portal.call(
                remove_typed_text, service.store, code, seq, REMOVED_BY_MODERATION
            )
            assert removed
            version = table.version
            assert INSULT in json.dumps(table.actions, ensure_ascii=False)  # not heard yet
            alice.portal.call(service._on_remote_change, code, {"moves": "reread"})
            assert table.version >= version
            assert INSULT not in json.dumps(table.actions, ensure_ascii=False)
            for seat in (None, 0, 1):
                assert INSULT not in json.dumps(table.state.view(seat), ensure_ascii=False)


def test_an_argument_is_stored_as_the_players_were_shown_it(sqlite_url: str) -> None:
    """Control and direction characters were taken out of what the players saw, but the
    move kept them: the record, its replay and the moderators' list showed « txet » mirrored,
    with a bell and an isolate in it."""
    hostile = "\u202etxet desrever\u0007 suite\u2066"
    with client(sqlite_url) as alice:
        code = create_table(alice, "parlote", SEATS, "Alice", {"target": "100"})
        with alice.websocket_connect(f"/t/{code}/ws") as ws:
            play_until_argued(ws, "txet desrever suite", hostile)
            seq = argued_move(alice, code, "txet desrever suite")
        moves, _ = stored(alice, code)
        assert json.loads(moves[seq - 1])["argument"] == "txet desrever suite"
        assert not any(c in "".join(moves) for c in "\u202e\u0007\u2066")
