"""The documentation's Python examples run as tests, so the docs cannot rot.

Every ```python block of each Markdown file under docs/ is executed in order, in
one fresh namespace per file; the ``assert`` statements inside the examples are
the checks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
REQUIRED = ["api.md", "notation.md", "rules/rank.md"]
BLOCK = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the first code line, code) of each ```python block."""
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def doc_files() -> list[str]:
    found = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    return sorted(found | set(REQUIRED))


def test_python_blocks_are_extracted() -> None:
    sample = "x\n```python\na = 1\n```\ntext\n```python\nb = 2\n```\n```bash\nnot python\n```\n"
    assert python_blocks(sample) == [(3, "a = 1\n"), (7, "b = 2\n")]


def test_api_and_rules_have_examples() -> None:
    assert len(python_blocks((DOCS / "api.md").read_text(encoding="utf-8"))) >= 8
    assert python_blocks((DOCS / "rules" / "rank.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", doc_files())
def test_doc_examples_run(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = DOCS / name
    assert path.exists(), f"docs/{name} is missing"
    monkeypatch.chdir(tmp_path)  # examples that save files write here
    namespace: dict[str, object] = {"__name__": "docs_example"}
    for line, code in python_blocks(path.read_text(encoding="utf-8")):
        try:
            exec(compile(code, f"docs/{name}:{line}", "exec"), namespace)
        except Exception as exc:
            raise AssertionError(f"docs/{name}, block at line {line} failed: {exc!r}") from exc
