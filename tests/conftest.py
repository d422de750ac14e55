"""What the whole suite shares: the ``slow`` and ``browser`` markers, and the seeds of the random-seed
conformance test (tests/test_conformance.py).

``bash .ci/fast`` (the contributor's run) leaves out the tests marked ``slow`` or ``browser``; ``pytest``
alone and ``.ci/run`` (CI) run them all. The conformance test plays fixed seeds unless ``--random-seeds``
(or ``COURTCARDS_RANDOM_SEEDS=1``) draws new ones; the seeds are printed in the header and in each test's
id, and ``--seeds=S1,S2,...`` plays exactly those again.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

BROWSER = Path(__file__).parent / "browser"
SEEDS_KEY = pytest.StashKey[tuple[str, list[int]]]()
FIXED_SEEDS = (0, 1, 2, 3, 4, 5, 6, 7)  # for each game
SEEDS_DRAWN = len(FIXED_SEEDS)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("courtcards")
    group.addoption("--random-seeds", action="store_true", default=os.environ.get("COURTCARDS_RANDOM_SEEDS") == "1",
                    help="the random-seed conformance test draws new seeds (default: fixed ones; also "
                         "COURTCARDS_RANDOM_SEEDS=1)")
    group.addoption("--seeds", default=None, metavar="S1,S2,...",
                    help="the random-seed conformance test plays these seeds (to replay a failure)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test left out of the fast run (.ci/fast); CI runs it")
    config.addinivalue_line("markers", "browser: drives chromium (tests/browser); left out of the fast run")
    given: str | None = config.getoption("--seeds")
    if given:
        seeds = [int(s) for s in given.replace(",", " ").split()]
        kind = "given"
    elif config.getoption("--random-seeds"):
        seeds = [random.SystemRandom().randrange(2**63) for _ in range(SEEDS_DRAWN)]
        kind = "random"
    else:
        seeds, kind = list(FIXED_SEEDS), "fixed"
    config.stash[SEEDS_KEY] = (kind, seeds)


def _seeds_line(config: pytest.Config) -> str:
    kind, seeds = config.stash[SEEDS_KEY]
    return f"conformance seeds ({kind}; replay with --seeds={','.join(map(str, seeds))})"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that takes ``conformance_seed`` runs once for each seed (fixed, random or given)."""
    if "conformance_seed" in metafunc.fixturenames:
        seeds = metafunc.config.stash[SEEDS_KEY][1]
        metafunc.parametrize("conformance_seed", seeds, ids=[f"seed={s}" for s in seeds])


def pytest_report_header(config: pytest.Config) -> str:
    return _seeds_line(config)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Random seeds are printed at the end too (the header is hidden by -q), so a failure can be replayed."""
    if config.stash[SEEDS_KEY][0] != "fixed":
        terminalreporter.write_line(_seeds_line(config))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
