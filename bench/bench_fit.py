"""How well Rank's search guesses the hidden hands: worlds drawn from the view, the same worlds refitted to
the other seats' moves seen (``refit``), and exact posterior samples (drawn worlds kept only when greedy
makes every move seen in them), scored against the true hands.

    python bench/bench_fit.py --games 20 --steps 0 100 300

Seat 0's decisions with a choice in one-hand 4-player games of four greedy bots (seed = game number).
For each number of refit steps: the share of worlds in which greedy makes every move seen, the moves
missed a world, the CPU time a world's refit takes, and the share of the other hands' cards placed in
the right hand (cards of a kind count as alike). ``--exact N`` also draws up to N worlds a decision
and keeps those that miss no move, for the decisions where some do: what a perfect sampler would place
right, against the refitted worlds on the same decisions.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.rank.bots import Evidence, GreedyRankBot, Moves, RoundRecord, fitter
from courtcards.games.rank.state import RankState

RANK = get_game("rank")


def decisions(games: int) -> Iterator[tuple[RankState, list[Moves], int]]:
    for seed in range(games):
        state = RANK.new_game(4, {"tokens_to_win": 1}, seed=seed)
        bots = [GreedyRankBot(s) for s in range(4)]
        record = RoundRecord()
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            move = bots[seat].choose_state(state, seat, legal)
            if seat == 0 and len(legal) > 1:
                yield state, record.update(state.view(0)), seed
                record.current.append((0, move.text))
            state.apply(seat, move)


def placed(world: RankState, truth: RankState) -> tuple[int, int]:
    right = total = 0
    for s in range(1, truth.num_players):
        right += sum(min(a, b) for a, b in zip(world.hands[s], truth.hands[s], strict=True))
        total += truth.sizes[s]
    return right, total


def missed(evidence: Evidence, world: RankState) -> int:
    return sum(evidence.misses(s, world.hands[s]) for s in evidence.points if world.sizes[s])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--steps", type=int, nargs="+", default=[0, 100, 300])
    ap.add_argument("--worlds", type=int, default=6, help="worlds a decision for each number of steps")
    ap.add_argument("--exact", type=int, default=0, help="draws a decision for the exact posterior samples")
    args = ap.parse_args()
    rows = {k: [0, 0, 0, 0.0, 0, 0] for k in args.steps}  # perfect, worlds, misses, seconds, right, cards
    exact = {k: [0, 0] for k in ("exact", *args.steps)}  # cards right, cards, on decisions with exact samples
    asked = 0
    for state, rounds, seed in decisions(args.games):
        view = state.view(0)
        rng = Rng(seed * 1000 + len(state.history))
        first = RANK.sample_world(view, rng.next64())
        refit = fitter(first, 0, GreedyRankBot(0), rounds)
        if refit is None:
            continue
        asked += 1
        evidence = Evidence(first, 0, GreedyRankBot(0), rounds)
        kept = []
        for _ in range(args.exact):
            world = RANK.sample_world(view, rng.next64())
            if missed(evidence, world) == 0:
                kept.append(world)
                if len(kept) == args.worlds:
                    break
        for world in kept:
            right, cards = placed(world, state)
            exact["exact"][0] += right
            exact["exact"][1] += cards
        for k in args.steps:
            row = rows[k]
            for i in range(args.worlds):
                world = RANK.sample_world(view, rng.next64())
                start = time.thread_time()
                refit(world, Rng(rng.next64()), k)
                row[3] += time.thread_time() - start
                misses = missed(evidence, world)
                right, cards = placed(world, state)
                row[0] += misses == 0
                row[1] += 1
                row[2] += misses
                row[4] += right
                row[5] += cards
                if i < len(kept):
                    exact[k][0] += right
                    exact[k][1] += cards
    print(f"{asked} decisions of seat 0 with moves of other seats seen, {args.games} games")
    for k, (perfect, worlds, misses, seconds, right, cards) in rows.items():
        print(
            f"refit {k:4d} steps: {perfect / worlds:5.1%} of worlds miss no move, {misses / worlds:.2f} moves "
            f"missed a world, {1000 * seconds / worlds:.1f} ms a world; cards placed right {right / cards:.1%}"
        )
    if args.exact:
        n = exact["exact"][1]
        print(
            f"on the decisions where exact samples were found ({n} cards): exact {exact['exact'][0] / n:.1%}, "
            + ", ".join(f"refit {k} steps {exact[k][0] / exact[k][1]:.1%}" for k in args.steps)
        )


if __name__ == "__main__":
    main()
