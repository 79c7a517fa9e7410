"""The Sirotage: after a Chouette the roller may re-roll the odd die; the others bet on its
face; a miss opens the Contre-Sirop race (and a pair of 6 gives a Civet)."""

from __future__ import annotations

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import races
from choux.games.cul_de_chouette.civet import settle_civet
from choux.games.cul_de_chouette.rotation import end_turn
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.table import CdcTable


def decide_sip(st: CdcTable, yes: bool) -> None:
    assert st.sip is not None
    s, v = st.scorer, st.sip.value
    if yes:
        st.say("sirotage", f"{{p{s}}} sirote sa Chouette de {v}", s)
        st.enter(Step.PARIS_SIROTAGE)
        return
    if st.civet_pending is not None:
        settle_civet(st, False)
    st.gain(s, v * v, s == st.roller, f"fait une Chouette de {v}")
    end_turn(st)


def bet_face(st: CdcTable, seat: int, face: int) -> None:
    assert st.sip is not None
    st.sip = type(st.sip)(st.sip.value, st.sip.bets.placed(seat, face))
    st.say("pari", f"{{p{seat}}} parie 5 sur {C.BIRDS[face]}", seat)


def on_sip(st: CdcTable, die: int) -> None:
    assert st.sip is not None
    s, v = st.scorer, st.sip.value
    st.dice = [v, v, die]
    hit = die == v
    st.say("des", f"{{p{s}}} sirote : {die}", s)
    for bettor, face in st.sip.bets.by_seat():
        if face == die:
            st.gain(bettor, C.SIDE_BET_GAIN, False, f"gagne son pari ({C.BIRDS[face]})")
        else:
            st.lose(bettor, C.SIDE_BET_STAKE, "perd son pari")
    if st.civet_pending is not None:
        settle_civet(st, hit)
    if hit:
        st.reading = (C.CUL_DE_CHOUETTE, C.cul_de_chouette_points(v))
        st.gain(s, C.cul_de_chouette_points(v), s == st.roller, "réussit son Sirotage")
        end_turn(st)
        return
    st.lose(s, v * v, "rate son Sirotage")
    if v == 6 and not st.civet[s]:
        st.civet[s] = True
        st.say("civet", f"{{p{s}}} gagne un Civet", s)
    others = tuple(p for p in st.seated if p != s)
    races.open_race(st, Step.CONTRE_SIROP, C.contre_sirop_points(v), others)
