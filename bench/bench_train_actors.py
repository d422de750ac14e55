"""Self-play throughput of ``courtcards train`` with 0, 1, 2 ... actor processes (``--actors``), in one run.

    python bench/bench_train_actors.py royale --seconds 30 --actors 0 1 2
    python bench/bench_train_actors.py rank --players 4 --option tokens_to_win=1 --seconds 30 --actors 0 1 2

Each configuration is a real training run (``courtcards.train.Trainer``, the defaults of ``courtcards
train``: ``--hidden 256,256``, ``--batch-games 32``, 1,024 samples a learning step, one PyTorch thread, no
evaluation) in a temporary folder. ``--actors 0`` is the single process that plays and learns in turn;
with actors, the learner only learns and publishes its weights. The rates are measured over the run's
training time after a warm-up (``--warmup`` seconds after the first finished games, which leaves out the
actors' start-up): self-play games per second, decisions per second (network decisions, i.e. samples
produced) and learning steps per second, and with actors which side waits: the learner's share of time
waiting for samples, and each actor's share waiting for room in the full queue (the learner is the limit).
The configurations alternate ``--rounds`` times; the median is
printed with the machine and its load average at the start and the end (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_playout import cpu_model

from courtcards.core.options import parse_option_pairs
from courtcards.train import TrainConfig, Trainer


def produced(t: Trainer) -> int:
    """Decisions played by the network so far (samples learned or waiting, or received from actors)."""
    return t.actor_samples if t.config.actors else t.samples + len(t.pending_ids)


def measure(args: argparse.Namespace, actors: int, seed: int) -> dict[str, float]:
    # (training seconds, games, decisions, updates, learner's wait, actors' wait)
    marks: list[tuple[float, int, int, int, float, float]] = []

    def on_progress(t: Trainer, row: dict[str, Any] | None) -> None:
        marks.append((t.seconds, t.games_done, produced(t), t.updates, t.learner_waited, t.actors_waited))

    config = TrainConfig(
        args.game,
        args.players,
        parse_option_pairs(args.option or []),
        seed=seed,
        minutes=(args.warmup + args.seconds) / 60,
        hidden=tuple(int(w) for w in args.hidden.split(",")),
        batch_games=args.batch_games,
        eval_games=0,
        checkpoint_every=1e9,
        actors=actors,
    )
    with tempfile.TemporaryDirectory() as folder:
        trainer = Trainer(config, Path(folder), command="bench")
        trainer.run(on_progress)
    first = next(m for m in marks if m[0] >= marks[0][0] + args.warmup)
    last = marks[-1]
    span = last[0] - first[0]
    return {
        "games/s": (last[1] - first[1]) / span,
        "decisions/s": (last[2] - first[2]) / span,
        "updates/s": (last[3] - first[3]) / span,
        "learner waiting": (last[4] - first[4]) / span,  # share of the time
        "actors waiting": (last[5] - first[5]) / span / max(1, actors),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--players", "-n", type=int, default=None)
    ap.add_argument("--option", "-o", action="append", help="game option name=value")
    ap.add_argument("--actors", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--seconds", type=float, default=30.0, help="measured training seconds per run")
    ap.add_argument("--warmup", type=float, default=5.0, help="training seconds left out at the start")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--hidden", default="256,256")
    ap.add_argument("--batch-games", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.players is None:
        from courtcards.core.game import get_game

        args.players = get_game(args.game).default_players
    print(f"machine: {platform.machine()} {cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.game} {args.players}p {args.option or ''} hidden {args.hidden}, batch-games {args.batch_games}")
    results: dict[int, list[dict[str, float]]] = {a: [] for a in args.actors}
    for r in range(args.rounds):
        for a in args.actors:
            results[a].append(measure(args, a, args.seed + r))
            m = results[a][-1]
            print(f"  round {r + 1} actors {a}: " + ", ".join(f"{v:,.1f} {k}" for k, v in m.items()), flush=True)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| actors | games/s | decisions/s | learning steps/s | learner waiting | each actor waiting |")
    print("| --- | --- | --- | --- | --- | --- |")
    for a, runs in results.items():
        med = {k: statistics.median(m[k] for m in runs) for k in runs[0]}
        waits = f"{med['learner waiting']:.0%} | {med['actors waiting']:.0%}" if a else "- | -"
        print(f"| {a} | {med['games/s']:,.1f} | {med['decisions/s']:,.0f} | {med['updates/s']:,.2f} | {waits} |")


if __name__ == "__main__":
    main()
