"""King Queens & Paupers (rulebook 004, rulings KQ-1 to KQ-10)."""

from courtcards.core.game import register
from courtcards.games.kqp.actions import KqpAction, parse_action
from courtcards.games.kqp.game import KqpGame
from courtcards.games.kqp.state import KqpState

GAME = register(KqpGame())

__all__ = ["GAME", "KqpAction", "KqpGame", "KqpState", "parse_action"]
