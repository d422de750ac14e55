"""The action numbering of every game is frozen by a committed fixture: a change
to it is visible in review and needs ACTION_IDS_VERSION raised.

Regenerate after a deliberate change: python -m courtcards.core.ids tests/fixtures/action_ids GAME
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from courtcards.core.game import builtin_games
from courtcards.core.ids import ACTION_IDS_VERSION, fixture

FIXTURES = Path(__file__).parent / "fixtures" / "action_ids"


@pytest.mark.parametrize("name", [g.name for g in builtin_games()])  # a plug-in keeps its own
def test_numbering_matches_fixture(name: str) -> None:
    path = FIXTURES / f"{name}.json"
    assert path.exists(), f"no fixture for {name}: python -m courtcards.core.ids {FIXTURES} {name}"
    committed: dict[str, Any] = json.loads(path.read_text())
    assert committed["version"] == ACTION_IDS_VERSION
    now: dict[str, Any] = fixture(name)
    for old, new in zip(committed["configs"], now["configs"], strict=True):
        assert old == new, f"{name}: the numbering of {old['players']} players {old['options']} changed"
    assert committed["tables"] == now["tables"]
