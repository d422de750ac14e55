"""Bots: they receive a seat's view and its legal actions, never the state."""

from courtcards.bots import (
    ismcts,  # noqa: F401  (registers the search bot for every game)
    kqp,  # noqa: F401  (registers the King Queens & Paupers bots)
    rank,  # noqa: F401  (registers the Rank bots)
    royale,  # noqa: F401  (registers the Rank Royale bots)
    royals,  # noqa: F401  (registers the Royals bots)
)
from courtcards.bots.base import (
    Bot,
    RandomBot,
    bot_kinds,
    bot_move,
    check_bot,
    make_bot,
    register_bot,
    register_bot_spec,
)

__all__ = ["Bot", "RandomBot", "bot_kinds", "bot_move", "check_bot", "make_bot", "register_bot", "register_bot_spec"]
