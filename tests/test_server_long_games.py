"""Stored games of any length come back (issue 30, item 1): a table, its record and its replay load
after a restart however long the history, though a position sent by a client keeps its limits."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from test_server_api import create, join, play_out, table_of

from courtcards.core.errors import PositionError
from courtcards.core.game import get_game
from courtcards.core.positions import MAX_LIST
from courtcards.core.record import GameRecord
from courtcards.core.state import State
from courtcards.server import create_app, database_url, replay
from courtcards.server.db import actions_t, make_engine, snapshots_t, tables_t

LENGTH = 50_000
OPTIONS = {"endless": True, "hands": 560}  # about 91 actions a hand: the game ends just after LENGTH


class LongGame(NamedTuple):
    final: State
    snapshots: dict[int, dict[str, Any]]  # what today's server stored at these versions: the whole state


@pytest.fixture(scope="module")
def long_game() -> LongGame:
    return build_long_game()


def build_long_game() -> LongGame:
    """One whole game of more than LENGTH actions (random legal moves, straight on the engine: about 1 s)."""
    game = get_game("rank")
    state = game.new_game(4, game.resolve_options(4, OPTIONS), 7)
    rng = random.Random(3)
    snapshots = {}
    while not state.is_over():
        if state.version in (LENGTH - 37, LENGTH):
            snapshots[state.version] = state.to_json()
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)).text)
    assert state.version > LENGTH
    snapshots[state.version] = state.to_json()
    return LongGame(state, snapshots)


def store_history(url: str, tid: str, game: LongGame, version: int, snapshot_at: int | None) -> None:
    """Write the first ``version`` actions of ``final`` into the action log of table ``tid`` in one
    statement, with an old-style snapshot at ``snapshot_at``: what a long game leaves in the database."""
    final = game.final
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            rows = [
                {"table_id": tid, "idx": i, "seat": s, "text": t, "at": 0.0}
                for i, (s, t) in enumerate(final.history[:version])
            ]
            conn.execute(actions_t.insert(), rows)
            conn.execute(snapshots_t.delete().where(snapshots_t.c.table_id == tid))
            if snapshot_at is not None:
                conn.execute(
                    snapshots_t.insert().values(table_id=tid, version=snapshot_at, state=game.snapshots[snapshot_at])
                )
            done = version == final.version
            values: dict[str, Any] = {"version": version, "updated": time.time()}
            if done:
                values.update(finished=True, status="finished", result=final.result().to_json())  # type: ignore[union-attr]
            conn.execute(sa.update(tables_t).where(tables_t.c.id == tid).values(**values))
    finally:
        engine.dispose()


def new_tables(url: str) -> tuple[str, str, list[str]]:
    """Two empty four-seat tables of the long game's deal (every seat joined): ids and the first one's tokens."""
    with TestClient(create_app(url)) as c:
        ids = [create(c, "rank", 4, options=OPTIONS)["id"] for _ in range(2)]
        tokens = [join(c, ids[0], s) for s in range(4)]
        for s in range(4):
            join(c, ids[1], s)
    return ids[0], ids[1], tokens


def check_long_games(url: str, game: LongGame, replay: bool) -> None:
    """The unfinished table and the finished one come back from the database, play on and (``replay``)
    play back."""
    final = game.final
    playing, finished, tokens = new_tables(url)
    # the unfinished table: an old snapshot with a history longer than any position may send
    store_history(url, playing, game, LENGTH, snapshot_at=LENGTH - 37)
    store_history(url, finished, game, final.version, snapshot_at=final.version)
    with TestClient(create_app(url)) as c:
        r = c.get(f"/api/tables/{playing}")
        assert r.status_code == 200, r.text
        assert r.json()["table"]["version"] == LENGTH
        state = table_of(c, playing).state
        assert state.history == final.history[:LENGTH]
        assert state.to_json() == game.snapshots[LENGTH]
        play_out(c, playing, tokens, random.Random(1), limit=2)  # and it plays on
        assert table_of(c, playing).state.version == LENGTH + 2

        assert c.get(f"/api/tables/{finished}").json()["table"]["status"] == "finished"
        record = c.get(f"/api/tables/{finished}/record")
        assert record.status_code == 200, record.text
        assert GameRecord.from_json(record.json()).actions == final.history
        if replay:
            data = c.get(f"/api/tables/{finished}/replay")
            assert data.status_code == 200, data.text
            assert len(data.json()["actions"]) == final.version
            assert [m["label"] for m in data.json()["marks"]][-1] == f"Hand {OPTIONS['hands']}"
            last = c.get(f"/api/tables/{finished}/replay/{final.version}")
            assert last.status_code == 200, last.text
            assert last.json()["places"] == final.card_places()
        table_of(c, playing).snapshot_every = 1
        play_out(c, playing, tokens, random.Random(2), limit=1)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            snap = conn.execute(
                sa.select(snapshots_t.c.version, snapshots_t.c.state).where(snapshots_t.c.table_id == playing)
            ).one()
    finally:
        engine.dispose()
    # snapshots the server writes now leave the history to the action log: their size does not grow with it
    assert snap[0] == LENGTH + 3 and snap[1]["history"] == []
    with TestClient(create_app(url)) as c:  # and a table loads from one of those too
        assert table_of(c, playing).state.history[:LENGTH] == final.history[:LENGTH]
        assert c.get(f"/api/tables/{playing}").json()["table"]["version"] == LENGTH + 3


def test_a_position_from_a_client_keeps_its_limit(long_game: LongGame) -> None:
    data = {**long_game.snapshots[LENGTH], "history": [[0, "x"]] * (MAX_LIST + 1)}
    with pytest.raises(PositionError, match="more than"):
        long_game.final.game.state_from_json(data)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield database_url(None, tmp_path / "cc.sqlite")


def test_a_long_game_loads_and_plays_on_sqlite(sqlite_url: str, long_game: LongGame) -> None:
    check_long_games(sqlite_url, long_game, replay=False)


@pytest.mark.slow
def test_a_long_game_replays_on_sqlite(sqlite_url: str, long_game: LongGame) -> None:
    check_long_games(sqlite_url, long_game, replay=True)


def test_replay_marks_found_by_bisection_are_those_of_every_step(long_game: LongGame) -> None:
    record = long_game.final.record()
    record.actions = record.actions[:3000]
    state = record.initial_state()
    word = state.game.info.round_word
    naive, prev = [], None
    for step in range(len(record.actions) + 1):
        if step:
            state.apply(*record.actions[step - 1])
        value = state.view(None).get("round")
        if value != prev and value is not None:
            naive.append({"label": f"{word} {value}", "step": step})
        prev = value
    assert len(naive) > 20
    for every in (7, 50):
        assert replay.build(record, every).marks == naive
