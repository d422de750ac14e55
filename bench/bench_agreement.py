"""How often the search bot makes the move its prior (greedy) would make, in games of greedy bots.

    python bench/bench_agreement.py rank 4 15 --option tokens_to_win=1

Four (``players``) greedy bots play each game (seed = 1000 + game index); at every decision of seat 0
with a choice, a search bot (``--ismcts key=value`` as in bench_strength.py) is asked for its move from
the same view, and the share of decisions where it is greedy's is printed after each game. The game goes
on with greedy's move, so every setting is asked about the same positions.
"""

from __future__ import annotations

import argparse

from bench_strength import _value

from courtcards.bots.base import bot_move, make_bot
from courtcards.bots.ismcts import ISMCTSBot
from courtcards.core.game import get_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("--option", action="append", default=[], help="game option key=value")
    ap.add_argument("--ismcts", action="append", default=[], help="ISMCTSBot argument key=value")
    args = ap.parse_args()
    options = {k: _value(v) for k, v in (o.split("=", 1) for o in args.option)}
    kwargs = {k: _value(v) for k, v in (o.split("=", 1) for o in args.ismcts)}
    game = get_game(args.game)
    same = total = 0
    for i in range(args.games):
        state = game.new_game(args.players, options, seed=1000 + i)
        bots = [make_bot(args.game, "greedy", s) for s in range(args.players)]
        search = ISMCTSBot(i, **kwargs)
        while not state.is_over():
            seat = state.to_move()[0]
            greedy = bot_move(bots[seat], state, seat)
            if seat == 0 and len(state.legal_actions(seat)) > 1:
                total += 1
                same += bot_move(search, state, 0).text == greedy.text
            state.apply(seat, greedy)
        print(
            f"game {i}: the search made greedy's move at {same} of {total} decisions ({same / max(total, 1):.0%})",
            flush=True,
        )


if __name__ == "__main__":
    main()
