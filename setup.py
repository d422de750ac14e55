"""Compiles the engine with mypyc when ``COURTCARDS_COMPILE=1`` (docs/engine/README.md, "Compiled engine").

The modules below are the rules engine's hot paths; they are ordinary Python,
type-checked with mypy --strict, and mypyc turns them into C extensions with the
same behaviour (CI runs the test suite on both builds). Without the variable
nothing is compiled and the package is pure Python.
"""

import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent
# a game's rules modules that are compiled where the game has them (docs/plugins.md): the games are the
# packages under courtcards/games, found on disk, not listed here
GAME_MODULES = ("state", "ids", "observation", "worlds")
GAMES = sorted(p.parent.name for p in (HERE / "courtcards" / "games").glob("*/__init__.py"))
COMPILED = [
    "courtcards/core/rng.py",
    "courtcards/core/state.py",
    "courtcards/core/ids.py",
    *(f"courtcards/games/{game}/{module}.py" for game in GAMES for module in GAME_MODULES
      if (HERE / "courtcards" / "games" / game / f"{module}.py").is_file()),
]

ext_modules = []
if os.environ.get("COURTCARDS_COMPILE") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:
        # asking for the build requirements runs this file before mypy is there (_build/backend.py adds it)
        if not {"egg_info", "dist_info"} & set(sys.argv):
            sys.exit("COURTCARDS_COMPILE=1 compiles the engine with mypyc: install mypy first (pip install mypy)")
    else:
        ext_modules = mypycify(COMPILED, opt_level="3", group_name="courtcards")

setup(ext_modules=ext_modules)
