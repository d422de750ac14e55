"""How well Rank Royale's refitted worlds guess the opponent's hand, against worlds drawn from the view.

    python bench/bench_fit_royale.py --games 60 --worlds 6 --steps 100

Games between two ``mixed`` bots (seed = game index); at every card choice of seat 0 from round 2 on,
``--worlds`` worlds are drawn from its view, each scored as drawn and again after ``refit`` (courtcards/bots/
royale.py). What the opponent plays next depends on which tiers it holds and its best card in each (both
bots play the highest card of the tier they pick), so a world is scored on those: for each tier, whether
the world's hand holds that tier as the real one does, and whether its highest rank there is the real one.
"""

from __future__ import annotations

import argparse
import time

from courtcards.bots.base import bot_move, make_bot
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.royale.bots import fitter
from courtcards.games.royale.cards import rank, tier


def signature(hand: list[int]) -> tuple[int, ...]:
    """The highest rank held in each tier (0: none)."""
    return tuple(max((rank(c) for c in hand if tier(c) == t), default=0) for t in range(3))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--steps", type=int, default=100)
    args = ap.parse_args()
    game = get_game("royale")
    held = {"drawn": 0, "refitted": 0}
    top = {"drawn": 0, "refitted": 0}
    missed = {"drawn": 0, "refitted": 0}
    worlds = 0
    spent = 0.0
    for g in range(args.games):
        state = game.new_game(2, seed=g)
        bots = [make_bot("royale", "mixed", 2 * g + s + 1) for s in (0, 1)]
        rng = Rng(g)
        while not state.is_over():
            if 0 in state.to_move() and state.phase == "play" and state.round > 1:
                view = state.view(0)
                truth = signature(state.hands[1])
                for _ in range(args.worlds):
                    world = game.sample_world(view, rng.next64())
                    refit = fitter(world, 0)
                    if refit is None:
                        continue
                    drawn = signature(world.hands[1])
                    start = time.process_time()
                    before, after = refit(world, Rng(rng.next64()), args.steps)
                    spent += time.process_time() - start
                    for name, guess, miss in (("drawn", drawn, before), ("refitted", signature(world.hands[1]), after)):
                        held[name] += sum((guess[t] > 0) == (truth[t] > 0) for t in range(3))
                        top[name] += sum(guess[t] == truth[t] for t in range(3))
                        missed[name] += miss
                    worlds += 1
            for seat in state.to_move():
                state.apply(seat, bot_move(bots[seat], state, seat))
    print(f"{worlds} worlds, {args.steps} refit steps, {1000 * spent / max(worlds, 1):.2f} CPU ms a refit")
    for name in ("drawn", "refitted"):
        print(
            f"{name:>9}: tiers held right {held[name] / (3 * worlds):.1%}, highest rank per tier right "
            f"{top[name] / (3 * worlds):.1%}, rounds the model would have played otherwise "
            f"{missed[name] / worlds:.2f} a world"
        )


if __name__ == "__main__":
    main()
