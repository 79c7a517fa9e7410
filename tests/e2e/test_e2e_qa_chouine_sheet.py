"""QA regression: the Chouine score sheet adds up (dix de der column) and stays on screen
after the last partie of the match, and the final reason puts the winner's count first (a
last partie won by a Chouine shows no sheet: `test_e2e_chouine_won_by_a_chouine.py`)."""

from __future__ import annotations

import pytest
from e2e_fixtures import (
    browser_fixture,  # noqa: F401 (fixture)
    live_server_fixture,  # noqa: F401 (fixture)
    players_fixture,  # noqa: F401 (fixture)
)
from e2e_flow import chouine_move, create_table, over, play_until

pytestmark = [pytest.mark.e2e, pytest.mark.flaky(reruns=2, reruns_delay=1)]


def sheet_rows(page) -> list[list[str]]:  # type: ignore[no-untyped-def]
    return list(
        page.eval_on_selector_all(
            ".cq-result .cq-sheet tr",
            "rows => rows.map(r => [...r.children].map(c => c.textContent))",
        )
    )


def test_chouine_sheet_adds_up_and_stays_after_the_match(live_server, players) -> None:  # type: ignore[no-untyped-def]
    alice = players(phone=True)
    create_table(
        alice.page, live_server.url, "chouine", "Alice", ["human", "bot:greedy"], {"manches": "1"}
    )
    alice.page.wait_for_selector(".cq-hand .card")
    play_until([alice.page], chouine_move, lambda: over(alice.page), timeout=50)
    rows = sheet_rows(alice.page)
    assert "Dernière partie du match" in alice.page.inner_text(".cq-result")
    if alice.page.locator(".cq-result .cq-chouine").count():
        # a Chouine won the last partie outright (a few deals in a hundred): no sheet and
        # no points on the seat panels, whose totals would suggest the loser may have won
        assert rows == []
        assert alice.page.locator(".cq-seat .cq-points").count() == 0
    else:
        assert rows[0][1:] == ["Cartes", "Annonces", "Der", "Total"]
        ders = 0
        for row in rows[1:]:
            cards, declared, der, total = row[1:]
            extra = 0 if der == "–" else int(der)
            ders += extra
            assert int(cards) + int(declared) + extra == int(total), row
        assert ders == 10  # the last trick always has a winner when no Chouine ended it
        # the seat panel's points agree with the sheet (the dix de der included)
        mine = alice.page.inner_text(".cq-seat.me .cq-points")
        total = int(rows[1][4])
        assert mine == f"{total} point{'s' if total >= 2 else ''}", (mine, rows)
    title = alice.page.inner_text("#result-title")  # written for Alice, winner or not
    won = ("gagne la partie.", "gagne la manche.", "gagne le match.")  # the word: matchWord
    assert title.startswith("Vous avez gagné") or title.endswith(won), title
    reason = alice.page.inner_text("#result-reason")
    # no names there, and not « Manche gagnée », which the loser would read as their own win
    assert reason.startswith("Manche terminée : 2 parties à "), reason
    # the felt says the manche is over, not « Le pli est vide. » under the result
    felt = alice.page.inner_text(".cq-felt")
    assert "Manche terminée." in felt and "Le pli est vide" not in felt, felt
    assert not alice.errors, alice.errors
