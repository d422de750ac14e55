"""Instructions per action of random playouts, counted by callgrind, this tree against a baseline.

    python bench/bench_instructions.py --baseline 8c7dc90 --repeats 3

Wall-clock figures on a shared machine swing with its load; instruction counts do not. Each
count runs the same seeded random playouts (``to_move``, ``legal_actions``, ``apply`` of a
uniformly chosen legal action, new games included) under ``valgrind --tool=callgrind`` with
address-space randomization off (``setarch -R``), once over the games and once over none, and
divides the difference by the actions, so that start-up and imports cancel. The games are many
enough that the playouts dominate the count. The baseline is checked out with ``git worktree``
into a temporary folder. Prints the median of ``--repeats`` counts per game and tree and the
ratio. Needs valgrind and setarch. ``--compiled`` counts the mypyc-compiled builds of both trees
instead (bench/compiled_tree.py builds and caches them, about 3 minutes of CPU each).

    python bench/bench_instructions.py --baseline 8c7dc90 --compiled
    python bench/bench_instructions.py --baseline 53147c8 --compiled --whole --game royals:4:300

``--whole`` counts whole playouts (one ``State.play_random`` a game) instead of one call an action.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("kqp:6:20", "rank:4:20", "royale:2:400", "royals:4:30")  # name:players:games

# the step loop, or with "whole" one State.play_random per game (the generator seeded by the game)
PLAYOUTS = """
import random, sys
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
name, players, games, passes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
whole = sys.argv[5] == "whole"
game = get_game(name)
n = 0
for _ in range(passes):
    for g in range(games):
        state = game.new_game(players, seed=g)
        if whole:
            n += state.play_random(Rng(g))
            continue
        pick = random.Random(g)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.randrange(len(legal))])
            n += 1
print("actions", n)
"""


def callgrind(tree: Path, code: str, *args: str) -> tuple[str, int]:
    """The output of ``python -c code args`` run under callgrind with ``tree`` on the path (address-space
    randomization off, hash seed fixed), and the instructions it collected."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    command = ["setarch", "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    out = subprocess.run(
        [*command, sys.executable, "-c", code, *args],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
        check=True,
    )
    text = out.stdout + out.stderr
    return text, int(next(line for line in text.splitlines() if "Collected" in line).split()[-1])


def check_tools() -> None:
    for tool in ("valgrind", "setarch"):
        if shutil.which(tool) is None:
            sys.exit(f"Error: {tool} is not installed (Debian: apt install valgrind util-linux)")


def count(tree: Path, spec: str, passes: int, whole: bool = False) -> tuple[int, int]:
    """(instructions, actions) of ``passes`` passes (1 or 0) over the games of ``spec``."""
    name, players, games = spec.split(":")
    text, collected = callgrind(tree, PLAYOUTS, name, players, games, str(passes), "whole" if whole else "step")
    actions = int(next(line for line in text.splitlines() if line.startswith("actions")).split()[-1])
    return collected, actions


def per_action(tree: Path, spec: str, whole: bool = False) -> int:
    (played, actions), (idle, _) = count(tree, spec, 1, whole), count(tree, spec, 0, whole)
    return (played - idle) // actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="8c7dc90", help="a git revision to compare against")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--game", action="append", help="name:players:games (default: every built-in game)")
    ap.add_argument("--compiled", action="store_true", help="the compiled builds of both trees, not the sources")
    ap.add_argument("--whole", action="store_true", help="whole playouts (State.play_random), not one call an action")
    args = ap.parse_args()
    check_tools()
    specs = args.game or list(GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.baseline], cwd=ROOT, check=True)
        checkout = base
        try:
            here = ROOT
            if args.compiled:
                sys.path.insert(0, str(ROOT / "bench"))
                from compiled_tree import compiled_tree

                base, here = compiled_tree(base, "baseline"), compiled_tree()
            build = "compiled" if args.compiled else "pure"
            print(f"{'game (' + build + ')':16} {args.baseline:>12} {'this tree':>12} {'ratio':>7}")
            for spec in specs:
                b = statistics.median(per_action(base, spec, args.whole) for _ in range(args.repeats))
                t = statistics.median(per_action(here, spec, args.whole) for _ in range(args.repeats))
                print(f"{spec:16} {b:12,.0f} {t:12,.0f} {t / b:7.3f}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(checkout)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
