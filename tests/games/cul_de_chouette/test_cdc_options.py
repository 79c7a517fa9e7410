"""Options beyond the document's play mode: Doublette, Chante-Sloubi, Banque."""

from __future__ import annotations

import pytest

from choux import games
from choux.engine import IllegalAction, InvalidOptions, NotYourTurn
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.actions import Deposit, JoinSloubi, Shout, Withdraw
from choux.games.cul_de_chouette.testing import arrange, dice, others_pass


def test_doublette_needs_more_than_six_players_in_pairs() -> None:
    game = games.get("cul-de-chouette")
    with pytest.raises(InvalidOptions, match="plus de 6"):
        game.new(6, 1, {"doublette": True})
    with pytest.raises(InvalidOptions):
        game.new(7, 1, {"doublette": True})
    assert game.new(8, 1, {"doublette": True}).view(None)["sheets"][0]["partner"] == 4


def test_doublette_partners_sit_opposite_and_share_their_score() -> None:
    state = arrange(8, options={"doublette": True})
    dice(state, 1, 4)
    dice(state, 5)
    assert state.scores[0] == state.scores[4] == 50
    assert state.scores[1] == 0


def test_doublette_team_wins_together_on_a_partners_turn() -> None:
    state = arrange(8, scores=[300, 0, 0, 0, 300, 0, 0, 0], options={"doublette": True})
    dice(state, 2, 4)
    others_pass(state)  # the partner could buy the Cul
    dice(state, 6)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 4)


def test_chante_sloubi_late_seat_waits_then_joins_with_the_computed_score() -> None:
    state = arrange(4, scores=[100, 40, 10, 0], options={"chante_sloubi": 1})
    assert not state.present[3]
    assert state.legal_actions(3) == [JoinSloubi(False), JoinSloubi(True)]
    state.turn = 11  # ten turns played
    state.apply(3, JoinSloubi(False))
    assert state.scores[3] == (100 - 40) * 10 // 10
    assert state.present[3] and state.boucliette[3]


def test_chante_sloubi_singing_multiplies_by_one_and_a_half() -> None:
    state = arrange(4, scores=[100, 40, 10, 0], options={"chante_sloubi": 1})
    state.turn = 11
    state.apply(3, JoinSloubi(True))
    assert state.scores[3] == 90


def test_chante_sloubi_absent_seat_is_skipped_and_joins_only_between_turns() -> None:
    state = arrange(4, options={"chante_sloubi": 1})
    dice(state, 1, 4)
    assert state.legal_actions(3) == []
    with pytest.raises(NotYourTurn, match="Rejoignez"):
        state.apply(3, JoinSloubi(False))
    dice(state, 5)
    assert state.roller == 2  # seat 3 is not at the table yet
    assert state.view(None)["order"] == [2, 1, 0]


def test_chante_sloubi_needs_two_players_from_the_start() -> None:
    with pytest.raises(InvalidOptions):
        games.get("cul-de-chouette").new(3, 1, {"chante_sloubi": 2})


def test_banque_deposits_by_tiers_of_16_before_the_dice() -> None:
    state = arrange(3, scores=[50, 0, 0], options={"banque": True})
    deposits = [a for a in state.legal_actions(0) if isinstance(a, Deposit)]
    assert deposits == [Deposit(16), Deposit(32), Deposit(48)]
    state.apply(0, Deposit(32))
    assert state.scores[0] == 18 and state.bank[0] == 32
    assert not any(isinstance(a, Deposit) for a in state.legal_actions(0))  # once a turn
    with pytest.raises(IllegalAction, match="Un seul passage"):
        state.apply(0, Deposit(16))


def test_banque_pays_17_percent_interest_on_each_own_turn() -> None:
    state = arrange(2, scores=[50, 0], options={"banque": True})
    state.apply(0, Deposit(48))
    dice(state, 1, 3)
    dice(state, 6)  # Néant, seat 1's turn
    dice(state, 1, 3)
    dice(state, 6)  # back to seat 0
    assert state.bank[0] == 48 + 48 * 17 // 100


def test_banque_withdrawal_costs_21_percent() -> None:
    state = arrange(3, scores=[10, 0, 0], options={"banque": True})
    state.bank[0] = 100
    state.apply(0, Withdraw())
    assert state.scores[0] == 10 + 79 and state.bank[0] == 0


def test_banque_raitournelle_transfers_the_bank_and_raises_the_tier() -> None:
    state = arrange(3, scores=[0, 0, 0], options={"banque": True})
    state.bank[1] = 40
    state.bank[2] = 16
    dice(state, 5, 6)
    assert state.step == "raitournelle"
    state.apply(0, Shout(C.RAITOURNELLE))
    assert state.bank == [56, 0, 0] and state.bank_tier == 17
    assert state.step == "cul"


def test_banque_artichette_first_keeps_the_bank_in_place() -> None:
    state = arrange(3, scores=[0, 0, 0], options={"banque": True})
    state.bank[1] = 40
    dice(state, 6, 6)
    state.apply(2, Shout(C.ARTICHETTE))
    assert state.bank == [0, 40, 0] and state.bank_tier == 16


def test_banque_raitournelle_needs_more_than_10_with_the_chouettes() -> None:
    state = arrange(3, scores=[0, 0, 0], options={"banque": True})
    state.bank[1] = 40
    dice(state, 4, 6)
    assert state.step == "cul"


@pytest.mark.parametrize("cry", [C.ARTICHETTE, C.RAITOURNELLE])
def test_banque_cry_out_of_place_is_a_bevue(cry: str) -> None:
    # the document's Bévue card: « Artichette ! » trop tôt costs 10, like any shout that
    # does not apply; here the Chouettes make only 4: no Raitournelle to stop
    state = arrange(3, scores=[20, 20, 20], options={"banque": True})
    state.bank[1] = 40
    dice(state, 1, 3)
    assert state.step == "cul"
    assert Shout(cry) in state.legal_actions(2)
    state.apply(2, Shout(cry))
    assert state.scores == [20, 20, 10] and state.bank == [0, 40, 0]


def test_banque_cries_are_not_shouts_at_a_table_without_the_banque() -> None:
    state = arrange(3, scores=[20, 20, 20])
    assert Shout(C.ARTICHETTE) not in state.legal_actions(2)
    with pytest.raises(IllegalAction):
        state.apply(2, Shout(C.ARTICHETTE))
    assert state.scores == [20, 20, 20]
