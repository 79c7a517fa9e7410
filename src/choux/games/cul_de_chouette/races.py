"""Races: « first to click » wins (Pélican, Chouette Velute, Contre-Sirop), the last of a
Suite loses; a wrong shout is a Bévue. Also the shouts of the Banque option."""

from __future__ import annotations

from typing import TYPE_CHECKING

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette import turn
from choux.games.cul_de_chouette.steps import FIRST_WINS, RACE_CRY, Step
from choux.games.cul_de_chouette.substates import Race, Tiebreak

if TYPE_CHECKING:
    from choux.games.cul_de_chouette.state import CulDeChouetteState


def open_race(st: CulDeChouetteState, kind: str, value: int, eligible: tuple[int, ...]) -> None:
    if st.over:
        return
    st.race = Race(kind, value, tuple(eligible))
    st.enter(Step(kind))


def shout(st: CulDeChouetteState, seat: int, cry: str) -> None:
    """A shout that applies now (the legality gate said so)."""
    if cry == C.RAITOURNELLE:
        total = sum(st.bank)
        st.bank = [0] * st.n
        st.bank[seat] = total
        st.bank_tier += 1
        st.say("banque", f"{{p{seat}}} : « Raitournelle ! » La Banque ({total}) est à lui", seat)
        turn.after_chouettes(st)
        return
    if cry == C.ARTICHETTE:
        st.say("banque", f"{{p{seat}}} : « Artichette ! » La Banque reste en place", seat)
        turn.after_chouettes(st)
        return
    if cry == C.CRI_GRELOTTINE:
        st.erred.append(seat)
        st.shouted_out[seat] = True  # counts as this turn's shout out of place
        st.bevue(seat, "« Grelottine ! » sans Grelottine")
        return
    race = st.race
    assert race is not None
    if cry != RACE_CRY[race.kind]:
        st.race = race.erred(seat)
        st.bevue(seat, f"« {cry} » à tort")
        return
    st.race = race = race.shouted(seat)
    st.say("cri", f"{{p{seat}}} : « {cry} »", seat)
    if race.kind in FIRST_WINS:
        st.race = None
        own = seat == st.roller and st.bought_by is None and race.kind != Step.CONTRE_SIROP
        st.gain(seat, race.value, own, f"crie le premier « {cry} »")
        turn.end_turn(st)
    elif not race.silent():
        st.race = None
        st.lose(race.order[-1], race.value, "crie le dernier")
        turn.end_turn(st)


def close_race(st: CulDeChouetteState) -> None:
    """The clock ends the race: nobody won a first-wins race (an unclaimed Chouette Velute
    stays with the roller); in a Suite, the silent players are the last."""
    race = st.race
    assert race is not None
    st.race = None
    if race.kind in FIRST_WINS:
        st.say("info", "Personne n'a crié à temps.")
        if race.kind == Step.CHOUETTE_VELUTE:
            s = st.scorer  # « le lanceur garde ses points faute de 6 »
            st.gain(s, race.value, s == st.roller, "garde sa Chouette Velute")
        turn.end_turn(st)
        return
    silent = race.silent()
    if len(silent) == 1:
        st.lose(silent[0], race.value, "n'a pas crié à temps")
        turn.end_turn(st)
        return
    st.say("info", "Plusieurs muets : départage au dé, le plus petit perd.")
    st.tiebreak = Tiebreak("suite", silent)
    st.enter(Step.DEPARTAGE)
    if not st.real:
        turn.auto_tiebreak(st)
