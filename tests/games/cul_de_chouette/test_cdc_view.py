"""The view: JSON-ready, documented keys, legal actions of the seat only."""

from __future__ import annotations

import json

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import state as state_module
from choux.games.cul_de_chouette.testing import arrange, dice


def test_every_view_key_is_documented_in_the_state_module() -> None:
    state = arrange(3, scores=[0, 40, 0])
    dice(state, 2, 2)
    view = state.view(1)
    doc = state_module.__doc__ or ""
    for key in view:
        assert f"``{key}``" in doc, key
    for key in view["sheets"][0]:
        assert f"``{key}``" in doc, key


def test_view_shows_dice_sheets_turn_windows_and_legal_actions() -> None:
    state = arrange(3, scores=[0, 40, 0], civet=[False, True, False])
    dice(state, 2, 2)
    view = state.view(1)
    json.dumps(view)
    assert view["dice"] == [2, 2] and view["roller"] == 0 and view["step"] == "achat"
    assert view["sheets"][1] == {
        "seat": 1,
        "score": 40,
        "grelottine": False,
        "civet": True,
        "boucliette": True,
        "passe_grelot_used": False,
        "passe_grelot_earned": False,
        "bevue_pressed": [],
        "partner": None,
        "present": True,
    }
    assert view["windows"] == [
        {"kind": "achat", "label": "Achat de dé : le Cul est à vendre", "seconds": 3.0}
    ]
    assert view["legal"] == [
        {"action": {"type": "acheter"}, "label": "Acheter le Cul (30 points)"},
        {"action": {"type": "passer"}, "label": "Je passe"},
        {"action": {"type": "bevue", "target": 0}, "label": "Bévue de {p0} (−10)"},
        {"action": {"type": "bevue", "target": 2}, "label": "Bévue de {p2} (−10)"},
        *(
            {"action": {"type": "crier", "cry": cry}, "label": f"« {cry} »"}
            for cry in (*C.RACE_CRIES, C.CRI_GRELOTTINE, C.CRI_PASSE_GRELOT, C.CRI_BOUCLIETTE)
        ),  # the shout buttons, out of place here (each a Bévue)
    ]
    assert view["awaiting"] == {"seat": 0, "owner": 0, "count": 1}
    assert state.view(None)["legal"] == []


def test_a_scribe_s_view_names_whose_dice_she_types() -> None:
    """With real dice and a scribe, the awaited dice are typed by the scribe: the view says
    so (``seat``) and whose throw they are (``owner``), for every seat and the spectator."""
    state = arrange(3, roller=1, options={"des": "reels", "scribe": 0})
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["awaiting"] == {"seat": 0, "owner": 1, "count": 2}
    dice(state, 2, 5)  # the Cul is for sale: its die still belongs to the roller
    assert state.view(0)["awaiting"] == {"seat": 0, "owner": 1, "count": 1}
    # without a scribe each roller types their own
    own = arrange(3, roller=2, options={"des": "reels"})
    assert own.view(0)["awaiting"] == {"seat": 2, "owner": 2, "count": 2}


def test_events_carry_french_texts_with_player_placeholders() -> None:
    state = arrange(3)
    dice(state, 1, 4)
    events = dice(state, 5)
    texts = [e.render(["Ana", "Bob", "Cyd"]) for e in events]
    assert "Ana fait une Velute de 5 : +50" in texts


def test_view_is_the_common_envelope_around_the_board_view() -> None:
    state = arrange(3, scores=[0, 40, 0])
    dice(state, 2, 2)
    for seat in (None, 0, 1, 2):
        board = state.board_view(seat)
        assert not {"game", "seat", "actors", "legal"} & set(board)
        legal = state.legal_actions(seat) if seat is not None else []
        assert state.view(seat) == {
            "game": "cul-de-chouette",
            "seat": seat,
            "actors": list(state.actors()),
            "legal": [{"action": a.to_json(), "label": a.label()} for a in legal],
            **board,
        }
