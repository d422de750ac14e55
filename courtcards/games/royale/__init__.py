"""Rank Royale: a two-player game of secret simultaneous card choices
(rulebook 003, rulings RR-1 to RR-6)."""

from courtcards.core.game import register
from courtcards.games.royale.actions import RoyaleAction, parse_action
from courtcards.games.royale.game import RoyaleGame
from courtcards.games.royale.state import RoyaleState

GAME = register(RoyaleGame())

__all__ = ["GAME", "RoyaleAction", "RoyaleGame", "RoyaleState", "parse_action"]
