"""What the web shows about each game comes from the Game object itself."""

from __future__ import annotations

import pytest

from choux import games


@pytest.mark.parametrize("name", games.names())
def test_every_bot_level_has_a_french_label(name: str) -> None:
    game = games.get(name)
    assert [level for level, _ in game.bot_levels()] == list(game.bots())
    for level in game.bots():
        assert level in game.bot_labels, f"{name}: no label for the {level} level"


@pytest.mark.parametrize("name", games.names())
def test_seat_roles_name_a_real_seat_and_option_value(name: str) -> None:
    game = games.get(name)
    for seat, role in game.seat_roles.items():
        assert 0 <= seat < game.max_players
        option = next(o for o in game.options if o.name == role.option)
        assert role.value in [value for value, _ in option.choices]
        game.validate_options(seat + 1, {role.option: role.value})


def test_only_games_without_hidden_hands_share_a_screen() -> None:
    shared = {name for name in games.names() if games.get(name).shared_screen}
    assert shared == {"cul-de-chouette"}
