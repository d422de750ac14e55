"""Five Tricks: a short trick-taking game for 2-4 players, a courtcards plug-in.

Installed, it registers through the ``courtcards.games`` entry point
(``fivetricks = "courtcards_fivetricks:GAME"``); importing it registers it too."""

from courtcards.core.game import register

from courtcards_fivetricks.cards import FiveTricksAction, parse_action
from courtcards_fivetricks.game import FiveTricksGame
from courtcards_fivetricks.state import FiveTricksState

GAME = register(FiveTricksGame())

__all__ = ["GAME", "FiveTricksAction", "FiveTricksGame", "FiveTricksState", "parse_action"]
