"""How often a network's move is its teacher's, in games the teacher bot plays at every seat.

    python bench/bench_net_agreement.py royals 4 courtcards/games/royals/nets/royals-4p.npz --games 20
    python bench/bench_net_agreement.py rank 4 runs/rank/network.npz --option tokens_to_win=1 --teacher greedy

The teacher bot (``--teacher``, default greedy) plays every seat (deal seed ``--seed`` + game index, bot
seeds from the game index); at each id of each move with more than one legal id, the network (as the ``nn``
bot plays it: the highest value among the legal ids, from the seat's observation tensor) is asked which id
it would choose, and the game goes on with the teacher's. Printed: the share of agreement on a move's
first id and on the later ids of composite moves. A diagnostic of ``courtcards train --teacher``: a
network that improves on its teacher still agrees with it where the teacher plays well.
"""

from __future__ import annotations

import argparse

from bench_strength import _value

from courtcards.bots.base import bot_move, check_bot, make_bot
from courtcards.core.game import get_game
from courtcards.nn import load_network


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("network", help="a network file (network.npz of courtcards train, or a shipped one)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--teacher", default="greedy")
    ap.add_argument("--option", action="append", default=[], help="game option key=value")
    args = ap.parse_args()
    game = get_game(args.game)
    options = game.resolve_options(args.players, {k: _value(v) for k, v in (o.split("=", 1) for o in args.option)})
    check_bot(game.name, args.teacher)
    net = load_network(args.network)
    net.check_fits(game, args.players, options)
    asked = {"first": 0, "later": 0}
    agreed = {"first": 0, "later": 0}
    for g in range(args.games):
        state = game.new_game(args.players, options, seed=args.seed + g)
        bots = [make_bot(game.name, args.teacher, 10 * g + s) for s in range(args.players)]
        while not state.is_over():
            for seat in state.to_move():
                for k, i in enumerate(state.action_ids(bot_move(bots[seat], state, seat))):
                    legal = state.legal_action_ids(seat)
                    if len(legal) > 1:
                        values = net.forward(state.observation_tensor(seat)[None])[0]
                        part = "first" if k == 0 else "later"
                        asked[part] += 1
                        agreed[part] += max(legal, key=lambda j: values[j]) == i
                    state.apply_id(seat, i)
                if state.is_over():
                    break
    for part in ("first", "later"):
        if asked[part]:
            share = agreed[part] / asked[part]
            print(f"{part} ids: the network chose the teacher's at {agreed[part]}/{asked[part]} = {share:.0%}")
    both = sum(asked.values())
    print(f"all: {sum(agreed.values())}/{both} = {sum(agreed.values()) / max(1, both):.0%}; {args.games} games")


if __name__ == "__main__":
    main()
