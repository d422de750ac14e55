"""The build backend: setuptools, plus mypy when the engine is compiled.

``COURTCARDS_COMPILE=1 pip install .`` compiles the engine's hot modules with
mypyc (see setup.py); this backend then asks for mypy in the build environment,
with what mypy's type check of those modules imports (they and the courtcards
modules they import, transitively): NumPy, typing_extensions and pydantic (which
``courtcards.core.views`` imports to check a view). Without them pip's isolated
build environment fails with "Cannot find implementation or library stub".
Without the variable it is plain setuptools and the engine is pure Python.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the rest of the PEP 517/660 hooks unchanged)

_COMPILE = ["mypy>=1.10", "mypy_extensions>=1.0", "numpy>=1.24", "typing_extensions>=4.7", "pydantic>=2"]


def _extra() -> list[str]:
    return _COMPILE if os.environ.get("COURTCARDS_COMPILE") == "1" else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *_extra()]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_editable(config_settings), *_extra()]
