"""``courtcards analyze``: every game, every output, and one-line refusals that write nothing."""

from __future__ import annotations

import base64
import csv
import importlib.util
import io
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from courtcards.cli import analyze as analyze_cli
from courtcards.cli.main import app
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import get_game

RUNNER = CliRunner()
QUICK = {
    "rank": ["--option", "tokens_to_win=1"],
    "kqp": ["--option", "rounds=1"],
    "royale": [],
    "royals": ["--players", "3"],
}


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, ["analyze", *args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.output


def refused(*args: str) -> str:
    """The error line of a refused command (exit code 2, one line, no traceback)."""
    code, _, output = run(*args)
    assert code == 2, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), output
    return lines[0]


@pytest.mark.parametrize("game", sorted(QUICK))
def test_every_game_reports_as_json(game: str) -> None:
    code, out, _ = run(game, "--games", "4", "--workers", "1", "--json", "-", *QUICK[game])
    assert code == 0
    data = json.loads(out)
    (only,) = data["runs"]
    assert data["game"] == game and only["games"] == 4
    sections = {f["section"] for f in only["figures"]}
    assert {"Win share by seat", "Win share by starting role", "Game length", "Decisiveness and drama"} <= sections
    for f in only["figures"]:
        if f["kind"] != "quantile":
            assert f["low"] <= f["value"] <= f["high"], f
    # every default report opens with its verdict on the seats, each win share with its test
    assert data["verdict"][0].startswith(("Significant seat effect (", "No significant seat effect ("))
    assert data["verdict"][: len(only["verdict"])] == only["verdict"]  # a bot-check hint may follow
    seats = [f for f in only["figures"] if f["section"] == "Win share by seat"]
    assert all(f["test"] == "exact binomial against the even share" and 0 <= f["p"] <= f["p_holm"] <= 1 for f in seats)
    assert sum(only["lengths"]["actions"].values()) == 4


def test_the_default_bots_are_the_games_own() -> None:
    assert get_game("royale").info.analysis_bot == "mixed"  # the equilibrium bot (its GameInfo says so)
    assert analyze_cli.default_bot(get_game("royale")) == "mixed"
    assert analyze_cli.default_bot(get_game("rank")) == "greedy"  # a game that names none
    code, out, _ = run("royale", "--games", "2", "--workers", "1", "--json", "-")
    assert code == 0 and json.loads(out)["runs"][0]["bots"] == ["mixed", "mixed"]


def test_a_game_with_no_observer_gets_a_full_report(monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("royals")
    declared = type(game).profile
    monkeypatch.setattr(
        type(game), "profile", lambda self, layer: None if layer == "observer" else declared(self, layer)
    )
    code, out, _ = run("royals", "--games", "4", "--workers", "1", "--players", "3", "--json", "-")
    assert code == 0
    (only,) = json.loads(out)["runs"]
    sections = {f["section"] for f in only["figures"]}
    assert {"Win share by seat", "Game length", "Decisiveness and drama", "How games end"} <= sections
    assert "Assassinations" not in sections  # Royals' own figures come from its own observer only
    assert set(only["lengths"]) == {"turns", "actions"} and sum(only["lengths"]["turns"].values()) == 4


def test_table_csv_and_the_same_figures_on_two_workers(tmp_path: Path) -> None:
    args = ["rank", "--games", "6", "--seed", "5", "--option", "tokens_to_win=3"]
    code, out, _ = run(*args, "--workers", "1", "--csv", str(tmp_path / "one.csv"))
    assert code == 0 and "Win share by seat" in out and "95% CI" in out and "round taken by a play with a Crown" in out
    assert run(*args, "--workers", "2", "--csv", str(tmp_path / "two.csv"))[0] == 0
    one = (tmp_path / "one.csv").read_text()
    assert one == (tmp_path / "two.csv").read_text()
    rows = list(csv.DictReader(io.StringIO(one)))
    assert {r["section"] for r in rows} >= {"The King", "Special cards: rounds taken"}
    assert all(r["games"] == "6" for r in rows)


def test_sweep_reports_each_combination_with_plots(tmp_path: Path) -> None:
    out_dir = tmp_path / "report"
    code, out, _ = run(
        "rank",
        "--games",
        "3",
        "--workers",
        "1",
        "--sweep",
        "tokens_to_win=1,2",
        "--sweep",
        "players=3,4",
        "--html",
        str(out_dir),
        "--plot",
        str(tmp_path / "len.png"),
        "--json",
        str(tmp_path / "r.json"),
    )
    assert code == 0, out
    runs = json.loads((tmp_path / "r.json").read_text())["runs"]
    assert [(r["sweep"]["tokens_to_win"], r["players"]) for r in runs] == [("1", 3), ("1", 4), ("2", 3), ("2", 4)]
    assert runs[0]["options"]["tokens_to_win"] == 1 and runs[3]["options"]["tokens_to_win"] == 2
    page = (out_dir / "index.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) >= 5 and all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in images)
    assert "tokens_to_win=2, players=4" in page
    # the verdict first, then the figures, then each combination's differences from the first with a test
    assert page.index("<h2>Verdict</h2>") < page.index("<table>") < page.index("<h2>Differences from tokens_to_win=1, ")
    assert "tokens_to_win=1, players=4 against tokens_to_win=1, players=3: " in page
    assert "Holm" in page and "two-proportion z test" in page
    assert "<li><b>tokens_to_win=2, players=4</b>: rank, 4 players, tokens_to_win=2, " in page  # all its options
    assert {p.name for p in out_dir.iterdir()} == {"index.html", "report.json", "figures.csv"}
    assert (tmp_path / "len.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_royale_keeps_its_tier_analysis_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "royale.png"
    code, out, _ = run("royale", "--discards", "3,3,3", "--games", "6", "--workers", "1", "--plot", str(plot))
    assert code == 0
    assert "high card wins on tier" in out and "discards=3,3,3" in out and "mixed bots" in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_sweeps_are_refused_in_one_line() -> None:
    assert "unknown option 'tokens'" in refused("rank", "--sweep", "tokens=1,2")
    assert "option 'tokens_to_win' does not accept 'x'" in refused("rank", "--sweep", "tokens_to_win=1,x")
    assert "NAME=V1,V2" in refused("rank", "--sweep", "tokens_to_win")
    assert "unknown game" in refused("chess").lower()


def test_a_sweep_above_the_games_limit_needs_yes(tmp_path: Path) -> None:
    args = ["royale", "--games", "3", "--workers", "1", "--sweep", "discards=4/3/2,3/3/3", "--max-games", "5"]
    line = refused(*args, "--json", str(tmp_path / "r.json"))
    assert "6 games (2 combinations x 3)" in line and "--yes" in line
    assert not (tmp_path / "r.json").exists()
    code, _, _ = run(*args, "--yes", "--json", str(tmp_path / "r.json"))
    assert code == 0 and len(json.loads((tmp_path / "r.json").read_text())["runs"]) == 2


def test_unwritable_outputs_are_refused_before_playing(tmp_path: Path) -> None:
    missing = tmp_path / "missing" / "dir" / "x.png"
    assert "does not exist" in refused("royale", "--games", "2", "--plot", str(missing))
    assert "cannot write" in refused("royale", "--games", "2", "--html", "/nonexistent/report")
    assert "does not exist" in refused("royale", "--games", "2", "--csv", str(tmp_path / "no" / "f.csv"))
    (tmp_path / "file").write_text("x")
    assert "it is a file" in refused("royale", "--games", "2", "--html", str(tmp_path / "file"))
    assert "it is a folder" in refused("royale", "--games", "2", "--json", str(tmp_path))
    assert not (tmp_path / "missing").exists()


def test_a_failure_while_writing_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> bytes:
        raise CourtcardsError("the plot could not be drawn")

    monkeypatch.setattr(analyze_cli, "length_histogram", broken)
    code, _, output = run(
        "royale",
        "--games",
        "2",
        "--workers",
        "1",
        "--json",
        str(tmp_path / "r.json"),
        "--plot",
        str(tmp_path / "p.png"),
        "--html",
        str(tmp_path / "report"),
    )
    assert code == 2 and output.strip().splitlines()[-1] == "Error: the plot could not be drawn"
    assert list(tmp_path.iterdir()) == []


def test_ray_gives_the_same_report_as_local_processes() -> None:
    if importlib.util.find_spec("ray") is None:  # not imported here: --ray local sets up Ray's loopback mode first
        pytest.skip("Ray is not installed (pip install 'courtcards[scale]')")
    args = ["rank", "--games", "5", "--seed", "11", "--workers", "1", "--option", "tokens_to_win=1", "--json", "-"]
    code, on_ray, output = run(*args, "--ray", "local")  # a local Ray runtime with one CPU
    assert code == 0, output
    code, local, _ = run(*args)
    assert code == 0 and json.loads(on_ray) == json.loads(local)


def test_unreachable_ray_cluster_is_refused() -> None:
    line = refused("royale", "--games", "2", "--ray", "127.0.0.1:1")
    assert "cannot reach the Ray cluster at '127.0.0.1:1'" in line


def test_bare_ray_means_a_local_runtime() -> None:
    assert analyze_cli.bare_ray(["analyze", "rank", "--ray"]) == ["analyze", "rank", "--ray", "local"]
    assert analyze_cli.bare_ray(["analyze", "rank", "--ray", "--games", "3"]) == [
        "analyze",
        "rank",
        "--ray",
        "local",
        "--games",
        "3",
    ]
    assert analyze_cli.bare_ray(["analyze", "--ray", "10.0.0.2:6379"]) == ["analyze", "--ray", "10.0.0.2:6379"]


def test_ray_missing_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    assert "--ray needs Ray: pip install 'courtcards[scale]'" in refused("royale", "--games", "2", "--ray", "local")
