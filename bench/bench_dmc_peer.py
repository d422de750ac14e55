"""Self-play decisions per second with the network in the loop: ``courtcards train``'s batched actor
against RLCard's DMC actor on Dou Dizhu, alternating in one run.

courtcards: :class:`courtcards.nn.SelfPlay` stepping ``--batch-games`` games together with the NumPy
network (:class:`courtcards.nn.Network`), exactly as an actor process of ``courtcards train --actors N``
plays (``courtcards.nn.actor_main``; the single process of ``--actors 0`` runs the same ``SelfPlay.step``
with the PyTorch copy of the network): the defaults of ``courtcards train`` (``--hidden 256,256``,
``--batch-games 32``, ``--epsilon 0.1``), weights drawn as PyTorch initialises ``nn.Linear`` (an untrained
network; the games are as long as an early training run's), each game at its default table size and
options. A decision is one row of the batched network call: one seat choosing one id (a composite choice
of several ids is several decisions). No learning step is taken, and finished games' samples are
dropped as soon as a step has appended them, as a learner would take them (an actor process also stacks
them into its message to the learner, not done here): pure actor throughput.

RLCard (version installed by ``--install``): ``rlcard.make("doudizhu")`` and RLCard's own DMC actor,
``rlcard.agents.dmc_agent.utils.act``, called as ``DMCTrainer.start`` calls it in each actor process
(``DMCModel`` with the trainer's defaults: 5 layers of 512, ``exp_epsilon=0.01``, shared-memory
buffers from ``create_buffers`` with ``unroll_length=100`` and ``num_buffers=50``, free and full
queues from the "spawn" context), on the CPU. Here ``act`` runs in a thread of the measuring process
rather than in a process of its own, and a second thread hands each filled buffer straight back to
the free queue (the learner's ``get_batch`` without the learning), so the actor never waits for room.
A decision is one call of ``DMCAgent.step`` (counted by wrapping it): one seat choosing one Dou Dizhu
play, valued by one forward pass over its legal plays (RLCard's network takes the play's features as
input, DouZero's Q(observation, action)).

Both sides run in their own process with one thread: ``torch.set_num_threads(1)`` for RLCard, and
``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and ``MKL_NUM_THREADS`` set to 1 for both (courtcards'
actors run NumPy so too). Each measures ``--seconds`` after ``--warmup`` seconds, in decisions per wall
second and per CPU second of its process. The sides alternate ``--rounds`` times (each round: every
courtcards game, then RLCard); the medians and the ratios to RLCard (the median of each round's ratio
to RLCard's run in that round, so that both sides of a ratio saw about the same load) are printed as a
markdown table, with the machine, the load average before each round and the command. ``--peer-layers``
runs RLCard's actor with other hidden layers as well (``256,256``: courtcards' size), each with its
column of ratios; ``--torch`` runs courtcards with the PyTorch copy of its network too
(``courtcards.train.QNet``, called as ``Trainer._values`` calls it). The last column is the share of the
wall time in the network: courtcards' forward pass (the rest is the engine: observation tensors, masks,
applying ids, dealing), RLCard's ``DMCAgent.predict`` (the play features and the forward pass; the rest
is its Dou Dizhu env and ``act``'s buffers). ``--profile`` runs courtcards' half under cProfile instead.

RLCard is not a dependency of courtcards: ``--install`` creates a virtual environment for it (default
``bench/.venv-rlcard``) and installs ``torch==2.13.0`` first (from pip's configured wheels, the CPU
build this machine has, as ``.ci/run`` installs it), then ``rlcard[torch]`` (its DMC agent imports
GitPython).

    python bench/bench_dmc_peer.py --install        # once
    python bench/bench_dmc_peer.py --seconds 20 --rounds 3
    python bench/bench_dmc_peer.py --games rank:4 royale --seconds 10 --rounds 1
    python bench/bench_dmc_peer.py --profile --games kqp --seconds 10   # where courtcards' time goes
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import os
import platform
import pstats
import shlex
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # courtcards: this tree
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import cpu_model

ROOT = Path(__file__).resolve().parent.parent
RLCARD_LAYERS = "512,512,512,512,512"  # DMCModel's default, which DMCTrainer uses
THREADS = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

PEER = r"""
import json, os, sys, threading, time
import numpy as np
import torch
torch.set_num_threads(1)
import rlcard
from rlcard.agents.dmc_agent import model as dmc_model, utils as dmc_utils
from torch import multiprocessing as mp

seconds, warmup, seed = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
layers = [int(w) for w in sys.argv[4].split(",")]  # DMCTrainer's: 512,512,512,512,512 (DMCModel's default)
T, NUM_BUFFERS = 100, 50  # DMCTrainer's defaults (unroll_length, num_buffers)
np.random.seed(seed)
torch.manual_seed(seed)
env = rlcard.make("doudizhu")
action_shape = env.action_shape
if action_shape[0] is None:  # as DMCTrainer does for games without action features
    action_shape = [[env.num_actions] for _ in range(env.num_players)]
decisions = [0, 0.0]  # DMCAgent.step calls, seconds in DMCAgent.predict (features and forward pass)
step, predict = dmc_model.DMCAgent.step, dmc_model.DMCAgent.predict
def counted(self, state):
    decisions[0] += 1
    return step(self, state)
def timed(self, state):
    start = time.perf_counter()
    try:
        return predict(self, state)
    finally:
        decisions[1] += time.perf_counter() - start
dmc_model.DMCAgent.step, dmc_model.DMCAgent.predict = counted, timed
model = dmc_model.DMCModel(env.state_shape, action_shape, layers, exp_epsilon=0.01, device="cpu")
model.share_memory()
model.eval()
buffers = dmc_utils.create_buffers(T, NUM_BUFFERS, env.state_shape, action_shape, ["cpu"])["cpu"]
ctx = mp.get_context("spawn")
free_queue = [ctx.SimpleQueue() for _ in range(env.num_players)]
full_queue = [ctx.SimpleQueue() for _ in range(env.num_players)]
for p in range(env.num_players):
    for m in range(NUM_BUFFERS):
        free_queue[p].put(m)
def recycle(p):  # the learner's get_batch, without the learning
    while True:
        free_queue[p].put(full_queue[p].get())
for p in range(env.num_players):
    threading.Thread(target=recycle, args=(p,), daemon=True).start()
actor = threading.Thread(
    target=dmc_utils.act, args=(seed, "cpu", T, free_queue, full_queue, model, buffers, env), daemon=True
)
actor.start()
time.sleep(warmup)
d0, f0, c0, w0 = *decisions, time.process_time(), time.perf_counter()
time.sleep(seconds)
d1, f1, c1, w1 = *decisions, time.process_time(), time.perf_counter()
alive = actor.is_alive()
print(json.dumps({"decisions": d1 - d0, "wall": w1 - w0, "cpu": c1 - c0, "forward": f1 - f0, "alive": alive,
                  "rlcard": __import__("importlib.metadata").metadata.version("rlcard"),
                  "torch": torch.__version__}), flush=True)
os._exit(0 if alive else 1)
"""


def courtcards_worker(
    game_name: str,
    players: int,
    seconds: float,
    warmup: float,
    batch_games: int,
    hidden: list[int],
    seed: int,
    backend: str = "numpy",
) -> dict[str, Any]:
    """Batched self-play (``SelfPlay.step``) for ``warmup`` + ``seconds`` seconds, with the NumPy network
    (``backend="numpy"``, an actor process's) or the same weights in ``courtcards.train.QNet`` (``"torch"``,
    one thread, as the single process of ``courtcards train --actors 0`` calls it): the decisions, wall and
    CPU seconds and forward-pass seconds of the last ``seconds``."""
    import numpy as np

    from courtcards.core.game import get_game
    from courtcards.nn import Network, SelfPlay

    game = get_game(game_name)
    options = game.resolve_options(players, {})
    inputs = int(np.prod(game.observation_shape(players, options)))
    sizes = [inputs, *hidden, game.num_distinct_actions(players, options)]
    init = np.random.default_rng(seed)
    layers = []
    for a, b in itertools.pairwise(sizes):  # PyTorch's nn.Linear initialisation
        bound = 1 / np.sqrt(a)
        layers.append(
            (
                init.uniform(-bound, bound, (a, b)).astype(np.float32),
                init.uniform(-bound, bound, b).astype(np.float32),
            )
        )
    forward = Network({}, layers).forward
    if backend == "torch":
        import torch

        from courtcards.train import QNet

        torch.set_num_threads(1)
        qnet = QNet(inputs, hidden, sizes[-1])
        with torch.no_grad():
            for layer, (weight, bias) in zip(qnet.layers, layers, strict=True):
                assert isinstance(layer, torch.nn.Linear)
                layer.weight.copy_(torch.from_numpy(weight.T))
                layer.bias.copy_(torch.from_numpy(bias))

        @torch.no_grad()
        def forward(obs: Any) -> Any:  # Trainer._values
            return qnet(torch.from_numpy(obs)).float().cpu().numpy()

    counts = [0, 0.0]  # decisions, seconds in the forward pass

    def values(obs: Any) -> Any:
        start = time.perf_counter()
        out = forward(obs)
        counts[1] += time.perf_counter() - start
        counts[0] += len(obs)
        return out

    play = SelfPlay(game, players, options, values, np.random.default_rng(seed), seed, epsilon=0.1)
    games, trajectories = play.start(batch_games)

    def run(until: float) -> None:
        while time.perf_counter() < until:
            play.step(games, trajectories)
            play.obs, play.ids, play.ret, play.seats = [], [], [], []  # taken by the learner

    run(time.perf_counter() + warmup)
    d0, f0, c0, w0 = counts[0], counts[1], time.process_time(), time.perf_counter()
    run(w0 + seconds)
    d1, f1, c1, w1 = counts[0], counts[1], time.process_time(), time.perf_counter()
    return {"decisions": d1 - d0, "wall": w1 - w0, "cpu": c1 - c0, "forward": f1 - f0, "games_dealt": play.next_deal}


def parse_games(specs: list[str] | None) -> list[tuple[str, int]]:
    """``GAME`` or ``GAME:PLAYERS`` (default: every registered game at its default table size)."""
    from courtcards.core.game import get_game, registered_games

    if not specs:
        return [(g.name, g.default_players) for g in registered_games()]
    out = []
    for spec in specs:
        name, _, n = spec.partition(":")
        game = get_game(name)
        out.append((game.name, int(n) if n else game.default_players))
    return out


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--venv", type=Path, default=ROOT / "bench" / ".venv-rlcard", help="RLCard's environment")
    ap.add_argument("--install", action="store_true", help="create the environment, install RLCard there and stop")
    ap.add_argument("--games", nargs="+", help="GAME or GAME:PLAYERS (default: every registered game)")
    ap.add_argument("--seconds", type=float, default=20.0, help="measured seconds per side and round")
    ap.add_argument("--warmup", type=float, default=3.0, help="seconds left out at the start of each")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-games", type=int, default=32, help="courtcards' games stepped together")
    ap.add_argument("--hidden", default="256,256", help="courtcards' hidden layer widths")
    ap.add_argument(
        "--torch", action="store_true", help="courtcards also with the PyTorch network (train's --actors 0 process)"
    )
    ap.add_argument(
        "--peer-layers",
        nargs="+",
        default=[RLCARD_LAYERS],
        help=f"RLCard's hidden layers, one run each (default: its DMC trainer's {RLCARD_LAYERS})",
    )
    ap.add_argument("--no-peer", action="store_true", help="courtcards only (no RLCard environment needed)")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="courtcards' half only, under cProfile: where a self-play step's time goes (top 25 by cumulative time)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)  # GAME:PLAYERS, one courtcards measurement
    ap.add_argument("--backend", default="numpy", choices=["numpy", "torch"], help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    hidden = [int(w) for w in args.hidden.split(",") if w.strip()]
    if args.worker:
        name, _, n = args.worker.partition(":")
        call = (name, int(n), args.seconds, args.warmup, args.batch_games, hidden, args.seed, args.backend)
        if args.profile:
            profile = cProfile.Profile()
            x = profile.runcall(courtcards_worker, *call)
            print(f"{name} {n}p ({args.backend}): {x['decisions'] / x['wall']:,.0f} decisions/s under the profiler")
            pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(25)
        else:
            print(json.dumps(courtcards_worker(*call)))
        return
    python = args.venv / "bin" / "python"
    if args.install:
        venv.create(args.venv, with_pip=True)
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, "torch==2.13.0"], check=True)  # the CPU build in pip's wheels, before rlcard
        subprocess.run([*pip, "rlcard[torch]"], check=True)
        print(f"RLCard installed in {args.venv}; now run the bench without --install")
        return
    if not args.no_peer and not args.profile and not python.exists():
        sys.exit(f"no RLCard environment at {args.venv}: run with --install first (or --no-peer)")

    games = parse_games(args.games)
    backends = ["numpy", "torch"] if args.torch else ["numpy"]
    env = dict(os.environ, **THREADS)
    if args.profile:
        for (name, n), backend in itertools.product(games, backends):
            subprocess.run(
                [
                    *(sys.executable, __file__, "--worker", f"{name}:{n}", "--seconds", str(args.seconds)),
                    *("--warmup", str(args.warmup), "--batch-games", str(args.batch_games), "--hidden", args.hidden),
                    *("--seed", str(args.seed), "--backend", backend, "--profile"),
                ],
                check=True,
                env=env,
            )
        return
    print(f"command: python {shlex.join(['bench/bench_dmc_peer.py', *sys.argv[1:]])}")
    print(
        f"machine: {platform.machine()} {cpu_model()}, {os.cpu_count()} cores, {platform.platform()}; "
        f"Python {platform.python_version()}"
    )
    ours: dict[tuple[str, int, str], list[dict[str, Any]]] = {(g, n, b): [] for g, n in games for b in backends}
    theirs: dict[str, list[dict[str, Any]]] = {} if args.no_peer else {layers: [] for layers in args.peer_layers}
    for r in range(args.rounds):
        seed = args.seed + r
        print(f"round {r + 1}: load average before {load()}", flush=True)
        for name, n, backend in ours:
            a = subprocess.run(
                [
                    *(sys.executable, __file__, "--worker", f"{name}:{n}", "--seconds", str(args.seconds)),
                    *("--warmup", str(args.warmup), "--batch-games", str(args.batch_games), "--hidden", args.hidden),
                    *("--seed", str(seed), "--backend", backend),
                ],
                check=True,
                capture_output=True,
                text=True,
                env=env,
            )
            x = json.loads(a.stdout)
            ours[(name, n, backend)].append(x)
            print(
                f"  courtcards {name} {n}p ({backend}): {x['decisions'] / x['wall']:,.0f} decisions/s wall, "
                f"{x['decisions'] / x['cpu']:,.0f} per CPU s, forward pass {x['forward'] / x['wall']:.0%}",
                flush=True,
            )
        for layers, peer_runs in theirs.items():
            b = subprocess.run(
                [str(python), "-c", PEER, str(args.seconds), str(args.warmup), str(seed), layers],
                capture_output=True,
                text=True,
                env=env,
            )
            if b.returncode:
                sys.exit(f"the RLCard run failed:\n{b.stdout}\n{b.stderr}")
            y = json.loads(b.stdout.strip().splitlines()[-1])
            peer_runs.append(y)
            print(
                f"  RLCard {y['rlcard']} DMC actor, Dou Dizhu, layers {layers} (torch {y['torch']}): "
                f"{y['decisions'] / y['wall']:,.0f} decisions/s wall, {y['decisions'] / y['cpu']:,.0f} per CPU s, "
                f"DMCAgent.predict {y['forward'] / y['wall']:.0%}",
                flush=True,
            )
    print(f"load average at end {load()}")

    def med(runs: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(x["decisions"] / x[key] for x in runs))

    def ratio(runs: list[dict[str, Any]], key: str, ref: list[dict[str, Any]] | None = None) -> str:
        """The median over rounds of each round's ratio to RLCard's run of that round (same load)."""
        ref = next(iter(theirs.values()), []) if ref is None else ref
        if not ref:
            return "-"
        each = [x["decisions"] / x[key] / (y["decisions"] / y[key]) for x, y in zip(runs, ref, strict=True)]
        return f"{statistics.median(each):.2f}x"

    def shape(layers: str) -> str:
        widths = layers.split(",")
        return f"{len(widths)}x{widths[0]}" if len(set(widths)) == 1 else "x".join(widths)

    def share(runs: list[dict[str, Any]]) -> str:
        return f"{statistics.median(x['forward'] / x['wall'] for x in runs):.0%}"

    print()
    print(
        f"Medians of {args.rounds} rounds of {args.seconds:g} s each, one thread per side; courtcards: "
        f"--hidden {args.hidden}, --batch-games {args.batch_games}. The ratios are medians of each round's "
        "ratio to RLCard's run in that round (with its own DMC layers)."
    )
    print()
    print("| actor | network | decisions/s (wall) | decisions/CPU s | vs RLCard (wall) | vs RLCard (CPU) |", end="")
    print(" network's share |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = [
        (
            f"RLCard {runs[0]['rlcard']} DMC actor, Dou Dizhu 3p",
            f"PyTorch {shape(layers)}, obs + play features -> 1",
            runs,
        )
        for layers, runs in theirs.items()
    ] + [
        (
            f"courtcards {name} {n}p",
            f"{'NumPy' if backend == 'numpy' else 'PyTorch'} {shape(args.hidden)}, obs -> ids",
            runs,
        )
        for (name, n, backend), runs in ours.items()
    ]
    for actor, net, runs in rows:
        w, c = med(runs, "wall"), med(runs, "cpu")
        print(
            f"| {actor} | {net} | {w:,.0f} | {c:,.0f} | {ratio(runs, 'wall')} | {ratio(runs, 'cpu')} | {share(runs)} |"
        )
    if len(theirs) > 1:  # the same network size on both sides, and the like
        print()
        print("Decisions per CPU second against each RLCard configuration (medians of the rounds' ratios):")
        print()
        print("| actor | " + " | ".join(f"vs RLCard {shape(layers)}" for layers in theirs) + " |")
        print("| --- |" + " --- |" * len(theirs))
        for actor, net, runs in rows[len(theirs) :]:
            cells = " | ".join(ratio(runs, "cpu", ref) for ref in theirs.values())
            print(f"| {actor}, {net} | {cells} |")


if __name__ == "__main__":
    main()
