"""`choux admin`: the operator's tools that are safe while the server runs, because the
server reads what they change from the database at each request (accounts and their
sessions), and its open sockets at each session sweep. Tables live in the server's memory:
close them through the site, not here."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from choux.engine.base import ChouxError
from choux.play.settings import default_database_url

if TYPE_CHECKING:
    from choux.play.accounts import Account, Accounts

app = typer.Typer(
    help="Operator's tools (accounts, suspensions, moderators).", no_args_is_help=True
)
console = Console()

DB = typer.Option(help="database URL (default: CHOUX_DATABASE_URL, else the SQLite file here)")


class AdminError(ChouxError):
    """A refused admin command (one line, exit 2)."""


def _database(db: str | None) -> str:
    """The database to work on: a URL Choux can use, and for SQLite a file that exists
    (run from the wrong folder, the command made and migrated a new empty one)."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from choux.web.startup import check_url

    url = db or default_database_url()
    problem = check_url(url)
    if problem:
        raise AdminError(problem)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and not Path(parsed.database or "").is_file():
        raise AdminError(f"Pas de base SQLite à {parsed.database} : indiquez-la avec --db.")
    return url


@contextlib.asynccontextmanager
async def _accounts(url: str) -> AsyncIterator[Accounts]:
    """The accounts of the database at `url`, for the time of one command."""
    from sqlalchemy.engine import make_url

    from choux.play.accounts import Accounts  # the database's modules: only when asked
    from choux.play.store import Store
    from choux.web.startup import explain

    store = Store(url)
    try:
        await store.open()
    except Exception as error:  # unreachable, refused, corrupt: one line, not a traceback
        shown = make_url(url).render_as_string(hide_password=True)
        raise AdminError(
            f"La base de données {shown} est inutilisable : {explain(error)}"
        ) from error
    try:
        yield Accounts(store)
    finally:
        await store.close()


async def _found(accounts: Accounts, pseudo: str) -> Account:
    account = await accounts.by_pseudo(pseudo)
    if account is None:
        raise AdminError(f"Aucun compte « {pseudo} ».")
    return account


async def _reset(url: str, pseudo: str) -> str:
    async with _accounts(url) as accounts:
        return await accounts.reset_password(await _found(accounts, pseudo))


async def _suspend(url: str, pseudo: str, reason: str, suspend: bool) -> str:
    """Suspend (or restore) the account; its pseudonym as stored."""
    from choux.play.accounts import AccountError

    async with _accounts(url) as accounts:
        account = await _found(accounts, pseudo)
        try:
            if suspend:
                await accounts.suspend(account, reason)
            else:
                await accounts.restore(account)
        except AccountError as error:
            raise AdminError(str(error)) from error
        return account.pseudo


async def _erase(url: str, pseudo: str) -> str:
    """Erase the account (`play.erasure`); its pseudonym as stored. Refused while it
    still sits at a game not over."""
    from choux.play.erasure import erase_account, unfinished_tables

    async with _accounts(url) as accounts:
        account = await _found(accounts, pseudo)
        blocking = await unfinished_tables(accounts.store, account.player)
        if blocking:
            codes = ", ".join(t.code for t in blocking)
            raise AdminError(
                f"« {account.pseudo} » joue encore (tables {codes}) : attendez la fin de "
                "ces parties, ou qu'un robot y prenne sa place."
            )
        try:
            await erase_account(accounts.store, account)
        except ValueError as error:
            raise AdminError("Une partie a commencé entre-temps : réessayez.") from error
        return account.pseudo


async def _moderator(url: str, pseudo: str, moderator: bool) -> str:
    """Name the account a moderator (or take the right back); its pseudonym as stored."""
    async with _accounts(url) as accounts:
        account = await _found(accounts, pseudo)
        await accounts.set_moderator(account, moderator)
        return account.pseudo


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


async def _listing(url: str) -> list[str]:
    async with _accounts(url) as accounts:
        found = await accounts.listing()
    lines = []
    for listed in found:
        line = f"{_when(listed.created_at)}  {listed.pseudo}"
        if listed.moderator:
            line += "  [modérateur]"
        if listed.suspended_at is not None:
            line += f"  [suspendu le {_when(listed.suspended_at)}"
            line += f" : {listed.reason}]" if listed.reason else "]"
        lines.append(line)
    return lines


@app.command("reset-password")
def reset_password(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Give an account a new random password (printed) and log it out everywhere: for a
    player who forgot theirs (the site's « Mot de passe oublié ? » needs SMTP and an address)."""
    secret = asyncio.run(_reset(_database(db), pseudo))
    console.print(f"Nouveau mot de passe de « {pseudo} » : {secret}", highlight=False)
    console.print("Tous ses appareils sont déconnectés.", highlight=False)


@app.command("suspend")
def suspend(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    reason: Annotated[str, typer.Option(help="a note for the operators' listing")] = "",
    db: Annotated[str | None, DB] = None,
) -> None:
    """Suspend an account (cheating, abuse): it cannot log in, every device is logged out
    (open pages within CHOUX_SESSION_SWEEP seconds), it leaves the public ladders. Its
    games and records stay."""
    name = asyncio.run(_suspend(_database(db), pseudo, reason, True))
    console.print(
        f"Compte « {name} » suspendu ; tous ses appareils sont déconnectés.",
        highlight=False,
        markup=False,
    )


@app.command("restore")
def restore(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Lift a suspension: the player logs in again with their password."""
    name = asyncio.run(_suspend(_database(db), pseudo, "", False))
    console.print(f"Compte « {name} » rétabli.", highlight=False, markup=False)


@app.command("erase")
def erase(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    yes: Annotated[
        bool, typer.Option("--yes", help="confirm: the erasure cannot be undone")
    ] = False,
    db: Annotated[str | None, DB] = None,
) -> None:
    """Erase an account for good, at its owner's request (the site's « Supprimer mon
    compte » does the same): its games stay under « Compte supprimé », its chat lines lose
    their text, its ratings, follows, address and sessions go. A running server may show
    the old name on a finished table it holds in memory until it unloads it."""
    if not yes:
        raise AdminError("La suppression est définitive : confirmez avec --yes.")
    name = asyncio.run(_erase(_database(db), pseudo))
    console.print(f"Compte « {name} » supprimé.", highlight=False, markup=False)


@app.command("moderator")
def moderator(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    remove: Annotated[bool, typer.Option("--remove", help="take the right back")] = False,
    db: Annotated[str | None, DB] = None,
) -> None:
    """Name an account a moderator: « Modération » on the site (stop a game, take a chat
    line or an argument off every page, suspend an account). The right is the account's:
    erased, it goes with it; another account under the same pseudonym does not have it."""
    name = asyncio.run(_moderator(_database(db), pseudo, not remove))
    said = "n'est plus modérateur" if remove else "est modérateur"
    console.print(f"Le compte « {name} » {said}.", highlight=False, markup=False)


@app.command("accounts")
def accounts(db: Annotated[str | None, DB] = None) -> None:
    """List the accounts: date of creation, pseudonym, and any suspension with its note."""
    lines = asyncio.run(_listing(_database(db)))
    for line in lines:
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    if not lines:
        console.print("Aucun compte.", highlight=False)
