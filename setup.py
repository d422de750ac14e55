"""Compiles the engine with mypyc when ``COURTCARDS_COMPILE=1`` (docs/engine/README.md, "Compiled engine").

The modules below are the rules engine's hot paths; they are ordinary Python,
type-checked with mypy --strict, and mypyc turns them into C extensions with the
same behaviour (CI runs the test suite on both builds). Without the variable
nothing is compiled and the package is pure Python.
"""

import os
import sys

from setuptools import setup

GAMES = ["rank", "kqp", "royale", "royals"]
COMPILED = [
    "courtcards/core/rng.py",
    "courtcards/core/state.py",
    "courtcards/core/ids.py",
    *(f"courtcards/games/{game}/{module}.py" for game in GAMES for module in ("state", "ids", "observation", "worlds")),
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
