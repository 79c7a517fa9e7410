"""What each seat may see: hands, talon, tricks, scores; determinize; the terminal text."""

from __future__ import annotations

import json
import random
import tomllib
from importlib import resources

import pytest

from choux.games.chouine import GAME, ChouineState
from choux.games.chouine.actions import Play
from choux.games.chouine.cards import CODES, parse
from choux.games.chouine.testing import arrange


def tokens(view: object) -> set[str]:
    return set(json.dumps(view).replace('"', " ").replace(",", " ").split())


def test_view_hides_other_hands_and_the_talon_order() -> None:
    state = GAME.new(2, 3)
    assert isinstance(state, ChouineState)
    view = state.view(0)
    hidden = {CODES[c] for c in [*state.hands[1], *state.talon[1:]]}
    assert not hidden & tokens(view)
    assert view["talon"] == 22 and view["turned_up"] == CODES[state.talon[0]]
    assert view["hand"] == [CODES[c] for c in state.hands[0]]
    assert view["hand_sizes"] == [5, 5]
    spectator = state.view(None)
    assert spectator["hand"] == [] and spectator["legal"] == []
    assert not {CODES[c] for h in state.hands for c in h} & tokens(spectator)


def test_view_legal_actions_only_for_the_seat_to_play() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    assert len(state.view(0)["legal"]) == 5
    assert state.view(1)["legal"] == []
    assert state.view(0)["legal"][0]["label"].startswith("Jouer ")


def test_player_sees_the_last_trick_and_own_won_tricks_only() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    state.apply(0, Play("7S"))
    state.apply(1, Play("AS"))
    for seat in (0, 1):
        last = state.view(seat)["last_trick"]
        assert last == {
            "cards": [{"seat": 0, "card": "7S"}, {"seat": 1, "card": "AS"}],
            "winner": 1,
        }
    assert state.view(0)["won_cards"] == []
    assert sorted(state.view(1)["won_cards"]) == ["7S", "AS"]
    assert state.view(0)["tricks_won"] == [0, 1]


def test_scores_hidden_unless_scores_visibles() -> None:
    state = arrange(2, hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"], turned_up="KH")
    state.apply(0, Play("7S"))
    state.apply(1, Play("AS"))
    assert state.view(0)["points"] == [0, None]
    assert state.view(1)["points"] == [None, 11]
    assert state.view(None)["points"] == [None, None]
    visible = arrange(
        2,
        options={"scores_visibles": True},
        hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"],
        turned_up="KH",
    )
    visible.apply(0, Play("7S"))
    visible.apply(1, Play("AS"))
    assert visible.view(0)["points"] == [0, 11]


@pytest.mark.parametrize("visible", [False, True])
def test_the_log_counts_a_tricks_points_only_when_scores_are_visible(visible: bool) -> None:
    """With the scores hidden, the log's trick lines would add up to the opponent's hidden
    score: they then say who took the trick, not what it was worth."""
    state = arrange(
        2,
        options={"scores_visibles": visible},
        hands=["7S 8S 9S JC 7D", "AS 8D 9D JD 7C"],
        turned_up="KH",
    )
    state.apply(0, Play("7S"))
    events = state.apply(1, Play("AS"))
    trick = [e for e in events if e.kind == "trick"]
    assert len(trick) == 1 and trick[0].seat == 1
    if visible:
        assert trick[0].text == "{p1} : pli remporté (11 points)."
    else:
        assert trick[0].text == "{p1} : pli remporté."
        assert not any("point" in e.text for e in events)


def test_declarations_are_public_in_every_view() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD 7C"], turned_up="KC")
    state.apply(0, Play("KH", "mariage"))
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert view["declarations"][0]["cards"] == ["QH", "KH"]
        assert view["declared_points"] == [20, 0]


def test_secrets_are_the_unseen_cards() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD 7C"], turned_up="KC", talon="8C 9C")
    assert state.secrets(0) == {"AS", "8D", "9D", "JD", "7C", "8C", "9C"}
    assert "KC" not in state.secrets(None)


def test_determinize_redeals_only_what_the_seat_cannot_know() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD TH"], turned_up="KC")
    state.apply(0, Play("KH", "mariage"))  # the queen of hearts is now known
    state.apply(1, Play("AS"))
    for seed in range(20):
        sample = state.determinize(0, random.Random(seed))
        assert sample.hands[0] == state.hands[0]
        assert parse("QH") in sample.hands[0]
        assert sample.talon[0] == state.talon[0]
        assert sample.view(0) == state.view(0)
        sample.check_invariants()
        other = state.determinize(1, random.Random(seed))
        assert parse("QH") in other.hands[0]  # shown by the declaration


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", range(6))
def test_the_turned_up_card_drawn_last_is_known_to_be_in_its_drawers_hand(
    players: int, seed: int
) -> None:
    """Everyone saw who took the turned-up card (or the seven given for it) at the last draw:
    every view shows it in that hand, and a seat's imagined worlds leave it there."""
    state = GAME.new(players, seed, {})
    rng = random.Random(seed)
    turned, drawer = state.talon[0], None
    while state.talon:
        seat = state.turn
        assert seat is not None
        turned = state.talon[0]  # the seven, once exchanged for the turned-up card
        before = [list(hand) for hand in state.hands]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.talon:
            drawer = next(s for s in range(players) if turned in state.hands[s])
            assert turned not in before[drawer]
    assert drawer is not None
    for viewer in range(players):
        assert CODES[turned] in state.view(viewer)["shown"][drawer]
        for world in range(5):
            sample = state.determinize(viewer, random.Random(world))
            assert turned in sample.hands[drawer]
    state.check_invariants()


def test_determinize_respects_known_voids() -> None:
    state = arrange(2, hands=["AS TS 8C", "7H 8H 9D"], trump="D", talon="")
    state.apply(0, Play("AS"))
    state.apply(1, Play("9D"))  # no spade: void in spades
    for seed in range(20):
        sample = state.determinize(0, random.Random(seed))
        assert all(c >> 3 != 0 for c in sample.hands[1])


def test_render_text_in_french() -> None:
    state = arrange(2, hands=["KH QH 7S 8S 9S", "AS 8D 9D JD 7C"], turned_up="KC")
    text = GAME.render_text(state.view(0))
    for expected in ("Atout", "trèfle", "talon", "Votre main", "R♥", "Points"):
        assert expected in text


def test_rules_page_has_four_suits_of_rule_cards() -> None:
    page = resources.files("choux.games.chouine") / "page.toml"
    data = tomllib.loads(page.read_text(encoding="utf-8"))
    assert data["title"] == "La Chouine"
    assert len(data["sections"]) == 4
    assert {s["suit"] for s in data["sections"]} == {"♠", "♥", "♦", "♣"}
    for section in data["sections"]:
        assert len(section["cards"]) >= 2
        assert all(card["title"] and card["text"] for card in section["cards"])


def test_every_view_key_is_documented_for_the_web_interface() -> None:
    import re

    from choux.games.chouine import state as module

    documented = set(re.findall(r"``(\w+)``", module.__doc__ or ""))
    view = GAME.new(2, 1).view(0)
    assert set(view) <= documented, sorted(set(view) - documented)


def test_render_text_shows_the_result_between_parties() -> None:
    state = arrange(2, hands=["8S", "7S"], trump="D", talon="", won=["AS AH AD AC TS TH TD TC", ""])
    state.apply(0, Play("8S"))
    state.apply(1, Play("7S"))
    assert state.stage == "between"
    view = state.view(1)
    assert view["last_result"]["totals"] == [94, 36]
    text = GAME.render_text(view)
    assert "Fin de la partie : l'adversaire 94, vous 36" in text
    assert "l'adversaire : partie gagnée avec 94 points." in text


def test_counts_of_points_take_the_french_singular_for_zero_and_one() -> None:
    from choux.engine.french import points_text
    from choux.games.chouine.state import trick_event

    assert [points_text(n) for n in (0, 1, 2, 10)] == [
        "0 point",
        "1 point",
        "2 points",
        "10 points",
    ]
    assert trick_event(0, 0).text == "{p0} : pli remporté (0 point)."
    assert trick_event(1, 1).text == "{p1} : pli remporté (1 point)."
    assert trick_event(2, 21).text == "{p2} : pli remporté (21 points)."
    assert trick_event(2, None).text == "{p2} : pli remporté."


def _page_card(title: str) -> str:
    page = resources.files("choux.games.chouine") / "page.toml"
    data = tomllib.loads(page.read_text(encoding="utf-8"))
    return next(c["text"] for s in data["sections"] for c in s["cards"] if c["title"] == title)


def test_rules_page_offers_only_the_match_lengths_the_engine_accepts() -> None:
    """shared/rules/chouine.md, Match length options: five-party manches exist only in the
    Lavardin preset at two players; at three or four a shared lead plays on until one
    player leads alone (possibly more than one more partie), not a single belle."""
    from choux.engine import InvalidOptions

    with pytest.raises(InvalidOptions):
        GAME.new(2, 1, {"parties": 5})
    GAME.new(2, 1, {"preset": "lavardin", "parties": 5})
    two, several = _page_card("La manche et la belle").split("\n\n")
    five = [sentence for sentence in two.split(". ") if "cinq parties" in sentence]
    assert five and all("Lavardin" in sentence for sentence in five)
    assert "une belle" not in several and "un seul" in several
    with pytest.raises(InvalidOptions):
        GAME.new(2, 1, {"preset": "lavardin", "manches": 1})
    assert "Lavardin" in _page_card("Le match")


def test_rules_page_says_the_trick_of_a_chouine_is_only_finished() -> None:
    text = _page_card("La Chouine")
    assert "on finit seulement le pli" in text and "aucun point" in text
