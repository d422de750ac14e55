"""bench/bench_peers.py's courtcards half: both ways of playing (one call per action, the engine's whole
playout) play the same games and count their actions. (The OpenSpiel half needs its own environment and
is not run here.)"""

from __future__ import annotations

import pytest
from bench_modules import load_bench

from courtcards.core.conformance import random_playout
from courtcards.core.game import get_game, registered_games


@pytest.mark.parametrize("game", [g.name for g in registered_games()])
def test_both_ways_play_the_same_games(game: str) -> None:
    bench = load_bench("bench_peers")
    players = get_game(game).default_players
    step = bench.playouts(game, players, False, 60.0, 3, games=2)
    whole = bench.playouts(game, players, True, 60.0, 3, games=2)
    assert step["games"] == whole["games"] == 2
    assert step["actions"] == whole["actions"] > 0
    assert step["cpu"] > 0 and whole["cpu"] > 0


def test_the_worker_measures_every_game_it_is_given_both_ways() -> None:
    bench = load_bench("bench_peers")
    game = registered_games()[0]
    out = bench.ours_worker([f"{game.name}:{game.default_players}"], 0.05, 1)
    assert sorted(out) == [f"{game.name}:{game.default_players}/{m}" for m in ("step", "whole")]
    for x in out.values():
        assert x["games"] >= 1 and x["actions"] >= x["games"]
    # the actions counted are a real game's: the one random_playout plays with the same seed
    one = bench.playouts(game.name, game.default_players, True, 60.0, 9, games=1)
    assert one["actions"] == len(random_playout(game, game.default_players, {}, seed=9).history)
