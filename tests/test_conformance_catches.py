"""The conformance checks must fail on games that break the contract."""

from __future__ import annotations

from typing import Any

import pytest

from courtcards.core.conformance import (
    ConformanceError,
    check_actions,
    check_cards,
    check_illegal_unchanged,
    check_json,
    check_pending_hidden,
    check_views,
)
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State
from courtcards.games.rank.state import RankState


def _state() -> RankState:
    state = get_game("rank").new_game(4, seed=11)
    assert isinstance(state, RankState)
    return state


def test_a_leaky_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    original = RankState.view

    def leaky(self: RankState, seat: int | None) -> dict[str, Any]:
        v = original(self, seat)
        v["next_hand"] = self.card_places()["hand:1"]  # seat 1's cards, shown to everyone
        return v

    monkeypatch.setattr(RankState, "view", leaky)
    with pytest.raises(ConformanceError, match="changes when hidden cards"):
        check_views(state, Rng(1), samples=3)


def test_a_draw_pile_top_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    original = RankState.view

    def leaky(self: RankState, seat: int | None) -> dict[str, Any]:
        v = original(self, seat)
        v["draw_top"] = self.card_places()["draw_pile"][-1:]
        return v

    monkeypatch.setattr(RankState, "view", leaky)
    with pytest.raises(ConformanceError):
        check_views(state, Rng(2), samples=5)


def test_a_lost_card_is_caught() -> None:
    state = _state()
    state.hands[0][5] += 1  # a card from nowhere
    with pytest.raises(ConformanceError, match="not conserved"):
        check_cards(state)


def test_a_state_that_forgets_a_field_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    state.tokens[2] = 3
    original = RankState._to_json

    def forgetful(self: RankState) -> dict[str, Any]:
        data = original(self)
        del data["tokens"]
        return data

    monkeypatch.setattr(RankState, "_to_json", forgetful)
    with pytest.raises(ConformanceError, match="round-trip"):
        check_json(state)


def test_duplicate_action_texts_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    original = RankState._legal

    def doubled(self: RankState, seat: int) -> list[Any]:
        legal = original(self, seat)
        return legal + legal[:1]

    monkeypatch.setattr(RankState, "_legal", doubled)
    state._legal_cache = None
    with pytest.raises(ConformanceError, match="duplicate"):
        check_actions(state)


def test_a_revealed_secret_choice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Classic President give-backs are one simultaneous decision of King and Queen (RK-13).
    game = get_game("rank")
    state = game.state_from_json(
        {
            "num_players": 4,
            "hands": [["1", "2", "3"], ["4", "5", "6"], ["7", "8"], ["9", "10", "11", "12"]],
            "characters": ["king", "queen", "knight", "beggar"],
            "phase": "exchange",
            "hand_number": 2,
            "hands_log": [
                {"hand": 1, "finish": [0, 1, 2, 3], "king": 0, "queen": 1, "beggar": 3, "tokens": [2, 1, 0, 0]}
            ],
            "owed": {"0": 2, "1": 1},
            "exchanges": [
                {"from": 3, "to": 0, "cards": ["12", "11"], "why": "tax"},
                {"from": 2, "to": 1, "cards": ["9"], "why": "tax"},
            ],
            "options": {"classic_president": True},
        }
    )
    assert set(state.to_move()) == {0, 1}
    check_pending_hidden(state, 0, state.legal_actions(0)[0], Rng(3))  # the real engine hides it

    original = RankState.view

    def leaky(self: RankState, seat: int | None) -> dict[str, Any]:
        v = original(self, seat)
        v["pending_all"] = {str(s): a.text for s, a in self.pending.items()}
        return v

    monkeypatch.setattr(RankState, "view", leaky)
    with pytest.raises(ConformanceError, match="secret choice"):
        check_pending_hidden(state, 0, state.legal_actions(0)[0], Rng(3))


def test_an_out_of_turn_action_that_is_accepted_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    check_illegal_unchanged(state, Rng(4))  # the real engine refuses every probe

    def careless_verify(self: RankState, seat: int, action: Any) -> Any:
        return State.verify(self, self.to_move()[0], action)  # whoever asks, judged as the mover

    monkeypatch.setattr(RankState, "verify", careless_verify)
    with pytest.raises(ConformanceError, match="was accepted"):
        check_illegal_unchanged(state, Rng(4))
