"""``courtcards analyze GAME``: a balance report from bot-versus-bot games, for every game.

The games are played as in ``simulate`` (seats rotated, seeded) and read back
from their records and spectator views by :mod:`courtcards.analysis`. See
docs/analysis.md for every figure and how it is computed.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from courtcards.analysis.plots import (
    check_writable,
    html_report,
    length_histogram,
    sweep_lines,
    write_atomic,
    write_html,
)
from courtcards.analysis.report import (
    LENGTH,
    Report,
    differences_table,
    single_table,
    summarize,
    sweep_table,
    title,
    to_csv,
    to_json,
)
from courtcards.analysis.runner import (
    LOCAL,
    RunSpec,
    build_specs,
    compare_specs,
    init_ray,
    run_facts,
    run_luck,
    run_skill,
    skill_rungs,
    with_bots,
)
from courtcards.analysis.verdict import add_luck, add_skill, cross_check, opening
from courtcards.bots.base import default_bot_kind
from courtcards.cli.say import fail, progress
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import Game, get_game
from courtcards.core.options import parse_option_pairs

MAX_GAMES = 200_000


def default_bot(game: Game[Any]) -> str:
    """The bot kind seated when ``--bots`` is not given: the game's ``info.analysis_bot``, else greedy
    where the game has one, else random."""
    if game.info.analysis_bot:
        return game.info.analysis_bot
    return default_bot_kind(game.name)


def register(app: typer.Typer) -> None:
    app.command("analyze")(analyze_command)
    if len(sys.argv) > 1 and sys.argv[1] == "analyze":
        sys.argv[1:] = bare_ray(sys.argv[1:])


def bare_ray(args: list[str]) -> list[str]:
    """``--ray`` with no address means a local Ray runtime (Typer options cannot have an optional value)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append(LOCAL)
    return out


def analyze_command(
    game: Annotated[str, typer.Argument(help="Game to analyse: rank, kqp, royale or royals.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", "-b", help="Bot kind per seat, comma-separated (or one). Default greedy (mixed for royale)."
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games per combination.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option name=value.")] = None,
    preset: Annotated[str | None, typer.Option("--preset", help="Named option preset.")] = None,
    discards: Annotated[
        str | None, typer.Option("--discards", "-d", help="Rank Royale: same as --option discards=...")
    ] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option("--sweep", help="NAME=V1,V2,... (repeatable; players too): every combination is analysed."),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", min=1, help="Worker processes (default: every core; same results).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on Ray: bare --ray (or 'local') starts a local "
            "runtime, --ray ADDRESS joins a cluster. Same results.",
        ),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write every figure as JSON here (- for stdout).")
    ] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Write every figure as CSV here (- for stdout).")
    ] = None,
    html_dir: Annotated[Path | None, typer.Option("--html", help="Write a report with plots to this folder.")] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a PNG of game lengths here (a sweep: across the combinations).")
    ] = None,
    max_games: Annotated[
        int, typer.Option("--max-games", min=1, help="Refuse to play more games than this in all without --yes.")
    ] = MAX_GAMES,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Run even above --max-games.")] = False,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            help="Compare with GAME (a plug-in variant), NAME=V;NAME=V (other options) or GAME:NAME=V;... "
            "(repeatable): each figure's difference from this run, with a test.",
        ),
    ] = None,
    luck: Annotated[
        int,
        typer.Option(
            "--luck",
            min=0,
            help="Replay this many deals with the bots rotated through every seat: how much the deal alone "
            "decides the winner (0: off).",
        ),
    ] = 0,
    skill: Annotated[
        int,
        typer.Option(
            "--skill",
            min=0,
            help="Play this many games for each step of a ladder of bots (--skill-bots): one stronger bot among "
            "weaker ones, its seat moving; how much the rules reward skill, a measure that greedy against random "
            "does not saturate (0: off).",
        ),
    ] = 0,
    skill_bots: Annotated[
        str,
        typer.Option("--skill-bots", help="The ladder's bots, weakest first (bot kinds, as --bots takes them)."),
    ] = "random,greedy,ismcts:100",
    check_bots: Annotated[
        str | None,
        typer.Option(
            "--check-bots",
            help="A second bot mix (e.g. random) played on the same seeds: warns where a seat or role effect "
            "appears with one mix and not the other (bot bias, not rule bias).",
        ),
    ] = None,
) -> None:
    """Balance report: a verdict first (seat, role and bot effects, tested, Holm's correction), then win
    shares by seat and role, game length, drama, special cards; with 95% CIs."""
    console = Console(stderr=str(json_out) == "-" or str(csv_out) == "-")
    try:
        g = get_game(game)
        name = g.name
        options: dict[str, str] = parse_option_pairs(option or [])
        if discards is not None:
            options["discards"] = discards
        kinds = [k for k in (bots or default_bot(g)).split(",") if k.strip()]
        specs = build_specs(name, kinds, players, options, preset, sweep or [])
        if compare and sweep:
            raise CourtcardsError("--compare and --sweep cannot be combined: a sweep compares its combinations")
        if compare:
            specs = compare_specs(specs[0], compare)
        checks = [with_bots(s, [k for k in check_bots.split(",") if k.strip()]) for s in specs] if check_bots else []
        luck = min(luck, games)
        # each run's ladder, its bots checked for the run's table before any game is played
        ladders = [skill_rungs(s, skill_bots.split(",")) for s in specs] if skill else []
        total = (
            games * (len(specs) + len(checks))
            + luck * sum(s.num_players for s in specs)
            + skill * sum(len(steps) for steps in ladders)
        )
        if total > max_games and not yes:
            runs = "runs" if checks or compare else "combinations"
            raise CourtcardsError(
                f"this would play {total:,} games ({len(specs) + len(checks)} {runs} x {games:,}), more "
                f"than --max-games {max_games:,}; add --yes to run it"
            )
        for path in (json_out, csv_out, plot):
            if path is not None and str(path) != "-":
                check_writable(path)
        if html_dir is not None:
            check_writable(html_dir, folder=True)
        if html_dir is not None or plot is not None:
            from courtcards.analysis.plots import _pyplot

            _pyplot()  # matplotlib present?
        if ray is not None:
            init_ray(ray, workers)
        reports: list[Report] = []
        with progress(console) as bar:
            task = bar.add_task(f"{name} x{total}", total=total)

            def report_of(spec: RunSpec) -> Report:
                facts = run_facts(
                    spec,
                    games,
                    seed,
                    workers=workers or os.cpu_count() or 1,
                    ray=ray,
                    progress=lambda k: bar.advance(task, k),
                )
                return summarize(spec, seed, facts)

            reports = [report_of(spec) for spec in specs]
            for report in reports if luck else []:
                add_luck(report, run_luck(report.spec, luck, seed, workers))
                bar.advance(task, luck * report.spec.num_players)
            for report, steps in zip(reports, ladders, strict=False):
                results = [
                    run_skill(report.spec, step, skill, seed, workers, lambda k: bar.advance(task, k)) for step in steps
                ]
                add_skill(report, steps, results)
            for report, check in zip(reports, checks, strict=False):
                cross_check(report, report_of(check))
        print_verdict(console, reports)
        if len(reports) == 1:
            console.print(single_table(reports[0]))
        else:
            console.print(sweep_table(reports))
            console.print(differences_table(reports))
        command = "courtcards analyze " + shlex.join(sys.argv[2:] if sys.argv[1:2] == ["analyze"] else [name])
        _write(console, reports, json_out, csv_out, html_dir, plot, command)
    except CourtcardsError as exc:
        raise fail(str(exc)) from None
    finally:
        module = sys.modules.get("ray") if ray is not None else None
        if module is not None and module.is_initialized():
            module.shutdown()


def print_verdict(console: Console, reports: list[Report]) -> None:
    """The verdict first: what the tests found, in plain sentences (warnings in red)."""
    console.print("[bold]Verdict[/]")
    for line in opening(reports):
        style = "bold red" if line.startswith("Warning") else None
        console.print(f"- {line}", style=style, highlight=False, markup=False)
    console.print()


def _write(
    console: Console,
    reports: list[Report],
    json_out: Path | None,
    csv_out: Path | None,
    html_dir: Path | None,
    plot: Path | None,
    command: str,
) -> None:
    """Everything is made first, then written (each file by a rename): a failure writes nothing."""
    files: list[tuple[Path, str | bytes]] = []
    for path, text in ((json_out, to_json), (csv_out, to_csv)):
        if path is not None:
            files.append((path, text(reports)))
    if plot is not None:
        if len(reports) == 1:
            r = reports[0]
            measure = next(iter(r.lengths))
            png = length_histogram(r.lengths[measure], measure, f"Game length in {measure}\n{title(r)}")
        else:
            png = sweep_lines(reports, LENGTH)
        files.append((plot, png))
    page = html_report(reports, command) if html_dir is not None else None
    for path, data in files:
        if str(path) == "-":
            sys.stdout.write(f"{data!s}\n")
        else:
            write_atomic(path, data)
            console.print(f"written: {path}")
    if html_dir is not None and page is not None:
        write_html(html_dir, page, reports)
        console.print(f"report written: {html_dir / 'index.html'}")
