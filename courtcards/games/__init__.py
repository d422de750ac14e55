"""The built-in games; importing this package registers them."""

from courtcards.games import kqp, rank, royale, royals

__all__ = ["kqp", "rank", "royale", "royals"]
