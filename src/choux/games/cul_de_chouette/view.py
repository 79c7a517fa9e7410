"""What a seat sees of a Cul de Chouette table: nothing is hidden but the future dice, so
every seat and the spectator see the same board (the keys are listed in `state`)."""

from __future__ import annotations

from choux.engine.base import JSON
from choux.games.cul_de_chouette.legality import dice_duty, late_seats, pending, typer
from choux.games.cul_de_chouette.rotation import next_seated
from choux.games.cul_de_chouette.steps import FAIR, RACE_CRY, RACES, SPECS, STEP_LABELS, Step
from choux.games.cul_de_chouette.table import CdcTable


def waiting_on(st: CdcTable) -> tuple[int, ...]:
    """The seats whose decision moves the game on (the « À vous » of the page), unlike the
    actors, who include everyone holding a −10 button or a shout out of place: the tie-break's
    dice, the fair window's pending players (else the awaited dice), the dice's typer, or the
    scorer's choice. A race waits for nobody in particular: the clock ends it."""
    if st.over or st.step in RACES or st.step == Step.RAITOURNELLE:
        return ()
    tie = st.tiebreak
    if tie is not None:
        if st.real and st.scribe is not None and tie.pending:
            return (st.scribe,)
        return tie.pending
    if st.step in FAIR:
        waiting = pending(st)
        if waiting:
            return waiting
    duty = dice_duty(st)
    if duty is not None:
        return (typer(st, duty[0]),)
    if SPECS[st.step].who == "scorer":
        return (st.scorer,)
    return ()


def board_view(st: CdcTable) -> dict[str, JSON]:
    """The view without the common envelope (game, seat, actors, legal)."""
    duty = dice_duty(st) if not st.over and st.tiebreak is None else None
    deadline = st.deadline()
    race, ch, sip, bleu, tie = st.race, st.challenge, st.sip, st.bleu, st.tiebreak
    order = [st.roller]
    while len(order) < len(st.seated):
        order.append(next_seated(st, order[-1]))
    label = STEP_LABELS[st.step]
    return {
        "players": st.n,
        "target": st.target,
        "cap": st.cap,
        "dice_mode": "reels" if st.real else "site",
        "scribe": st.scribe,
        "bevue_button": st.bevue_button,
        "turn": st.turn,
        "roller": st.roller,
        "order": order,
        "step": str(st.step),
        "step_label": label,
        "dice": list(st.dice),
        "chouettes": list(st.chouettes),
        "last_roll": None if st.last_roll is None else dict(st.last_roll),
        "reading": None if st.reading is None else {"name": st.reading[0], "points": st.reading[1]},
        "sheets": [
            {
                "seat": s,
                "score": st.scores[s],
                "grelottine": st.grelottine[s],
                "civet": st.civet[s],
                "boucliette": st.boucliette[s],
                "passe_grelot_used": st.pg_used[s],
                "passe_grelot_earned": st.pg_earned[s],
                "bevue_pressed": list(st.bevue_pressed[s]),
                "partner": st.partner[s],
                "present": st.present[s],
            }
            for s in range(st.n)
        ],
        "passed": list(st.passed),
        "windows": []
        if deadline is None
        else [{"kind": str(st.step), "label": label, "seconds": deadline.seconds}],
        # who types or throws the dice, and whose throw they are (a scribe types everyone's)
        "awaiting": None
        if duty is None
        else {"seat": typer(st, duty[0]), "owner": duty[0], "count": duty[1]},
        "waiting": list(waiting_on(st)),
        "race": None
        if race is None
        else {
            "kind": race.kind,
            "cry": RACE_CRY[race.kind],
            "eligible": list(race.eligible),
            "order": list(race.order),
            "wrong": list(race.wrong),
        },
        "late": None
        if st.late is None
        else {"cry": st.late.cry, "seats": list(late_seats(st)), "heard": list(st.late.heard)},
        "civet_bet": None
        if st.civet_bet is None
        else {"combination": st.civet_bet[0], "stake": st.civet_bet[1]},
        "bought_by": st.bought_by,
        "sirotage": None if sip is None else {"value": sip.value, "bets": sip.bets.to_json()},
        "challenge": None
        if ch is None
        else {
            "kind": ch.kind,
            "challenger": ch.challenger,
            "target": ch.target,
            "combination": ch.combination,
            "stake": ch.stake,
            "throw": ch.throw,
            "kept": list(ch.kept),
            "bets": ch.bets.to_json(),
        },
        "bleu_rouge": None
        if bleu is None
        else {
            "totals": list(bleu.totals),
            "announced": bleu.announced,
            "bets": bleu.bets.to_json(),
        },
        "tiebreak": None
        if tie is None
        else {
            "purpose": tie.purpose,
            "pending": list(tie.pending),
            "values": {str(k): v for k, v in tie.values},
        },
        "banque": None if not st.banque else {"balances": list(st.bank), "tier": st.bank_tier},
        "over": st.over,
        "winner": st.winner,
    }
