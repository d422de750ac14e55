"""Rank 4p random playouts against OpenSpiel's C++ Dou Dizhu driven from a Python
loop, in actions per CPU second, alternating in one run.

OpenSpiel is not a dependency of courtcards: ``--install`` creates a virtual
environment for it (default ``bench/.venv-peers``) and installs ``open_spiel``
there; the peer runs in that environment, courtcards in this one. Only player
actions are counted: Dou Dizhu's deal is chance nodes (resolved by the same loop,
uniformly, not counted), Rank deals inside ``apply``. Rank runs twice: pure
Python, and compiled with mypyc (setup.py; ``bench/compiled_tree.py`` builds
the copy), each in its own process.

    python bench/bench_peers.py --install          # once
    python bench/bench_peers.py --rounds 7
    python bench/bench_peers.py --no-compiled      # pure Python only
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PEER = r"""
import json, random, sys, time
import pyspiel
games, seed = int(sys.argv[1]), int(sys.argv[2])
game = pyspiel.load_game("dou_dizhu")
rng = random.Random(seed)
actions = 0
start = time.process_time()
for _ in range(games):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
print(json.dumps({"actions": actions, "cpu": time.process_time() - start}))
"""


def rank_worker(games: int, seed: int) -> dict[str, float]:
    sys.path.insert(0, str(ROOT / "bench"))  # courtcards itself comes from PYTHONPATH (the tree measured)
    from bench_engine import playouts

    return playouts("rank", 4, games, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--venv", type=Path, default=ROOT / "bench" / ".venv-peers", help="OpenSpiel's environment")
    ap.add_argument("--install", action="store_true", help="create the environment and install open_spiel")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rank-games", type=int, default=40)
    ap.add_argument("--peer-games", type=int, default=400)
    ap.add_argument("--no-compiled", action="store_true", help="skip the mypyc-compiled build")
    ap.add_argument("--rank-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rank_worker:
        print(json.dumps(rank_worker(args.rank_games, args.seed)))
        return
    python = args.venv / "bin" / "python"
    if args.install:
        venv.create(args.venv, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "open_spiel"], check=True)
    if not python.exists():
        sys.exit(f"no OpenSpiel environment at {args.venv}: run with --install first")

    load = os.getloadavg()
    print(
        f"machine: {platform.platform()}; Python {platform.python_version()}; "
        f"load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    from compiled_tree import trees as builds  # bench/, this script's folder

    trees = builds(compiled=not args.no_compiled)
    ours: dict[str, list[float]] = {k: [] for k in trees}
    theirs: list[float] = []
    for r in range(args.rounds):
        seed = 1 + r * 10_000
        for name, tree in trees.items():
            a = subprocess.run(
                [sys.executable, __file__, "--rank-worker", "--rank-games", str(args.rank_games), "--seed", str(seed)],
                check=True,
                capture_output=True,
                text=True,
                cwd=tree,
                env=dict(os.environ, PYTHONPATH=str(tree)),
            )
            x = json.loads(a.stdout)
            ours[name].append(x["actions"] / x["cpu"])
        b = subprocess.run(
            [str(python), "-c", PEER, str(args.peer_games), str(seed)], check=True, capture_output=True, text=True
        )
        y = json.loads(b.stdout)
        theirs.append(y["actions"] / y["cpu"])
        print(
            f"  round {r + 1}: "
            + ", ".join(f"Rank 4p {k} {v[-1]:,.0f}/s" for k, v in ours.items())
            + f", OpenSpiel Dou Dizhu {theirs[-1]:,.0f}/s"
        )
    mt = statistics.median(theirs)
    print(
        f"median actions per CPU second: OpenSpiel C++ Dou Dizhu via Python {mt:,.0f}; "
        + "; ".join(
            f"Rank 4p {k} {statistics.median(v):,.0f}, ratio {statistics.median(v) / mt:.2f}" for k, v in ours.items()
        )
    )
    load = os.getloadavg()
    print(f"load average at end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
