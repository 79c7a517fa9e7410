"""A Parlote table with the fifth seat, the arbiter, created and played through the web."""

from __future__ import annotations

from typing import Any

from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, csrf_of, receive_state

ARBITER = 4
BOTS = ["bot:greedy"] * 4


def test_new_table_form_names_the_fifth_parlote_seat_arbitre(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/nouvelle?jeu=parlote").text
        assert "Place 5 · Arbitre" in page and "data-value='\"arbitre\"'" in page
        data = {
            "csrf": csrf_of(page),
            "jeu": "parlote",
            "joueurs": "5",
            "pendule": "0",
            "pseudo": "Alice",
            "opt_mode": '"jury"',
            **{f"place_{s}": "bot:random" for s in range(4)},
            "place_4": "human",
        }
        refused = c.post("/tables", data=data, follow_redirects=False)
        assert refused.status_code >= 400
        assert "cinquième siège" in refused.text


def test_arbiter_seat_sees_no_hand_and_judges_the_pending_argument(sqlite_url: str) -> None:
    with client(sqlite_url, deadline_scale=0.2) as c:
        code = create_table(
            c,
            "parlote",
            [*BOTS, "human"],
            "Arbitre Alice",
            {"mode": '"arbitre"', "argument_required": "on"},
        )
        table = c.app.state.service.tables[code]
        assert len(table.seats) == 5 and table.seats[ARBITER].kind == "human"
        with c.websocket_connect(f"/t/{code}/ws") as ws:
            message: dict[str, Any] = receive_state(ws)
            assert message["seat"] == ARBITER
            for _ in range(400):
                view = message["view"]
                assert view["hand"] == [] and view["team"] is None
                assert view["arbiter"] == ARBITER and view["players"] == 5
                assert view["scenario"] is None or view["scenario"]["objection"] is None
                if view["window"] is not None and view["legal"]:
                    break
                assert view["legal"] == []
                message = receive_state(ws)
            else:
                raise AssertionError("no argument ever waited for the arbiter")
            assert view["window"]["kind"] == "judge" and view["actors"] == [ARBITER]
            assert [item["action"] for item in view["legal"]] == [
                {"type": "arbitrer", "counts": True},
                {"type": "arbitrer", "counts": False},
            ]
            assert [s["name"] for s in message["seats"]][ARBITER] == "Arbitre Alice"
            author = view["window"]["author"]
            ws.send_json({"type": "action", "id": "judge-1", "action": view["legal"][1]["action"]})
            reply = ws.receive_json()
            while reply["type"] not in ("ack", "refused"):
                reply = ws.receive_json()
            assert reply["type"] == "ack", reply
        plays = [p for t in table.state.tricks for p in t.plays] + list(table.state.trick)
        judged = [p for p in plays if p.judge == ARBITER]
        assert judged and judged[-1].status == "rejected" and judged[-1].seat == author
