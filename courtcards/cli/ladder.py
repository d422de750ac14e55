"""``courtcards ladder``: rate bots against each other with confidence intervals."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from courtcards.cli.say import fail, install_hint, progress
from courtcards.core.errors import CourtcardsError
from courtcards.core.options import parse_option_pairs


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder_command)


def ladder_command(
    game: Annotated[str, typer.Argument(help="Game, e.g. rank.")],
    bots: Annotated[str, typer.Option("--bots", "-b", help="Bots to rate, comma-separated.")] = "random,greedy",
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Number of games.")] = 200,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats per table.")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option name=value.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=0, help="Processes (0, the default: every core).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ladder as JSON.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a PNG of the ratings (needs matplotlib).")] = None,
) -> None:
    """Play seat-rotated tables mixing the bots and rate them (openskill Plackett-Luce)."""
    from courtcards.ladder import run_ladder

    console = Console()
    try:
        if plot is not None:
            _check_plot_target(plot)
        options = parse_option_pairs(option or [])
        with progress(console, disable=as_json) as bar:
            task = bar.add_task(f"{game} ladder", total=games)
            ladder = run_ladder(
                game,
                bots.split(","),
                games,
                seed=seed,
                players=players,
                options=options,
                workers=workers or os.cpu_count() or 1,
                progress=lambda k: bar.advance(task, k),
            )
        if plot is not None:
            _plot(ladder, plot)
    except CourtcardsError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(ladder.to_json(), indent=1))
        return
    table = Table(title=f"{ladder.game} ladder: {ladder.games} games, {ladder.players} seats, seed {ladder.seed}")
    for col in ("bot", "rating (mu)", "95% interval", "games won", "seats"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in ladder.order():
        lo, hi = ladder.interval(b)
        table.add_row(
            b,
            f"{ladder.mu[b]:.1f}",
            f"{lo:.1f} - {hi:.1f}",
            str(ladder.first.get(b, 0)),
            str(ladder.seats_played.get(b, 0)),
        )
    console.print(table)
    pair = Table(title="finished above (row over column), with 95% interval")
    pair.add_column("")
    for b in ladder.order():
        pair.add_column(b, justify="right")
    for a in ladder.order():
        cells = []
        for b in ladder.order():
            p = ladder.pairwise(a, b) if a != b else None
            cells.append("" if p is None else f"{p[0]:.0%} ({p[1]:.0%}-{p[2]:.0%})")
        pair.add_row(a, *cells)
    console.print(pair)
    if plot is not None:
        console.print(f"plot written to {plot}")


def _check_plot_target(path: Path) -> None:
    if not path.parent.exists() or not path.parent.is_dir():
        raise CourtcardsError(f"cannot write the plot {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    if path.is_dir():
        raise CourtcardsError(f"cannot write the plot {str(path)!r}: it is a folder")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CourtcardsError(f"plots need matplotlib: {install_hint('analysis')}") from None


def _plot(ladder: object, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from courtcards.ladder import Z95, Ladder

    assert isinstance(ladder, Ladder)
    order = ladder.order()[::-1]
    fig, ax = plt.subplots(figsize=(6, 1 + 0.5 * len(order)))
    ax.errorbar(
        [ladder.mu[b] for b in order],
        range(len(order)),
        xerr=[Z95 * ladder.sigma[b] for b in order],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("rating (openskill Plackett-Luce mu, 95% interval)")
    ax.set_title(f"{ladder.game}: {ladder.games} games, {ladder.players} seats")
    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        fig.savefig(tmp, format="png")
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CourtcardsError(f"cannot write the plot {str(path)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)
