"""Corrupted positions and records are refused cleanly (issue 11).

Positions are taken along seeded random games of every game, then one part of
the JSON is corrupted (a field dropped, a value of another type, a number out of
range, a card moved or duplicated, deep nesting). Loading must either raise a
PositionError, or give a state that is consistent and plays on: views for every
seat, legal moves, random moves to the end of a few steps, a JSON round trip.
Never a raw exception, never a hang. Records are corrupted the same way and
must raise RecordError or PositionError (or replay).
"""

from __future__ import annotations

import copy
import json
import os
import random
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from courtcards.core.errors import PositionError, RecordError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.core.state import State

GAMES = [("rank", 4), ("rank", 3), ("kqp", 5), ("royale", 2), ("royals", 4), ("royals", 3)]
EXAMPLES = int(os.environ.get("COURTCARDS_FUZZ_EXAMPLES", "100"))
HANG_SECONDS = 20  # a guard against hangs, not a speed test


@contextmanager
def no_hang(what: str) -> Iterator[None]:
    def alarm(signum: int, frame: object) -> None:
        raise AssertionError(f"{what} took more than {HANG_SECONDS} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def positions(game: str, n: int) -> list[dict[str, Any]]:
    out = []
    for seed in range(3):
        rng = random.Random(seed)
        state = get_game(game).new_game(n, seed=seed)
        steps = 0
        while not state.is_over() and steps < 400:
            if steps in (0, 7, 30, 120, 399) or rng.random() < 0.01:
                out.append(state.to_json())
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1
        out.append(state.to_json())
    return out


_POSITIONS: dict[tuple[str, int], list[dict[str, Any]]] = {}


def base_positions(game: str, n: int) -> list[dict[str, Any]]:
    if (game, n) not in _POSITIONS:
        _POSITIONS[game, n] = positions(game, n)
    return _POSITIONS[game, n]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths(v, (*prefix, i)))
    return out


def get_at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.integers(-3, 60),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["7H", "QS", "12", "W", "K", "G", "pass", "", "-1"]),
    st.lists(st.integers(-2, 60), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.recursive(st.none(), lambda inner: st.lists(inner, min_size=1, max_size=1), max_leaves=200),
)


@st.composite
def corrupted(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    where = paths(data)[1:]
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(where))
        if not _exists(data, path):  # an earlier corruption removed it
            continue
        parent, key = get_at(data, path[:-1]), path[-1]
        how = draw(st.sampled_from(["drop", "junk", "nudge", "move", "dup"]))
        target = parent[key]
        if how == "drop":
            del parent[key]
        elif how == "junk":
            parent[key] = draw(junk)
        elif how == "nudge" and isinstance(target, int) and not isinstance(target, bool):
            parent[key] = target + draw(st.sampled_from([-1, 1, -100, 10**9]))
        elif how in ("move", "dup") and isinstance(parent, list) and isinstance(target, str):
            # a card moved to (or copied into) another list of cards
            lists = [p for p in where if isinstance(get_at(data, p) if _exists(data, p) else None, list)]
            if lists:
                dest = get_at(data, draw(st.sampled_from(lists)))
                dest.append(target)
                if how == "move":
                    del parent[key]
        else:
            parent[key] = draw(junk)
    return data


def _exists(data: Any, path: tuple[Any, ...]) -> bool:
    try:
        get_at(data, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def exercise(state: State, rng: random.Random) -> None:
    """A loaded state must be consistent and play on without raw errors (a game dealt from a seed
    holds its invariants; one begun from a hand-written position, what that position was held to)."""
    held = state.start is None
    assert not held or state.invariants() == [], state.invariants()
    get_game(state.game.name).state_from_json(json.loads(json.dumps(state.to_json())))
    for _ in range(12):
        if state.is_over():
            state.result()
            break
        for seat in [None, *range(state.num_players)]:
            state.view(seat)
        movers = state.to_move()
        assert movers, "a game that is not over has someone to move"
        seat = rng.choice(movers)
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} is to move with no legal action"
        state.apply(seat, rng.choice(legal))
        assert not held or state.invariants() == [], state.invariants()


@pytest.mark.parametrize(("game", "n"), GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_corrupted_positions_are_refused_or_consistent(game: str, n: int, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(base_positions(game, n)))
    bad = data.draw(corrupted(base))
    with no_hang(f"loading and playing a corrupted {game} position"):
        try:
            state = get_game(game).state_from_json(bad)
        except PositionError as exc:
            assert exc.reason and str(exc)
            return
        exercise(state, random.Random(0))


@pytest.mark.parametrize(("game", "n"), GAMES[:1] + GAMES[2:5], ids=["rank", "kqp", "royale", "royals"])
@settings(max_examples=max(EXAMPLES // 3, 10), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_corrupted_records_are_refused_or_replay(game: str, n: int, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(base_positions(game, n)))
    record = GameRecord.from_json(
        {
            "format": "courtcards/record",
            "format_version": 2,
            "game": game,
            "num_players": n,
            "options": base["options"],
            "seed": base["seed"],
            "start": None,
            "actions": base["history"],
            "result": None,
            "meta": {},
        }
    ).to_json()
    bad = data.draw(corrupted(record))
    with no_hang(f"replaying a corrupted {game} record"):
        try:
            GameRecord.from_json(bad).replay()
        except (RecordError, PositionError) as exc:
            assert str(exc)


ENVELOPE = ("format", "format_version", "history", "version", "pending", "start", "events", "id_prefixes", "rng")


@pytest.mark.parametrize(("game", "n"), GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_corrupted_hand_written_positions_are_refused_or_play(game: str, n: int, data: st.DataObject) -> None:
    # a position as a person writes it: the game's own fields, none of the saved state's envelope
    saved = data.draw(st.sampled_from(base_positions(game, n)))
    base = {k: v for k, v in saved.items() if k not in ENVELOPE}
    bad = data.draw(corrupted(base))
    with no_hang(f"loading and playing a corrupted hand-written {game} position"):
        try:
            state = get_game(game).state_from_json(bad)
        except PositionError as exc:
            assert exc.reason and str(exc)
            return
        exercise(state, random.Random(0))  # begun from a position: held to what a position is
