"""The variant's rule on explicit positions, and the engine's checks on it."""

from __future__ import annotations

import pytest
from courtcards_rank_knights import GAME, KnightsGame

from courtcards.core.conformance import check_playout
from courtcards.core.game import get_game
from courtcards.core.rng import Rng


def test_registered_under_its_own_name() -> None:
    assert get_game("rank_knights") is GAME
    assert isinstance(GAME, KnightsGame)
    assert GAME.info.gym_id == "courtcards/RankKnights-v0"
    assert GAME.min_players == 3 and GAME.max_players == 12


@pytest.mark.parametrize(
    ("finish", "expected"),
    [
        ([2, 0, 1, 3], [1, 1, 2, 0]),  # King seat 2: 2; Queen seat 0: 1; Knight seat 1: 1; Beggar seat 3: none
        ([0, 1, 2], [2, 1, 0]),  # 3 players: no Knights, as in Rank
        ([4, 3, 2, 1, 0], [0, 1, 1, 1, 2]),
    ],
)
def test_tokens_hook(finish: list[int], expected: list[int]) -> None:
    assert GAME.hooks.tokens(finish, len(finish)) == expected


def test_a_hand_ends_with_knights_tokens() -> None:
    # random moves until the first hand ends, then the tokens against its finish (RK-10 as varied)
    state = GAME.new_game(5, {"tokens_to_win": 100}, seed=3)
    rng = Rng(7)
    while not state.to_json()["hands_log"]:
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    hands = state.to_json()["hands_log"]
    assert hands, "a hand ended"
    first = hands[0]
    finish = first["finish"]
    tokens = first["tokens"]
    assert tokens[finish[0]] == 2 and tokens[finish[1]] == 1 and tokens[finish[-1]] == 0
    assert all(tokens[s] == 1 for s in finish[2:-1])
    sentences = [e["text"] for e in state.events.last(10_000, None) if e["text"].startswith("Hand 1 is over")]
    assert sentences and f"seat {finish[2]} Knight (+1 token)" in sentences[0]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_conforms(players: int) -> None:
    check_playout(GAME, players, {"tokens_to_win": 3}, seed=players)


def test_views_name_the_variant() -> None:
    state = GAME.new_game(4, seed=1)
    assert state.view(0)["game"] == "rank_knights"
    world = GAME.sample_world(state.view(0), 5)
    assert world.game is GAME
