"""Random-playout throughput through the public API.

Each game: ``new_game``, then until it is over ``to_move``, ``legal_actions``
and ``apply`` of a uniformly chosen legal action (the listing is part of the
cost, as it is for any agent). Prints the machine and the median of several
runs in games/s and actions/s.

    python bench/bench_playout.py --game rank --players 4 --games 200 --runs 7
    python bench/bench_playout.py --game rank --players 4 --profile   # cProfile of one run
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from courtcards.core.game import get_game
from courtcards.core.options import parse_option_pairs
from courtcards.core.rng import Rng

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import cpu_model


def run(game: str, players: int, games: int, seed: int, options: dict[str, str]) -> tuple[int, int, float]:
    """Play ``games`` random games; return (games, actions, seconds)."""
    g = get_game(game)
    pick = Rng(seed ^ 0x5EED)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        state = g.new_game(players, options, seed=seed + i)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.below(len(legal))])
            actions += 1
    return games, actions, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="rank")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=200, help="games per run")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="game option name=value (repeatable)")
    ap.add_argument("--profile", action="store_true", help="profile one run with cProfile instead")
    args = ap.parse_args()
    options = parse_option_pairs(args.option)

    print(f"machine: {platform.platform()}; CPU: {cpu_model()}; Python {platform.python_version()}")
    print(
        f"game: {args.game}, {args.players} players, options {options or 'default'}; "
        f"{args.runs} runs of {args.games} random games"
    )
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(args.game, args.players, args.games, args.seed, options)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return

    run(args.game, args.players, max(1, args.games // 10), args.seed, options)  # warm-up
    gps: list[float] = []
    aps: list[float] = []
    for r in range(args.runs):
        n, acts, secs = run(args.game, args.players, args.games, args.seed + r * args.games, options)
        gps.append(n / secs)
        aps.append(acts / secs)
        print(f"  run {r + 1}: {n / secs:9.1f} games/s  {acts / secs:11.0f} actions/s  ({acts / n:.0f} actions/game)")
    print(f"median: {statistics.median(gps):.1f} games/s, {statistics.median(aps):.0f} actions/s")


if __name__ == "__main__":
    main()
