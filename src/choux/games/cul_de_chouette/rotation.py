"""Who plays: starting and ending a turn, the next seated player, a Chante-Sloubi player
joining, and the tie-breaks (who opens the game, who loses a Suite).

Below the rules of the roll (`turn`, `races`, `sirotage`, `challenges`, `bleu_rouge`),
which all end by passing the dice on: it imports none of them.
"""

from __future__ import annotations

from choux.engine.french import points_text
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.rules import lowest_seats, next_seat
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.substates import Tiebreak
from choux.games.cul_de_chouette.table import CdcTable

# --------------------------------------------------------------------------- turns


def start_turn(st: CdcTable) -> None:
    st.reset_turn()
    st.turn += 1
    st.enter(Step.DEBUT)
    balance = st.bank[st.roller]
    if balance:
        interest = balance * C.BANK_INTEREST // 100
        st.bank[st.roller] = balance + interest
        st.say("banque", f"La Banque verse {interest} d'intérêts à {{p{st.roller}}}")


def end_turn(st: CdcTable) -> None:
    if st.over:
        return
    st.roller = next_seated(st, st.roller)
    start_turn(st)


def next_seated(st: CdcTable, seat: int) -> int:
    """The next seated player, counter-clockwise."""
    seat = next_seat(seat, st.n)
    while not st.present[seat]:
        seat = next_seat(seat, st.n)
    return seat


def join(st: CdcTable, seat: int, sing: bool) -> None:
    """Chante-Sloubi: (1st − 2nd) × turns played ÷ 10, × 1.5 when sung, below the cap."""
    ranked = sorted((st.scores[s] for s in st.seated), reverse=True)
    played = max(st.turn - 1, 0)
    start = (ranked[0] - ranked[1]) * played * (3 if sing else 2) // 20
    st.present[seat] = True
    st.seated = tuple(s for s in range(st.n) if st.present[s])
    st.boucliette[seat] = True
    st.scores[seat] = min(start, st.cap)
    st.refresh_bevues()
    song = " en chantant" if sing else ""
    st.say(
        "sloubi", f"{{p{seat}}} rejoint la partie{song} avec {points_text(st.scores[seat])}", seat
    )


# --------------------------------------------------------------------------- ties


def auto_tiebreak(st: CdcTable) -> None:
    """The site's dice roll every tie-break die at once."""
    while st.tiebreak is not None and st.tiebreak.pending:
        seat = st.tiebreak.pending[0]
        value = int(st.rng.random() * 6) + 1
        st.chance.append({"dice": [value], "seat": seat})
        tiebreak_value(st, seat, value)


def tiebreak_value(st: CdcTable, seat: int, value: int) -> None:
    tie = st.tiebreak
    assert tie is not None
    st.tiebreak = tie = tie.rolled(seat, value)
    st.say("de", f"{{p{seat}}} lance un {value}", seat)
    if tie.pending:
        return
    low = lowest_seats(dict(tie.values))
    if len(low) > 1:
        st.say("info", "Égalité : on relance.")
        st.tiebreak = Tiebreak(tie.purpose, tuple(low))
        return
    loser = low[0]
    st.tiebreak = None
    if tie.purpose == "ouverture":
        st.roller = loser
        st.say("info", f"{{p{loser}}} a le plus petit dé et commence.", loser)
        start_turn(st)
    else:
        st.lose(loser, C.SUITE_LAST_LOSES, "perd le départage de la Suite")
        end_turn(st)
