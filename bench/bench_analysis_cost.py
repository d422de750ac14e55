"""What ``analyze`` costs against ``simulate`` for the same games, in instructions (callgrind).

    python bench/bench_analysis_cost.py                 # pure build, every built-in game
    python bench/bench_analysis_cost.py --compiled      # the pure and the mypyc-compiled builds
    python bench/bench_analysis_cost.py --before 69f8ddc   # and analyze as a revision did it (replay)

Wall-clock rates on a shared machine swing with its load (bench/bench_analysis.py measures them);
instruction counts do not. For each game, the same seeded games of a run are played three ways under
``valgrind --tool=callgrind`` with address-space randomization off: not at all (start-up and imports),
as ``simulate`` plays them (``courtcards.sim.play_game``) and as ``analyze`` plays and observes them
(``courtcards.analysis.observe_live``); the counts less the first give each command's cost, and their
ratio is analyze's cost against simulate's (the target: at most 1.2). With ``--compiled`` the same is
counted on the compiled build of this tree (bench/compiled_tree.py builds it), which also gives how
much faster each command is compiled. ``--before REV`` also counts a revision checked out with ``git
worktree``, whose analyze is taken as play then ``observe(state.record(), kinds)`` (before
``observe_live``, analyze replayed each finished game). Needs valgrind and setarch.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_instructions import callgrind, check_tools  # noqa: E402 (the bench folder, put on the path above)

GAMES = ("rank:greedy:12", "kqp:greedy:3", "royale:mixed:60", "royals:greedy:12")  # game:bots:games

RUN = """
import sys
from courtcards.analysis import build_specs
from courtcards.analysis.observe import observe
from courtcards.sim import play_game
game, bots, games, how = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
spec = build_specs(game, [bots], None, {}, None, [])[0]
for i in range(games):
    if how == "simulate":
        play_game(spec.game, spec.bots, i, 0)
    elif how == "analyze":
        from courtcards.analysis.observe import observe_live
        from courtcards.sim import play_steps
        observe_live(*play_steps(spec.game, spec.bots, i, 0))
    elif how == "replay":
        state, kinds = play_game(spec.game, spec.bots, i, 0)
        observe(state.record(), kinds)
"""


def count(tree: Path, spec: str, how: str) -> int:
    game, bots, games = spec.split(":")
    return callgrind(tree, RUN, game, bots, games, how)[1]


def costs(tree: Path, spec: str, how: str = "analyze") -> tuple[int, int]:
    """(simulate, analyze) instructions of ``spec``'s games, start-up taken out (analyze done ``how``)."""
    idle = count(tree, spec, "none")
    return count(tree, spec, "simulate") - idle, count(tree, spec, how) - idle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", help="game:bots:games (default: every built-in game)")
    ap.add_argument("--compiled", action="store_true", help="also the compiled build of this tree")
    ap.add_argument("--before", help="also a git revision, its analyze taken as play then replay")
    args = ap.parse_args()
    check_tools()
    trees = {"pure": ROOT}
    if args.compiled:
        from compiled_tree import compiled_tree

        trees["compiled"] = compiled_tree()
    with tempfile.TemporaryDirectory() as tmp:
        if args.before:
            before = Path(tmp) / "before"
            subprocess.run(["git", "worktree", "add", "-q", "--detach", str(before), args.before], cwd=ROOT, check=True)
        try:
            print("| game:bots:games | build | simulate (M instr.) | analyze (M instr.) | analyze / simulate |")
            print("| --- | --- | ---: | ---: | ---: |")
            for spec in args.game or GAMES:
                rows = [(build, tree, "analyze") for build, tree in trees.items()]
                if args.before:
                    rows.append((f"pure, {args.before}", before, "replay"))
                for build, tree, how in rows:
                    sim, ana = costs(tree, spec, how)
                    print(f"| {spec} | {build} | {sim / 1e6:,.0f} | {ana / 1e6:,.0f} | {ana / sim:.3f} |", flush=True)
        finally:
            if args.before:
                subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
