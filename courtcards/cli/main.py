"""The ``courtcards`` command."""

from __future__ import annotations

import importlib
import sys

import typer

from courtcards.cli.say import error, install_hint, player_count
from courtcards.core.game import game_names, get_game

app = typer.Typer(help="courtcards: royal card games to play, study and train agents on.", no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        from courtcards import __version__, engine_build

        typer.echo(f"courtcards {__version__} (engine: {engine_build()})")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_version,
        is_eager=True,
        help="Print the version and whether the engine is compiled, then exit.",
    ),
) -> None:
    """courtcards: royal card games to play, study and train agents on."""


def _word(value: object) -> str:
    """An option value as ``--option`` takes it."""
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


@app.command()
def games() -> None:
    """List the games and their options."""
    for name in game_names():
        g = get_game(name)
        typer.echo(f"{name}: {g.title}, {player_count(g.min_players, g.max_players)}")
        for opt in g.options.options:
            typer.echo(f"  {opt.name} (default {_word(opt.default_for(g.default_players))}): {opt.doc}")
        if g.options.presets:
            typer.echo("  presets (--preset NAME):")
        for preset, values in g.options.presets.items():
            sets = ", ".join(f"{k}={_word(v)}" for k, v in values.items())
            doc = g.options.preset_docs.get(preset, "")
            typer.echo(f"    {preset}: {doc}" + (f" [{sets}]" if sets else ""))


# CLI modules, each with ``register(app)``; the optional ones may not exist yet.
COMMAND_MODULES = ("play", "replay")
OPTIONAL_COMMAND_MODULES = ("simulate", "analyze", "tournament", "ladder", "serve", "agent", "db", "accounts", "train")


def _needs_extra(name: str, fix: str) -> None:
    """A command whose module needs an extra that is not installed: it says so, in one line."""

    @app.command(
        name,
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        help=f"(not installed: {fix})",
    )
    def missing() -> None:
        error(fix)
        raise typer.Exit(2)


def _register_commands() -> None:
    for name in COMMAND_MODULES + OPTIONAL_COMMAND_MODULES:
        modname = f"courtcards.cli.{name}"
        try:
            module = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname and name in OPTIONAL_COMMAND_MODULES:
                continue
            fix = missing_extra(exc)
            if fix is None:
                raise
            _needs_extra(name, fix)
            continue
        module.register(app)


# Modules of the optional extras, and the extra that installs each.
EXTRAS = {
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "sqlalchemy": "server",
    "alembic": "server",
    "psycopg": "postgres",
    "matplotlib": "analysis",
    "openskill": "analysis",
    "argon2": "server",
    "ray": "scale",
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "torch": "train",
}


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """The one-line fix when ``exc`` is an optional extra that is not installed."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    if extra is None:
        return None
    return f"this command needs {top}, which comes with the {extra} extra: {install_hint(extra)}"


_register_commands()


def main() -> None:
    try:
        app()
    except ModuleNotFoundError as exc:
        fix = missing_extra(exc)
        if fix is None:
            raise
        error(fix)
        sys.exit(2)
