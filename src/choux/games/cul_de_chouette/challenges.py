"""Challenges: the Soufflette (make 421 again in three throws) and the Grelottine (an
imposed combination for a stake), with the Boucliette that cancels them, the Passe-Grelot
that hands a Grelottine on, and the third parties' bets."""

from __future__ import annotations

from dataclasses import replace

from choux.engine.french import points_text
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.rotation import end_turn
from choux.games.cul_de_chouette.rules import soufflette_kept
from choux.games.cul_de_chouette.steps import Step
from choux.games.cul_de_chouette.substates import Challenge
from choux.games.cul_de_chouette.table import CdcTable


def announce(
    st: CdcTable, kind: str, challenger: int, target: int, combination: str, stake: int
) -> None:
    """The challenge is announced: a fair window opens (Boucliette, Passe-Grelot, bets)."""
    st.challenge = Challenge(kind, challenger, target, target, combination, stake)
    if kind == "soufflette":
        st.say("defi", f"{{p{challenger}}} défie {{p{target}}} à la Soufflette", challenger)
    else:
        st.say(
            "defi",
            f"{{p{challenger}}} impose {combination} à {{p{target}}} pour {points_text(stake)}",
            challenger,
        )
    st.enter(Step.ANNONCE)


def passe_grelot(st: CdcTable, seat: int, target: int) -> None:
    ch = st.challenge
    assert ch is not None
    st.pg_used[seat] = True
    if target in st.passed:  # a new challenge for them: their window opens again
        st.passed.remove(target)
    top = C.grelottine_max_stake(ch.combination, st.scores[ch.challenger], st.scores[target])
    stake = min(ch.stake, top)
    st.challenge = replace(ch, target=target, bets=ch.bets.without(target), stake=stake)
    # the stake is capped by the smaller score of the pair: a poorer target lowers it
    lowered = f", mise ramenée à {points_text(stake)}" if stake < ch.stake else ""
    st.say("defi", f"{{p{seat}}} : « Passe-Grelot ! » Le défi passe à {{p{target}}}{lowered}", seat)


def use_boucliette(st: CdcTable, seat: int) -> None:
    st.boucliette[seat] = False
    st.challenge = None
    st.say("boucliette", f"{{p{seat}}} brandit sa Boucliette : défi annulé", seat)
    end_turn(st)


def bet(st: CdcTable, seat: int, made: bool) -> None:
    assert st.challenge is not None
    st.challenge = replace(st.challenge, bets=st.challenge.bets.placed(seat, made))
    word = "réussi" if made else "raté"
    st.say("pari", f"{{p{seat}}} parie 5 sur un défi {word}", seat)


def on_throw(st: CdcTable, new: list[int]) -> None:
    ch = st.challenge
    assert ch is not None
    t = ch.target
    dice = [*ch.kept, *new]
    st.dice = dice
    st.challenge = ch = replace(ch, throw=ch.throw + 1)
    st.say("des", f"{{p{t}}} lance : {'-'.join(map(str, dice))}", t)
    if ch.kind == "soufflette":
        soufflette_throw(st, dice)
        return
    reading = C.read_full(tuple(dice))
    name, points = reading.name, C.roll_points(reading)
    if ch.combination == C.SIROP_GRELOT:
        pair = C.odd_die(tuple(dice))
        if pair is not None and name != C.CHOUETTE_VELUTE:  # no Sirotage after one
            st.challenge = replace(ch, pair=pair)
            st.enter(Step.SIROP_GRELOT)
            return
        made = name in (C.CUL_DE_CHOUETTE, C.PELICAN)
    else:
        made = C.has_combination(tuple(dice), ch.combination)
    settle_grelottine(st, made, points)


def on_sirop_grelot(st: CdcTable, die: int) -> None:
    ch = st.challenge
    assert ch is not None and ch.pair is not None
    v = ch.pair
    st.dice = [v, v, die]
    st.say("des", f"{{p{ch.target}}} sirote : {die}", ch.target)
    made = die == v
    settle_grelottine(st, made, C.cul_de_chouette_points(v) if made else 0)


def settle_grelottine(st: CdcTable, made: bool, points: int) -> None:
    ch = st.challenge
    assert ch is not None
    t, c, stake = ch.target, ch.challenger, ch.stake
    st.challenge = None
    if made:
        st.say("defi", f"{{p{t}}} relève le défi", t)
        st.gain(t, stake, False, "gagne le défi Grelottine")
        st.lose(c, stake, "perd son défi")
        st.pg_earned[t] = True
    else:
        st.say("defi", f"{{p{t}}} échoue au défi", t)
        st.lose(t, stake, "rate le défi Grelottine")
        st.gain(c, stake, False, "gagne son défi")
    for bettor, guess in ch.bets.by_seat():
        if guess == made:
            st.gain(bettor, C.SIDE_BET_GAIN, False, "gagne son pari")
        else:
            st.lose(bettor, C.SIDE_BET_STAKE, "perd son pari")
    st.grelottine[c] = False
    st.grelottine[ch.origin] = False
    st.gain(t, points, t == st.roller, "marque les points de son lancer")
    end_turn(st)


def soufflette_throw(st: CdcTable, dice: list[int]) -> None:
    ch = st.challenge
    assert ch is not None
    t, c = ch.target, ch.challenger
    st.challenge = ch = replace(ch, kept=tuple(soufflette_kept(dice)))
    if len(ch.kept) == 3:
        gain = C.SOUFFLETTE_GAINS[ch.throw - 1]
        st.challenge = None
        st.gain(t, gain, False, f"refait 421 au jet {ch.throw}")
        st.lose(c, gain, "perd sa Soufflette")
        end_turn(st)
    elif ch.throw == 3:
        st.challenge = None
        st.lose(t, C.SOUFFLETTE_FAIL, "rate la Soufflette")
        st.gain(c, C.SOUFFLETTE_FAIL, False, "gagne sa Soufflette")
        end_turn(st)
    else:
        st.enter(Step.DEFI)
