"""Run from a checkout without installing: put this package's src/ on the path
(installed, the entry point registers the game; importing it registers it too)."""

import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
if SRC not in sys.path:
    sys.path.insert(0, SRC)
