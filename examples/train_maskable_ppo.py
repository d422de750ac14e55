"""Train sb3-contrib's MaskablePPO on one seat of a courtcards game and print its win rate against
the bots before and after (not run in CI).

    pip install 'courtcards[rl]' sb3-contrib   # sb3-contrib needs torch
    python examples/train_maskable_ppo.py --game royale --opponents random --steps 50000 --eval-games 500

A win is a positive final reward (the seat's return: +1 for the winner).
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

import courtcards.envs.gymnasium as ccgym


def make_env(args: argparse.Namespace) -> gym.Env:
    options = dict(o.split("=", 1) for o in args.option)
    env = gym.make(
        ccgym.env_ids()[args.game],
        num_players=args.players,
        options=options,
        opponents=tuple(args.opponents.split(",")),
    )
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def win_rate(env: gym.Env, choose, games: int, seed: int) -> float:
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            obs, reward, term, trunc, _ = env.step(choose(obs, env.unwrapped.action_masks()))
            done = term or trunc
        wins += reward > 0
    return wins / games


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="royale", choices=sorted(ccgym.env_ids()))
    p.add_argument("--players", type=int)
    p.add_argument("--opponents", default="random", help="bot kind(s) for the other seats: KIND or KIND,KIND,...")
    p.add_argument("--option", "-o", action="append", default=[], help="game option name=value")
    p.add_argument("--steps", type=int, default=50_000, help="training steps (the agent's decisions)")
    p.add_argument("--eval-games", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    env = make_env(args)
    rng = np.random.default_rng(args.seed)
    before = win_rate(env, lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), args.eval_games, 10_000)
    print(f"{args.game}: masked random policy wins {before:.1%} of {args.eval_games} games vs {args.opponents}")
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    took = time.perf_counter() - start
    after = win_rate(
        env,
        lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]),
        args.eval_games,
        10_000,
    )
    print(
        f"after {args.steps} steps ({took:.0f} s): MaskablePPO wins {after:.1%} of {args.eval_games} games "
        f"vs {args.opponents}"
    )


if __name__ == "__main__":
    main()
