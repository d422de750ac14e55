"""Strength of the search bot: one ISMCTS seat against greedy (or another bot), seat-rotated.

    python bench/bench_strength.py rank 4 20 --opponent greedy --option tokens_to_win=1 \
        --ismcts rollout=greedy --ismcts iterations=300

With ``--rate`` it only measures the search's iterations per CPU second over the
first GAMES decisions of one game. Prints the games won with a 95% Wilson interval and the median and 99th percentile
CPU time per decision of the search seat (decisions with a choice). ``--ismcts key=value`` sets a constructor
argument of ISMCTSBot (numbers are parsed), so settings compare without code edits.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from courtcards.analysis.stats import wilson
from courtcards.bots.base import bot_move, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.game import get_game
from courtcards.sim import derive_seed, seat_kinds


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None if text == "none" else text


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--option", action="append", default=[], help="game option key=value")
    ap.add_argument("--ismcts", action="append", default=[], help="ISMCTSBot argument key=value")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (split a run over processes)")
    ap.add_argument("--rate", action="store_true", help="only measure iterations per CPU second (no cap, no stop)")
    args = ap.parse_args()
    options = {k: _value(v) for k, v in (o.split("=", 1) for o in args.option)}
    kwargs = {k: _value(v) for k, v in (o.split("=", 1) for o in args.ismcts)}
    game = get_game(args.game)
    if args.rate:
        kwargs = {"iterations": 10**9, "seconds": 0.25, "cpu_clock": True, "stop_early": False, **kwargs}
        rate(game.name, args.players, options, kwargs, args.seed, args.games)
        return
    wins = 0
    times: list[float] = []
    for n, i in enumerate(range(args.first, args.first + args.games), 1):
        kinds = seat_kinds(["ismcts", *[args.opponent] * (args.players - 1)], i)
        state = game.new_game(args.players, options, seed=derive_seed(args.seed, i, 0))
        bots = [
            ISMCTSBot(derive_seed(args.seed, i, s + 1), **kwargs)
            if k == "ismcts"
            else make_bot(args.game, k, derive_seed(args.seed, i, s + 1))
            for s, k in enumerate(kinds)
        ]
        while not state.is_over():
            seat = state.to_move()[0]
            start = time.process_time()
            choice = len(state.legal_actions(seat)) > 1
            action = bot_move(bots[seat], state, seat)
            if kinds[seat] == "ismcts" and choice:  # forced moves take no time: left out
                times.append(time.process_time() - start)
            state.apply(seat, action)
        winner = state.result().winner
        wins += winner is not None and kinds[winner] == "ismcts"
        p, lo, hi = wilson(wins, n)
        print(
            f"game {i}: search seat {kinds.index('ismcts')}, winner {winner}, wins {wins}/{n} = {p:.0%} "
            f"[{lo:.0%}, {hi:.0%}]; median {statistics.median(times):.3f}s, p99 {_p99(times):.3f}s",
            flush=True,
        )
    p, lo, hi = wilson(wins, args.games)
    p99 = _p99(times)
    print(
        f"{args.game} {args.players}p vs {args.opponent} {kwargs}: won {wins}/{args.games} = {p:.0%} "
        f"[{lo:.0%}, {hi:.0%}]; {len(times)} decisions, median {statistics.median(times):.3f}s, p99 {p99:.3f}s"
    )


def _p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def rate(game: str, players: int, options: dict[str, Any], kwargs: dict[str, Any], seed: int, decisions: int) -> None:
    """Iterations per CPU second of the search seat (seat 0 against greedy) over its first decisions."""
    state = get_game(game).new_game(players, options, seed=seed)
    search = ISMCTSBot(seed, **kwargs)
    bots = [search, *[make_bot(game, "greedy", seed + s) for s in range(1, players)]]
    done = iterations = 0
    spent = 0.0
    while not state.is_over() and done < decisions:
        seat = state.to_move()[0]
        choice = seat == 0 and len(state.legal_actions(seat)) > 1
        start = time.thread_time()
        action = bot_move(bots[seat], state, seat)
        if choice:
            spent += time.thread_time() - start
            iterations += search.last_iterations
            done += 1
        state.apply(seat, action)
    print(f"{game} {players}p {kwargs}: {iterations / spent:.0f} iterations per CPU second ({done} decisions)")


if __name__ == "__main__":
    main()
