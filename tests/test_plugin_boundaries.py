"""No layer outside a game's own package knows a game by name (docs/plugins.md).

The built-in games' names are read from the folders under ``courtcards/games/``; any
string literal equal to one of them in Python, JavaScript or HTML elsewhere in the
package fails this check (a game-name dict, an ``if game == ...``, a hard-coded import
of a game's module), so that a plug-in game gets from every layer what a built-in gets.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "courtcards"
GAMES_DIR = PACKAGE / "games"
NAMES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())
MODULE_RE = re.compile(r"courtcards[./]games[./](" + "|".join(NAMES) + r")\b")
JS_RE = re.compile(r"""(["'`])(""" + "|".join(NAMES) + r""")\1""")


def _outside_games(*suffixes: str) -> list[Path]:
    return sorted(p for s in suffixes for p in PACKAGE.rglob(f"*{s}") if GAMES_DIR not in p.parents)


def _python_findings(path: Path) -> list[str]:
    found = []
    source = path.read_text()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.STRING:
            continue
        try:
            value = eval(tok.string, {})  # a literal's value (prefixes and quotes handled by Python)
        except Exception:  # f-strings and the like: check their text instead
            value = tok.string
        if isinstance(value, str) and (value.strip().lower() in NAMES or MODULE_RE.search(value)):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{tok.start[0]}: {tok.string}")
    for m in MODULE_RE.finditer(source):
        line = source.count("\n", 0, m.start()) + 1
        text = source.splitlines()[line - 1].strip()
        if text.startswith(("import ", "from ")):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {text}")
    return found


def test_the_built_in_games_are_found() -> None:
    assert len(NAMES) >= 4, NAMES


@pytest.mark.parametrize("path", _outside_games(".py"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_game_name_in_python_outside_games(path: Path) -> None:
    assert _python_findings(path) == []


@pytest.mark.parametrize("path", _outside_games(".js", ".html"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_game_name_in_the_browser_outside_games(path: Path) -> None:
    text = path.read_text()
    found = [f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in JS_RE.finditer(text)]
    found += [
        f"{path.name}: imports {m.group(0)}"
        for m in re.finditer(r"import[^;]*[\"']\./(" + "|".join(NAMES) + r")\.js[\"']", text)
    ]
    assert found == []


def test_the_check_catches_a_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        f'TABLE = {{"{NAMES[0]}": 1}}\nif game == "{NAMES[-1]}":\n    pass\n'
        f"from courtcards.games.{NAMES[0]}.bots import X\n"
    )
    found = _python_findings_at(bad)
    assert len(found) == 3, found


def _python_findings_at(path: Path) -> list[str]:
    global PACKAGE
    saved = PACKAGE
    PACKAGE = path.parent / "courtcards"
    try:
        return _python_findings(path)
    finally:
        PACKAGE = saved
