"""How well Rank Royale's search tells which bot kind its opponent is (``odds`` in courtcards/bots/royale.py).

    python bench/bench_odds_royale.py --games 30
    python bench/bench_odds_royale.py --games 40 --first 200 --threshold 0.9 0.7

Games of seat 0 (``mixed`` in even games, ``greedy`` in odd ones) against each kind in turn at seat 1 (seed
= ``--first`` + game index). At every card choice of seat 0 from round 2 on, the odds of each kind are read
from seat 0's view; printed by round (rounds 10 and later together): the mean odds of mixed / greedy /
random, the share of positions where the real kind has the highest odds, and the CPU time a reading
takes. With ``--threshold``, for each threshold the share of positions where a kind other than mixed
reaches it (the search would model that kind): against ``mixed`` any such kind, else the real one.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.royale.bots import KINDS, odds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--first", type=int, default=100, help="seed of the first game")
    ap.add_argument("--threshold", type=float, nargs="*", default=[])
    args = ap.parse_args()
    game = get_game("royale")
    for kind in KINDS:
        by_round: dict[int, list[dict[str, float]]] = defaultdict(list)
        times: list[float] = []
        readings: list[dict[str, float]] = []
        for seed in range(args.first, args.first + args.games):
            state = game.new_game(2, seed=seed)
            bots = [make_bot("royale", "greedy" if seed % 2 else "mixed", seed + 1), make_bot("royale", kind, seed + 2)]
            rng = Rng(seed)
            while not state.is_over():
                if state.phase == "play" and state.round > 1:
                    start = time.process_time()
                    found = odds(state.view(0), game.sample_world, rng)
                    times.append(time.process_time() - start)
                    if found is not None:
                        by_round[min(state.round, 10)].append(found)
                        readings.append(found)
                for seat in state.to_move():
                    state.apply(seat, bot_move(bots[seat], state, seat))
        print(f"opponent {kind}: median {statistics.median(times) * 1000:.1f} ms a reading")
        for r, found in sorted(by_round.items()):
            mean = "/".join(f"{sum(f[k] for f in found) / len(found):.2f}" for k in KINDS)
            top = sum(max(f, key=lambda k: f[k]) == kind for f in found)
            print(
                f"  round {r}{'+' if r == 10 else ''}: {len(found)} positions, odds {mean}, "
                f"real kind highest {top / len(found):.0%}"
            )
        for gate in args.threshold:
            passed = sum(
                any(f[k] >= gate and k != "mixed" and (kind == "mixed" or k == kind) for k in KINDS) for f in readings
            )
            print(f"  threshold {gate}: passed at {passed} of {len(readings)} positions ({passed / len(readings):.0%})")


if __name__ == "__main__":
    main()
