"""The compiled build (setup.py, _build/backend.py): what pip's isolated build environment gets, and the
one-line refusal without a C compiler. The build itself runs in CI (.ci/compiled-install)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    namespace: dict[str, object] = {"__file__": str(ROOT / "setup.py")}
    wanted = {"HERE", "GAME_MODULES", "GAMES", "COMPILED"}
    for node in tree.body:  # the imports and the module lists only, without running setup()
        if isinstance(node, ast.ImportFrom | ast.Import) or (
            isinstance(node, ast.Assign) and {t.id for t in node.targets if isinstance(t, ast.Name)} & wanted
        ):
            exec(compile(ast.Module([node], []), "setup.py", "exec"), namespace)
    files = namespace["COMPILED"]
    assert isinstance(files, list) and files
    return [f.removesuffix(".py").replace("/", ".") for f in files]


def _path(module: str) -> Path | None:
    base = ROOT / module.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def third_party_imports_of(modules: list[str]) -> set[str]:
    """The top-level packages other than courtcards and the standard library that mypy's type check of
    ``modules`` reaches: every import, at any depth (mypy follows them all), through courtcards' own modules."""
    seen: set[str] = set()
    found: set[str] = set()
    todo = list(modules)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _path(module)
        if path is None:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                top = name.split(".")[0]
                if top == "courtcards":  # the module and the packages above it
                    parts = name.split(".")
                    todo.extend(".".join(parts[:i]) for i in range(2, len(parts) + 1))
                elif top not in sys.stdlib_module_names and top != "__future__":
                    found.add(top)
    return found


def build_requirements() -> set[str]:
    sys.path.insert(0, str(ROOT / "_build"))
    try:
        import backend  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    old = os.environ.get("COURTCARDS_COMPILE")
    os.environ["COURTCARDS_COMPILE"] = "1"
    try:
        requires: list[str] = backend._extra()
    finally:
        if old is None:
            del os.environ["COURTCARDS_COMPILE"]
        else:
            os.environ["COURTCARDS_COMPILE"] = old
    names = set()
    for req in requires:
        name = req
        for sep in "<>=!~;[ ":
            name = name.split(sep)[0]
        names.add(name.lower().replace("-", "_"))
    return names


def test_the_isolated_build_gets_every_package_the_type_check_of_the_compiled_modules_imports() -> None:
    needed = third_party_imports_of(compiled_modules())
    assert {"numpy", "pydantic"} <= needed  # what broke the documented install in a fresh venv
    assert needed <= build_requirements(), f"add {sorted(needed - build_requirements())} to _build/backend.py"
    assert "mypy" in build_requirements()


@pytest.mark.skipif(sys.platform == "win32", reason="setup.py leaves MSVC to setuptools")
def test_without_a_c_compiler_the_compiled_build_stops_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "COURTCARDS_COMPILE": "1", "CC": str(tmp_path / "no-cc")}
    res = subprocess.run(
        [sys.executable, "setup.py", "egg_info", "--egg-base", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 1
    assert res.stderr.strip().splitlines() == [
        f"COURTCARDS_COMPILE=1 needs a C compiler and found none ('{tmp_path / 'no-cc'}' not found on PATH): install "
        "one (e.g. apt-get install gcc) or install without COURTCARDS_COMPILE (pure Python)"
    ]
