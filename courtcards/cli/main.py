"""The ``courtcards`` command."""

from __future__ import annotations

import importlib

import typer

from courtcards.core.game import game_names, get_game

app = typer.Typer(help="courtcards: royal card games to play, study and train agents on.", no_args_is_help=True)


@app.command()
def games() -> None:
    """List the games and their options."""
    for name in game_names():
        g = get_game(name)
        typer.echo(f"{name}: {g.title}, {g.min_players}-{g.max_players} players")
        for opt in g.options.options:
            typer.echo(f"  {opt.name} (default {opt.default_for(g.default_players)!r}): {opt.doc}")


# CLI modules, each with ``register(app)``; the optional ones may not exist yet.
COMMAND_MODULES = ("play", "replay")
OPTIONAL_COMMAND_MODULES = ("simulate", "analyze", "tournament", "ladder", "serve")


def _register_commands() -> None:
    for name in COMMAND_MODULES + OPTIONAL_COMMAND_MODULES:
        modname = f"courtcards.cli.{name}"
        try:
            module = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname and name in OPTIONAL_COMMAND_MODULES:
                continue
            raise
        module.register(app)


_register_commands()


def main() -> None:
    app()
