"""Strength of one bot (default the search, ``ismcts``) against greedy or the game's stranger pool.

    python bench/bench_strength.py rank 4 60 --option tokens_to_win=1                  # ismcts vs 3 greedy
    python bench/bench_strength.py rank 4 60 --option tokens_to_win=1 --opponents pool # vs the strangers
    python bench/bench_strength.py royale 2 100 --bot greedy --opponents pool --workers 2

Bots are driven exactly as ``courtcards simulate``, ``courtcards play`` and the server drive them: each is
made from its spec by ``make_bot`` (``ismcts`` is the default budget: 1000 iterations capped at 1 s of the
thread's CPU time; ``ismcts:0.5s`` a time budget), deals and bot seeds come from the run's seed as in
``simulate`` (``courtcards.sim.new_deal`` and ``seat_bots``), and each move comes from ``bot_move``: the
seat's view, never the state. The tested bot's seat rotates from game to game. Without ``--seed`` a run
draws a fresh seed (printed, with the command that replays it), so runs do not reuse one set of deals.

``--opponents``: ``greedy`` (the default: every other seat greedy), ``pool`` (the game's stranger pool,
``courtcards.bots.strangers.stranger_pool``; the other seats take its kinds in turn, every mix over
``players x len(pool)`` games), or a comma-separated list of kinds taken in turn the same way.

Prints the games won with a 95% Wilson interval, the winners' kinds, the median and 99th percentile CPU
time per decision with a choice of the tested seat, and the load average at the start and the end.

``--ismcts key=value`` builds the search with that ISMCTSBot argument instead (numbers are parsed): an
experiment, not the bot the CLI and the server play, and the output says so. ``--rate`` only measures
the search's iterations per CPU second over the first GAMES decisions of one game.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from courtcards.analysis.stats import wilson
from courtcards.bots.base import Bot, bot_move, check_bot, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.bots.strangers import stranger_pool
from courtcards.core.game import get_game
from courtcards.sim import derive_seed, new_deal, run_chunks, seat_bots, seat_kinds


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None if text == "none" else text


def opponents_of(game: str, spec: str) -> tuple[str, ...]:
    """The opponent kinds ``--opponents`` names: ``pool``: the game's stranger pool; else the kinds given."""
    if spec == "pool":
        return stranger_pool(game)
    return tuple(k.strip() for k in spec.split(",") if k.strip())


def lineup(tested: str, opponents: Sequence[str], players: int, game_index: int) -> list[str]:
    """The bots of game ``game_index`` before rotation (as ``--bots`` lists them): the tested bot and
    ``players - 1`` opponents taken in turn from ``opponents``, shifted every ``players`` games."""
    shift = game_index // players
    return [tested, *(opponents[(shift + j) % len(opponents)] for j in range(players - 1))]


def table(tested: str, opponents: Sequence[str], players: int, game_index: int) -> tuple[str, ...]:
    """The kinds of game ``game_index`` in seat order: its lineup rotated as ``courtcards simulate`` rotates."""
    return seat_kinds(lineup(tested, opponents, players, game_index), game_index)


def tested_seat(players: int, game_index: int) -> int:
    """The seat of the tested bot (the first kind of the table) in game ``game_index``."""
    return game_index % players


class Outcome(NamedTuple):
    number: int  # the game's index in the run
    seat: int
    kinds: tuple[str, ...]
    winner: int | None
    times: list[float]  # CPU seconds of the tested seat's decisions with a choice


Job = tuple[str, int, str, tuple[str, ...], int, int, int, dict[str, Any], dict[str, Any] | None]


def play(job: Job) -> list[Outcome]:
    """Games ``start`` to ``stop`` of a run, each driven as ``courtcards simulate`` drives it."""
    game, players, tested, opponents, start, stop, seed, options, kwargs = job
    out = []
    for i in range(start, stop):
        kinds = table(tested, opponents, players, i)
        me = tested_seat(players, i)
        state = new_deal(game, players, i, seed, options)
        bots: list[Bot] = seat_bots(game, kinds, i, seed)
        if kwargs is not None:  # an experiment: not the bot make_bot makes
            bots[me] = ISMCTSBot(derive_seed(seed, i, 1 + me), **kwargs)
        times: list[float] = []
        while not state.is_over():
            seat = state.to_move()[0]
            choice = seat == me and len(state.legal_actions(seat)) > 1
            begin = time.thread_time()
            action = bot_move(bots[seat], state, seat)
            if choice:  # forced moves take no time: left out
                times.append(time.thread_time() - begin)
            state.apply(seat, action)
        result = state.result()
        out.append(Outcome(i, me, kinds, None if result is None else result.winner, times))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("--bot", default="ismcts", help="the tested bot's spec, as `--bots` names it (default ismcts)")
    ap.add_argument("--opponents", default="greedy", help="greedy (default), pool, or kinds a,b,c taken in turn")
    ap.add_argument("--opponent", dest="opponents", help=argparse.SUPPRESS)  # the old name
    ap.add_argument("--option", action="append", default=[], help="game option key=value")
    ap.add_argument("--ismcts", action="append", default=[], help="experiment: ISMCTSBot argument key=value")
    ap.add_argument("--seed", type=int, default=None, help="the run's seed (default: a fresh one, printed)")
    ap.add_argument("--first", type=int, default=0, help="index of the first game (split a run over processes)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (same results for any number)")
    ap.add_argument("--chunk", type=int, default=4, help="games per job given to a worker")
    ap.add_argument("--rate", action="store_true", help="only measure iterations per CPU second (no cap, no stop)")
    args = ap.parse_args(argv)
    options = {k: _value(v) for k, v in (o.split("=", 1) for o in args.option)}
    kwargs = {k: _value(v) for k, v in (o.split("=", 1) for o in args.ismcts)}
    game = get_game(args.game).name
    seed = secrets.randbelow(1 << 31) if args.seed is None else args.seed
    if args.rate:
        kwargs = {"iterations": 10**9, "seconds": 0.25, "cpu_clock": True, "stop_early": False, **kwargs}
        rate(game, args.players, options, kwargs, seed, args.games)
        return
    opponents = opponents_of(game, args.opponents)
    for kind in (args.bot, *opponents):
        check_bot(game, kind)
    get_game(game).resolve_options(args.players, options)
    tested = args.bot
    if kwargs and tested.partition(":")[0] != "ismcts":
        ap.error("--ismcts applies to an ismcts bot only")
    label = f"{tested} {kwargs} (experiment: not the bot the CLI makes)" if kwargs else tested
    load = os.getloadavg()
    print(f"{game} {args.players}p, {label} against {', '.join(opponents)}; seed {seed}; load {load[0]:.2f}")
    stop = args.first + args.games
    jobs: list[Job] = [
        (game, args.players, tested, opponents, s, min(s + args.chunk, stop), seed, options, kwargs or None)
        for s in range(args.first, stop, args.chunk)
    ]
    wins = n = 0
    times: list[float] = []
    winners: Counter[str] = Counter()
    for outcomes in run_chunks(play, jobs, args.workers):
        for o in outcomes:
            n += 1
            won = o.winner == o.seat
            wins += won
            times.extend(o.times)
            winners["(tested)" if won else "none" if o.winner is None else o.kinds[o.winner]] += 1
            p, lo, hi = wilson(wins, n)
            print(f"game {o.number}: seat {o.seat}, winner {o.winner}; won {wins}/{n} = {p:.0%} [{lo:.0%}, {hi:.0%}]")
    p, lo, hi = wilson(wins, n)
    end = os.getloadavg()
    timing = f"median {statistics.median(times):.3f}s, p99 {_p99(times):.3f}s" if times else "no decisions"
    print(
        f"{game} {args.players}p, {label} vs {args.opponents} ({', '.join(opponents)}): won {wins}/{n} = {p:.0%} "
        f"[{lo:.0%}, {hi:.0%}]; winners {dict(winners)}; {len(times)} decisions, {timing}; "
        f"load {load[0]:.2f} -> {end[0]:.2f}"
    )
    given = list(argv if argv is not None else sys.argv[1:])
    again = [a for i, a in enumerate(given) if not a.startswith("--seed") and (i == 0 or given[i - 1] != "--seed")]
    print("reproduce: python bench/bench_strength.py " + " ".join([*again, f"--seed {seed}"]))


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
