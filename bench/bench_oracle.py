"""Diagnostic, not a player: the search bot handed the true state as every world (it cheats), to
measure how much of its strength is lost to not knowing the hidden cards.

    python bench/bench_oracle.py 60 --ismcts model=greedy
    python bench/bench_oracle.py 60 --game kqp --players 6 --option rounds=1 --option target=none

By default Rank one hand a game (tokens_to_win=1), 4 seats: one search seat against greedy (``--opponent``),
seat-rotated with the seeds of bench_strength.py (seed 7), so the deals are the same. Where seats choose at
once, the search seat chooses first, so the true state it gets holds no other seat's secret choice.
``--hands-only``: the worlds show the other seats' hands but not the order of the decks and draw pile.

    python bench/bench_oracle.py 100 --game royale --players 2 --opponent mixed --ismcts model=mixed --hands-only
"""

from __future__ import annotations

import argparse
from typing import Any

from bench_strength import _value  # the same key=value parsing (run from bench/, like it)

from courtcards.analysis.stats import wilson
from courtcards.bots.base import bot_move, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State
from courtcards.sim import derive_seed, seat_kinds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("--game", default="rank")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="greedy", help="the other seats' bot")
    ap.add_argument("--option", action="append", default=[], help="game option key=value (Rank: tokens_to_win=1)")
    ap.add_argument("--ismcts", action="append", default=[], help="ISMCTSBot argument key=value")
    ap.add_argument(
        "--hands-only",
        action="store_true",
        help="the worlds show the other seats' hands but shuffle the decks and draw piles afresh",
    )
    args = ap.parse_args()
    kwargs: dict[str, Any] = {k: _value(v) for k, v in (o.split("=", 1) for o in args.ismcts)}
    kwargs.setdefault("fit", 0)  # every world is the true one: nothing to fit
    game = get_game(args.game)
    options = {k: _value(v) for k, v in (o.split("=", 1) for o in args.option)}
    if not args.option and game.name == "rank":
        options = {"tokens_to_win": 1}
    true: list[State] = []

    def cheat(view: Any, rng: Any, *, seat: int | None = None) -> State:
        world = true[0].copy()
        if args.hands_only:  # the hands are known, the order of what is still to be drawn is not
            fresh = rng if isinstance(rng, Rng) else Rng(int(rng))
            for pile in [*getattr(world, "decks", []), *([world.draw] if hasattr(world, "draw") else [])]:
                fresh.shuffle(pile)
            world.rng = Rng(fresh.next64())
        return world

    game.sample_world = cheat  # type: ignore[method-assign]
    wins = 0
    for i in range(args.games):
        kinds = seat_kinds(["ismcts", *[args.opponent] * (args.players - 1)], i)
        state = game.new_game(args.players, options, seed=derive_seed(7, i, 0))
        bots = [
            ISMCTSBot(derive_seed(7, i, s + 1), **kwargs)
            if k == "ismcts"
            else make_bot(game.name, k, derive_seed(7, i, s + 1))
            for s, k in enumerate(kinds)
        ]
        while not state.is_over():
            movers = state.to_move()
            # the search seat decides first, so the true state it gets holds no other seat's secret choice
            seat = next((s for s in movers if kinds[s] == "ismcts"), movers[0])
            true[:] = [state]
            state.apply(seat, bot_move(bots[seat], state, seat))
        result = state.result()
        wins += result is not None and result.winner is not None and kinds[result.winner] == "ismcts"
        p, lo, hi = wilson(wins, i + 1)
        print(f"game {i}: wins {wins}/{i + 1} = {p:.0%} [{lo:.0%}, {hi:.0%}] {kwargs}", flush=True)


if __name__ == "__main__":
    main()
