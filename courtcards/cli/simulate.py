"""``courtcards simulate``: bot-versus-bot matches with a results table."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from courtcards.analysis.plots import check_writable, write_atomic
from courtcards.cli.say import fail, program, progress
from courtcards.core.errors import CourtcardsError
from courtcards.core.options import parse_option_pairs
from courtcards.sim import SimResult, check_bots, rows_csv, rows_json, simulate


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)


def simulate_command(
    game: Annotated[str, typer.Argument(help="Game to play, e.g. rank.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bot kind per seat, comma-separated (or one).")] = "random",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option name=value.")] = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Named option preset.")] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Worker processes (default: every core; same results).")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write one row per game as JSON here (- for stdout).")
    ] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Write one row per game as CSV here (- for stdout).")
    ] = None,
) -> None:
    """Play bots against each other; seats rotate from game to game."""
    console = Console(stderr=str(json_out) == "-" or str(csv_out) == "-")
    try:
        if str(json_out) == "-" and str(csv_out) == "-":
            raise CourtcardsError("--json - and --csv - cannot both write to standard output")
        for path in (json_out, csv_out):
            if path is not None and str(path) != "-":
                check_writable(path)
        kinds = [k for k in bots.split(",") if k.strip()]
        options = parse_option_pairs(option or [])
        name, seat_kinds = check_bots(game, kinds, players)
        start = time.perf_counter()
        with progress(console) as bar:
            task = bar.add_task(f"{name} x{games}", total=games)
            result = simulate(
                name,
                seat_kinds,
                games,
                seed=seed,
                num_players=len(seat_kinds),
                options=options,
                preset=preset,
                workers=workers or os.cpu_count() or 1,
                progress=lambda k: bar.advance(task, k),
            )
        elapsed = time.perf_counter() - start
        for path, text in ((json_out, rows_json), (csv_out, rows_csv)):
            if path is None:
                continue
            if str(path) == "-":
                sys.stdout.write(text(result))
            else:
                write_atomic(path, text(result))
    except CourtcardsError as exc:
        raise fail(str(exc)) from None
    console.print(results_table(result))
    console.print(f"{result.games} games, {result.total_actions} actions, {result.draws} draws, {elapsed:.1f}s")
    console.print(
        f"reproduce: {program()} simulate {name} --players {result.num_players} "
        f"--bots {','.join(result.bots)} --games {result.games} --seed {result.seed}"
        + "".join(f" --option {o}" for o in option or [])
        + (f" --preset {preset}" if preset else ""),
        soft_wrap=True,
    )


def results_table(result: SimResult) -> Table:
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    table = Table(
        title=f"{result.game}, {result.num_players} players, {result.games} games (seed {result.seed})",
        caption=opts or None,
    )
    table.add_column("bot")
    table.add_column("seats", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win share", justify="right")
    table.add_column("wins/seat", justify="right")
    table.add_column("avg position", justify="right")
    table.add_column("avg length", justify="right")
    for st in sorted(result.stats.values(), key=lambda s: -s.win_rate_per_seat):
        table.add_row(
            st.kind,
            str(st.seats),
            str(st.wins),
            f"{st.win_share:.1%}",
            f"{st.win_rate_per_seat:.1%}",
            f"{st.avg_position:.2f}",
            f"{st.avg_length:.1f}",
        )
    return table
