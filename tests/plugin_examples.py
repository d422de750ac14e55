"""The example plug-ins (examples/plugin-game: ``fivetricks``; examples/rank-variant: ``rank_knights``),
registered for tests: CI pip-installs them (their entry points register them); from a checkout without
them installed, their src/ folders go on the path and importing them registers them."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from courtcards.core.game import Game, get_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {
    "fivetricks": ("plugin-game", "courtcards_fivetricks"),
    "rank_knights": ("rank-variant", "courtcards_rank_knights"),
}


def register_examples() -> list[Game[Any]]:
    """Each example game, registered (by its entry point when installed, else by importing it)."""
    for folder, module in EXAMPLES.values():
        src = str(ROOT / "examples" / folder / "src")
        if src not in sys.path:
            sys.path.append(src)  # an installed copy, earlier on the path, wins
        importlib.import_module(module)
    return [get_game(name) for name in EXAMPLES]
