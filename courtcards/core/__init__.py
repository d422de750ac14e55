"""What every game shares: options, state protocol, randomness, records, errors."""

from courtcards.core.errors import (
    ActionIdError,
    CourtcardsError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGameError,
    ViewError,
)
from courtcards.core.game import Game, game_names, get_game, register
from courtcards.core.options import Option, OptionSet
from courtcards.core.record import GameRecord
from courtcards.core.rng import Rng
from courtcards.core.state import Action, Result, State

__all__ = [
    "Action",
    "ActionIdError",
    "CourtcardsError",
    "Game",
    "GameOverError",
    "GameRecord",
    "IllegalActionError",
    "NotYourTurnError",
    "NotationError",
    "Option",
    "OptionError",
    "OptionSet",
    "PositionError",
    "RecordError",
    "Result",
    "Rng",
    "State",
    "UnknownGameError",
    "ViewError",
    "game_names",
    "get_game",
    "register",
]
