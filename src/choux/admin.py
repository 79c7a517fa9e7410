"""`choux admin`: the operator's tools that are safe while the server runs, because the
server reads what they change from the database at each request (accounts and their
sessions). Tables live in the server's memory: close them through the site, not here."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer
from rich.console import Console

from choux.engine.base import ChouxError
from choux.play.settings import default_database_url

app = typer.Typer(help="Operator's tools (accounts).", no_args_is_help=True)
console = Console()

DB = typer.Option(help="database URL (default: CHOUX_DATABASE_URL, else the SQLite file here)")


class AdminError(ChouxError):
    """A refused admin command (one line, exit 2)."""


async def _reset(url: str, pseudo: str) -> str:
    from choux.play.accounts import Accounts  # the database's modules: only when asked
    from choux.play.store import Store

    store = Store(url)
    await store.open()
    try:
        accounts = Accounts(store)
        account = await accounts.by_pseudo(pseudo)
        if account is None:
            raise AdminError(f"Aucun compte « {pseudo} ».")
        return await accounts.reset_password(account)
    finally:
        await store.close()


async def _listing(url: str) -> list[tuple[str, str]]:
    from choux.play.accounts import Accounts
    from choux.play.store import Store

    store = Store(url)
    await store.open()
    try:
        found = await Accounts(store).listing()
    finally:
        await store.close()
    return [(pseudo, made.strftime("%Y-%m-%d %H:%M")) for pseudo, made in found]


@app.command("reset-password")
def reset_password(
    pseudo: Annotated[str, typer.Argument(help="the account's pseudonym")],
    db: Annotated[str | None, DB] = None,
) -> None:
    """Give an account a new random password (printed) and log it out everywhere: for a
    player who forgot theirs (the site has no e-mail reset)."""
    secret = asyncio.run(_reset(db or default_database_url(), pseudo))
    console.print(f"Nouveau mot de passe de « {pseudo} » : {secret}", highlight=False)
    console.print("Tous ses appareils sont déconnectés.", highlight=False)


@app.command("accounts")
def accounts(db: Annotated[str | None, DB] = None) -> None:
    """List the accounts: pseudonym and date of creation."""
    for pseudo, made in asyncio.run(_listing(db or default_database_url())):
        console.print(f"{made}  {pseudo}", highlight=False)
