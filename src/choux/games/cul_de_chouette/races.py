"""Races: « first to click » wins (Pélican, Chouette Velute, Contre-Sirop), the last of a
Suite loses; a wrong shout is a Bévue, and so is « Grelottine ! » shouted without one.
The race's own cry arriving after it ended, before the next roll's Cul die, applies to the
dice it was about: it is only too late (no points, no Bévue), whatever the network's lag
and however fast the next player throws the Chouettes.
(The Banque's shouts end the Raitournelle window: `turn.bank_shout`.)"""

from __future__ import annotations

from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.rotation import auto_tiebreak, end_turn
from choux.games.cul_de_chouette.steps import FIRST_WINS, RACE_CRY, Step
from choux.games.cul_de_chouette.substates import LateCry, Race, Tiebreak
from choux.games.cul_de_chouette.table import CdcTable


def open_race(st: CdcTable, kind: str, value: int, eligible: tuple[int, ...]) -> None:
    if st.over:
        return
    st.race = Race(kind, value, tuple(eligible))
    st.enter(Step(kind))


def shout(st: CdcTable, seat: int, cry: str) -> None:
    """A race's shout, or a false « Grelottine ! », that applies now (the legality gate
    said so)."""
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
        ended(st, race)
        own = seat == st.roller and st.bought_by is None and race.kind != Step.CONTRE_SIROP
        st.gain(seat, race.value, own, f"crie le premier « {cry} »")
        end_turn(st)
    elif not race.silent():
        st.race = None
        ended(st, race)
        st.lose(race.order[-1], race.value, "crie le dernier")
        end_turn(st)


def close_race(st: CdcTable) -> None:
    """The clock ends the race: nobody won a first-wins race (an unclaimed Chouette Velute
    stays with the roller); in a Suite, the silent players are the last."""
    race = st.race
    assert race is not None
    st.race = None
    ended(st, race)
    if race.kind in FIRST_WINS:
        st.say("info", "Personne n'a crié à temps.")
        if race.kind == Step.CHOUETTE_VELUTE:
            s = st.scorer  # « le lanceur garde ses points faute de 6 »
            st.gain(s, race.value, s == st.roller, "garde sa Chouette Velute")
        end_turn(st)
        return
    silent = race.silent()
    if len(silent) == 1:
        st.lose(silent[0], race.value, "n'a pas crié à temps")
        end_turn(st)
        return
    st.say("info", "Plusieurs muets : départage au dé, le plus petit perd.")
    st.tiebreak = Tiebreak("suite", silent)
    st.enter(Step.DEPARTAGE)
    if not st.real:
        auto_tiebreak(st)


def ended(st: CdcTable, race: Race) -> None:
    """The race is over: its players may still shout its cry once, too late, until the next
    dice (`late_shout`); once only, counting a repeat while the race ran."""
    seats = tuple(s for s in race.eligible if s not in race.again)
    st.late = LateCry(RACE_CRY[race.kind], seats, race.order)


def late_shout(st: CdcTable, seat: int) -> None:
    """The race's cry again from a player already heard while the race runs on (a Suite),
    or the cry of the race that just ended, after its end: no points, no Bévue."""
    race = st.race
    if race is not None:
        st.race = race.repeated(seat)
        cry = RACE_CRY[race.kind]
        st.say("cri", f"{{p{seat}}} crie encore « {cry} » : déjà compté", seat)
        return
    late = st.late
    assert late is not None
    st.late = late.used(seat)
    if seat in late.heard:
        st.say("cri", f"{{p{seat}}} crie encore « {late.cry} » : déjà compté", seat)
    else:
        st.say("cri", f"{{p{seat}}} : « {late.cry} », trop tard : la course est finie", seat)
