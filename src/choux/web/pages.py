"""Server-rendered pages: lobby, table creation, tables, rules, replays."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from choux import games
from choux.engine.base import JSON, ChouxError, Game, Option
from choux.engine.fairness import commitment
from choux.engine.record import (
    Record,
    RecordError,
    bot_seats,
    film,
    replay_steps,
    winner_names,
)
from choux.play.chat_store import messages_of_record
from choux.play.correspondence import parse_rule
from choux.play.players import record_seat
from choux.play.service import CLOCK_CHOICES, SeatSpec, TableError, TableService, preferred_level
from choux.play.tables import STATUS_LABELS, LiveTable, Subscriber
from choux.web import seating
from choux.web.accounts import accounts_of
from choux.web.catalog import catalog, renderer, rules_page
from choux.web.form_hints import PENDULE_HELP, PENDULE_LABEL, hinted_fields
from choux.web.forms import form_of, session_of
from choux.web.lessons import LESSONS, lesson_of
from choux.web.players import lobby_context
from choux.web.ratelimits import client_key
from choux.web.replays import Replays, compact_json, compact_steps
from choux.web.session import Session
from choux.web.templating import render, render_error

router = APIRouter()

CLOCK_LABELS = {0: "sans pendule", 30: "30 s", 60: "1 min", 120: "2 min", 300: "5 min"}


def service_of(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def chosen_place(form: dict[str, str]) -> int | None:
    """The seat a form asks for (field `place`), or None to take any free one."""
    raw = form.get("place")
    try:
        return int(raw) if raw not in (None, "") else None
    except ValueError as error:
        raise TableError("Place invalide.") from error


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


# ---------------------------------------------------------------------- lobby


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> Response:
    service = service_of(request)
    await service.load_open_elsewhere()  # several processes: tables made by the others
    tables = []
    # the tables waiting for players first: games being played (anyone's, many at once)
    # never push a table that needs people off the list
    for table in sorted(service.listed(), key=lambda t: t.status != "open")[:40]:
        tables.append(
            {
                "code": table.code,
                "title": table.game.title,
                "status": table.status,
                "status_label": STATUS_LABELS[table.status],
                "names": [s["name"] for s in table.seats_json() if s["kind"] != "open"],
                "free": len(table.open_seats()),
                "players": table.row.players,
                "mine": my_seat(request, table) is not None,
            }
        )
    recent = await service.store.recent_records(8)
    titles = {info.name: info.title for info in catalog()}
    for item in recent:
        item["title"] = titles.get(item["game"], item["game"])
        bots = bot_seats(item.get("bots"), len(item["names"]))
        item["winners"] = winner_names(item["names"], item.get("result"), bots)
    return render(
        request,
        "lobby.html",
        {
            "games": catalog(),
            "tables": tables,
            "recent": recent,
            "lessons": LESSONS,
            **await lobby_context(request),
        },
    )


# ---------------------------------------------------------------------- creating a table


def option_fields(game: Game) -> list[dict[str, Any]]:
    fields = []
    for option in game.options:
        fields.append(
            {
                "name": option.name,
                "label": option.label,
                "kind": option.kind,
                "default": option.default,
                "choices": [
                    {"value": json.dumps(v), "label": lab, "selected": v == option.default}
                    for v, lab in option.choices
                ],
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
        )
    return fields


def parse_option(option: Option, raw: str | None) -> JSON:
    if option.kind == "bool":
        return raw in ("on", "true", "1", "oui")
    if raw is None:
        return option.default
    if option.kind == "int":
        try:
            return int(raw)
        except ValueError as error:
            raise TableError(f"L'option « {option.label} » attend un nombre.") from error
    try:
        value: JSON = json.loads(raw)
        return value
    # ValueError: a number of more than 4,300 digits; RecursionError: nested too deep
    except (ValueError, RecursionError) as error:
        raise TableError(f"Valeur impossible pour « {option.label} ».") from error


@router.get("/nouvelle", response_class=HTMLResponse)
async def new_table(request: Request, jeu: str | None = None) -> Response:
    available = [info for info in catalog() if info.available]
    if not available:
        return render_error(request, "Aucun jeu n'est encore disponible.", 503)
    chosen = next((i for i in available if i.name == jeu), None if jeu else available[0])
    if chosen is None:
        unknown = "Ce jeu n'existe pas sur Choux : choisissez-en un dans « Créer une table »."
        return render_error(request, unknown, 404)
    game = chosen.game
    assert game is not None
    return render(
        request,
        "new_table.html",
        {
            "games": available,
            "chosen": chosen,
            "game": game,
            "options": hinted_fields(game.name, option_fields(game), game.max_players),
            "pendule": (PENDULE_LABEL, PENDULE_HELP),
            "players": list(range(game.min_players, game.max_players + 1)),
            "default_players": game.min_players,
            "seats": list(range(game.max_players)),
            # seats with a role (the Parlote arbiter): a note, and the option the seat needs
            "seat_roles": game.seat_roles,
            "levels": game.bot_levels(),
            "default_level": preferred_level(game),
            "clocks": [(c, CLOCK_LABELS[c]) for c in CLOCK_CHOICES],
            "name": session_of(request).name,
        },
    )


@router.post("/tables")
async def create_table(request: Request) -> Response:
    form = await form_of(request)
    name = form.get("jeu", "")
    if name not in games.names():
        raise TableError("Ce jeu n'est pas disponible.", 404)
    game = games.get(name)
    try:
        players = int(form.get("joueurs", ""))
    except ValueError as error:
        raise TableError("Nombre de joueurs invalide.") from error
    if not game.min_players <= players <= game.max_players:  # before the loop over the seats
        raise TableError(
            f"{game.title} se joue de {game.min_players} à {game.max_players} joueurs."
        )
    options = {o.name: parse_option(o, form.get(f"opt_{o.name}")) for o in game.options}
    specs = []
    for seat in range(players):
        value = form.get(f"place_{seat}", "human" if seat == 0 else "bot")
        if value == "human":
            specs.append(SeatSpec("human"))
        elif value.startswith("bot"):
            specs.append(SeatSpec("bot", value.partition(":")[2] or None))
        else:
            raise TableError("Une place est soit une personne, soit un robot.")
    try:
        clock = int(form.get("pendule", "0"))
    except ValueError as error:
        raise TableError("Pendule impossible.") from error
    days = parse_rule(name, form.get("correspondance"), form.get("echeance"))
    if days is not None:
        clock = 0  # the move time of a correspondence table replaces the clock
    creator = form.get("pseudo", "") if any(s.kind == "human" for s in specs) else None
    # inviting friends: private unless « table publique » is ticked (the form says `prive`)
    private = (
        form.get("prive") == "1"
        and not form.get("publique")
        and sum(s.kind == "human" for s in specs) > 1
    )
    table, token = await service_of(request).create(
        name,
        players,
        options,
        specs,
        clock,
        creator,
        creator_player=session_of(request).player,
        client=client_key(request),
        private=private,
    )
    if days is not None:
        await service_of(request).make_correspondence(table, days)
    if token is not None:
        host = next(s for s in table.seats if s.host)
        session_of(request).remember(table.code, host.seat, token, host.name)
    return see_other(f"/t/{table.code}")


# ---------------------------------------------------------------------- tables


def my_seat(request: Request, table: LiveTable) -> int | None:
    return seating.my_seat(request, table)  # by seat token, or by identity


@router.get("/t/{code}", response_class=HTMLResponse)
async def table_page(request: Request, code: str) -> Response:
    service = service_of(request)
    table = await service.get(code)
    # private tables, and seats that come back to their identity
    seat = await seating.arrive(request, table, my_seat(request, table))
    session = session_of(request)
    if seat is None and table.row.prev_code and table.status == "open":
        # a rematch: whoever sat at the previous table gets the same seat back, on any device
        # of their account
        old = await seating.former_seat(request, table)
        if old is not None and old in table.open_seats():
            previous = await service.get(table.row.prev_code)
            name = previous.seats[old].name or session.name
            token = await service.claim(table, old, name, session.player)
            session.remember(table.code, old, token, name)
            seat = old
    initial = table.message(Subscriber(seat), full=True)
    host = seat is not None and table.seats[seat].host
    may_sit = seat is None and await seating.may_enter(request, table, None, to_sit=True)
    held = await seating.held_seats(request, table)
    free = [s for s in table.open_seats() if s not in held]
    try:  # turn alerts (push, e-mail) are sent for correspondence tables only
        days = await service.rule_for(table) is not None
    except Exception:  # the store away: shown as any other table
        days = False
    return render(
        request,
        "table.html",
        {
            "table": table,
            "seat": seat,
            "host": host,
            "initial": initial,
            "renderer": renderer(table.game.name),
            "constants": table.game.client_constants(),
            "open_seats": free if may_sit else [],
            # told to all (the host, who sends the link; a watcher, who may not sit there)
            "held_seats": held,
            "free_seats": free if seat is not None and table.game.shared_screen else [],
            "shared_seats": shared_seats(session, table),
            "correspondence": days,
            "name": session.name,
            "lesson": lesson_of(request, table),
            # a spectator let in by the game before does not get the rematch's secret
            "invite": seating.invite_link(request, table) if seat is not None or may_sit else "",
            "commitment": commitment(table.row.seed),
        },
    )


@router.get("/t/{code}/etat.json")
async def table_state(request: Request, code: str) -> JSONResponse:
    """The visitor's own view as JSON (spectator view without a seat)."""
    table = await service_of(request).get(code)
    await seating.check_entry(request, table)
    return JSONResponse(table.message(Subscriber(my_seat(request, table)), full=True))


@router.post("/t/{code}/rejoindre")
async def join_table(request: Request, code: str) -> Response:
    form = await form_of(request)
    service = service_of(request)
    table = await service.get(code)
    if my_seat(request, table) is not None:
        return see_other(f"/t/{code}")
    await seating.check_entry(request, table, form.get("cle"), to_sit=True)
    seat = await seating.seat_to_take(request, table, chosen_place(form))
    player = session_of(request).player
    seat, token = await service.join(table, seat, form.get("pseudo", ""), player)
    session_of(request).remember(code, seat, token, table.seats[seat].name)
    return see_other(f"/t/{code}")


def shared_seats(session: Session, table: LiveTable) -> list[int]:
    """Other seats this device plays at the table (shared screen), still valid."""
    return [
        seat
        for seat, token in session.shared_at(table.code)
        if table.seat_for_token(seat, token) is not None
    ]


@router.post("/t/{code}/ajouter")
async def add_shared_player(request: Request, code: str) -> Response:
    """Shared screen: seat one more person at this device, under their own pseudonym."""
    form = await form_of(request)
    service = service_of(request)
    table = await service.get(code)
    if not table.game.shared_screen:
        raise TableError("L'écran partagé n'existe pas pour ce jeu : chacun joue sur son appareil.")
    if my_seat(request, table) is None:
        raise TableError("Asseyez-vous d'abord à cette table, puis ajoutez un joueur.")
    seat = await seating.seat_to_take(request, table, chosen_place(form))
    seat, token = await service.join(table, seat, form.get("pseudo", ""))
    session_of(request).remember_shared(code, seat, token)
    return see_other(f"/t/{code}")


@router.post("/t/{code}/rejouer")
async def rematch(request: Request, code: str) -> Response:
    await form_of(request)
    service = service_of(request)
    table = await service.get(code)
    seat = my_seat(request, table)
    if seat is None:
        raise TableError("Seuls les joueurs de la table peuvent relancer une partie.", 403)
    if table.status != "over":
        raise TableError("La partie n'est pas terminée.", 409)
    new = await service.rematch(table, seat)
    if seat in new.open_seats():
        name = table.seats[seat].name or session_of(request).name
        token = await service.claim(new, seat, name, session_of(request).player)
        session_of(request).remember(new.code, seat, token, name)
    return see_other(f"/t/{new.code}")


@router.post("/t/{code}/remplacer")
async def replace(request: Request, code: str) -> Response:
    form = await form_of(request)
    service = service_of(request)
    table = await service.get(code)
    seat = my_seat(request, table)
    if seat is None or not table.seats[seat].host:
        raise TableError("Seul l'hôte de la table peut remplacer un joueur.", 403)
    try:
        target = int(form.get("place", ""))
    except ValueError as error:
        raise TableError("Place invalide.") from error
    if not 0 <= target < len(table.seats) or target == seat:
        raise TableError("Place invalide.")
    await service.exclude(table, target)  # a bot for good: the person does not come back
    return see_other(f"/t/{code}")


# ---------------------------------------------------------------------- rules


@router.get("/regles/{name}", response_class=HTMLResponse)
async def rules(request: Request, name: str) -> Response:
    if name not in games.MODULES:
        raise TableError("Ce jeu n'existe pas.", 404)
    page = rules_page(name)
    if page is None:
        raise TableError("Les règles de ce jeu arrivent bientôt.", 404)
    context = {"page": page, "name": name, "games": catalog(), "lessons": LESSONS}
    return render(request, "rules.html", context)


# ---------------------------------------------------------------------- ladders


@router.get("/classement/{name}", response_class=HTMLResponse)
async def ladder(request: Request, name: str) -> Response:
    """A game's rating ladder: people by their guest identity, and each bot level."""
    if name not in games.MODULES:
        raise TableError("Ce jeu n'existe pas.", 404)
    game = games.get(name)
    standings = await service_of(request).store.ladder(name, 100)
    me = session_of(request).player
    people = [s.player for s in standings if not s.is_bot]
    suspended = await accounts_of(request).suspended_players(people)  # off the ladder
    standings = [s for s in standings if s.player not in suspended]
    profiles = await accounts_of(request).pseudos_of(people)
    rows = [
        {
            "rank": index + 1,
            # a bot level is one entry whatever each table called its bot
            "name": f"Robot {game.level_label(s.level)}" if s.level else s.name,
            "bot": s.is_bot,
            "score": s.score,
            "games": s.games,
            "wins": s.wins,
            "me": s.player == me,
            "profile": profiles.get(s.player),  # an account's pseudonym: a link to it
        }
        for index, s in enumerate(standings)
    ]
    return render(
        request,
        "ladder.html",
        {"name": name, "title": game.title, "rows": rows, "games": catalog()},
    )


# ---------------------------------------------------------------------- replays


def replays_of(request: Request) -> Replays:
    """This process's built replays (made on first use)."""
    state = request.app.state
    if getattr(state, "replays", None) is None:
        state.replays = Replays()
    replays: Replays = state.replays
    return replays


def record_key(record: Record) -> str:
    """What a built replay is kept under: the record's content (a record edited in the
    database by hand is built anew)."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


async def load_record(request: Request, record_id: int) -> Record:
    data = await service_of(request).store.record(record_id)
    if data is None:
        raise TableError("Cette partie n'existe pas.", 404)
    try:
        return Record.from_json(data)
    except RecordError as error:
        raise TableError("Cet enregistrement est illisible.", 410) from error


@router.get("/parties/{record_id}/etapes.json")
async def replay_steps_json(request: Request, record_id: int, place: int) -> Response:
    """Every step of a finished game seen from seat `place`."""
    await seating.check_replay(request, record_id)
    record = await load_record(request, record_id)
    if not 0 <= place < record.players or record.game not in games.names():
        raise TableError("Place invalide.", 404)

    def build() -> tuple[str, int]:
        steps = replay_steps(record, games.get(record.game), place)
        for step in steps:
            step["view"]["legal"] = []
        text = compact_json({"steps": compact_steps(steps)})
        return text, len(text)

    try:
        text = await replays_of(request).get(("steps", record_key(record), place), build)
    except ChouxError as error:
        raise TableError(f"Cette partie ne se rejoue pas : {error}", 410) from error
    return Response(text, media_type="application/json")


@router.get("/parties/{record_id}.json")
async def replay_json(request: Request, record_id: int) -> JSONResponse:
    await seating.check_replay(request, record_id)
    record = await load_record(request, record_id)
    return JSONResponse(record.to_json())


@router.get("/parties/{record_id}", response_class=HTMLResponse)
async def replay_page(request: Request, record_id: int) -> Response:
    await seating.check_replay(request, record_id)
    record = await load_record(request, record_id)
    if record.game not in games.names():
        raise TableError("Ce jeu n'est plus disponible sur ce serveur.", 410)
    game = games.get(record.game)
    names = record.player_names()

    def build() -> tuple[tuple[bool, Markup], int]:
        shown = film(record, game)
        data = {
            "steps": compact_steps(shown.steps),
            "names": names,
            "bots": record.bots,
            "result": record.result,
            "game": record.game,
        }
        text = htmlsafe_json_dumps(data, dumps=compact_json)  # Jinja's `tojson`, compact
        return (shown.agrees, text), len(text)

    try:
        agrees, data_json = await replays_of(request).get(("page", record_key(record)), build)
    except ChouxError as error:
        raise TableError(f"Cette partie ne se rejoue pas : {error}", 410) from error
    winners = winner_names(names, record.result, record.bots)
    player = session_of(request).player
    mine = await record_seat(service_of(request).store, record_id, player) if player else None
    return render(
        request,
        "replay.html",
        {
            "record": record,
            "my_place": mine if mine is not None and mine < len(names) else None,
            "record_id": record_id,
            "game": game,
            "names": names,
            "winners": winners,
            "rules_agree": agrees,
            "bots": record.bots,
            "data_json": data_json,
            "renderer": renderer(game.name),
            "constants": game.client_constants(),
            "chat": await messages_of_record(service_of(request).store, record_id),
        },
    )
