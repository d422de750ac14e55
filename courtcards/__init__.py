"""courtcards: play, study and train agents on a family of royal card games."""

from courtcards.core import GameRecord, game_names, get_game

__version__ = "0.1.0"
__all__ = ["GameRecord", "__version__", "engine_build", "game_names", "get_game"]


def engine_build() -> str:
    """``"compiled"`` when the engine's hot modules are mypyc extensions (installed with
    ``COURTCARDS_COMPILE=1``, see setup.py), else ``"pure"`` (the same code, interpreted)."""
    from courtcards.core import state

    return "pure" if (state.__file__ or "").endswith(".py") else "compiled"
