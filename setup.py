"""Compiles the engine with mypyc when ``COURTCARDS_COMPILE=1`` (docs/engine/README.md, "Compiled engine").

The modules below are the rules engine's hot paths; they are ordinary Python,
type-checked with mypy --strict, and mypyc turns them into C extensions with the
same behaviour (CI runs the test suite on both builds). Without the variable
nothing is compiled and the package is pure Python.
"""

import os
import shlex
import shutil
import sys
import sysconfig
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
    *(
        f"courtcards/games/{game}/{module}.py"
        for game in GAMES
        for module in GAME_MODULES
        if (HERE / "courtcards" / "games" / game / f"{module}.py").is_file()
    ),
]


def _check_compiler() -> None:
    """Stop with one line, before anything is downloaded or type-checked, if the C build cannot work."""
    if sys.platform == "win32":
        return  # setuptools finds MSVC itself and says so if it is missing
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    if not words or shutil.which(words[0]) is None:
        sys.exit(
            f"COURTCARDS_COMPILE=1 needs a C compiler and found none ({words[0] if words else cc!r} not found on "
            "PATH): install one (e.g. apt-get install gcc) or install without COURTCARDS_COMPILE (pure Python)"
        )
    include = sysconfig.get_path("include")
    if not os.path.exists(os.path.join(include, "Python.h")):
        sys.exit(
            f"COURTCARDS_COMPILE=1 needs the Python headers and {include}/Python.h is missing: install them "
            "(e.g. apt-get install python3-dev) or install without COURTCARDS_COMPILE (pure Python)"
        )


ext_modules = []
if os.environ.get("COURTCARDS_COMPILE") == "1":
    _check_compiler()
    try:
        from mypyc.build import mypycify
    except ImportError:
        # asking for the build requirements runs this file before mypy is there (_build/backend.py adds it)
        if not {"egg_info", "dist_info"} & set(sys.argv):
            sys.exit("COURTCARDS_COMPILE=1 compiles the engine with mypyc: install mypy first (pip install mypy)")
    else:
        ext_modules = mypycify(COMPILED, opt_level="3", group_name="courtcards")
        if sys.platform != "win32":  # core/rng.py's machine-integer arithmetic wraps (CPython's flags say so too)
            for ext in ext_modules:
                ext.extra_compile_args.append("-fwrapv")

setup(ext_modules=ext_modules)
