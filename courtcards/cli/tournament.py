"""``courtcards tournament GAME``: an elimination tournament of bots, for a game that has them.

A game offers tournaments by naming a module as its "tournament" profile (King Queens &
Paupers does, KQ-10: its package's ``tournament`` module). That module decides tables, seeds and who goes on:
it provides ``ADVANCE`` (the ways to go on, the default first), ``TournamentPlan(players, seed,
rounds, advance)`` with ``check()``, ``stage_plan(players)``, ``run_tournament(plan, play_table,
done)``, ``replay_tournament(data)`` and the ``Tournament``/``TableResult`` they return. This
module only drives the bots and prints.

Players are named ``P01-greedy``, ``P02-random``, ...: the bot kinds given are dealt out to the
players in turn.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from courtcards.bots.base import bot_move, check_bot, make_bot
from courtcards.cli.say import fail
from courtcards.core.errors import CourtcardsError, OptionError
from courtcards.core.game import Game, get_game, registered_games
from courtcards.core.rng import Rng
from courtcards.core.state import State


def tournament_games() -> list[Game[Any]]:
    """The games that offer tournaments (a "tournament" profile)."""
    return [g for g in registered_games() if "tournament" in g.info.profiles]


def tournament_of(name: str) -> tuple[Game[Any], ModuleType]:
    """The game and its tournament module; OptionError naming the games that have one."""
    game = get_game(name)
    module = game.profile("tournament")
    if module is None:
        have = ", ".join(f"{g.name} ({g.title})" for g in tournament_games()) or "none installed"
        raise OptionError(f"{game.title} has no tournaments; games with tournaments: {have}")
    return game, module


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament_command)


def player_names(players: int, kinds: list[str]) -> list[str]:
    width = len(str(players))
    return [f"P{i + 1:0{width}d}-{kinds[i % len(kinds)]}" for i in range(players)]


def kind_of(name: str) -> str:
    return name.split("-", 1)[1]


def bot_table_player(state: State, names: list[str]) -> None:
    """Play one table to the end, each seat's bot seeded from the table's seed."""
    bots = [
        make_bot(state.game.name, kind_of(name), Rng(state.seed ^ (seat + 1)).next64())
        for seat, name in enumerate(names)
    ]
    while not state.is_over():
        for seat in state.to_move():
            state.apply(seat, bot_move(bots[seat], state, seat))


def tournament_command(
    game: Annotated[str, typer.Argument(help="The game (one with tournaments: see `courtcards games`).")],
    players: Annotated[int, typer.Option("--players", "-n", help="Number of players.")] = 20,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bot kinds, comma-separated, in turn.")] = "greedy",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the tournament.")] = 0,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds per table game.")] = 5,
    advance: Annotated[
        str | None, typer.Option("--advance", help="Who goes on from a table (the game's ways; default its first).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Save the tournament record (JSON) here.")] = None,
    replay: Annotated[Path | None, typer.Option("--replay", help="Check and show a saved tournament instead.")] = None,
) -> None:
    """Run (or replay) an elimination tournament of bots, for a game that has tournaments."""
    console = Console()
    try:
        found, t = tournament_of(game)
        if replay is not None:
            tour = t.replay_tournament(json.loads(replay.read_text(encoding="utf-8")))
            console.print(f"[green]{replay} replays: every table's record and advancement check out.[/]")
        else:
            kinds = [k.strip() for k in bots.split(",") if k.strip()]
            for k in kinds:
                check_bot(found.name, k)
            way = t.ADVANCE[0] if advance is None else advance
            if way not in t.ADVANCE:
                raise OptionError(f"--advance must be one of {', '.join(t.ADVANCE)}, not {advance!r}")
            plan = t.TournamentPlan(tuple(player_names(players, kinds)), seed, rounds, way)
            plan.check()
            total = sum(len(s) for s in t.stage_plan(players))
            with Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
            ) as bar:
                task = bar.add_task("tables", total=total)

                def done(res: Any) -> None:
                    bar.advance(task)
                    bar.console.print(table_line(res))

                tour = t.run_tournament(plan, bot_table_player, done)
            if out is not None:
                out.write_text(json.dumps(tour.to_json()) + "\n", encoding="utf-8")
                console.print(f"saved to {out}")
    except (CourtcardsError, OSError, json.JSONDecodeError) as exc:
        raise fail(str(exc)) from None
    show(console, tour, lines=replay is not None)


def table_line(res: Any) -> str:
    scores = ", ".join(f"{n} {res.totals[n]}" for n in res.standings)
    goes = "final" if not res.advance else "on: " + ", ".join(res.advance)
    return f"stage {res.stage} table {res.table} ({len(res.players)} players): {scores}  [{goes}]"


def show(console: Console, tour: Any, lines: bool = True) -> None:
    if lines:  # (a live run printed them as they finished)
        for tables in tour.stages:
            for res in tables:
                console.print(table_line(res))
    table = Table(
        title=f"Final standings (seed {tour.plan.seed}, {tour.plan.rounds} rounds a table, advance {tour.plan.advance})"
    )
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("reached stage", justify="right")
    reached = {p: s + 1 for s, tables in enumerate(tour.stages) for t in tables for p in t.players}
    for place, name in enumerate(tour.standings(), 1):
        table.add_row(str(place), name, str(reached[name]))
    console.print(table)
    console.print(f"[bold]Winner: {tour.winner}[/]")
