"""A digest of seeded games, to check that an engine change leaves every game as it was.

For each seed, a new game is played to its end by uniformly random actions drawn from a generator of
that seed: odd seeds through ``State.play_random`` (the whole playout), even ones one ``apply`` at a time,
with a view hashed every 37 actions. The digest covers each game's history, every seat's event log
(secret records included, as views read them), the spectator's view and the result. Run it on two
commits and compare:

    python bench/games_digest.py royals 4 300
    PYTHONPATH=/path/to/other/checkout python bench/games_digest.py royals 4 300
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from courtcards.core.game import get_game
from courtcards.core.rng import Rng


def digest(name: str, players: int, games: int) -> str:
    game = get_game(name)
    h = hashlib.sha256()

    def add(x: Any) -> None:
        h.update(json.dumps(x, sort_keys=True, default=str).encode())

    for seed in range(games):
        state = game.new_game(players, {}, seed=seed)
        rng = Rng(seed)
        if seed % 2:
            state.play_random(rng)
        else:
            k = 0
            while not state.is_over():
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.below(len(legal))])
                k += 1
                if k % 37 == 0:
                    add(state.view(k % players))
        add(state.history)
        for seat in [None, *range(players)]:
            add(state.events.last(100_000, seat))
        add(state.view(None))
        add(repr(state.result()))
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    args = ap.parse_args()
    print(args.game, args.players, args.games, digest(args.game, args.players, args.games))


if __name__ == "__main__":
    main()
