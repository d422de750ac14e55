"""The conformance suite, run on every registered game, player count and variant."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from courtcards.core.conformance import ConformanceError, check_events, check_playout, check_refusals, random_playout
from courtcards.core.events import GENERIC, EventKinds, kinds_of
from courtcards.core.game import builtin_games, game_names, get_game
from courtcards.core.options import OptionValue
from courtcards.core.rng import Rng

CONFIGS = [
    pytest.param(
        name,
        n,
        opts,
        id=f"{name}-{n}p-" + ("-".join(f"{k}={v}" for k, v in opts.items()) or "default"),
        marks=[pytest.mark.slow] if i else [],
    )  # the fast run (.ci/fast) checks each game's first one
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
        raise AssertionError(
            f"{name} fails on seed {seed}: replay with COURTCARDS_SEEDS={seed} "
            f"pytest tests/test_conformance.py -k 'any_seed and {name}'"
        ) from exc


@pytest.mark.parametrize("name", [g.name for g in builtin_games()])  # games that declare their kinds
def test_events_are_checked_against_the_declared_kinds(name: str) -> None:
    """check_events (run by check_playout at every step) fails on an undeclared kind, a field of the
    wrong type, or a sentence that is not its template filled; the generic default checks the last only."""
    game = get_game(name)
    state = random_playout(game, game.default_players, {}, seed=3)
    kinds = kinds_of(game)
    seen = check_events(state, kinds)
    assert seen == len(state.events) > 0
    assert check_events(state, kinds, seen) == seen
    good = state.events
    cases: list[tuple[str, str, dict[str, Any]]] = [
        ("dance", "{seat} dances", {"seat": 0}),
        (sorted(set(kinds.kinds) - {"note"})[0], "{seat} dances", {"seat": "0"}),
        ("note", "{seat} dances", {"seat": 0, "extra": 1}),
    ]
    for kind, template, data in cases:
        state.events = good.record(None, kind, template, data)
        with pytest.raises(ConformanceError, match="event"):
            check_events(state, kinds, seen)
        check_events(state, kinds, len(state.events))  # already seen: not checked again
    state.events = good.record(None, "dance", "{seat} dances", {"seat": 0})
    assert check_events(state, GENERIC, seen) == seen + 1  # any kind, any data: only the envelope


@pytest.mark.parametrize("name", [g.name for g in builtin_games()])  # games that declare their kinds
def test_refusals_are_checked_against_the_declared_codes(name: str) -> None:
    game = get_game(name)
    state = game.new_game(game.default_players, seed=5)
    rng = Rng(5)
    pool: set[object] = set()
    others = EventKinds({}, refusals={"something_else": {}}).with_core()
    caught = 0
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        pool.update(legal)
        check_refusals(state, rng, pool)  # the game's own declaration
        check_refusals(state, rng, pool, kinds=GENERIC)  # a game that declares none: any coded reason
        try:
            check_refusals(state, rng, pool, kinds=others)  # another game's codes: this game's are undeclared
        except ConformanceError as exc:
            assert "is not declared" in str(exc)
            caught += 1
        state.apply(seat, legal[rng.below(len(legal))])
    assert caught >= 5
