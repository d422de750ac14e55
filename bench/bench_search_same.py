"""The search bot before and after a change: the same moves at the same budget, and its time per decision.

    python bench/bench_search_same.py --before 8c7dc90 --after . --games 4 --iterations 100

plays GAMES seat-rotated games of each setup (game ``i``: the search in seat ``i % players``, greedy in
the others) with ``ismcts`` at ITERATIONS iterations and the time cap out of the way (``seconds=1e9``, so
the seeded search is reproducible), once in a process running the tree BEFORE and once in one running
AFTER (``PYTHONPATH``; BEFORE is a folder or a git ref, extracted with ``git archive``),
then compares the games' move sequences and results and prints each tree's wins
and median CPU seconds per decision of the search seat (decisions with a choice). The two trees run one
after the other, ``--rounds`` times alternating, and each median is over every round. ``--play OUT``
(internal): play in this process's tree and write the games to OUT as JSON. Exit status 1 when the
games differ.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# (game, players, options): Rank one hand, and the other games as they come
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("rank", 4, {"tokens_to_win": 1}),
    ("kqp", 6, {"rounds": 1}),
    ("royale", 2, {}),
    ("royals", 4, {}),
]


def play(games: int, iterations: int, only: list[str] | None) -> dict[str, Any]:
    """Every setup's games in this process's tree: per game, the moves, the returns and the search's times."""
    from courtcards.bots.base import bot_move, make_bot
    from courtcards.bots.ismcts import ISMCTSBot
    from courtcards.core.game import get_game

    out: dict[str, Any] = {}
    for name, players, options in SETUPS:
        if only and name not in only:
            continue
        game = get_game(name)
        played = []
        for i in range(games):
            searcher = i % players
            state = game.new_game(players, options, seed=1000 + i)
            bots: list[Any] = [
                ISMCTSBot(seed=7 * i + s, iterations=iterations, seconds=1e9)
                if s == searcher
                else make_bot(name, "greedy", 100 * i + s)
                for s in range(players)
            ]
            times: list[float] = []
            chosen: list[tuple[int, str, int]] = []  # the search's decisions: move number, move, iterations
            while not state.is_over():
                seat = state.to_move()[0]
                if seat == searcher and len(state.legal_actions(seat)) > 1:
                    t = time.thread_time()
                    action = bot_move(bots[seat], state, seat)
                    times.append(time.thread_time() - t)
                    chosen.append((len(state.history), action.text, bots[seat].last_iterations))
                else:
                    action = bot_move(bots[seat], state, seat)
                state.apply(seat, action)
            returns = list(state.returns())
            played.append(
                {
                    "seed": 1000 + i,
                    "search_seat": searcher,
                    "history": [list(h) for h in state.history],
                    "returns": returns,
                    "won": returns[searcher] == max(returns),
                    "decisions": chosen,
                    "times": times,
                }
            )
        out[name] = {"players": players, "options": options, "games": played}
    return out


def run_tree(tree: str, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(Path(tree).resolve())}
    cmd = [
        sys.executable,
        __file__,
        "--play",
        str(out),
        "--games",
        str(args.games),
        "--iterations",
        str(args.iterations),
        *(["--only", *args.only] if args.only else []),
    ]
    subprocess.run(cmd, env=env, check=True)
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--before",
        default="8c7dc90",
        help="the tree before: a folder, or a git ref (default 8c7dc90, main before the search profiles)",
    )
    ap.add_argument("--after", default=".", help="the tree after (default: this one)")
    ap.add_argument("--games", type=int, default=4, help="games per setup (seat-rotated)")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=1, help="runs of each tree, alternating (for the timing)")
    ap.add_argument("--only", nargs="*", help="only these games")
    ap.add_argument("--play", metavar="OUT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.play:
        Path(args.play).write_text(json.dumps(play(args.games, args.iterations, args.only)))
        return
    import tempfile

    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        if not Path(args.before).is_dir():
            import subprocess as sp
            import tarfile
            from io import BytesIO

            root = Path(__file__).resolve().parent.parent
            data = sp.run(["git", "-C", str(root), "archive", args.before], check=True, capture_output=True).stdout
            with tarfile.open(fileobj=BytesIO(data)) as tar:
                tar.extractall(Path(tmp) / "before", filter="tar")
            args.before = str(Path(tmp) / "before")
        for r in range(args.rounds):
            for label in ("before", "after") if r % 2 == 0 else ("after", "before"):
                tree = args.before if label == "before" else args.after
                runs[label].append(run_tree(tree, args, Path(tmp) / f"{label}{r}.json"))
    same = True
    for name in runs["before"][0]:
        results = {label: runs[label][0][name]["games"] for label in runs}
        differ = [
            g["seed"]
            for g, h in zip(results["before"], results["after"], strict=True)
            if (g["history"], g["returns"], g["decisions"]) != (h["history"], h["returns"], h["decisions"])
        ]
        repeat = all(
            run[name]["games"][i]["history"] == runs[label][0][name]["games"][i]["history"]
            for label in runs
            for run in runs[label]
            for i in range(args.games)
        )
        same &= not differ and repeat
        decisions = sum(len(g["decisions"]) for g in results["after"])
        setup = runs["before"][0][name]
        print(
            f"{name} {setup['players']}p {setup['options']}: {args.games} games, {decisions} search decisions, "
            + ("identical moves and results" if not differ else f"DIFFERENT in the games of seeds {differ}")
            + ("" if repeat else " (a tree's runs differ among themselves)")
        )
        for label in runs:
            games = results[label]
            wins = [g["seed"] for g in games if g["won"]]
            times = [t for run in runs[label] for g in run[name]["games"] for t in g["times"]]
            print(
                f"  {label:6}: search won {len(wins)}/{len(games)} (seeds {wins}); "
                f"median {statistics.median(times) * 1000:.1f} ms CPU a decision over {len(times)}"
            )
    print("SAME moves and results in every game" if same else "the trees DIFFER")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
