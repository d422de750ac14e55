"""Rank: the flagship climbing game (rulebooks 001 and 000, rulings RK-1 to RK-16)."""

from courtcards.core.game import register
from courtcards.games.rank.actions import RankAction, parse_action
from courtcards.games.rank.game import RankGame
from courtcards.games.rank.state import RankState

GAME = register(RankGame())

__all__ = ["GAME", "RankAction", "RankGame", "RankState", "parse_action"]
