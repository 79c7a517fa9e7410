"""`ActionCodec` reads untrusted JSON: every field checked against its type, a French
error for anything else, and nothing but `MalformedAction` ever raised."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from choux import games
from choux.engine.base import Action, ActionCodec, MalformedAction


@dataclass(frozen=True, slots=True)
class Move(Action):
    kind: ClassVar[str] = "move"
    card: int
    cards: tuple[int, ...] = ()
    pair: tuple[str, bool] | None = None
    ratio: float = 1.0


@dataclass(frozen=True, slots=True)
class Say(Action):
    kind: ClassVar[str] = "say"
    text: str


CODEC = ActionCodec(Move, Say)


def test_good_json_reads_into_the_action() -> None:
    assert CODEC.from_json({"type": "move", "card": 3}) == Move(3)
    read = CODEC.from_json(
        {"type": "move", "card": 3, "cards": [1, 2], "pair": ["a", True], "ratio": 2}
    )
    assert read == Move(3, (1, 2), ("a", True), 2.0) and isinstance(read.ratio, float)  # type: ignore[attr-defined]
    assert CODEC.from_json({"type": "move", "card": 0, "pair": None}) == Move(0)
    assert CODEC.from_json(Move(5, (7,), ("x", False)).to_json()) == Move(5, (7,), ("x", False))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "Action illisible : un objet JSON est attendu."),
        ({"type": "fly"}, "Action inconnue : 'fly'."),
        ({"card": 1}, "Action inconnue : None."),
        ({"type": "move"}, "Champ manquant dans l'action : card."),
        (
            {"type": "move", "card": 1, "zeta": 1, "alpha": 2},
            "Champ inattendu dans l'action : alpha.",
        ),
        ({"type": "move", "card": True}, "Valeur invalide pour card."),
        ({"type": "move", "card": 1.5}, "Valeur invalide pour card."),
        ({"type": "move", "card": "1"}, "Valeur invalide pour card."),
        ({"type": "move", "card": 1, "cards": 3}, "Liste attendue pour cards."),
        ({"type": "move", "card": 1, "cards": [0] * 65}, "Liste attendue pour cards."),
        ({"type": "move", "card": 1, "cards": [1, "2"]}, "Valeur invalide pour cards."),
        ({"type": "move", "card": 1, "pair": ["a"]}, "Valeur invalide pour pair."),
        ({"type": "move", "card": 1, "pair": ["a", 1]}, "Valeur invalide pour pair."),
        ({"type": "move", "card": 1, "ratio": False}, "Valeur invalide pour ratio."),
        ({"type": "say", "text": "x" * 10_001}, "Valeur invalide pour text."),
    ],
)
def test_bad_json_gets_a_french_error(data: object, message: str) -> None:
    with pytest.raises(MalformedAction) as error:
        CODEC.from_json(data)
    assert str(error.value) == message


def test_a_field_type_without_a_check_is_refused_when_the_codec_is_built() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd(Action):
        kind: ClassVar[str] = "odd"
        data: dict[str, int]

    with pytest.raises(TypeError):
        ActionCodec(Odd)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
KINDS = st.sampled_from(sorted({"move", "say", "play", "bid", "exchange", "x"}))


@given(
    data=st.dictionaries(st.sampled_from(["card", "cards", "pair", "ratio", "text", "z"]), JSON),
    kind=KINDS,
)
def test_any_json_reads_or_gets_malformed_action(data: dict[str, Any], kind: str) -> None:
    for codec in [CODEC, *(games.get(name).codec for name in games.names())]:
        with contextlib.suppress(MalformedAction):  # anything else fails the test
            codec.from_json({"type": kind, **data})
