"""Texts of La parlote coinchée: French quotation marks hold their words with non-breaking
spaces (U+00A0, as elsewhere on the site), so that a lone « » » never wraps to the next line
(« Carte de Odette : « Biais du survivant / », avec un argument »)."""

from __future__ import annotations

import re

from choux.games.parlote.actions import Bid, ClaimLiar, Coinche, Pass, Play
from choux.games.parlote.content import content, guillemets
from choux.games.parlote.state import ParloteState
from choux.games.parlote.testing import arrange, contract_for

LOOSE = re.compile(r"«[ \t\n]|[ \t\n]»")


def test_guillemets_hold_their_words() -> None:
    assert guillemets("Il dit « bonjour » puis «  rien »") == (
        "Il dit «\u00a0bonjour\u00a0» puis «\u00a0rien\u00a0»"
    )
    assert guillemets("sans guillemets") == "sans guillemets"


def test_content_quotes_use_non_breaking_spaces() -> None:
    stock = content()
    texts = [c.example for c in stock.cards] + [c.definition for c in stock.cards]
    texts += [s.objection for s in stock.scenarios] + [s.injonction for s in stock.scenarios]
    assert any("«" in t for t in texts)
    assert not [t for t in texts if LOOSE.search(t)]


def test_event_texts_and_labels_use_non_breaking_spaces() -> None:
    texts: list[str] = []
    liar = ParloteState(1)
    texts += [e.text for e in liar.apply(0, ClaimLiar())]
    state = arrange(4, reader=3)
    texts += [e.text for e in state.apply(0, Pass())]
    texts += [e.text for e in state.apply(1, Bid(80, ("insuffisance", "influence")))]
    texts += [e.text for e in state.apply(2, Coinche())]
    playing = arrange(4, reader=3, contract=contract_for(seat=1))
    card = playing.hands[0][0]
    texts.append(Play(card, "").label())
    texts += [e.text for e in playing.apply(0, Play(card, "Un argument."))]
    quoted = [t for t in texts if "«" in t]
    assert len(quoted) >= 4, texts
    assert not [t for t in quoted if LOOSE.search(t)], quoted
