"""Random playouts of every game against OpenSpiel's C++ Dou Dizhu, in player actions per CPU
second, alternating in one run.

Two OpenSpiel rows: Dou Dizhu driven from a Python loop (``legal_actions``, ``apply_action`` of a
uniformly chosen one, chance nodes resolved by the same loop), and the whole game in C++
(``pyspiel.evaluate_bots`` with OpenSpiel's uniform random bots, chance nodes sampled in C++).
Only player actions are counted: the deal is chance nodes in Dou Dizhu (counted out of each
game's full history after the timing), while courtcards' games deal inside ``apply``.

courtcards' rows: Rank 4p, Rank Royale, Royals 4p and KQP 6p, each pure Python and compiled
with mypyc (setup.py; ``bench/compiled_tree.py`` builds the copy), each in its own process, each
two ways: ``step``, one Python call per action (``to_move``, ``legal_actions``, ``apply``, as an
agent or bench_playout.py does), and ``whole``, one ``State.play_random`` call per game (the
engine's whole random playout; the same games, action for action). Every measurement plays
games until its CPU budget is spent (``--seconds``; the clock is read every 8 games, on both sides); a new
game's deal counts in its time.

OpenSpiel is not a dependency of courtcards: ``--install`` creates a virtual environment for it
(default ``bench/.venv-peers``) and installs ``open_spiel`` there; the peer runs in that
environment, courtcards in this one.

    python bench/bench_peers.py --install          # once
    python bench/bench_peers.py --rounds 5
    python bench/bench_peers.py --game rank:4 --game royale:2 --no-compiled
    python bench/bench_peers.py --rounds 3 --baseline a739288   # and that commit's compiled engine
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("rank:4", "royale:2", "royals:4", "kqp:6")
MODES = ("step", "whole")
PEER_ROWS = {"python": "OpenSpiel Dou Dizhu, Python loop", "cpp": "OpenSpiel Dou Dizhu, whole game in C++"}

PEER = r"""
import json, random, sys, time
import pyspiel
seconds, seed = float(sys.argv[1]), int(sys.argv[2])
game = pyspiel.load_game("dou_dizhu")

def python_loop():
    rng = random.Random(seed)
    actions = games = 0
    start = time.process_time()
    while games % 8 or time.process_time() - start < seconds:  # the clock read every 8 games, as for ours
        games += 1
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
    return {"actions": actions, "cpu": time.process_time() - start}

def whole_cpp():
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    played = []
    start = time.process_time()
    while len(played) % 8 or time.process_time() - start < seconds:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + len(played))
        played.append(state)
    cpu = time.process_time() - start
    # player actions only (the deal is chance nodes), counted after the timing
    actions = sum(1 for state in played for step in state.full_history() if step.player >= 0)
    return {"actions": actions, "cpu": cpu}

python_loop(); whole_cpp()  # warm-up (seconds each)
print(json.dumps({"python": python_loop(), "cpp": whole_cpp()}))
"""


def playouts(game: str, players: int, whole: bool, seconds: float, seed: int, games: int = 0) -> dict[str, float]:
    """Random playouts in this process until ``seconds`` of CPU are spent (or ``games`` are
    played, if given): one call per action, or (``whole``) one ``play_random`` per game. The same
    seeds play the same games either way. Player actions and CPU seconds."""
    from courtcards.core.game import get_game
    from courtcards.core.rng import Rng

    g = get_game(game)
    for i in range(3):  # untimed: lazily built tables filled first
        state = g.new_game(players, {}, seed=seed - 1 - i)
        state.play_random(Rng(i))
    pick = Rng(seed ^ 0x5EED)
    actions = played = 0
    start = time.process_time()
    # the clock read every 8 games (a read costs about half a microsecond, 2% of a game of Rank Royale)
    while (not games or played < games) and (played % 8 or time.process_time() - start < seconds):
        state = g.new_game(players, {}, seed=seed + played)
        if whole:
            actions += state.play_random(pick)
        else:
            while not state.is_over():
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[pick.below(len(legal))])
                actions += 1
        played += 1
    return {"actions": actions, "cpu": time.process_time() - start, "games": played}


def ours_worker(games: list[str], seconds: float, seed: int) -> dict[str, dict[str, float]]:
    """Every game and mode, in this process (one tree: pure or compiled)."""
    out = {}
    for spec in games:
        name, players = spec.split(":")
        for mode in MODES:
            out[f"{spec}/{mode}"] = playouts(name, int(players), mode == "whole", seconds, seed)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--venv", type=Path, default=ROOT / "bench" / ".venv-peers", help="OpenSpiel's environment")
    ap.add_argument("--install", action="store_true", help="create the environment, install open_spiel and stop")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    ap.add_argument("--game", action="append", metavar="GAME:PLAYERS", help=f"repeatable; default {' '.join(GAMES)}")
    ap.add_argument("--no-compiled", action="store_true", help="skip the mypyc-compiled build")
    ap.add_argument(
        "--baseline", metavar="REV", help="also the compiled engine of this commit (git ref), in the same rounds"
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    games = args.game or list(GAMES)
    if args.worker:
        print(json.dumps(ours_worker(games, args.seconds, args.seed)))
        return
    python = args.venv / "bin" / "python"
    if args.install:
        venv.create(args.venv, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "open_spiel"], check=True)
        print(f"OpenSpiel installed in {args.venv}; now run the bench without --install")
        return
    if not python.exists():
        sys.exit(f"no OpenSpiel environment at {args.venv}: run with --install first")

    load = os.getloadavg()
    print(
        f"machine: {platform.platform()}; {os.cpu_count()} CPUs; Python {platform.python_version()}; "
        f"load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    from compiled_tree import trees as builds  # bench/, this script's folder

    trees = builds(compiled=not args.no_compiled)
    if args.baseline:  # measured by this script, alternating with the rest
        from bench_engine import extract
        from compiled_tree import compiled_tree

        trees[f"compiled {args.baseline}"] = compiled_tree(extract(args.baseline), "baseline")
    ours: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {k: [] for k in PEER_ROWS}
    for r in range(args.rounds):
        seed = 1 + r * 10_000
        for build, tree in trees.items():
            worker = [sys.executable, __file__, "--worker", "--seconds", str(args.seconds), "--seed", str(seed)]
            for spec in games:
                worker += ["--game", spec]
            a = subprocess.run(
                worker, check=True, capture_output=True, text=True, cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree))
            )
            for key, x in json.loads(a.stdout).items():
                ours.setdefault(f"{key}/{build}", []).append(x["actions"] / x["cpu"])
        b = subprocess.run(
            [str(python), "-c", PEER, str(args.seconds), str(seed)], check=True, capture_output=True, text=True
        )
        for key, y in json.loads(b.stdout).items():
            theirs[key].append(y["actions"] / y["cpu"])
        print(
            f"  round {r + 1}: OpenSpiel Python loop {theirs['python'][-1]:,.0f}/s, C++ {theirs['cpp'][-1]:,.0f}/s; "
            + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in ours.items()),
            flush=True,
        )

    from courtcards.core.game import get_game  # this tree's, for the games' titles

    peer = {k: statistics.median(v) for k, v in theirs.items()}
    print(f"\nmedians of {args.rounds} rounds, player actions per CPU second (ratio: to each OpenSpiel row)")
    print("| row | build | actions/s | / OpenSpiel Python loop | / OpenSpiel C++ |")
    print("| --- | --- | --- | --- | --- |")
    for key, row in PEER_ROWS.items():
        print(f"| {row} | C++ | {peer[key]:,.0f} | {peer[key] / peer['python']:.2f} | {peer[key] / peer['cpp']:.2f} |")
    for spec in games:
        name, players = spec.split(":")
        for mode in MODES:
            for build in trees:
                m = statistics.median(ours[f"{spec}/{mode}/{build}"])
                what = "one call per action" if mode == "step" else "whole playout (play_random)"
                print(
                    f"| {get_game(name).title} {players}p, {what} | {build} | {m:,.0f} | "
                    f"{m / peer['python']:.2f} | {m / peer['cpp']:.2f} |"
                )
    load = os.getloadavg()
    print(f"load average at end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
