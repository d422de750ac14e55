"""``simulate --json / --csv``: one row per game, named as ``analyze`` names its fields, and the published schema."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from courtcards.cli.main import app
from courtcards.core.game import get_game
from courtcards.sim import play_game, play_one, rows_csv, rows_json, simulate

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[1] / "docs" / "schemas" / "analysis" / "simulate-rows.json").read_text()
)
RUNNER = CliRunner()


def test_rows_agree_with_the_games_and_replay_from_their_seeds() -> None:
    bots = ["greedy", "random", "random"]
    result = simulate("rank", bots, 4, seed=5, options={"tokens_to_win": 2})
    data = json.loads(rows_json(result))
    assert [r["index"] for r in data["rows"]] == [0, 1, 2, 3]
    for row in data["rows"]:
        out = play_one("rank", bots, row["index"], 5, {"tokens_to_win": 2})
        assert row["bots"] == list(out.kinds) and row["winner"] == out.winner and row["actions"] == out.actions
        assert sorted(row["places"]) == [1, 2, 3] and row["places"][out.winner] == 1
        state, _ = play_game("rank", bots, row["index"], 5, {"tokens_to_win": 2})
        assert row["game_seed"] == state.record().seed  # the deal is replayed from the row alone
        fresh = get_game("rank").new_game(row["players"], row["options"], row["game_seed"])
        assert fresh.view(None) == state.record().initial_state().view(None)
        res = state.result()
        assert res is not None and row["scores"] == list(res.scores)
    assert data["rows"][0]["bots"] == bots and data["rows"][1]["bots"] == ["random", "greedy", "random"]
    assert data["options"]["tokens_to_win"] == 2 and data["games"] == 4
    # the same fields as analyze's JSON
    assert {"game", "players", "bots", "seed", "games", "preset", "options"} <= set(data)


def test_csv_has_a_line_a_game_with_seat_columns() -> None:
    result = simulate("royals", ["greedy", "random", "random"], 3, seed=2)
    rows = list(csv.DictReader(io.StringIO(rows_csv(result))))
    assert len(rows) == 3
    head = list(rows[0])
    assert head[:6] == ["game", "players", "seed", "index", "game_seed", "preset"]
    assert head[-9:] == [f"{w}_{s}" for w in ("bot", "place", "score") for s in range(3)]
    for line, row in zip(rows, result.rows(), strict=True):
        assert line["bots"] == ",".join(row["bots"]) and [line[f"bot_{s}"] for s in range(3)] == row["bots"]
        assert line["winner"] == ("" if row["winner"] is None else str(row["winner"]))
        assert [int(line[f"place_{s}"]) for s in range(3)] == row["places"]
        assert [int(line[f"score_{s}"]) for s in range(3)] == row["scores"]
        assert line["max_turns"] == ""  # an option left unset, in a column of its name


def test_simulate_writes_rows_to_files_and_stdout(tmp_path: Path) -> None:
    args = ["simulate", "kqp", "--players", "4", "--games", "3", "--workers", "1", "-o", "rounds=1"]
    out = RUNNER.invoke(app, [*args, "--json", "-"])
    assert out.exit_code == 0, out.output
    data: dict[str, Any] = json.loads(out.stdout)
    assert len(data["rows"]) == 3 and data["rows"][0]["options"]["rounds"] == 1
    path = tmp_path / "games.csv"
    out = RUNNER.invoke(app, [*args, "--csv", str(path)])
    assert out.exit_code == 0 and "kqp" in out.stdout
    assert len(path.read_text().splitlines()) == 4
    out = RUNNER.invoke(app, [*args, "--csv", str(tmp_path / "missing" / "x.csv")])
    assert out.exit_code == 2
    assert out.output.strip().startswith("Error: cannot write the file ") and "does not exist" in out.output


def test_rows_follow_the_published_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    result = simulate("royale", ["mixed", "random"], 3, seed=1)
    data = json.loads(rows_json(result))
    jsonschema.validate(data, SCHEMA)
    data["rows"][0]["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)
    assert set(SCHEMA["$defs"]["row"]["required"]) == set(result.rows()[0])
