"""``pure_only``: for tests that patch an engine class, which a class compiled with
mypyc (``COURTCARDS_COMPILE=1``, setup.py; ``.ci/test-compiled``) does not allow."""

import pytest

from courtcards import engine_build

pure_only = pytest.mark.skipif(
    engine_build() == "compiled", reason="patches an engine class; the compiled engine's classes cannot be patched"
)
