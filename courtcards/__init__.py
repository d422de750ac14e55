"""courtcards: play, study and train agents on a family of royal card games."""

from courtcards.core import GameRecord, game_names, get_game

__version__ = "0.1.0"
__all__ = ["GameRecord", "__version__", "game_names", "get_game"]
