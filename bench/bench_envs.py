"""Env steps per CPU second through the PettingZoo AEC API, in one run, rounds alternating.

What each env computes per step:

- Rank 4p through ``courtcards.envs.pettingzoo.env`` (unwrapped, as ``env()`` returns it): ``last()``
  builds the acting agent's observation, a fresh float32 tensor (193 values, from the game's
  ``observation.state_tensor``, equal to the view-based tensor) and a fresh int8 mask over 1,679 ids;
  ``step()`` checks the id and applies it;
- PettingZoo's own classic card env (``texas_holdem_v4``, limit hold'em on RLCard; ``--classic``),
  with the wrappers its ``env()`` puts on (illegal-move termination, bounds check, order enforcing):
  observation and mask of the acting agent in ``last()``;
- OpenSpiel's C++ Dou Dizhu through Shimmy's ``OpenSpielCompatibilityV0``: ``step()`` computes every
  agent's observation tensor and mask (over 26,057 ids) eagerly, ``last()`` returns them;
- for reference, Rank 4p through the engine's id API alone (``legal_action_ids``/``apply_id``, no
  observation, no mask).

Every env runs the same loop: ``agent_iter()``, ``last()``, a uniformly random legal action from the
mask (in the observation, or in ``info`` for Shimmy) drawn with ``random.Random``, ``step()``; only
live agents' steps count. PettingZoo's ``OrderEnforcingWrapper`` (which every PettingZoo classic env
carries; ``texas_holdem_v4.env()`` has it with two more) wraps the courtcards env and Shimmy's alike
("ordered"); both are also measured bare, as their constructors return them. Compare like with like.

    pip install 'courtcards[rl]' shimmy open_spiel rlcard pygame
    python bench/bench_envs.py --rounds 5 --steps 20000
    python bench/bench_envs.py --rounds 5 --steps 20000 --compiled   # courtcards compiled with mypyc (setup.py)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any


def aec_steps(make: Callable[[], Any], steps: int, seed: int) -> tuple[int, float]:
    env = make()
    rng = random.Random(seed)
    done = 0
    episode = 0
    start = time.process_time()
    while done < steps:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) and "action_mask" in obs else info["action_mask"]
            legal = mask.nonzero()[0]
            env.step(int(legal[int(rng.random() * len(legal))]))
            done += 1
    return done, time.process_time() - start


def engine_steps(steps: int, seed: int) -> tuple[int, float]:
    from courtcards import get_game

    game = get_game("rank")
    rng = random.Random(seed)
    done = 0
    episode = 0
    start = time.process_time()
    while done < steps:
        state = game.new_game(4, {}, seed=seed + episode)
        episode += 1
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_action_ids(seat)
            state.apply_id(seat, legal[int(rng.random() * len(legal))])
            done += 1
    return done, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20_000, help="agent steps per env per round (whole episodes)")
    ap.add_argument("--classic", default="texas_holdem_v4", help="PettingZoo classic env module name")
    ap.add_argument(
        "--compiled",
        action="store_true",
        help="run on this tree compiled with mypyc (built and cached by bench/compiled_tree.py)",
    )
    args = ap.parse_args()
    if args.compiled:  # the same command again, importing courtcards from the compiled copy
        import sys
        from pathlib import Path

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from compiled_tree import compiled_tree

        tree = str(compiled_tree())
        argv = [str(Path(__file__).resolve()), *(a for a in sys.argv[1:] if a != "--compiled")]
        os.chdir(tree)
        os.execve(sys.executable, [sys.executable, *argv], dict(os.environ, PYTHONPATH=tree))

    import importlib

    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    from shimmy import OpenSpielCompatibilityV0

    from courtcards import engine_build
    from courtcards.envs.pettingzoo import env as cc_env

    def ordered(make: Callable[[], Any]) -> Callable[[], Any]:
        return lambda: OrderEnforcingWrapper(make())

    classic = importlib.import_module(f"pettingzoo.classic.{args.classic}")
    rank = lambda: cc_env("rank", num_players=4)  # noqa: E731
    envs: dict[str, Callable[[int], tuple[int, float]]] = {
        "Rank 4p, courtcards AEC, ordered": lambda s: aec_steps(ordered(rank), args.steps, s),
        f"PettingZoo classic {args.classic}": lambda s: aec_steps(classic.env, args.steps, s),
        "OpenSpiel dou_dizhu via Shimmy, ordered": lambda s: aec_steps(
            ordered(lambda: OpenSpielCompatibilityV0(game_name="dou_dizhu")), args.steps, s
        ),
        "Rank 4p, courtcards AEC, bare": lambda s: aec_steps(rank, args.steps, s),
        "OpenSpiel dou_dizhu via Shimmy, bare": lambda s: aec_steps(
            lambda: OpenSpielCompatibilityV0(game_name="dou_dizhu"), args.steps, s
        ),
        "Rank 4p, engine ids only (no env)": lambda s: engine_steps(args.steps, s),
    }
    load = os.getloadavg()
    print(
        f"machine: {platform.platform()}; {platform.processor() or platform.machine()}; "
        f"Python {platform.python_version()}; courtcards engine: {engine_build()}; "
        f"load average at start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    rates: dict[str, list[float]] = {name: [] for name in envs}
    for r in range(args.rounds):
        for name, run in envs.items():
            steps, cpu = run(1000 + r)
            rates[name].append(steps / cpu)
        print(f"  round {r + 1}: " + "; ".join(f"{n}: {v[-1]:,.0f}/s" for n, v in rates.items()))
    base = statistics.median(rates["OpenSpiel dou_dizhu via Shimmy, ordered"])
    print("median env steps per CPU second:")
    for name, values in rates.items():
        med = statistics.median(values)
        print(f"  {name:40s} {med:>10,.0f}  ({med / base:.1f}x Dou Dizhu via Shimmy)")
    load = os.getloadavg()
    print(f"load average at end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
