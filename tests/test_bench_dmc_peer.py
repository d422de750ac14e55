"""bench/bench_dmc_peer.py's courtcards half: it plays real batched self-play and counts its decisions.
(The RLCard half installs packages and is not run here.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bench_modules import load_bench

from courtcards.core.game import registered_games

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_dmc_peer.py"


def _bench() -> Any:
    return load_bench("bench_dmc_peer")


@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_the_courtcards_half_counts_the_network_decisions_of_its_games(game: str) -> None:
    players = next(g.default_players for g in registered_games() if g.name == game)
    x = _bench().courtcards_worker(game, players, 0.4, 0.1, 4, [16], seed=3)
    assert x["decisions"] > 0
    assert 0 < x["forward"] < x["wall"] and x["cpu"] > 0
    assert x["games_dealt"] >= 4  # the batch, and any game that ended since


def test_the_torch_network_plays_as_the_numpy_one_does() -> None:
    pytest.importorskip("torch")
    bench = _bench()
    game = registered_games()[0]
    x = bench.courtcards_worker(game.name, game.default_players, 0.3, 0.1, 2, [8], seed=5, backend="torch")
    assert x["decisions"] > 0 and 0 < x["forward"] < x["wall"]


def test_the_bench_prints_its_table_without_the_peer() -> None:
    game = registered_games()[0]
    root = BENCH.parents[1]
    out = subprocess.run(
        [
            *(sys.executable, str(BENCH), "--no-peer", "--games", game.name, "--seconds", "0.3", "--warmup", "0.1"),
            *("--rounds", "2", "--batch-games", "2", "--hidden", "8"),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root)),
    ).stdout
    assert out.count("load average before") == 2
    row = next(line for line in out.splitlines() if line.startswith(f"| courtcards {game.name} "))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "NumPy 1x8, obs -> ids"
    assert float(cells[2].replace(",", "")) > 0 and cells[4] == "-"
