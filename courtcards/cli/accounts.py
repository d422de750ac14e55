"""``courtcards accounts create|disable|enable|reset|list``: the operator's hand on the server's accounts.

Passwords are asked for without echo (twice), or read from standard input with ``--password-stdin``
(one line, for scripts); they are never arguments (a shell's history and ``ps`` would show them)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from courtcards.cli.say import fail

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

accounts_app = typer.Typer(help="The game server's accounts (optional: guests need none).", no_args_is_help=True)

Database = Annotated[Path, typer.Option("--database", help="The server's SQLite file.")]
DatabaseUrl = Annotated[str | None, typer.Option("--database-url", help="A database URL instead (PostgreSQL).")]
Username = Annotated[str, typer.Argument(help="The account's username.")]
PasswordStdin = Annotated[
    bool, typer.Option("--password-stdin", help="Read the password from standard input (one line).")
]


def register(app: typer.Typer) -> None:
    app.add_typer(accounts_app, name="accounts")


def _engine(database: Path, database_url: str | None) -> Engine:
    from courtcards.server.db import database_url as make_url
    from courtcards.server.db import make_engine, migrate

    if database_url is None and not database.is_file():
        raise fail(f"the database {database} does not exist (start the server once, or give --database)")
    engine = make_engine(make_url(database_url, database))
    migrate(engine)
    return engine


def _password(stdin: bool) -> str:
    if stdin:
        line = sys.stdin.readline()
        return line[:-1] if line.endswith("\n") else line
    value: str = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    return value


def _run(fn: Callable[..., object], *args: Any) -> None:
    from courtcards.server.accounts import AccountError

    try:
        fn(*args)
    except AccountError as exc:
        raise fail(str(exc)) from None


@accounts_app.command()
def create(
    username: Username,
    database: Database = Path("courtcards.sqlite"),
    database_url: DatabaseUrl = None,
    password_stdin: PasswordStdin = False,
) -> None:
    """Make an account (the player may change nothing but play; no e-mail is needed)."""
    from courtcards.server.accounts import create_account

    engine = _engine(database, database_url)
    _run(create_account, engine, username, _password(password_stdin))
    typer.echo(f"account {username} created")


@accounts_app.command()
def disable(
    username: Username, database: Database = Path("courtcards.sqlite"), database_url: DatabaseUrl = None
) -> None:
    """Stop an account signing in; its sessions end at once. Its seats and games stay."""
    from courtcards.server.accounts import set_disabled

    _run(set_disabled, _engine(database, database_url), username, True)
    typer.echo(f"account {username} disabled")


@accounts_app.command()
def enable(
    username: Username, database: Database = Path("courtcards.sqlite"), database_url: DatabaseUrl = None
) -> None:
    """Let a disabled account sign in again."""
    from courtcards.server.accounts import set_disabled

    _run(set_disabled, _engine(database, database_url), username, False)
    typer.echo(f"account {username} enabled")


@accounts_app.command()
def reset(
    username: Username,
    database: Database = Path("courtcards.sqlite"),
    database_url: DatabaseUrl = None,
    password_stdin: PasswordStdin = False,
) -> None:
    """Give an account a new password (a player who forgot theirs); its sessions end."""
    from courtcards.server.accounts import reset_password

    engine = _engine(database, database_url)
    _run(reset_password, engine, username, _password(password_stdin))
    typer.echo(f"account {username}: password reset; its sessions ended")


@accounts_app.command("list")
def list_(database: Database = Path("courtcards.sqlite"), database_url: DatabaseUrl = None) -> None:
    """Every account: username, created (UTC), disabled or not."""
    from courtcards.server.accounts import list_accounts

    for row in list_accounts(_engine(database, database_url)):
        made = time.strftime("%Y-%m-%d %H:%M", time.gmtime(row["created"]))
        typer.echo(f"{row['username']}\t{made}\t{'disabled' if row['disabled'] else 'active'}")


@accounts_app.command()
def anchor(
    game: Annotated[str, typer.Argument(help="The game, e.g. one of courtcards games.")],
    bot: Annotated[str, typer.Argument(help="The bot kind.")],
    mu: Annotated[float, typer.Argument(help="Its rating's mu (openskill), e.g. from courtcards ladder.")],
    sigma: Annotated[float, typer.Argument(help="Its rating's sigma.")] = 1.0,
    database: Database = Path("courtcards.sqlite"),
    database_url: DatabaseUrl = None,
) -> None:
    """Fix a bot's rating in a game (the anchor people are rated against; default: openskill's start)."""
    from courtcards.bots.base import bot_kinds
    from courtcards.core.game import game_names
    from courtcards.server.ratings import set_anchor

    if game not in game_names():
        raise fail(f"there is no game {game!r}; games: {', '.join(game_names())}")
    if bot not in bot_kinds(game):
        raise fail(f"there is no bot {bot!r} for {game}; bots: {', '.join(bot_kinds(game))}")
    if not sigma > 0:
        raise fail(f"sigma must be above 0, not {sigma}")
    set_anchor(_engine(database, database_url), game, bot, mu, sigma)
    typer.echo(f"{bot} is anchored at mu {mu:g}, sigma {sigma:g} in {game}")
