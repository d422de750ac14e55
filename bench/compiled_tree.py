"""A copy of this tree with the engine compiled by mypyc (setup.py, ``COURTCARDS_COMPILE=1``),
for benchmarks that compare the pure and the compiled engine in one run.

The copy is kept in ``bench/.compiled/<hash>`` (git-ignored), keyed on the contents
of the tree's Python files, and rebuilt only when they change: the build takes a
minute or two. Needs mypy (in ``courtcards[dev]``) and a C compiler.
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


def _files() -> list[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard", "-z"],
                         check=True, capture_output=True).stdout.decode()
    return sorted(f for f in out.split("\0") if f and (ROOT / f).exists() and not f.startswith("bench/"))


def compiled_tree() -> Path:
    """The folder to put on PYTHONPATH for the compiled engine (built if needed)."""
    files = _files()
    digest = hashlib.sha256()
    for f in files:
        if f.endswith((".py", ".toml")):
            digest.update(f.encode() + b"\0" + (ROOT / f).read_bytes())
    folder = CACHE / digest.hexdigest()[:16]
    if (folder / "DONE").exists():
        return folder
    shutil.rmtree(CACHE, ignore_errors=True)  # one copy at a time
    folder.mkdir(parents=True)
    for f in files:
        src, dst = ROOT / f, folder / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        else:
            shutil.copy2(src, dst)
    print(f"building the compiled engine in {folder} (a minute or two)...", file=sys.stderr)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True,
                   env=dict(os.environ, COURTCARDS_COMPILE="1"), capture_output=True)
    (folder / "DONE").touch()
    return folder


if __name__ == "__main__":
    print(compiled_tree())
