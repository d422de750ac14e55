"""``bench_strength.py`` with experimental variants of ``ismcts+nn`` seatable as bot kinds (not shipped):

    python bench/bench_ismcts_nn_variants.py royale 2 40 --bot ismcts+nn-netmodel:100 --seed 31
    python bench/bench_ismcts_nn_variants.py royale 2 40 --bot ismcts+nn-ucb:100 --seed 31

- ``ismcts+nn-netmodel``: the other seats play the network's moves in the tree (where the game's profile has
  a model) instead of searching;
- ``ismcts+nn-ucb``: UCB with progressive widening at the root (the network's move first, the others entering
  in the order of its values) instead of PUCT;
- ``ismcts+nn-keep2``: the network's move is kept unless another's mean value beats it by two standard errors
  of the difference (``keep=2``) rather than by the exploration constant over the square root of its visits;
- ``ismcts+nn-nokeep``: the search's own rule (``keep=None``) whatever the game's profile says (``net_keep``).

Every other argument is ``bench_strength.py``'s (docs/research.md, "The ismcts+nn bot").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import courtcards.bots  # noqa: F401  (registers the bots)
from courtcards.bots.base import Bot, register_game_bot
from courtcards.bots.ismcts import parse_budget
from courtcards.bots.ismcts_nn import ISMCTSNNBot
from courtcards.nn import has_shipped_network

VARIANTS: dict[str, dict[str, Any]] = {
    "ismcts+nn-netmodel": {"others": "net"},
    "ismcts+nn-ucb": {"puct": None},
    "ismcts+nn-keep2": {"keep": 2.0},
    "ismcts+nn-nokeep": {"keep": None},
}


def _variant(settings: dict[str, Any]) -> Any:
    def make(game: str, seed: int, arg: str | None) -> Bot:
        return ISMCTSNNBot(game, seed, **settings, **parse_budget(arg))

    return make


for kind, settings in VARIANTS.items():
    register_game_bot(kind, _variant(settings), f"{kind}, {kind}:N, {kind}:Xs", has_shipped_network)

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_strength import main

    main(sys.argv[1:])
