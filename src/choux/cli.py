"""The `choux` command: serve, play, simulate, replay, bench.

Usage errors exit with code 2 and one clear line, never a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from choux import admin, games
from choux.engine import fairness
from choux.engine.base import JSON, Bot, ChouxError, Game, InvalidOptions, State, fill_names
from choux.engine.playout import play_out
from choux.engine.record import Record, RecordError, read_jsonl, replay, start

app = typer.Typer(
    help="Choux : Chouine, Chouineurs, Cul de Chouette et la parlote coinchée.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
app.add_typer(admin.app, name="admin")


def _print_version(wanted: bool) -> None:
    if not wanted:
        return
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        console.print(f"choux {installed('choux')}")
    except PackageNotFoundError:  # run from a source tree that was never installed
        console.print("choux (version inconnue : paquet non installé)")
    raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="print the version and stop", is_eager=True, callback=_print_version
        ),
    ] = False,
) -> None:
    """Choux : Chouine, Chouineurs, Cul de Chouette et la parlote coinchée."""


err = Console(stderr=True)


class UsageError(ChouxError):
    """A command-line mistake: printed on one line, exit code 2."""


def parse_options(preset: str | None, option: Sequence[str]) -> dict[str, JSON]:
    """`--preset lavardin` and `--option key=value` (value read as JSON when it parses)."""
    options: dict[str, JSON] = {}
    if preset is not None:
        options["preset"] = preset
    for item in option:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option expects key=value, got {item!r}")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def make_bots(game: Game, levels: str, players: int, seed: int) -> tuple[list[Bot], list[str]]:
    names = [level.strip() for level in levels.split(",") if level.strip()]
    if not names:
        raise UsageError("--bots needs at least one bot level")
    chosen = [names[seat % len(names)] for seat in range(players)]
    bots = [
        game.make_bot(level, random.Random(seed * 1000 + seat)) for seat, level in enumerate(chosen)
    ]
    return bots, chosen


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="chouine, chouineurs, ...")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    games_count: Annotated[int, typer.Option("--games", min=1, help="games to play")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game")] = 1,
    bots: Annotated[str, typer.Option(help="bot levels by seat, cycled: greedy,random")] = "random",
    preset: Annotated[str | None, typer.Option(help="rules preset, e.g. lavardin")] = None,
    option: Annotated[list[str] | None, typer.Option(help="table option key=value")] = None,
    records: Annotated[Path | None, typer.Option(help="write game records (JSON Lines)")] = None,
    swap: Annotated[bool, typer.Option(help="rotate bot seats each game")] = True,
) -> None:
    """Play bot games and print a summary table (wins, mean points, games/s)."""
    game = games.get(game_name)
    players = players if players is not None else game.min_players
    options = parse_options(preset, option or [])
    game.validate_options(players, options)
    _, levels = make_bots(game, bots, players, seed)
    wins = [0.0] * players
    points = [0] * players
    extra: dict[str, float] = {}
    out = records.open("w", encoding="utf-8") if records else None
    begin = time.perf_counter()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    with progress:
        task = progress.add_task(f"{game.title}", total=games_count)
        for index in range(games_count):
            shift = index % players if swap else 0
            seat_levels = levels[-shift:] + levels[:-shift] if shift else levels
            seat_bots, _ = make_bots(game, ",".join(seat_levels), players, seed + index)
            state, record = start(
                game,
                players,
                seed + index,
                options,
                [f"{lvl}#{s}" for s, lvl in enumerate(seat_levels)],
            )
            play_out(state, seat_bots, record)
            outcome = state.outcome()
            assert outcome is not None
            for seat, level_seat in enumerate(_owners(levels, shift)):
                points[level_seat] += outcome.scores[seat]
                if outcome.ranks[seat] == 1:
                    wins[level_seat] += 1  # shared first places (ties, teams) count for each
            for key, value in game.summary_stats(state).items():
                extra[key] = extra.get(key, 0.0) + value
            if out:
                out.write(record.dumps() + "\n")
            progress.advance(task)
    elapsed = time.perf_counter() - begin
    if out:
        out.close()
    table = Table(title=f"{game.title} : {games_count} parties, graine {seed}")
    table.add_column("place")
    table.add_column("robot")
    table.add_column("victoires", justify="right")
    table.add_column("% victoires", justify="right")
    table.add_column("points moyens", justify="right")
    for seat in range(players):
        table.add_row(
            str(seat + 1),
            levels[seat],
            f"{wins[seat]:.1f}",
            f"{100 * wins[seat] / games_count:.1f}",
            f"{points[seat] / games_count:.1f}",
        )
    console.print(table)
    for key, value in extra.items():
        console.print(f"{key} : {value / games_count:.2f}")
    console.print(f"{games_count / elapsed:.1f} parties/s ({elapsed:.2f} s)")
    if records:
        console.print(f"Records written to {records}")


def _owners(levels: list[str], shift: int) -> list[int]:
    """Which original bot slot sits at each seat after rotating by `shift`."""
    n = len(levels)
    return [(seat - shift) % n for seat in range(n)]


def check_commitment(record: Record, number: int, noted: str | None) -> None:
    """The record's revealed seed must hash to its commitment (and to the one noted)."""
    if record.commitment is None:
        raise UsageError(f"record {number} has no seed commitment to verify")
    if not fairness.matches(record.seed, record.commitment):
        raise UsageError(f"record {number}: the revealed seed does not match its commitment")
    if noted is not None and not fairness.matches(record.seed, noted):
        raise UsageError(f"record {number}: the seed does not match the commitment {noted}")


@app.command(name="replay")
def replay_command(
    path: Annotated[Path, typer.Argument(help="a JSON Lines file of game records")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="also check that each record's revealed seed matches its commitment",
        ),
    ] = False,
    commitment: Annotated[
        str | None,
        typer.Option(help="the commitment noted on the table page (implies --verify)"),
    ] = None,
) -> None:
    """Replay and check every record; exit 2 on the first that does not replay."""
    if not path.is_file():
        raise UsageError(f"no such file: {path}")
    verify = verify or commitment is not None
    count = 0
    by_game: dict[str, int] = {}
    try:
        for record in read_jsonl(path):
            if verify:
                check_commitment(record, count + 1, commitment)
            replay(record, games.get(record.game))
            count += 1
            by_game[record.game] = by_game.get(record.game, 0) + 1
    except UsageError:
        raise
    except ChouxError as error:
        raise UsageError(f"record {count + 1} does not replay: {error}") from error
    if count == 0:
        raise UsageError(f"{path} holds no record")
    for name, n in by_game.items():
        console.print(f"{name} : {n} parties rejouées, toutes conformes")
    if verify:
        console.print(f"Équité : les {count} graines révélées correspondent à leur empreinte.")
    console.print(f"OK : {count} records replayed exactly.")


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME")],
    players: Annotated[int | None, typer.Option(help="number of players")] = None,
    preset: Annotated[str | None, typer.Option(help="rules preset, e.g. lavardin")] = None,
    option: Annotated[list[str] | None, typer.Option(help="table option key=value")] = None,
    bot: Annotated[str, typer.Option(help="level of the bots you play against")] = "greedy",
    seed: Annotated[int | None, typer.Option(help="seed (random by default)")] = None,
    name: Annotated[str, typer.Option(help="your name at the table")] = "Humain",
) -> None:
    """Play a full game in the terminal, in French, against bots (you are seat 1)."""
    # the game's texts speak of every player in the third person (« X gagne la partie »),
    # so the person gets a name (--name), not « Vous »
    game = games.get(game_name)
    players = players if players is not None else game.min_players
    options = parse_options(preset, option or [])
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    level = bot if bot in game.bots() else "random"
    state = game.new(players, seed, options)
    bots = [game.make_bot(level, random.Random(seed + s)) for s in range(players)]
    names = [name.strip()[:24] or "Humain"] + [f"Robot {s}" for s in range(1, players)]
    run_terminal_game(game, state, bots, names)


def run_terminal_game(
    game: Game,
    state: State,
    bots: Sequence[Bot],
    names: list[str],
    ask: typer.CallbackParam | None = None,
) -> None:
    """The terminal loop: bots act at once, the person chooses by number."""
    while not state.is_over():
        actors = state.actors()
        moved = False
        for seat in actors:
            if seat == 0:
                continue
            move = bots[seat].choose(state, seat)
            if move is not None:
                _show(state.apply(seat, move.action), names)
                moved = True
                break
        if moved:
            continue
        if 0 in actors:
            console.rule()
            console.print(game.render_text(state.view(0)))
            actions = state.legal_actions(0)
            for number, action in enumerate(actions, start=1):
                console.print(f"  [bold]{number}[/bold]. {fill_names(action.label(), names)}")
            deadline = state.deadline()
            if deadline is not None:
                console.print("  [bold]0[/bold]. Ne rien faire")
            choice = _ask_number(len(actions), allow_zero=deadline is not None)
            if choice == 0:
                _show(state.apply_timeout(), names)
                continue
            action = actions[choice - 1]
            field = game.text_field(action)
            if field is not None:
                text = console.input(f"Votre texte ({field}) : ")
                action = dataclasses.replace(action, **{field: text})
            try:
                _show(state.apply(0, action), names)
            except ChouxError as error:
                console.print(f"[red]Refusé : {error}[/red]")
            continue
        if state.deadline() is not None:
            _show(state.apply_timeout(), names)
            continue
        raise ChouxError("la partie est bloquée")
    console.rule()
    console.print(game.render_text(state.view(0)))
    outcome = state.outcome()
    assert outcome is not None
    console.print(f"[bold]{outcome.reason}[/bold]")
    for seat, name in enumerate(names):
        console.print(f"{name} : {outcome.scores[seat]} points, rang {outcome.ranks[seat]}")


def _ask_number(count: int, allow_zero: bool) -> int:
    low = 0 if allow_zero else 1
    while True:
        raw = console.input("Votre choix : ").strip()
        if raw.isdigit() and low <= int(raw) <= count:
            return int(raw)
        console.print(f"[red]Choix impossible : tapez un nombre entre {low} et {count}.[/red]")


def _show(events: Sequence[object], names: list[str]) -> None:
    for event in events:
        render = getattr(event, "render", None)
        if render is not None:
            console.print(f"  · {render(names)}")


@app.command()
def bench(
    seconds: Annotated[float, typer.Option(help="seconds of random play per game")] = 3.0,
    game_name: Annotated[list[str] | None, typer.Option("--game", help="only these games")] = None,
    decisions: Annotated[int, typer.Option(help="decisions timed per bot level")] = 200,
) -> None:
    """Random playouts per second per game and bots' time per decision, one table."""
    from choux.benchmark import bot_decision_times, random_playouts

    speed = Table(title="Parties aléatoires (un cœur)")
    for column in ("jeu", "joueurs", "parties/s", "unités/s", "unité"):
        speed.add_column(column, justify="right" if column.endswith("/s") else "left")
    thinking = Table(title="Temps de décision des robots")
    for column in ("jeu", "joueurs", "robot", "ms moyen", "ms max"):
        thinking.add_column(column, justify="right" if column.startswith("ms") else "left")
    for name in game_name or games.names():
        game = games.get(name)
        for players in sorted({game.min_players, min(game.max_players, 4)}):
            figures = random_playouts(name, players, seconds)
            speed.add_row(
                name,
                str(players),
                f"{figures.games_per_second:,.0f}",
                f"{figures.units_per_second:,.0f}",
                figures.unit_name,
            )
            for level in game.bots():
                mean, worst = bot_decision_times(name, players, level, decisions)
                thinking.add_row(
                    name, str(players), level, f"{mean * 1000:.3f}", f"{worst * 1000:.2f}"
                )
    console.print(speed)
    console.print(thinking)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (1 to 65535)")] = 8000,
    db: Annotated[str | None, typer.Option(help="database URL (default: SQLite file)")] = None,
) -> None:
    """Start the web platform."""
    try:
        from choux.web.server import run
    except ModuleNotFoundError as error:
        raise UsageError("the web server is not available in this build") from error
    run(host=host, port=port, database_url=db)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: French or English one-line errors with exit code 2, never a traceback."""
    try:
        app(args=list(argv) if argv is not None else None, standalone_mode=False)
    except (ChouxError, InvalidOptions, RecordError) as error:
        # the message may hold what was typed (« [/x] »): text, never Rich markup; one line
        err.print(f"[red]Erreur :[/red] {escape(str(error))}", soft_wrap=True)
        sys.exit(2)
    except typer.Abort:
        err.print("Interrompu.")
        sys.exit(130)
    except KeyboardInterrupt:
        err.print("Interrompu.")
        sys.exit(130)
    except EOFError:
        sys.exit(0)
    except Exception as error:  # usage errors: click's, or the copy typer now carries
        import click
        from typer.exceptions import TyperException

        if isinstance(error, click.ClickException | TyperException):
            show = getattr(error, "show", None)
            if callable(show):
                show()
            else:
                err.print(f"[red]Erreur :[/red] {escape(str(error))}", soft_wrap=True)
            sys.exit(int(getattr(error, "exit_code", 2) or 2))
        raise
