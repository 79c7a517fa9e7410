"""The rules of La parlote coinchée as pure functions, each named after the rule it decides.

Nothing here knows about states or seats' secrets: the state machine calls these, and the
tests check them one by one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from choux.engine.base import JSON, IllegalAction
from choux.engine.visible import BIDI_CONTROLS, shows_something
from choux.games.parlote import data
from choux.games.parlote.content import Card


def team_of(seat: int) -> int:
    """Teams are seated crosswise: seats 0 and 2 against seats 1 and 3."""
    return seat % 2


def team_seats(team: int) -> tuple[int, int]:
    return (team, team + 2)


def next_seat(seat: int) -> int:
    """Play goes to the left."""
    return (seat + 1) % data.PLAYERS


# --------------------------------------------------------------------------- arguments


def clean_argument(text: str) -> str:
    """An argument as stored: control characters removed (line breaks become spaces),
    surrounding spaces trimmed. The text is otherwise kept as typed; views escape it."""
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS:
            continue
        else:
            kept.append(char)
    cleaned = "".join(kept).strip()
    # zero-width or blank characters alone are no argument (they met « argument obligatoire »)
    return cleaned if shows_something(cleaned) else ""


def check_argument(text: str) -> str:
    """The cleaned argument, or IllegalAction when it is too long."""
    cleaned = clean_argument(text)
    if len(cleaned) > data.MAX_ARGUMENT:
        raise IllegalAction(
            f"Argument trop long : {len(cleaned)} caractères, {data.MAX_ARGUMENT} au plus."
        )
    return cleaned


# --------------------------------------------------------------------------- bidding


def bid_amounts() -> tuple[int, ...]:
    """Every amount one may bid: 80 to 150 by tens, then the capot."""
    return (*range(data.MIN_BID, data.MAX_BID + 1, data.BID_STEP), data.CAPOT)


def check_bid(
    amount: int, colours: Sequence[str], current: int | None, known: Sequence[str]
) -> None:
    """Raise IllegalAction unless `amount` and `colours` make a valid bid over `current`."""
    if current == data.CAPOT:
        raise IllegalAction("Un capot a été annoncé : on ne peut plus surenchérir.")
    if amount != data.CAPOT:
        if amount % data.BID_STEP:
            raise IllegalAction(f"Les enchères montent de {data.BID_STEP} en {data.BID_STEP}.")
        if amount < data.MIN_BID:
            raise IllegalAction(f"L'enchère minimale est de {data.MIN_BID}.")
        if amount > data.MAX_BID:
            raise IllegalAction(f"Au-delà de {data.MAX_BID}, il ne reste qu'à annoncer le capot.")
    if current is not None and amount <= current:
        raise IllegalAction(f"Il faut enchérir au-dessus de {current}.")
    if len(colours) != 2:
        raise IllegalAction("Une enchère désigne exactement deux couleurs d'atout.")
    if colours[0] == colours[1]:
        raise IllegalAction("Les deux couleurs d'atout doivent être différentes.")
    for colour in colours:
        if colour not in known:
            raise IllegalAction(f"Couleur inconnue : {colour}.")


def may_coinche(seat: int, holder: int | None) -> bool:
    """Only a member of the team that does not hold the highest bid may say « je coinche »."""
    return holder is not None and team_of(seat) != team_of(holder)


# --------------------------------------------------------------------------- tricks


def card_points(card: Card, trumps: Sequence[str]) -> int:
    """Non-trump: 2 × depth. Trump: 12 − 2 × depth."""
    if card.colour in trumps:
        return data.TRUMP_POINTS_BASE - data.NON_TRUMP_POINTS_PER_DEPTH * card.depth
    return data.NON_TRUMP_POINTS_PER_DEPTH * card.depth


def trick_winner(
    cards: Sequence[Card], counts: Sequence[bool], trumps: Sequence[str]
) -> tuple[int, str]:
    """Index (in playing order) of the card that takes the trick, and why, in French.

    Among the cards whose argument counts (all cards if none counts): the trump of the
    lowest depth if any trump, else the card of the greatest depth; ties go to the card
    played first."""
    argued = [i for i, ok in enumerate(counts) if ok]
    pool = argued or list(range(len(cards)))
    scope = "parmi les arguments retenus" if argued else "aucun argument retenu : toutes les cartes"
    trump_pool = [i for i in pool if cards[i].colour in trumps]
    if trump_pool:
        best = min(trump_pool, key=lambda i: (cards[i].depth, i))
        tied = sum(1 for i in trump_pool if cards[i].depth == cards[best].depth) > 1
        why = f"{'seul atout' if len(trump_pool) == 1 else 'atout le moins profond'} ({scope})"
    else:
        best = min(pool, key=lambda i: (-cards[i].depth, i))
        tied = sum(1 for i in pool if cards[i].depth == cards[best].depth) > 1
        why = f"carte la plus profonde ({scope})"
    if len(argued) == 1:  # « the deepest » of one card would read as a claim about its depth
        why = "seul argument retenu"
    if tied:
        why += " ; égalité : la première jouée l'emporte"
    return best, why[0].upper() + why[1:]


def readers_argument_goes_to_vote(author: int, reader: int | None, referee: int | None) -> bool:
    """Arbitre mode: the reader judges the arguments of the others, but never their own.
    With no referee seat, the reader's own argument goes to a secret majority vote of the
    three other players, as in Jury; a referee seat judges every argument itself."""
    return referee is None and author == reader


def votes_shown(votes: Sequence[tuple[int, bool]], vote_open: bool) -> list[list[JSON]]:
    """The votes a view may show: none while the vote is open (a ballot stays secret until
    it closes, so that nobody votes by following the others), all of them once closed."""
    if vote_open:
        return []
    return [[seat, counts] for seat, counts in votes]


def vote_tally(votes: Sequence[bool]) -> str:
    """The French line the log shows once a vote closes (never before: it is secret)."""
    missing = data.PLAYERS - 1 - len(votes)
    text = f"Vote clos : {votes.count(True)} pour l'argument, {votes.count(False)} contre"
    if missing:
        verb = "compte" if missing == 1 else "comptent"
        text += f" ; {missing} sans réponse ({verb} pour l'argument)"
    return text + "."


def vote_rejects(votes: Sequence[bool | None]) -> bool:
    """A contested argument is rejected when a strict majority of the three voters says it
    does not count. A missing vote (the window closed) counts for the argument."""
    against = sum(1 for v in votes if v is False)
    return against * 2 > data.PLAYERS - 1


# --------------------------------------------------------------------------- scoring


def contract_made(amount: int, points: int, tricks_won: int) -> bool:
    """A bid is made when the bidders' points reach it; a capot needs all seven tricks."""
    if amount == data.CAPOT:
        return tricks_won == data.TRICKS
    return points >= amount


def deal_scores(
    bidders: int, amount: int, coinched: bool, points: Sequence[int], tricks: Sequence[int]
) -> tuple[tuple[int, int], bool]:
    """The two teams' scores for a deal, and whether the contract was made.

    Made: the bidders score bid + points, the defenders their points. Failed: the
    defenders score 160 + bid, the bidders nothing. Coinched: both doubled."""
    defenders = 1 - bidders
    made = contract_made(amount, points[bidders], tricks[bidders])
    scores = [0, 0]
    if made:
        scores[bidders] = amount + points[bidders]
        scores[defenders] = points[defenders]
    else:
        scores[defenders] = data.FAILED_BONUS + amount
    if coinched:
        scores = [s * data.COINCHE_FACTOR for s in scores]
    return (scores[0], scores[1]), made


def game_winner(scores: Sequence[int], target: int) -> int | None:
    """The team that wins at the end of a deal: over the target; both over, the higher;
    equal, nobody yet."""
    over = [team for team in (0, 1) if scores[team] > target]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1
