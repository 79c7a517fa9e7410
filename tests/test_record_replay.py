"""Records replay through the Game their caller looks up; the replay viewer's steps too."""

from __future__ import annotations

import random

import pytest

from choux import games
from choux.engine.base import Seat
from choux.engine.playout import play_out
from choux.engine.record import RecordError, film, replay, replay_steps, start


def finished(name: str, seed: int = 3):  # type: ignore[no-untyped-def]
    game = games.get(name)
    state, record = start(
        game, game.min_players, seed, names=["Ana", "Bob", "Cid", "Dan"][: game.min_players]
    )
    bots = [game.make_bot("random", random.Random(seat)) for seat in range(game.min_players)]
    play_out(state, bots, record)
    return game, state, record


@pytest.mark.parametrize("name", ["chouine", "chouineurs", "parlote"])
@pytest.mark.parametrize("viewer", [None, 0])
def test_replay_steps_end_on_the_final_view(name: str, viewer: Seat | None) -> None:
    game, state, record = finished(name)
    steps = replay_steps(record, game, viewer)
    assert len(steps) == len(record.actions) + 1
    assert steps[0]["label"] == "Début" and steps[0]["seat"] is None
    assert steps[-1]["view"] == state.view(viewer)
    assert [s["seat"] for s in steps[1:]] == [seat for seat, _ in record.actions]


def test_a_record_is_not_replayed_by_another_game() -> None:
    _, _, record = finished("chouine")
    with pytest.raises(RecordError, match="chouine"):
        replay(record, games.get("chouineurs"))


def test_a_record_of_other_rules_is_refused_and_its_film_says_so() -> None:
    """A game finished under rules since changed is not re-scored by today's code: `replay`
    refuses it by name, and the replay page's film shows it but flags that it may differ."""
    game, _, record = finished("cul-de-chouette")
    assert replay(record, game).is_over() and film(record, game).agrees
    record.rules_version = str(int(game.rules_version) - 1)
    with pytest.raises(RecordError, match=f"rules version {record.rules_version}"):
        replay(record, game)
    shown = film(record, game)
    assert not shown.agrees and len(shown.steps) == len(record.actions) + 1


def test_a_replay_starts_with_the_site_s_opening_dice() -> None:
    """The site's dice roll who starts a Cul de Chouette as it is made: the replay's first
    step says so, as the table's journal does."""
    game = games.get("cul-de-chouette")
    state, record = start(game, 3, 5, {}, names=["Anne", "Bruno", "Chloé"])
    first = replay_steps(record, game)[0]
    assert first["label"] == "Début"
    log = first["log"]
    assert isinstance(log, list) and log == [e.render(record.names) for e in state.opening_events()]
    starter = ("Anne", "Bruno", "Chloé")[state.roller]
    assert log[-1] == f"{starter} a le plus petit dé et commence.", log
    # with real dice the opening is typed, move by move: nothing before the first
    _, typed = start(game, 3, 5, {"des": "reels"}, names=["Anne", "Bruno", "Chloé"])
    assert replay_steps(typed, game)[0]["log"] == []
