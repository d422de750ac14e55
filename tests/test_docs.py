"""The documentation's Python examples run as tests, so the docs cannot rot.

Every ```python block of each Markdown file under docs/ is executed in order, in
one fresh namespace per file; the ``assert`` statements inside the examples are
the checks.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from courtcards.bots import base as bots_base

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
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
    monkeypatch.setattr(bots_base, "_ADDED", dict(bots_base._ADDED))  # a bot an example adds stays here
    namespace: dict[str, object] = {"__name__": "docs_example"}
    for line, code in python_blocks(path.read_text(encoding="utf-8")):
        try:
            exec(compile(code, f"docs/{name}:{line}", "exec"), namespace)
        except Exception as exc:
            raise AssertionError(f"docs/{name}, block at line {line} failed: {exc!r}") from exc


# -- the project stands alone: no path outside it, and every ruling cited is in docs/rulings.md ----------
RULING = re.compile(r"\b(RK|KQ|RR|RY)-(\d+)\b")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# spelt in two parts so that this file does not name them itself
OUTSIDE = [".." + "/shared", "shared/" + "seeds", "shared/" + "rulings", "/wo" + "rk/"]


def tracked_texts() -> list[tuple[str, str]]:
    """(path, text) of every file git tracks that reads as UTF-8 text; symlinks give their target."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    out = []
    for name in names.decode().split("\0"):
        path = ROOT / name
        if not name or not path.exists() or path.is_dir():
            continue
        if path.is_symlink():
            out.append((name, str(path.readlink())))
            continue
        try:
            out.append((name, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue
    return out


def inside(path: Path) -> bool:
    """Whether ``path`` lies in the repository, ``..`` folded away as written (symlinks are not followed)."""
    folded = os.path.normpath(path)
    return folded == str(ROOT) or folded.startswith(str(ROOT) + os.sep)


def outside_links(name: str, text: str) -> list[str]:
    """The relative links (markdown links and images) of ``text``, in file ``name``, that leave the repository."""
    base = (ROOT / name).parent
    found = []
    for m in LINK.finditer(text):
        target = m.group(1).split("#")[0]
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            continue  # an anchor, a URL (https:, mailto:) or a server path
        if not inside(base / target):
            found.append(m.group(0))
    return found


def test_outside_links_are_found() -> None:
    assert outside_links("docs/rules/rank.md", "[a](../rulings.md#rk-1) [b](../../README.md) [c](#x)") == []
    assert outside_links("docs/rules/rank.md", "see [the books](../../../books/) and ![i](../../../x.png)") == [
        "[the books](../../../books/)",
        "![i](../../../x.png)",
    ]
    assert outside_links("README.md", "[u](https://example.org/a/../../b) [m](mailto:a@b.c)") == []


def test_no_file_names_a_path_outside_the_repository() -> None:
    """A user's clone is all there is: no file may send a reader (or a program) to a path beyond it."""
    problems = []
    for name, text in tracked_texts():
        problems += [f"{name}: names {word!r}" for word in OUTSIDE if word in text]
        if (ROOT / name).is_symlink():
            if not inside((ROOT / name).parent / text):
                problems.append(f"{name}: a link to {text}, outside the repository")
        elif name.endswith(".md"):
            problems += [f"{name}: {link} leads outside the repository" for link in outside_links(name, text)]
    assert not problems, "\n".join(problems)


def rulings() -> set[str]:
    """The ids of docs/rulings.md, each the whole text of a heading (so its anchor is the id in lower case)."""
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    return set(re.findall(r"^#{2,4} ((?:RK|KQ|RR|RY)-\d+)\s*$", text, re.MULTILINE))


def test_the_rulings_are_all_there() -> None:
    ids = rulings()
    expected = {f"{g}-{i}" for g, n in (("RK", 16), ("KQ", 10), ("RR", 6), ("RY", 8)) for i in range(1, n + 1)}
    assert ids == expected


def test_every_ruling_cited_exists() -> None:
    """Every ruling id named anywhere (code, comments, tests, docs) is a ruling of docs/rulings.md, and every
    link into docs/rulings.md lands on one."""
    ids = rulings()
    missing = [
        f"{name}: {m.group(0)}"
        for name, text in tracked_texts()
        for m in RULING.finditer(text)
        if m.group(0) not in ids
    ]
    assert not missing, "\n".join(missing)
    anchors = {i.lower() for i in ids} | {"rank", "king-queens--paupers", "rank-royale", "royals", ""}
    bad = [
        f"{name}: {m.group(0)}"
        for name, text in tracked_texts()
        if name.endswith(".md")
        for m in LINK.finditer(text)
        if m.group(1).split("#")[0].endswith("rulings.md") and (m.group(1) + "#").split("#")[1] not in anchors
    ]
    assert not bad, "\n".join(bad)
    for game in ("rank", "kqp", "royale", "royals"):  # the rules pages cite the rulings by link
        assert "](../rulings.md#" in (DOCS / "rules" / f"{game}.md").read_text(encoding="utf-8")
