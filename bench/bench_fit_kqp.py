"""How well KQP's refitted worlds place the other hands' cards, against worlds drawn from the view.

    python bench/bench_fit_kqp.py --games 6 --players 6 --worlds 3 --steps 0 100 300 1000

Rounds of greedy play (``rounds=1``, seed = game index); at every choice of seat 0 in play, ``--worlds``
worlds are drawn from its view (with its ``PlayRecord`` of the round so far) and refitted with each number
of steps. Printed per number of steps: the other seats' moves seen that greedy would not have made in the
world (the real hands: none), the share of worlds that explain every move, the share of the other hands'
cards placed right (per seat and card value, the cards the world and the real hand have in common) and
the CPU time of a refit.
"""

from __future__ import annotations

import argparse
import time

from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.kqp.bots import Evidence, GreedyKqpBot, PlayRecord, refit


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--worlds", type=int, default=3)
    ap.add_argument("--steps", type=int, nargs="+", default=[0, 100, 300, 1000])
    args = ap.parse_args()
    game = get_game("kqp")
    rows = {k: [0, 0, 0, 0.0] for k in args.steps}  # misses, perfect worlds, cards placed, CPU s
    worlds = cards = 0
    for g in range(args.games):
        state = game.new_game(args.players, {"rounds": 1, "target": None}, seed=g)
        bots = [GreedyKqpBot(s) for s in range(args.players)]
        record = PlayRecord()
        rng = Rng(g)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if seat == 0 and len(legal) > 1 and state.phase == "play":
                view = state.view(0)
                evidence = Evidence(record.update(view), GreedyKqpBot(0))
                others = range(1, args.players)
                for _ in range(args.worlds):
                    seed = rng.next64()
                    for steps in args.steps:
                        world = game.sample_world(view, seed)
                        start = time.process_time()
                        _, missed = refit(world, 0, evidence, Rng(seed), steps)
                        row = rows[steps]
                        row[3] += time.process_time() - start
                        row[0] += missed
                        row[1] += missed == 0
                        row[2] += sum(
                            min(a, b) for s in others for a, b in zip(world.hands[s], state.hands[s], strict=True)
                        )
                    worlds += 1
                    cards += sum(state.sizes[s] for s in others)
            state.apply(seat, bots[seat].choose_state(state, seat, legal))
    print(f"{worlds} worlds at seat 0's choices in {args.games} rounds of {args.players}-player greedy play")
    for steps, (missed, perfect, placed, spent) in rows.items():
        print(
            f"{steps:>5} steps: moves missed {missed / worlds:.2f} a world, every move explained in "
            f"{perfect / worlds:.1%}, cards placed right {placed / cards:.1%}, {1000 * spent / worlds:.1f} CPU ms"
        )


if __name__ == "__main__":
    main()
