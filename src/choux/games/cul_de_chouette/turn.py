"""The flow of a turn: the opening roll, the Chouettes, the Raitournelle, the Achat de dé,
the Cul, reading the roll and sending each combination to its rule, the Néant, and the
defaults the clock applies. Passing the dice on is `rotation`'s."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from choux.games.cul_de_chouette import bleu_rouge, challenges, races, sirotage
from choux.games.cul_de_chouette import combos as C
from choux.games.cul_de_chouette.civet import settle_civet
from choux.games.cul_de_chouette.legality import dice_duty, grelottine_menu, typer
from choux.games.cul_de_chouette.rotation import end_turn, next_seated
from choux.games.cul_de_chouette.steps import RACES, SPECS, Step
from choux.games.cul_de_chouette.substates import BleuRouge, Sirotage
from choux.games.cul_de_chouette.table import CdcTable

# --------------------------------------------------------------------------- dice


def on_dice(st: CdcTable, dice: list[int]) -> None:
    """The dice the game awaited: what they mean depends on the step."""
    step = st.step
    late = st.late
    if late is not None and (step != Step.DEBUT or late.spared):
        st.late = None  # the next roll is complete: the last race's cry is out of place
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


def on_chouettes(st: CdcTable, dice: list[int]) -> None:
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
    after_chouettes(st, together=True)


def after_chouettes(st: CdcTable, together: bool = False) -> None:
    """The Cul is for sale if anyone may buy it; else it is rolled (or awaited). `together`:
    the site rolls it in the same throw as the Chouettes."""
    buyers = any(s != st.roller and st.scores[s] >= C.PURCHASE_PRICE for s in st.seated)
    if buyers:
        st.enter(Step.ACHAT)
    elif st.real:
        st.enter(Step.CUL)
    else:
        on_cul(st, st.roll(1)[0], together)


def bank_shout(st: CdcTable, seat: int, cry: str) -> None:
    """The Raitournelle window's shouts (Banque): the roller's « Raitournelle ! » takes the
    whole Banque, an opponent's « Artichette ! » leaves it in place; then the Cul."""
    if cry == C.RAITOURNELLE:
        total = sum(st.bank)
        st.bank = [0] * st.n
        st.bank[seat] = total
        st.bank_tier += 1
        st.say("banque", f"{{p{seat}}} : « Raitournelle ! » La Banque ({total}) est à lui", seat)
    else:
        st.say("banque", f"{{p{seat}}} : « Artichette ! » La Banque reste en place", seat)
    after_chouettes(st)


def buy(st: CdcTable, seat: int) -> None:
    st.bought_by = seat
    st.set_score(seat, st.scores[seat] - C.PURCHASE_PRICE)
    st.say("achat", f"{{p{seat}}} achète le Cul de {{p{st.roller}}} : −30", seat)
    if st.real:
        st.enter(Step.CUL)
    else:
        on_cul(st, st.roll(1)[0])


def on_cul(st: CdcTable, value: int, together: bool = False) -> None:
    """The roll's Cul, however it came (real dice typed, the site's once bought, or rolled
    when nobody may buy it): from now on the last race's cry is out of place; but when the
    site threw it with the Chouettes (`together`), only from the next dice on. (A cry 0.3 s
    late was fined −10 because the next player threw at once; for turns on end, before, the
    cry was never out of place on that path.)"""
    late = st.late
    if together and late is not None:
        st.late = replace(late, spared=True)
    else:
        st.late = None
    st.dice = [*st.chouettes, value]
    s = st.scorer
    st.say("des", f"{{p{s}}} lance le Cul : {value}", s)
    resolve_roll(st)


def resolve_roll(st: CdcTable) -> None:
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


def neant(st: CdcTable, s: int) -> None:
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


def await_or_roll(st: CdcTable) -> None:
    """Closing a window whose default is the roll: the site rolls now; with real dice the
    game waits for them in the step after the window."""
    duty = (st.scorer, 3) if st.step == Step.BLEU_ROUGE else dice_duty(st)
    assert duty is not None
    after = SPECS[st.step].after
    if st.real:
        assert after is not None
        st.enter(after)
        # the site rolls nothing, so nothing else would tell the table the window closed
        owner, by = duty[0], typer(st, duty[0])
        dice_of = "ses dés" if by == owner else f"les dés de {{p{owner}}}"
        st.say("info", f"Temps écoulé : {{p{by}}} peut saisir {dice_of}.", by)
        return
    on_dice(st, st.roll(duty[1]))


def keep_the_chouette(st: CdcTable) -> None:
    sirotage.decide_sip(st, False)


def nobody_shouts_raitournelle(st: CdcTable) -> None:
    st.say("info", "Personne ne crie : la Banque ne bouge pas.")
    after_chouettes(st)


def challenge_the_next_player(st: CdcTable) -> None:
    target = next_seated(st, st.scorer)
    challenges.announce(st, "soufflette", st.scorer, target, C.SOUFFLETTE, 0)


def nobody_challenges(st: CdcTable) -> None:
    st.say("info", "Personne ne lance de Grelottine.")
    end_turn(st)


#: what the clock does when it closes each step (the step's default)
DEFAULTS: dict[Step, Callable[[CdcTable], None]] = {
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


def close(st: CdcTable) -> None:
    """The clock closes the open window with its default."""
    DEFAULTS[st.step](st)


def everyone_decided(st: CdcTable) -> None:
    """A fair window where nobody may act any more closes at once: the dice are the
    owner's to roll (or type), or the turn ends."""
    after = SPECS[st.step].after
    if after is None:
        nobody_challenges(st)
    else:
        st.enter(after)
