"""``courtcards db backup`` / ``restore``: copies of the server's SQLite database, taken while it runs
(SQLite's online backup API). PostgreSQL: pg_dump and pg_restore (docs/operations.md)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Annotated

import typer

from courtcards.cli.say import fail

db_app = typer.Typer(help="The game server's database: backup and restore (SQLite).", no_args_is_help=True)

Database = Annotated[Path, typer.Option("--database", help="The server's SQLite file.")]
DatabaseUrl = Annotated[
    str | None, typer.Option("--database-url", help="A database URL instead (PostgreSQL: see pg_dump).")
]
PG_HINT = (
    "PostgreSQL is backed up with its own tools: pg_dump --format=custom --file=courtcards.dump URL, "
    "restored with pg_restore --clean --dbname=URL courtcards.dump (docs/operations.md)"
)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


def _sqlite_file(database: Path, database_url: str | None) -> Path:
    if database_url is not None:
        if database_url.startswith(("postgresql", "postgres")):
            raise fail(PG_HINT)
        if not database_url.startswith("sqlite:///"):
            raise fail(f"only SQLite files are backed up here, not {database_url.split(':', 1)[0]}")
        return Path(database_url[len("sqlite:///") :])
    return database


def _check(path: Path, what: str) -> tuple[int, int]:
    """The tables and actions of a courtcards database (one-line errors otherwise)."""
    if not path.is_file():
        raise fail(f"{what} {path} does not exist")
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as con:
            if con.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise fail(f"{what} {path} is damaged (PRAGMA quick_check)")
            tables = con.execute("SELECT count(*) FROM cc_tables").fetchone()[0]
            actions = con.execute("SELECT count(*) FROM cc_actions").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise fail(f"{what} {path} is not a courtcards database ({exc})") from None
    return int(tables), int(actions)


def _copy(source: Path, target: Path) -> None:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst, pages=1024)  # in steps: a running server writes between them
    finally:
        dst.close()
        src.close()


@db_app.command()
def backup(
    out: Annotated[Path, typer.Argument(help="The backup file to write.")],
    database: Database = Path("courtcards.sqlite"),
    database_url: DatabaseUrl = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
) -> None:
    """Copy the database to OUT while the server runs (a consistent copy: SQLite's online backup)."""
    source = _sqlite_file(database, database_url)
    _check(source, "the database")
    if out.exists() and not force:
        raise fail(f"{out} exists; choose another file or add --force")
    if not out.parent.is_dir():
        raise fail(f"the folder {out.parent} does not exist")
    if out.exists():
        out.unlink()
    _copy(source, out)
    tables, actions = _check(out, "the backup")
    typer.echo(f"backed up {tables} tables and {actions} actions to {out}")


@db_app.command()
def restore(
    backup_file: Annotated[Path, typer.Argument(metavar="BACKUP", help="A file written by courtcards db backup.")],
    database: Database = Path("courtcards.sqlite"),
    database_url: DatabaseUrl = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the database if it exists.")] = False,
) -> None:
    """Put a backup in place of the database. Stop the server first; it migrates the copy when it starts."""
    target = _sqlite_file(database, database_url)
    tables, actions = _check(backup_file, "the backup")
    if target.exists() and not force:
        raise fail(f"{target} exists: stop the server, then add --force to replace it with the backup")
    if not target.parent.is_dir():
        raise fail(f"the folder {target.parent} does not exist")
    _copy(backup_file, target)
    typer.echo(f"restored {tables} tables and {actions} actions into {target}")
