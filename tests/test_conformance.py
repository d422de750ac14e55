"""The conformance suite, run on every registered game, player count and variant."""

from __future__ import annotations

import os
import random

import pytest

from courtcards.core.conformance import check_playout, random_playout
from courtcards.core.game import game_names, get_game
from courtcards.core.options import OptionValue

CONFIGS = [
    pytest.param(name, n, opts, id=f"{name}-{n}p-" + ("-".join(f"{k}={v}" for k, v in opts.items()) or "default"),
                 marks=[pytest.mark.slow] if i else [])  # the fast run (.ci/fast) checks each game's first one
    for name in game_names()
    for i, (n, opts) in enumerate(get_game(name).test_configs())
]
# CONFIGS without the slow marks: every configuration still plays its random games in the fast run
PLAYOUT_CONFIGS = [pytest.param(*p.values, id=p.id) for p in CONFIGS]


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_full_checks_along_a_random_game(name: str, players: int, options: dict[str, OptionValue]) -> None:
    check_playout(get_game(name), players, options, seed=players * 7919 + len(options))


@pytest.mark.parametrize(("name", "players", "options"), PLAYOUT_CONFIGS)
def test_random_playouts_end(name: str, players: int, options: dict[str, OptionValue]) -> None:
    game = get_game(name)
    for seed in range(3):
        state = random_playout(game, players, options, seed=1000 + seed)
        assert state.is_over() and state.result() is not None


def _seeds() -> list[int]:
    """Fixed seeds unless COURTCARDS_RANDOM_SEEDS=1 draws new ones; COURTCARDS_SEEDS=S1,S2,... replays given ones.
    Each seed is in its test's id and in a failure's message."""
    if os.environ.get("COURTCARDS_SEEDS"):
        return [int(s) for s in os.environ["COURTCARDS_SEEDS"].replace(",", " ").split()]
    if os.environ.get("COURTCARDS_RANDOM_SEEDS") == "1":
        return [random.SystemRandom().randrange(2**63) for _ in FIXED_SEEDS]
    return list(FIXED_SEEDS)


FIXED_SEEDS = (0, 1, 2, 3, 4, 5, 6, 7)
SEEDS = _seeds()


@pytest.mark.parametrize("seed", SEEDS, ids=[f"seed={s}" for s in SEEDS])
@pytest.mark.parametrize("name", game_names())
def test_any_seed_conforms(name: str, seed: int) -> None:
    game = get_game(name)
    try:
        check_playout(game, game.default_players, {}, seed=seed, every=5, view_every=23)
    except Exception as exc:
        raise AssertionError(f"{name} fails on seed {seed}: replay with COURTCARDS_SEEDS={seed} "
                             f"pytest tests/test_conformance.py -k 'any_seed and {name}'") from exc
