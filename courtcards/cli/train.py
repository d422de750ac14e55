"""``courtcards train``: self-play training of a network for the ``nn`` bot (needs the train extra)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from courtcards.cli.say import fail, program
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import get_game
from courtcards.core.options import parse_option_pairs

if TYPE_CHECKING:
    from courtcards.train import Trainer


def register(app: typer.Typer) -> None:
    app.command("train")(train_command)


def _opponents(game: str, spec: str) -> tuple[str, ...]:
    """The kinds ``--opponents`` names, each checked: ``pool`` is the default bot and the stranger pool."""
    from courtcards.bots.base import check_bot, default_bot_kind
    from courtcards.bots.strangers import stranger_pool

    kinds = (
        (default_bot_kind(game), *stranger_pool(game))
        if spec == "pool"
        else tuple(k.strip() for k in spec.split(",") if k.strip())
    )
    for kind in kinds:
        check_bot(game, kind)
    return kinds


def train_command(
    game: Annotated[str, typer.Argument(help="Game to train for, e.g. rank.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    minutes: Annotated[
        float | None, typer.Option("--minutes", "-m", min=0, help="Stop after this many minutes of training.")
    ] = None,
    games: Annotated[
        int | None, typer.Option("--games", "-g", min=1, help="Stop after this many self-play games.")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run (deals, exploration, weights).")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", "-O", help="Folder for checkpoint, network.npz, metrics.csv, plot.")
    ] = None,
    device: Annotated[str, typer.Option("--device", help="cpu or cuda (PyTorch device).")] = "cpu",
    resume: Annotated[bool, typer.Option("--resume", help="Continue from the checkpoint in --out.")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Game option name=value.")] = None,
    batch_games: Annotated[int, typer.Option("--batch-games", min=1, help="Self-play games stepped together.")] = 32,
    hidden: Annotated[str, typer.Option("--hidden", help="Hidden layer widths, comma-separated.")] = "256,256",
    lr: Annotated[float, typer.Option("--lr", help="Adam learning rate.")] = 3e-4,
    epsilon: Annotated[float, typer.Option("--epsilon", min=0, max=1, help="Exploration share.")] = 0.1,
    eval_games: Annotated[
        int, typer.Option("--eval-games", min=0, help="Games against greedy per evaluation (0: none).")
    ] = 40,
    eval_every: Annotated[
        float, typer.Option("--eval-every", min=0, help="Seconds of training between them (0: only first and last).")
    ] = 60.0,
    threads: Annotated[int, typer.Option("--threads", min=1, help="PyTorch CPU threads.")] = 1,
    opponents: Annotated[
        str,
        typer.Option(
            "--opponents",
            help="Bots that fill the other seats of a share of the games: kinds comma-separated, or pool "
            "(the default bot and the game's stranger pool); empty: pure self-play.",
        ),
    ] = "",
    opponent_share: Annotated[
        float, typer.Option("--opponent-share", min=0, max=1, help="The share of games with --opponents.")
    ] = 0.5,
    teacher: Annotated[
        str | None,
        typer.Option(
            "--teacher",
            help="A bot whose moves the network's seats play at --teacher-share of their decisions (the "
            "network then learns that bot's values and improves on it).",
        ),
    ] = None,
    teacher_share: Annotated[
        float, typer.Option("--teacher-share", min=0, max=1, help="The share of decisions --teacher makes.")
    ] = 0.8,
    rollouts: Annotated[
        float,
        typer.Option(
            "--rollouts",
            min=0,
            max=1,
            help="The share of the network's decisions learned from rollouts: every legal id tried from the "
            "true state, the game played on by --teacher (else the default bot) and the seats' bots (0: none).",
        ),
    ] = 0.0,
    init: Annotated[
        str | None,
        typer.Option(
            "--init",
            help="Start from the weights of this network file (made for the same table, with the same --hidden), "
            "or 'shipped' for the network the game ships for the table.",
        ),
    ] = None,
    imitation: Annotated[
        float,
        typer.Option(
            "--imitation",
            min=0,
            help="Weight of a large-margin loss (DQfD's) that keeps the teacher's moves the best valued unless "
            "the returns say otherwise (0: none).",
        ),
    ] = 0.0,
    margin: Annotated[float, typer.Option("--margin", min=0, help="The margin of --imitation.")] = 0.2,
    reuse: Annotated[
        int,
        typer.Option(
            "--reuse",
            min=1,
            help="Gradient steps per fresh batch of samples: 1 learns each once (DMC); K adds K-1 steps on "
            "batches drawn from the last --replay samples.",
        ),
    ] = 1,
    replay: Annotated[int, typer.Option("--replay", min=1, help="Samples kept for --reuse.")] = 65536,
    actors: Annotated[
        int,
        typer.Option(
            "--actors",
            min=0,
            help="Actor processes playing the self-play games (--batch-games each) for one learner "
            "(0: self-play in the learner's process, bit for bit reproducible).",
        ),
    ] = 0,
    publish_every: Annotated[
        int, typer.Option("--publish-every", min=1, help="With --actors: learning steps between weight updates.")
    ] = 4,
) -> None:
    """Train a network by self-play (Deep Monte-Carlo); play it with the bot nn:OUT/network.npz."""
    from courtcards.train import NETWORK, TrainConfig, Trainer  # PyTorch: imported only by this command

    console = Console()
    try:
        if minutes is None and games is None:
            raise CourtcardsError("say how long to train: --minutes M or --games G")
        if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
            raise CourtcardsError(f"--device must be cpu or cuda, not {device!r}")
        found = get_game(game)
        n = found.default_players if players is None else players
        if teacher is not None:
            from courtcards.bots.base import check_bot

            check_bot(found.name, teacher)
        try:
            widths = tuple(int(w) for w in hidden.split(",") if w.strip())
        except ValueError:
            raise CourtcardsError(f"--hidden takes widths like 256,256, not {hidden!r}") from None
        config = TrainConfig(
            game=found.name,
            players=n,
            options=parse_option_pairs(option or []),
            seed=seed,
            minutes=minutes,
            games=games,
            device=device,
            hidden=widths,
            lr=lr,
            batch_games=batch_games,
            epsilon=epsilon,
            eval_games=eval_games,
            eval_every=eval_every,
            checkpoint_every=60.0,
            threads=threads,
            opponents=_opponents(found.name, opponents),
            opponent_share=opponent_share,
            teacher=teacher,
            teacher_share=teacher_share,
            rollouts=rollouts,
            init=init,
            imitation=imitation,
            margin=margin,
            reuse=reuse,
            replay=replay,
            actors=actors,
            publish_every=publish_every,
        )
        folder = out if out is not None else Path("train-out") / f"{found.name}-{n}p"
        command = " ".join([program(), *(shlex.quote(a) for a in sys.argv[1:])])
        trainer = Trainer(config, folder, command=command)
        if resume:
            trainer.resume()
        elif (folder / "checkpoint.pt").exists():
            raise CourtcardsError(f"{folder} holds a checkpoint: add --resume to continue it, or choose another --out")
    except CourtcardsError as exc:
        raise fail(str(exc)) from None
    total = games if games is not None else None
    strength = {"text": "not yet evaluated"}
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed} games"),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[strength]}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task(f"{found.name} {n}p", total=total, completed=trainer.games_done, rate="", strength="")

        def on_progress(t: Trainer, row: dict[str, Any] | None) -> None:
            if row is not None and row["eval_games"]:
                strength["text"] = (
                    f"vs {row['opponent']}: {row['eval_wins']}/{row['eval_games']} won "
                    f"(fair {float(row['fair_share']):.0%})"
                )
            rate = t.games_done / t.seconds if t.seconds else 0.0
            if minutes is not None and total is None:
                bar.update(task, total=None)
            bar.update(task, completed=t.games_done, rate=f"{rate:.1f} games/s", strength=strength["text"])

        try:
            trainer.run(on_progress)
        except KeyboardInterrupt:
            console.print(f"interrupted: the last checkpoint is in {folder} (continue with --resume)")
            raise typer.Exit(130) from None
        except CourtcardsError as exc:
            raise fail(str(exc)) from None
    if trainer.metrics and not (folder / "strength.png").exists():
        console.print("no strength.png: the plot needs matplotlib (pip install 'courtcards[analysis]')")
    console.print(
        f"trained {trainer.games_done} games in {trainer.seconds / 60:.1f} min of training; "
        f"network: {folder / NETWORK} (play it: --bots nn:{folder / NETWORK})"
    )
