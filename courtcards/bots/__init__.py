"""Bots: they receive a seat's view and its legal actions, never the state."""

from courtcards.bots import (
    kqp,  # noqa: F401  (registers the King Queens & Paupers bots)
    rank,  # noqa: F401  (registers the Rank bots)
    royale,  # noqa: F401  (registers the Rank Royale bots)
    royals,  # noqa: F401  (registers the Royals bots)
)
from courtcards.bots.base import Bot, RandomBot, bot_kinds, bot_move, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_kinds", "bot_move", "make_bot", "register_bot"]
