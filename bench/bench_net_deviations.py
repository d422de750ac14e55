"""Are a network's departures from its teacher improvements? A diagnostic of ``courtcards train --teacher``.

    python bench/bench_net_deviations.py royals 4 courtcards/games/royals/nets/royals-4p.npz 400 --delta 0.15
    python bench/bench_net_deviations.py rank 4 NET.npz 400 --option tokens_to_win=1 --delta 0.1 --seed 163

Plays ``bench/bench_strength.py`` with, as the tested bot, the teacher (``--teacher``, default greedy)
overruled by the network only where the network values its own move more than the teacher's by more
than ``--delta`` (compared at the first id where the two moves differ, from the seat's observation
tensor, as the ``nn`` bot reads it). ``--delta 0`` is about the ``nn`` bot (ties aside), a large delta
is the teacher itself; the opponents, seeds and seat rotation are bench_strength's (its other options
pass through). A network trained on its teacher's returns (``--teacher``) that improved on it would win
more as the delta falls from large to a margin that filters its noise. An experiment, not a bot of the
package: the ``nn`` bot plays the network alone.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import bench_strength

from courtcards.bots.base import Bot, make_bot, register_game_bot
from courtcards.core.actions import Action
from courtcards.nn import NetworkError, NNBot


class Overruled:
    """The teacher's move, or the network's where it values its own more by over ``delta``."""

    def __init__(self, game: str, seed: int, path: str, teacher: str, delta: float) -> None:
        self.nn = NNBot(game, seed, path)
        self.teacher: Bot = make_bot(game, teacher, seed)
        self.delta = delta

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        taught = self.teacher.choose(view, legal)
        mine = self.nn.choose(view, legal)
        if mine is taught:
            return taught
        game, net = self.nn.game, self.nn.network(view)
        codec = game.action_codec(int(view["num_players"]), view["options"])
        a, t = codec.encode(mine), codec.encode(taught)
        k = next((i for i, (x, y) in enumerate(zip(a, t, strict=False)) if x != y), None)
        if k is None:  # one move's ids begin the other's: nothing to compare
            return taught
        values = net.forward(game.observation_tensor(view, a[:k])[None])[0]
        return mine if float(values[a[k]] - values[t[k]]) > self.delta else taught


def main() -> None:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("game")
    ap.add_argument("players")
    ap.add_argument("network")
    ap.add_argument("games")
    ap.add_argument("--delta", type=float, required=True)
    ap.add_argument("--teacher", default="greedy")
    args, rest = ap.parse_known_args()
    try:  # a missing or corrupt file, or one of another game, is said before any game
        Overruled(args.game, 0, args.network, args.teacher, args.delta)
    except (NetworkError, ValueError) as exc:
        ap.error(str(exc))
    spec = f"overruled:{args.delta}"
    register_game_bot(
        "overruled",
        lambda game, seed, arg: Overruled(game, seed, args.network, args.teacher, float(arg or 0)),
        "overruled:DELTA (bench_net_deviations.py only)",
        lambda game: False,
    )
    print(f"{args.teacher} overruled by {args.network} where it values its move more by over {args.delta}")
    bench_strength.main([args.game, args.players, args.games, "--bot", spec, *rest])
    print("(the tested bot exists in this script only: run it again with python bench/bench_net_deviations.py)")


if __name__ == "__main__":
    main()
