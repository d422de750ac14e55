"""Does one step of lookahead on greedy help? Perfect-information Monte Carlo with greedy continuations.

    python bench/bench_pimc.py rank 4 300 --worlds 16 --option tokens_to_win=1 --seed 501

The tested bot, at each decision with a choice, draws ``--worlds`` worlds from its view
(``Game.sample_world``, as the search does), plays every legal move in each, and lets greedy play every
seat to the end of the game; it plays the move with the highest total return, greedy's own move on a
tie. It is what ``courtcards train --rollouts`` teaches a network, with the worlds drawn from the view
instead of the true hands of self-play: if it does not beat greedy, a network that learns those values
has little to gain either. The opponents, seeds and seat rotation are bench_strength's (its other
options pass through); run ``bench_strength.py --bot greedy`` with the same seed for greedy in the same
seats on the same deals. An experiment, not a bot of the package.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import bench_strength

from courtcards.bots.base import Bot, bot_move, make_bot, register_game_bot
from courtcards.core.actions import Action
from courtcards.core.game import Game, get_game
from courtcards.core.rng import Rng


class Lookahead:
    """Each legal move tried in ``worlds`` worlds drawn from the view, greedy playing on."""

    def __init__(self, game: str, seed: int, worlds: int) -> None:
        self.game: Game[Any] = get_game(game)
        self.worlds = worlds
        self.rng = Rng(seed)
        self.greedy: Bot = make_bot(game, "greedy", seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat = int(view["seat"])
        totals = [0.0] * len(legal)
        totals[list(legal).index(self.greedy.choose(view, legal))] += 1e-9  # a tie goes to greedy's move
        for _ in range(self.worlds):
            world = self.game.sample_world(view, self.rng.next64())
            moves = {a.text: a for a in world.legal_actions(seat)}
            for i, action in enumerate(legal):
                played = world.copy()
                played.apply(seat, moves[action.text])
                while not played.is_over():
                    p = played.to_move()[0]
                    played.apply(p, bot_move(self.greedy, played, p))
                totals[i] += played.returns()[seat]
        return legal[max(range(len(legal)), key=totals.__getitem__)]


def main() -> None:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("game")
    ap.add_argument("players")
    ap.add_argument("games")
    ap.add_argument("--worlds", type=int, required=True)
    args, rest = ap.parse_known_args()
    register_game_bot(
        "lookahead",
        lambda game, seed, arg: Lookahead(game, seed, int(arg or args.worlds)),
        "lookahead:WORLDS (bench_pimc.py only)",
        lambda game: False,
    )
    print(f"one step of lookahead on greedy, {args.worlds} worlds drawn from the view a decision")
    bench_strength.main([args.game, args.players, args.games, "--bot", f"lookahead:{args.worlds}", *rest])
    print("(the tested bot exists in this script only: run it again with python bench/bench_pimc.py)")


if __name__ == "__main__":
    main()
