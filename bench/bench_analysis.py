"""Throughput of ``simulate`` and ``analyze`` (games/s) on 1 and 2 worker processes.

Runs the same library calls as the two commands (``courtcards.sim.simulate``;
``courtcards.analysis.run_facts`` + ``summarize``) without the terminal
output, for each game at its default table size with its default analysis bots,
and prints the median of several runs, the machine and its load average. The two
commands alternate run by run, and each pair of runs gives the ratio of their times
(analyze's cost against simulate's: the target is at most 1.2). With
``--views`` it also times random bots that are given a view they do not read
(the old behaviour) against bots that declare ``needs_view = False``, in the
same run.

    python bench/bench_analysis.py --games 200 --runs 5                 # every game, 1 and 2 workers
    python bench/bench_analysis.py --game rank --views --runs 5          # what skipping the view saves
    python bench/bench_analysis.py --game rank --total 100000 --games 2000 --runs 1 --workers 2
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_playout import cpu_model

from courtcards.analysis import RunSpec, build_specs, run_facts, summarize
from courtcards.bots.base import RandomBot
from courtcards.core.game import get_game
from courtcards.sim import simulate

BOTS = {"rank": "greedy", "kqp": "greedy", "royale": "mixed", "royals": "greedy"}


def analyze(spec: RunSpec, games: int, seed: int, workers: int) -> None:
    summarize(spec, seed, run_facts(spec, games, seed, workers=workers))


def median_rate(fn: Callable[[], object], games: int, runs: int) -> tuple[float, list[float]]:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates), rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="game (repeatable; default: all four)")
    ap.add_argument("--games", type=int, default=200, help="games per run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, action="append", help="worker counts (default 1 and 2)")
    ap.add_argument("--views", action="store_true", help="also time random bots with and without views")
    ap.add_argument("--total", type=int, help="extrapolate the time for this many games from the median rate")
    args = ap.parse_args()
    games_list = args.game or list(BOTS)
    workers_list = args.workers or [1, 2]

    print(f"machine: {platform.platform()}; CPU: {cpu_model()} x{os.cpu_count()}; Python {platform.python_version()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.runs} runs of {args.games} games each; medians in games/s")
    print("| game | players | bots | command | workers | games/s | runs |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for game in games_list:
        g = get_game(game)
        n = g.default_players
        bots = [BOTS[game]] * n
        spec = build_specs(game, bots, n, {}, None, [])[0]
        simulate(game, bots, 5, seed=args.seed)  # warm-up (imports, caches)
        for w in workers_list:
            # the two commands alternate, run by run, so that a change of the machine's load falls on both
            sim_runs, an_runs = [], []
            for _ in range(args.runs):
                sim_runs.extend(
                    median_rate(partial(simulate, game, bots, args.games, seed=args.seed, workers=w), args.games, 1)[1]
                )
                an_runs.extend(median_rate(partial(analyze, spec, args.games, args.seed, w), args.games, 1)[1])
            ratios = sorted(s / a for s, a in zip(sim_runs, an_runs, strict=True))
            sim_rate, an_rate = statistics.median(sim_runs), statistics.median(an_runs)
            ratio_note = (
                f"analyze / simulate time: median {statistics.median(ratios):.2f} "
                f"(runs {ratios[0]:.2f}-{ratios[-1]:.2f})"
            )
            for command, runs in (("simulate", sim_runs), ("analyze", an_runs)):
                print(
                    f"| {game} | {n} | {BOTS[game]} | {command} | {w} | {statistics.median(runs):,.1f} | "
                    f"{', '.join(f'{r:.1f}' for r in runs)} |" + (f" {ratio_note}" if command == "analyze" else "")
                )
            if args.total:
                print(
                    f"  {args.total:,} games of {game} by analyze on {w} worker(s): about "
                    f"{args.total / an_rate / 60:.1f} min (extrapolated); simulate: "
                    f"{args.total / sim_rate / 60:.1f} min"
                )
        if args.views:
            rand = ["random"] * n
            for needs in (True, False):
                RandomBot.needs_view = needs  # type: ignore[misc]
                rate, runs = median_rate(
                    partial(simulate, game, rand, args.games, seed=args.seed, workers=1), args.games, args.runs
                )
                print(
                    f"  random bots, {'given a view' if needs else 'no view (needs_view = False)'}: "
                    f"{rate:,.1f} games/s ({', '.join(f'{r:.1f}' for r in runs)})"
                )
            RandomBot.needs_view = False  # type: ignore[misc]
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
