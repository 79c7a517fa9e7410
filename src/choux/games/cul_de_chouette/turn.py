"""The flow of a turn: the opening roll, the Chouettes, the Achat de dé, the Cul, reading
the roll and sending each combination to its rule, the Civet, the Néant, the defaults the
clock applies, and the next player."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from choux.games.cul_de_chouette import bleu_rouge, challenges, races, sirotage
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.legality import dice_duty, grelottine_menu
from choux.games.cul_de_chouette.rules import lowest_seats, next_seat
from choux.games.cul_de_chouette.steps import RACES, SPECS, Step
from choux.games.cul_de_chouette.substates import BleuRouge, Sirotage, Tiebreak

if TYPE_CHECKING:
    from choux.games.cul_de_chouette.state import CulDeChouetteState

# --------------------------------------------------------------------------- turns


def start_turn(st: CulDeChouetteState) -> None:
    st.reset_turn()
    st.turn += 1
    st.enter(Step.DEBUT)
    balance = st.bank[st.roller]
    if balance:
        interest = balance * C.BANK_INTEREST // 100
        st.bank[st.roller] = balance + interest
        st.say("banque", f"La Banque verse {interest} d'intérêts à {{p{st.roller}}}")


def end_turn(st: CulDeChouetteState) -> None:
    if st.over:
        return
    st.roller = next_seated(st, st.roller)
    start_turn(st)


def next_seated(st: CulDeChouetteState, seat: int) -> int:
    """The next seated player, counter-clockwise."""
    seat = next_seat(seat, st.n)
    while not st.present[seat]:
        seat = next_seat(seat, st.n)
    return seat


def join(st: CulDeChouetteState, seat: int, sing: bool) -> None:
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
    st.say("sloubi", f"{{p{seat}}} rejoint la partie{song} avec {st.scores[seat]} points", seat)


# --------------------------------------------------------------------------- dice


def on_dice(st: CulDeChouetteState, dice: list[int]) -> None:
    """The dice the game awaited: what they mean depends on the step."""
    step = st.step
    if step == Step.DEBUT:
        on_chouettes(st, dice)
    elif step in (Step.ACHAT, Step.CUL):
        on_cul(st, dice[0])
    elif step in (Step.PARIS_SIROTAGE, Step.SIROTAGE):
        sirotage.on_sip(st, dice[0])
    elif step in (Step.ANNONCE, Step.DEFI):
        challenges.on_throw(st, dice)
    elif step == Step.SIROP_GRELOT:
        challenges.on_sirop_grelot(st, dice[0])
    else:
        bleu_rouge.on_reroll(st, dice)


def on_chouettes(st: CulDeChouetteState, dice: list[int]) -> None:
    st.chouettes = list(dice)
    st.dice = list(dice)
    st.say("des", f"{{p{st.roller}}} lance les Chouettes : {dice[0]} et {dice[1]}", st.roller)
    if (
        st.banque
        and sum(dice) > C.RAITOURNELLE_ABOVE
        and any(st.bank[p] for p in st.seated if p != st.roller)
    ):
        st.enter(Step.RAITOURNELLE)
        return
    after_chouettes(st)


def after_chouettes(st: CulDeChouetteState) -> None:
    """The Cul is for sale if anyone may buy it; else it is rolled (or awaited)."""
    buyers = any(s != st.roller and st.scores[s] >= C.PURCHASE_PRICE for s in st.seated)
    if buyers:
        st.enter(Step.ACHAT)
    elif st.real:
        st.enter(Step.CUL)
    else:
        on_cul(st, st.roll(1)[0])


def buy(st: CulDeChouetteState, seat: int) -> None:
    st.bought_by = seat
    st.set_score(seat, st.scores[seat] - C.PURCHASE_PRICE)
    st.say("achat", f"{{p{seat}}} achète le Cul de {{p{st.roller}}} : −30", seat)
    if st.real:
        st.enter(Step.CUL)
    else:
        on_cul(st, st.roll(1)[0])


def on_cul(st: CulDeChouetteState, value: int) -> None:
    st.dice = [*st.chouettes, value]
    s = st.scorer
    st.say("des", f"{{p{s}}} lance le Cul : {value}", s)
    resolve_roll(st)


def resolve_roll(st: CulDeChouetteState) -> None:
    """Read the three dice and send the combination to its rule."""
    dice = tuple(st.dice)
    name, points, value = C.read_full(dice)
    st.reading = (name, points)
    s = st.scorer
    st.last_roll = {"seat": s, "dice": list(dice), "name": name, "points": points}
    own = s == st.roller
    st.say("combinaison", f"{{p{s}}} fait : {name}", s, combination=name)
    if st.bought_by is not None:
        a, b = st.chouettes
        if a == b:
            st.gain(st.roller, a * a, True, f"garde sa Chouette de {a}")
    if st.civet_bet is not None:
        combination, _stake = st.civet_bet
        if combination == C.CUL_SIROTAGE and name == C.CHOUETTE:
            st.civet_pending = st.civet_bet
        else:
            settle_civet(st, C.has_combination(dice, combination))
    if st.over:
        return
    if name == C.PELICAN:
        st.gain(s, points, own, "fait un Pélican")
        races.open_race(st, Step.PELICAN, C.PELICAN_SHOUT, st.seated)
    elif name == C.CUL_DE_CHOUETTE:
        st.gain(s, points, own, f"fait un Cul de Chouette de {value}")
        end_turn(st)
    elif name == C.BLEU_ROUGE:
        st.boucliette[s] = True
        st.gain(s, points, own, "fait un Bleu-Rouge et regagne sa Boucliette")
        st.bleu = BleuRouge()
        if not st.over:
            st.enter(Step.BLEU_ROUGE)
    elif name == C.CHOUETTE_VELUTE:
        races.open_race(st, Step.CHOUETTE_VELUTE, C.chouette_velute_points(value), st.seated)
    elif name == C.CHOUETTE:
        st.sip = Sirotage(value)
        st.enter(Step.SIROTER)
    elif name == C.SOUFFLETTE:
        st.enter(Step.SOUFFLETTE_CIBLE)
    elif name == C.SUITE:
        if points:
            st.gain(s, points, own, "fait la Velute de 1-2-3")
        if not st.over:
            races.open_race(st, Step.SUITE, C.SUITE_LAST_LOSES, st.seated)
    elif name == C.VELUTE:
        st.gain(s, points, own, f"fait une Velute de {value}")
        end_turn(st)
    else:
        neant(st, s)


def bet_civet(st: CulDeChouetteState, seat: int, combination: str, stake: int) -> None:
    st.civet[seat] = False
    st.civet_bet = (combination, stake)
    st.say("civet", f"{{p{seat}}} mise {stake} sur {combination} avec son Civet", seat)


def settle_civet(st: CulDeChouetteState, success: bool) -> None:
    assert st.civet_bet is not None
    combination, stake = st.civet_bet
    st.civet_bet = None
    st.civet_pending = None
    if success:
        st.gain(st.roller, stake, False, f"gagne son Civet sur {combination}")
    else:
        st.lose(st.roller, stake, f"perd son Civet sur {combination}")


def neant(st: CulDeChouetteState, s: int) -> None:
    """A Néant gives a Grelottine; anyone holding one may then challenge the roller."""
    if not st.grelottine[s]:
        st.grelottine[s] = True
        st.say("grelottine", f"{{p{s}}} gagne une Grelottine", s)
    scores = st.scores
    if any(
        c != s and st.grelottine[c] and grelottine_menu(min(scores[c], scores[s]))
        for c in st.seated
    ):
        st.enter(Step.GRELOTTINE)
    else:
        end_turn(st)


# --------------------------------------------------------------------------- windows close


def await_or_roll(st: CulDeChouetteState) -> None:
    """Closing a window whose default is the roll: the site rolls now; with real dice the
    game waits for them in the step after the window."""
    duty = (st.scorer, 3) if st.step == Step.BLEU_ROUGE else dice_duty(st)
    assert duty is not None
    after = SPECS[st.step].after
    if st.real:
        assert after is not None
        st.enter(after)
        return
    on_dice(st, st.roll(duty[1]))


def keep_the_chouette(st: CulDeChouetteState) -> None:
    sirotage.decide_sip(st, False)


def nobody_shouts_raitournelle(st: CulDeChouetteState) -> None:
    st.say("info", "Personne ne crie : la Banque ne bouge pas.")
    after_chouettes(st)


def challenge_the_next_player(st: CulDeChouetteState) -> None:
    target = next_seated(st, st.scorer)
    challenges.announce(st, "soufflette", st.scorer, target, C.SOUFFLETTE, 0)


def nobody_challenges(st: CulDeChouetteState) -> None:
    st.say("info", "Personne ne lance de Grelottine.")
    end_turn(st)


#: what the clock does when it closes each step (the step's default)
DEFAULTS: dict[Step, Callable[[CulDeChouetteState], None]] = {
    Step.ACHAT: await_or_roll,
    Step.SIROTER: keep_the_chouette,
    Step.PARIS_SIROTAGE: await_or_roll,
    **{race: races.close_race for race in RACES},
    Step.RAITOURNELLE: nobody_shouts_raitournelle,
    Step.SOUFFLETTE_CIBLE: challenge_the_next_player,
    Step.GRELOTTINE: nobody_challenges,
    Step.ANNONCE: await_or_roll,
    Step.BLEU_ROUGE: await_or_roll,
}


def close(st: CulDeChouetteState) -> None:
    """The clock closes the open window with its default."""
    DEFAULTS[st.step](st)


def everyone_decided(st: CulDeChouetteState) -> None:
    """A fair window where nobody may act any more closes at once: the dice are the
    owner's to roll (or type), or the turn ends."""
    after = SPECS[st.step].after
    if after is None:
        nobody_challenges(st)
    else:
        st.enter(after)


# --------------------------------------------------------------------------- ties


def auto_tiebreak(st: CulDeChouetteState) -> None:
    """The site's dice roll every tie-break die at once."""
    while st.tiebreak is not None and st.tiebreak.pending:
        seat = st.tiebreak.pending[0]
        value = int(st.rng.random() * 6) + 1
        st.chance.append({"dice": [value], "seat": seat})
        tiebreak_value(st, seat, value)


def tiebreak_value(st: CulDeChouetteState, seat: int, value: int) -> None:
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
