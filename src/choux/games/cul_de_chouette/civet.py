"""The Civet: the roller stakes it on a combination before their dice; the roll settles it
(or, for a « Cul de Sirotage » on a Chouette, the Sirotage that follows)."""

from __future__ import annotations

from choux.games.cul_de_chouette.table import CdcTable


def bet_civet(st: CdcTable, seat: int, combination: str, stake: int) -> None:
    st.civet[seat] = False
    st.civet_bet = (combination, stake)
    st.say("civet", f"{{p{seat}}} mise {stake} sur {combination} avec son Civet", seat)


def settle_civet(st: CdcTable, success: bool) -> None:
    assert st.civet_bet is not None
    combination, stake = st.civet_bet
    st.civet_bet = None
    st.civet_pending = None
    if success:
        st.gain(st.roller, stake, False, f"gagne son Civet sur {combination}")
    else:
        st.lose(st.roller, stake, f"perd son Civet sur {combination}")
