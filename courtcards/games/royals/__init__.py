"""Royals: build Royals from face and number cards, attack and assassinate (rulebook 002, RY-1 to RY-8)."""

from courtcards.core.game import register
from courtcards.games.royals.actions import RoyalsAction, parse_action
from courtcards.games.royals.game import RoyalsGame
from courtcards.games.royals.state import RoyalsState

GAME = register(RoyalsGame())

__all__ = ["GAME", "RoyalsAction", "RoyalsGame", "RoyalsState", "parse_action"]
