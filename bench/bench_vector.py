"""Self-play rows per second of ``SelfPlayVectorEnv`` (courtcards.envs.vector) by batch size, one game
at a time (``--envs 1``) being the baseline, in one run: a random legal id per row, chosen from the
stacked masks with NumPy (as a batched policy would), for each game at its default table size.

    python bench/bench_vector.py --envs 1 16 64 --steps 2000 --runs 3

Prints the median rows/s of ``--runs`` runs, the machine and its load. A row is one decision: the
deciding seat's observation tensor and mask, then its id applied.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_playout import cpu_model

from courtcards.core.game import registered_games
from courtcards.envs.vector import SelfPlayVectorEnv


def rows_per_second(game: str, num_envs: int, steps: int, seed: int) -> float:
    envs = SelfPlayVectorEnv(game, num_envs=num_envs)
    _, masks, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for _ in range(steps // num_envs):
        ids = np.argmax(rng.random(masks.shape) * masks, axis=1)  # a random legal id per row
        _, masks, *_ = envs.step(ids)
    return (steps // num_envs) * num_envs / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="game (repeatable; default: every registered game)")
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 16, 64], help="batch sizes")
    ap.add_argument("--steps", type=int, default=2000, help="rows per run")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    games = args.game or [g.name for g in registered_games()]
    print(f"machine: {platform.platform()}; CPU: {cpu_model()} x{os.cpu_count()}; Python {platform.python_version()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| game | envs | rows/s (median) | runs |")
    print("| --- | --- | --- | --- |")
    for game in games:
        for n in args.envs:
            runs = [rows_per_second(game, n, args.steps, args.seed + r) for r in range(args.runs)]
            print(f"| {game} | {n} | {statistics.median(runs):,.0f} | {', '.join(f'{r:,.0f}' for r in runs)} |")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
