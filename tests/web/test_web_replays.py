"""Replays of finished games: built off the event loop, once, and rate-limited.

A security audit found that each fetch of a long game's replay played the whole game
again inside the request, on the event loop: eight fetches at once held every table of
the process for over a second."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from web_fixtures import sqlite_url_fixture  # noqa: F401 (fixture)
from webhelpers import client, create_table, play_to_end

from choux.engine import record as record_module
from choux.web import pages
from choux.web.replays import compact_json, compact_steps, expand_steps

EVIL = "</script><b>Zoé</b>"


def finished_game(c: Any) -> int:
    code = create_table(c, "chouine", ["human", "bot:random"], EVIL)
    with c.websocket_connect(f"/t/{code}/ws") as ws:
        return int(play_to_end(ws)["record_id"])


def test_a_replay_is_built_once_off_the_event_loop(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[int] = []
    real_film = record_module.film

    def counted(*args: Any, **kwargs: Any) -> Any:
        builds.append(threading.get_ident())
        return real_film(*args, **kwargs)

    monkeypatch.setattr(pages, "film", counted)
    monkeypatch.setattr(record_module, "film", counted)  # `replay_steps` calls it
    with client(sqlite_url) as c:
        record_id = finished_game(c)
        loop_thread = c.portal.call(lambda: threading.get_ident())
        first = c.get(f"/parties/{record_id}")
        again = c.get(f"/parties/{record_id}")
        assert first.status_code == again.status_code == 200
        assert len(builds) == 1 and builds[0] != loop_thread
        steps = [c.get(f"/parties/{record_id}/etapes.json?place=1") for _ in range(2)]
        assert all(s.status_code == 200 for s in steps)
        assert len(builds) == 2 and builds[1] != loop_thread
        # the page's data: the same steps, and a name cannot close the script element
        raw = re.search(
            r'<script type="application/json" id="replay-data">(.*?)</script>', first.text, re.S
        )
        assert raw is not None and "</script" not in raw.group(1).lower()
        data = json.loads(raw.group(1))
        assert data["names"][0] == EVIL and len(data["steps"]) > 30
        seat_steps = expand_steps(steps[0].json()["steps"])
        assert len(seat_steps) == len(data["steps"])
        assert all(step["view"]["legal"] == [] for step in seat_steps)
        assert steps[0].text == steps[1].text


def test_replays_have_a_rate_limit_per_address(sqlite_url: str) -> None:
    with client(sqlite_url, limit_replay="3 per minute") as c:
        record_id = finished_game(c)
        answers = [
            c.get(url).status_code
            for url in (
                f"/parties/{record_id}",
                f"/parties/{record_id}.json",
                f"/parties/{record_id}/etapes.json?place=0",
                f"/parties/{record_id}",
            )
        ]
        assert answers == [200, 200, 200, 429]
        refused = c.get(f"/parties/{record_id}")
        assert refused.status_code == 429 and "Trop de" in refused.text
        assert c.get("/").status_code == 200  # the rest of the site is not limited


@pytest.mark.parametrize(
    ("name", "players"),
    [("chouine", 2), ("chouineurs", 4), ("cul-de-chouette", 3), ("parlote", 4)],
)
def test_a_replay_sends_each_view_once_and_its_changes_after(name: str, players: int) -> None:
    """The page and `etapes.json` send a step's changed keys only; expanded as the page
    does, every step's view is the engine's, for a spectator and for a seat."""
    import copy
    import random

    from choux import games
    from choux.engine.playout import random_step
    from choux.engine.record import film, start

    game = games.get(name)
    state, record = start(game, players, 11, names=[f"P{i}" for i in range(players)])
    rng = random.Random(5)
    for _ in range(400):
        move = random_step(state, rng)
        if move is None:
            break
        record.append(*move)
    assert len(record.actions) > 40
    for viewer in (None, 0):
        steps = film(record, game, viewer).steps
        whole = compact_json(steps)
        sent = compact_json(compact_steps(copy.deepcopy(steps)))
        assert expand_steps(json.loads(sent)) == json.loads(whole)
        assert len(sent) < len(whole)
        if name == "parlote":  # its large, rarely changing parts were most of each step
            assert len(sent) * 3 < len(whole)
