"""Each game's browser renderer, found through the game (``GameInfo.profiles["browser"]``).

A game that has its own renderer names an ES module in its package (``"static/<file>.js"``, a path
relative to the package that declares it). The server serves it at :func:`module_url`, next to the
shared modules, so that the renderer's ``import ... from "../cards.js"`` finds them; a game with
none is drawn by the generic renderer (``static/js/generic.js``).
"""

from __future__ import annotations

import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import PurePosixPath
from typing import Any

from courtcards.core.game import Game

URL_PREFIX = "/static/js/games/"


def module_url(name: str) -> str:
    return f"{URL_PREFIX}{name}.js"


def _package(cls: type) -> str | None:
    module = sys.modules.get(cls.__module__)
    if module is None:
        return None
    if hasattr(module, "__path__"):  # the class is defined in a package's __init__
        return module.__name__
    return module.__package__ or None


def module_file(game: Game[Any]) -> Traversable | None:
    """The file of the game's browser module, or None if it declares none (or it is missing).

    The path is looked up in the package of each class of the game, the game's own first: a variant
    that inherits its parent's profiles (a subclass with its own name) gets its parent's renderer."""
    spec = game.profile("browser")
    if not isinstance(spec, str) or not spec.endswith(".js"):
        return None
    rel = PurePosixPath(spec)
    if rel.is_absolute() or any(part in ("", ".", "..") for part in rel.parts) or "\\" in spec:
        return None  # a path inside the package, nothing else
    for cls in type(game).__mro__:
        if not (isinstance(cls, type) and issubclass(cls, Game)) or cls is Game:
            continue
        package = _package(cls)
        if package is None:
            continue
        try:
            found = resources.files(package).joinpath(*rel.parts)
        except (ModuleNotFoundError, TypeError, ValueError):
            continue
        if found.is_file():
            return found
    return None


def modules(games: list[Game[Any]]) -> dict[str, Traversable]:
    """Game name -> its browser module's file, for the games that have one."""
    out = {}
    for game in games:
        found = module_file(game)
        if found is not None:
            out[game.name] = found
    return out
