"""La parlote coinchée's secret votes in Debian's Chromium.

Four-player Arbitre mode: the reader cannot judge their own argument, so the three others
vote on it; nobody's page shows how the others voted before the vote closes, and every
vote shows (in the trick and in the log) once it has closed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_tables import PHONE, chromium, current, live_server, prepared_table, put_state, shoot

from choux.games.parlote.actions import Play, Vote
from choux.games.parlote.state import ParloteState
from choux.games.parlote.testing import arrange, contract_for, standard_hands

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]

GUSTAVE, READER = 0, 1
ARGUMENT = "Tout le monde le sait : les anciens l'ont toujours dit, c'est donc vrai."


def readers_argument_under_vote() -> ParloteState:
    """Reader 1 plays last in the first trick, with an argument; seat 2 already voted."""
    state = arrange(
        4,
        seed=1,
        options={"mode": "arbitre"},
        reader=READER,
        hands=standard_hands(),
        contract=contract_for(),
    )
    for seat in (2, 3, 0):
        state.apply(seat, Play(state.hands[seat][0], ""))
    state.apply(READER, Play(state.hands[READER][0], ARGUMENT))
    state.apply(2, Vote(False))
    return state


def test_parlote_arbitre_readers_argument_goes_to_a_secret_vote(tmp_path: Path) -> None:
    with live_server(tmp_path, deadline_scale=50, bot_pace=0.1) as server, chromium() as browser:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        code = prepared_table(page, server, "parlote", "Gustave", 4, {"mode": '"arbitre"'})

        put_state(server, code, readers_argument_under_vote())
        page.wait_for_selector("[data-action=voter]")
        banner = page.locator(".window-banner").inner_text()
        assert "ne juge pas son propre argument" in banner and "secret" in banner
        view = current(page)["view"]
        assert view["window"]["kind"] == "vote"
        assert view["window"]["play"]["votes"] == [] and view["window"]["play"]["votes_cast"] == 1
        assert view["trick"]["plays"][-1]["votes"] == []
        assert ": ne compte pas" not in page.locator("#table").inner_text()
        shoot(page, "parlote-secret-vote-phone")

        page.click("[data-action=voter][data-counts=true]")
        page.wait_for_selector(".voted-note")
        assert "2 sur 3" in page.locator(".voted-note").inner_text()
        assert current(page)["view"]["window"]["play"]["votes"] == []
        assert ": ne compte pas" not in page.locator("#table").inner_text()

        # the third vote closes it: now every vote shows
        async def last_vote() -> None:
            table = server.service.tables[code]
            await server.service.act(table, 3, Vote(False).to_json())

        server.call(last_vote())
        page.wait_for_function(
            "() => { const v = window.chouxTable.current.view; return v.window === null; }"
        )
        shown = current(page)["view"]["last_trick"]["plays"][-1]
        assert shown["status"] == "rejected"
        assert shown["votes"] == [[2, False], [0, True], [3, False]]
        assert ": ne compte pas" in page.locator(".last-trick").text_content()
        page.wait_for_function(
            "() => document.body.textContent.replace(/[\\u00a0\\u202f]/g, ' ').includes('Vote clos : 1 pour')"
        )
        assert not errors, errors
