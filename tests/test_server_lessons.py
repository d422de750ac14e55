"""Learn to play's table (courtcards/server/lessons.py): every registered game's lesson is a table the
game allows, on its shortest preset, and a lesson played by bots from the lobby's setup reaches the end."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from courtcards.core.game import game_names, get_game
from courtcards.server import create_app, database_url
from courtcards.server.lessons import LESSON_SEED, lesson


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, tmp_path / "lessons.sqlite"))) as c:
        yield c


def playout_turns(name: str, players: int, preset: str | None, rng_seed: int) -> int:
    """Seat 0's decisions in one random playout of the lesson deal (written here apart from lessons.py)."""
    state = get_game(name).new_game(players, seed=LESSON_SEED, preset=preset)
    rng = random.Random(rng_seed)
    mine = 0
    while not state.is_over():
        seat = state.to_move()[0]
        mine += seat == 0
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return mine


@pytest.mark.parametrize("name", game_names())
def test_the_lesson_is_the_games_shortest_preset_at_a_table_it_allows(name: str) -> None:
    g = get_game(name)
    found = lesson(name)
    assert found["seed"] == LESSON_SEED
    assert max(2, g.min_players) == found["players"] <= g.max_players
    assert found["preset"] is None or found["preset"] in g.options.presets
    for preset in g.options.presets:
        mean = sum(playout_turns(name, found["players"], preset, r) for r in range(5)) / 5
        assert found["turns"] <= mean, (preset, mean, found)
    assert found["turns"] >= 1


def test_the_api_offers_each_games_lesson_and_a_bots_only_lesson_table_ends(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == game_names()
    for g in games:
        assert g["lesson"] == lesson(g["name"])
        setup = g["lesson"]
        r = client.post(
            "/api/tables",
            json={
                "game": g["name"],
                "players": setup["players"],
                "preset": setup["preset"],
                "seed": setup["seed"],
                "bot_delay": 0,
                "seats": [{"type": "bot", "bot": "random"}] * setup["players"],
            },
        )
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        assert table["options"] == get_game(g["name"]).resolve_options(setup["players"], None, setup["preset"])
        end = time.time() + 60
        while client.get(f"/api/tables/{table['id']}").json()["table"]["status"] != "finished":
            assert time.time() < end, f"the bots did not finish {g['name']}'s lesson"
            time.sleep(0.05)
