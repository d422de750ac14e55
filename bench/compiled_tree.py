"""A copy of this tree with the engine compiled by mypyc (setup.py, ``COURTCARDS_COMPILE=1``),
for the benchmarks that compare the pure and the compiled engine in one run and for
``.ci/test-compiled``, which runs the test suite in it.

The copy is kept in ``bench/.compiled/<slot>/<hash>`` (git-ignored), keyed on the contents
of the tree's files (those git tracks or would track, as they are in the working
tree), and rebuilt only when they change: the build takes about 3 minutes of CPU. Needs
mypy (in ``courtcards[dev]``) and a C compiler. Another source folder (a baseline
commit extracted by ``bench/bench_engine.py --compiled-baseline``) is compiled the same
way from all its files, in its own slot, so both builds stay cached side by side.

    python bench/compiled_tree.py              # builds if needed, prints the folder
    python bench/compiled_tree.py SRC_FOLDER   # the same for another source folder
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "bench" / ".compiled"


def _files(src: Path = ROOT) -> list[str]:
    if src != ROOT:  # an extracted tree (no git): every file, build outputs aside
        skip = {"build", "__pycache__", "bench", ".git"}  # .git: a worktree's pointer file differs per checkout
        return sorted(
            str(p.relative_to(src))
            for p in src.rglob("*")
            if (p.is_file() or p.is_symlink())
            and not skip & set(p.relative_to(src).parts)
            and not p.name.endswith((".so", ".c", ".o"))
        )
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"], check=True, capture_output=True
    ).stdout.decode()
    # the benchmarks' scripts come along (tests load some of them), not the compiled copies
    return sorted(f for f in out.split("\0") if f and (ROOT / f).exists() and not f.startswith("bench/.compiled/"))


def compiled_tree(source: Path = ROOT, slot: str = "tree") -> Path:
    """The folder to put on PYTHONPATH for the compiled engine of ``source`` (built if needed);
    one cached copy per ``slot``."""
    files = _files(source)
    digest = hashlib.sha256()
    for f in files:
        path = source / f
        digest.update(f.encode() + b"\0" + (os.readlink(path).encode() if path.is_symlink() else path.read_bytes()))
    folder = CACHE / slot / digest.hexdigest()[:16]
    if (folder / "DONE").exists():
        return folder
    shutil.rmtree(CACHE / slot, ignore_errors=True)  # one copy per slot at a time
    folder.mkdir(parents=True)
    for f in files:
        src, dst = source / f, folder / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, dst)
    print(f"building the compiled engine in {folder} (about 3 minutes)...", file=sys.stderr)
    build = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
        cwd=folder,
        env=dict(os.environ, COURTCARDS_COMPILE="1"),
        capture_output=True,
        text=True,
    )
    if build.returncode:
        sys.exit(f"building the compiled engine failed:\n{build.stdout}{build.stderr}")
    (folder / "DONE").touch()
    return folder


def trees(compiled: bool = True) -> dict[str, Path]:
    """The trees a benchmark measures: this one pure, and (``compiled``) its compiled copy."""
    found = {"pure": ROOT}
    if compiled:
        found["compiled"] = compiled_tree()
    return found


if __name__ == "__main__":
    print(compiled_tree(Path(sys.argv[1]).resolve(), "baseline") if len(sys.argv) > 1 else compiled_tree())
