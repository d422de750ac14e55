"""Bots: they receive a seat's view and its legal actions, never the state."""

from courtcards.bots import kqp  # noqa: F401  (registers the King Queens & Paupers bots)
from courtcards.bots import rank  # noqa: F401  (registers the Rank bots)
from courtcards.bots import royale  # noqa: F401  (registers the Rank Royale bots)
from courtcards.bots import royals  # noqa: F401  (registers the Royals bots)
from courtcards.bots.base import Bot, RandomBot, bot_kinds, bot_move, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_kinds", "bot_move", "make_bot", "register_bot"]
