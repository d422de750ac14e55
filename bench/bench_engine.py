"""Engine speed against a baseline commit, in one run.

Random playouts (``to_move``, ``legal_actions``, ``apply`` of a uniformly chosen
legal action, as any agent does) measured in actions per CPU second for each game,
alternating between this tree and a baseline (by default the commit before the
engine work, ``8d48620``, extracted with ``git archive`` into a temporary folder),
each in its own process. This tree runs twice: pure Python, and compiled with
mypyc (setup.py; the copy is built by ``bench/compiled_tree.py``, cached); with
``--compiled-baseline`` the baseline is compiled the same way too, and each build
of this tree is compared with the same build of the baseline. Then
per-operation times (``copy``, ``view``, ``legal_action_mask``,
``observation_tensor``, ``sample_world``) on positions taken along random games.
Each worker plays a few untimed games first (module caches warm). Prints the
machine, its load, medians and ratios.

    python bench/bench_engine.py                       # every game, 5 rounds
    python bench/bench_engine.py --game rank --rounds 7
    python bench/bench_engine.py --ops-only            # per-operation figures only
    python bench/bench_engine.py --no-compiled         # pure Python only (no C compiler needed)
    python bench/bench_engine.py --compiled-baseline   # compiled against compiled, pure against pure
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"rank": 4, "kqp": 6, "royale": 2, "royals": 4}
GAMES_PER_RUN = {"rank": 40, "kqp": 20, "royale": 300, "royals": 40}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def playouts(game: str, players: int, games: int, seed: int) -> dict[str, float]:
    """Random playouts in this process; actions and CPU seconds."""
    from courtcards.core.game import get_game
    from courtcards.core.rng import Rng

    g = get_game(game)
    for i in range(3):  # untimed: lazily built tables of both trees filled first
        state = g.new_game(players, {}, seed=seed - 1 - i)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, state.legal_actions(seat)[0])
    pick = Rng(seed ^ 0x5EED)
    actions = 0
    start = time.process_time()
    for i in range(games):
        state = g.new_game(players, {}, seed=seed + i)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[pick.below(len(legal))])
            actions += 1
    return {"actions": actions, "cpu": time.process_time() - start}


def positions(game: str, players: int, count: int, seed: int) -> list[object]:
    from courtcards.core.game import get_game
    from courtcards.core.rng import Rng

    g = get_game(game)
    rng = Rng(seed)
    out: list[object] = []
    while len(out) < count:
        state = g.new_game(players, {}, seed=rng.next64() % 10**9)
        stop = 1 + rng.below(60)
        for _ in range(stop):
            if state.is_over():
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
        if not state.is_over():
            out.append(state)
    return out


def per_call(fn: object, items: list[object], repeat: int = 5) -> float:
    """Median over ``repeat`` passes of the mean CPU µs per call over ``items``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)  # type: ignore[operator]
        times.append((time.process_time() - start) / len(items) * 1e6)
    return statistics.median(times)


def ops(game: str, players: int, new_api: bool) -> dict[str, float]:
    from courtcards.core.game import get_game

    g = get_game(game)
    states = positions(game, players, 200, seed=7)
    out = {
        "copy": per_call(lambda s: s.copy(), states),
        "view": per_call(lambda s: s.view(s.to_move()[0]), states),
    }
    if new_api:
        out["legal_action_mask"] = per_call(lambda s: s.legal_action_mask(s.to_move()[0]), states)
        out["observation_tensor"] = per_call(lambda s: s.observation_tensor(s.to_move()[0]), states)
        views = [s.view(s.to_move()[0]) for s in states]  # type: ignore[attr-defined]
        out["sample_world"] = per_call(lambda v: g.sample_world(v, 1), views)
    return out


def worker(args: argparse.Namespace) -> None:
    game = args.game[0]
    if args.ops:
        print(json.dumps(ops(game, args.players, args.new_api)))
    else:
        print(json.dumps(playouts(game, args.players, args.games, args.seed)))


def extract(ref: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="courtcards-baseline-"))
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(folder, filter="tar")  # our own commit; it holds a relative symlink
    return folder


def run(tree: Path, *extra: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", *extra],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=sorted(GAMES), action="append", help="repeatable; default every game")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs of baseline and this tree")
    ap.add_argument("--baseline", default="8d48620", help="git ref to compare against")
    ap.add_argument("--ops-only", action="store_true")
    ap.add_argument("--no-compiled", action="store_true", help="skip the mypyc-compiled build of this tree")
    ap.add_argument(
        "--compiled-baseline", action="store_true", help="also compile the baseline and compare compiled with compiled"
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ops", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--new-api", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--players", type=int, default=4, help=argparse.SUPPRESS)
    ap.add_argument("--games", type=int, default=40, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return

    games = args.game or sorted(GAMES)
    load = os.getloadavg()
    print(f"machine: {platform.platform()}; CPU: {cpu_model()} x{os.cpu_count()}; Python {platform.python_version()}")
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; baseline {args.baseline}")
    base = extract(args.baseline)
    from compiled_tree import compiled_tree  # bench/, this script's folder
    from compiled_tree import trees as builds

    trees = builds(compiled=not args.no_compiled)
    bases = {k: base for k in trees}
    if args.compiled_baseline and "compiled" in trees:
        bases["compiled"] = compiled_tree(base, "baseline")
    try:
        compare(args, games, bases, trees)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    load = os.getloadavg()
    print(f"\nload average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def compare(args: argparse.Namespace, games: list[str], bases: dict[str, Path], trees: dict[str, Path]) -> None:
    """``bases[k]``: the baseline build that build ``k`` of this tree is compared with."""
    runs: list[tuple[str, Path]] = []  # each distinct tree once per round, baselines first
    for k in trees:
        name = "baseline" if bases[k] == bases["pure"] else f"baseline {k}"
        if (name, bases[k]) not in runs:
            runs.append((name, bases[k]))
    base_of = {k: "baseline" if bases[k] == bases["pure"] else f"baseline {k}" for k in trees}
    runs += list(trees.items())
    if not args.ops_only:
        print("\nRandom playouts, actions per CPU second (median of alternating runs, each in its own process)")
        print(
            f"{'game':8} {'players':>7}"
            + "".join(f" {name:>17}" for name, _ in runs)
            + "".join(f" {k + '/base':>14}" for k in trees)
        )
        for game in games:
            n = GAMES[game]
            rates: dict[str, list[float]] = {name: [] for name, _ in runs}
            for r in range(args.rounds):
                common = [
                    "--game",
                    game,
                    "--players",
                    str(n),
                    "--games",
                    str(GAMES_PER_RUN[game]),
                    "--seed",
                    str(100 + r * 1000),
                ]
                for name, tree in runs:
                    out = run(tree, *common)
                    rates[name].append(out["actions"] / out["cpu"])
            med = {k: statistics.median(v) for k, v in rates.items()}
            print(
                f"{game:8} {n:>7}"
                + "".join(f" {med[name]:>17,.0f}" for name, _ in runs)
                + "".join(f" {med[k] / med[base_of[k]]:>13.3f}x" for k in trees)
            )
            for name, _ in runs:
                print(f"{'':16} {name:>17}: " + " ".join(f"{v:,.0f}" for v in rates[name]))

    print("\nPer operation, CPU µs per call (median of 5 passes over 200 positions from random games)")
    print(f"{'game':8} {'operation':20}" + "".join(f" {name:>17}" for name, _ in runs))
    for game in games:
        n = GAMES[game]
        got = {name: run(tree, "--ops", "--new-api", "--game", game, "--players", str(n)) for name, tree in runs}
        for op in got["pure"]:
            print(
                f"{game:8} {op:20}"
                + "".join(f" {got[name][op]:17.1f}" if op in got[name] else f" {'-':>17}" for name, _ in runs)
            )


if __name__ == "__main__":
    main()
