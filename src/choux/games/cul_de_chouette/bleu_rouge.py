"""The Bleu-Rouge (3-4-3): the roller announces up to three totals, the others bet on one,
then the re-roll settles everything; an impossible total is a Bévue."""

from __future__ import annotations

from dataclasses import replace

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.rotation import end_turn
from choux.games.cul_de_chouette.rules import total_is_possible
from choux.games.cul_de_chouette.table import CdcTable


def announce_total(st: CdcTable, seat: int, total: int) -> None:
    """Any total outside 3..18, whatever the number, is a Bévue that counts as announced."""
    bleu = st.bleu
    assert bleu is not None
    if not total_is_possible(total):
        st.bleu = replace(bleu, announced=bleu.announced + 1)
        st.bevue(seat, f"total impossible : {total}")
        return
    st.bleu = replace(bleu, announced=bleu.announced + 1, totals=(*bleu.totals, total))
    st.say("annonce", f"{{p{seat}}} annonce un total de {total}", seat)


def bet_total(st: CdcTable, seat: int, total: int) -> None:
    assert st.bleu is not None
    st.bleu = replace(st.bleu, bets=st.bleu.bets.placed(seat, total))
    st.say("pari", f"{{p{seat}}} parie 5 sur un total de {total}", seat)


def on_reroll(st: CdcTable, dice: list[int]) -> None:
    bleu = st.bleu
    assert bleu is not None
    s = st.scorer
    st.dice = list(dice)
    total = sum(dice)
    reading = C.read_full(tuple(dice))
    name, points = reading.name, C.roll_points(reading)
    st.say("des", f"{{p{s}}} relance : {'-'.join(map(str, dice))} (total {total})", s)
    for bettor, guess in bleu.bets.by_seat():
        if guess == total:
            st.gain(bettor, C.SIDE_BET_GAIN, False, "gagne son pari sur le total")
        else:
            st.lose(bettor, C.SIDE_BET_STAKE, "perd son pari sur le total")
    if total in bleu.totals:
        bonus = C.BLEU_ROUGE_BONUS + 2 * total
        st.gain(s, bonus, False, f"gagne son pari Bleu-Rouge sur {total}")
        st.gain(s, points, s == st.roller, f"marque {C.possessive(name)}")
    else:
        st.say("info", "Total manqué : la relance ne compte pas.", s)
    st.bleu = None
    end_turn(st)
