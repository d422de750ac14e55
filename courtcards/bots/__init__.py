"""Bots: they receive a seat's view and its legal actions, never the state.

A game's own bots live in its package (``BOTS`` in ``courtcards/games/<g>/bots.py``),
found through the game; here are the generic ones (random, the search, the
strangers of ``courtcards/bots/strangers.py``)."""

from courtcards import nn  # noqa: F401  (registers the nn bot: the game's shipped network)
from courtcards.bots import ismcts, ismcts_nn, strangers  # noqa: F401  (register the search, ismcts+nn, the strangers)
from courtcards.bots.base import (
    Bot,
    RandomBot,
    bot_kinds,
    bot_move,
    check_bot,
    game_bots,
    make_bot,
    register_bot,
    register_bot_spec,
)

__all__ = [
    "Bot",
    "RandomBot",
    "bot_kinds",
    "bot_move",
    "check_bot",
    "game_bots",
    "make_bot",
    "register_bot",
    "register_bot_spec",
]
