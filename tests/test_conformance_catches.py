"""The conformance checks must fail on games that break the contract."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from engine_build import pure_only

from courtcards.core.conformance import (
    ConformanceError,
    check_actions,
    check_cards,
    check_copy,
    check_ids,
    check_illegal_unchanged,
    check_json,
    check_observations,
    check_pending_hidden,
    check_refusals,
    check_returns,
    check_view_types,
    check_views,
    check_vocabulary,
    check_worlds,
)
from courtcards.core.errors import CourtcardsError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.core.state import State
from courtcards.games.rank.state import RankState

pytestmark = pure_only  # broken games are made by patching RankState


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
        v["draw_top"] = self.card_places()["draw_pile"][:1]  # top card first
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
    original = RankState.legal_actions

    def doubled(self: RankState, seat: int) -> list[Any]:
        legal = original(self, seat)
        return legal + legal[:1]

    monkeypatch.setattr(RankState, "legal_actions", doubled)
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
            "round": 2,
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


def _playing_state() -> RankState:
    """Rank 4p a few plays into the first hand."""
    state = _state()
    rng = Rng(5)
    for _ in range(6):
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


def test_a_shallow_copy_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_copy(state, Rng(6))  # the real copy is independent

    def shallow(self: RankState, new: State) -> None:  # the game's fields shared, not copied
        for name, value in vars(self).items():
            vars(new).setdefault(name, value)

    monkeypatch.setattr(RankState, "_copy_into", shallow)
    with pytest.raises(ConformanceError, match="shares mutable parts"):
        check_copy(state, Rng(6))


def test_a_copy_sharing_the_generator_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    original = RankState._copy_into

    def same_rng(self: RankState, new: State) -> None:
        original(self, new)
        new.rng = self.rng

    monkeypatch.setattr(RankState, "_copy_into", same_rng)
    with pytest.raises(ConformanceError, match=r"shares mutable parts with its original: rng"):
        check_copy(state, Rng(6))


def _broken_codec(monkeypatch: pytest.MonkeyPatch, encode: Any) -> None:
    game = get_game("rank")
    codec = type(game.action_codec(4, {}))
    monkeypatch.setattr(codec, "_encode", encode)
    game.__dict__.pop("_codecs", None)  # drop encodings cached before the patch
    monkeypatch.setattr(codec, "encode", lambda self, action: self._encode(action))


def test_two_actions_with_one_id_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_ids(state, Rng(7))
    real = type(get_game("rank").action_codec(4, {}))._encode
    legal = state.legal_actions(state.to_move()[0])
    first, second = legal[0], legal[1]
    shared = real(get_game("rank").action_codec(4, {}), first)
    _broken_codec(monkeypatch, lambda self, action: shared if action == second else real(self, action))
    state._ids_cache = None
    with pytest.raises(ConformanceError, match="share the ids|maps back"):
        check_ids(state, Rng(7))


def test_a_mask_with_an_extra_id_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    original = State.legal_action_mask

    def loose(self: State, seat: int) -> Any:
        mask = original(self, seat)
        mask[np.flatnonzero(~mask)[:1]] = True
        return mask

    monkeypatch.setattr(RankState, "legal_action_mask", loose)
    with pytest.raises(ConformanceError, match="mask of seat"):
        check_ids(state, Rng(8))


def test_an_id_that_maps_to_another_action_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    original = State.action_from_id

    def shifted(self: State, seat: int, action_id: int) -> Any:
        legal = self.legal_actions(seat)
        found = original(self, seat, action_id)
        return legal[(legal.index(found) + 1) % len(legal)] if found in legal and len(legal) > 1 else found

    monkeypatch.setattr(RankState, "action_from_id", shifted)
    with pytest.raises(ConformanceError, match="maps back"):
        check_ids(state, Rng(9))


def test_an_accepted_bad_id_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_illegal_unchanged(state, Rng(10))
    original = State.apply_id

    def lenient(self: State, seat: int, action_id: Any) -> Any:
        try:
            return original(self, seat, action_id)
        except CourtcardsError:
            return None  # swallows the refusal: the caller believes it was taken

    monkeypatch.setattr(RankState, "apply_id", lenient)
    with pytest.raises(ConformanceError, match="was accepted"):
        check_illegal_unchanged(state, Rng(10))


def test_an_observation_reading_hidden_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_observations(state, Rng(11))
    original = State.observation_tensor

    def peeking(self: State, seat: int) -> Any:
        out = original(self, seat).copy()
        out[0] = float(hash(tuple(sorted(self.card_places()["hand:1"]))) % 1009)  # seat 1's cards, in any view
        return out

    monkeypatch.setattr(RankState, "observation_tensor", peeking)
    with pytest.raises(ConformanceError, match="observation tensor of seat"):
        check_observations(state, Rng(11))


def test_an_observation_string_reading_hidden_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    original = State.observation_string

    def peeking(self: State, seat: int) -> str:
        return original(self, seat) + " next:" + ",".join(self.card_places()["draw_pile"][:3])

    monkeypatch.setattr(RankState, "observation_string", peeking)
    with pytest.raises(ConformanceError, match="observation string of seat"):
        check_observations(state, Rng(12))


def test_a_world_that_keeps_the_true_generator_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_worlds(state, Rng(13))
    game = get_game("rank")
    original = type(game)._sample_world

    def foreseeing(self: Any, view: Any, rng: Rng) -> State:
        world: State = original(self, view, rng)
        world.rng = state.rng.copy()  # future deals are the true ones
        return world

    monkeypatch.setattr(type(game), "_sample_world", foreseeing)
    with pytest.raises(ConformanceError, match="true generator"):
        check_worlds(state, Rng(13))


def test_a_world_that_changes_the_view_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    game = get_game("rank")
    original = type(game)._sample_world

    def careless(self: Any, view: Any, rng: Rng) -> State:
        world = original(self, view, rng)
        assert isinstance(world, RankState)
        seat = view["seat"]
        world.hands[seat], world.hands[(seat + 1) % 4] = world.hands[(seat + 1) % 4], world.hands[seat]
        return world

    monkeypatch.setattr(type(game), "_sample_world", careless)
    with pytest.raises(ConformanceError, match="another view"):
        check_worlds(state, Rng(14))


def test_returns_before_the_end_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _playing_state()
    check_returns(state)
    monkeypatch.setattr(RankState, "returns", lambda self: [1.0, 0.0, 0.0, -1.0])
    with pytest.raises(ConformanceError, match="before the end"):
        check_returns(state)


def test_returns_that_are_not_zero_sum_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from courtcards.core.conformance import random_playout

    state = random_playout(get_game("rank"), 3, {"tokens_to_win": 1}, seed=3)
    check_returns(state)
    winner = state.result().winner  # type: ignore[union-attr]
    monkeypatch.setattr(RankState, "returns", lambda self: [1.0 if s == winner else 0.0 for s in range(3)])
    monkeypatch.setattr(RankState, "rewards", lambda self: self.returns())
    with pytest.raises(ConformanceError, match="zero-sum"):
        check_returns(state)


def test_a_view_outside_its_type_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing_extensions import TypedDict

    from courtcards.core.views import closed

    @closed
    class TooNarrow(TypedDict):  # the Rank view has many more fields than this
        game: str
        seat: int | None

    state = _state()
    monkeypatch.setattr(type(state.game), "view_type", TooNarrow)
    monkeypatch.setattr(state.game, "_view_adapter", None, raising=False)  # undone after, whatever it caches
    with pytest.raises(ConformanceError, match="does not fit TooNarrow"):
        check_view_types(state)

    @closed
    class Loose(TypedDict, total=False):
        game: int  # the wrong type

    monkeypatch.setattr(type(state.game), "view_type", Loose)
    monkeypatch.setattr(state.game, "_view_adapter", None, raising=False)  # undone after, whatever it caches
    with pytest.raises(ConformanceError, match="does not fit Loose"):
        check_view_types(state)


def test_refusals_that_disagree_with_the_legal_list_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    pool = set(legal) | {state.game.parse_action("pass")}  # a leader may not pass
    check_refusals(state, Rng(2), pool)  # the real rules agree

    monkeypatch.setattr(RankState, "refusal", lambda self, seat, action: None)
    with pytest.raises(ConformanceError, match="gives no reason"):
        check_refusals(state, Rng(2), pool)

    monkeypatch.setattr(RankState, "refusal", lambda self, seat, action: "no")
    with pytest.raises(ConformanceError, match="is refused"):
        check_refusals(state, Rng(2), pool)


def test_views_that_leave_the_shared_words_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state()
    check_vocabulary(state)  # Rank speaks them
    original = RankState.view

    def dialect(self: RankState, seat: int | None) -> dict[str, Any]:
        v = original(self, seat)
        for p in v["players"]:
            p["cards"] = p.pop("hand_size")  # a game's own word for a shared thing
        return v

    monkeypatch.setattr(RankState, "view", dialect)
    with pytest.raises(ConformanceError, match="departs from the shared words.*says 'cards'"):
        check_vocabulary(state)

    def spectator_sees_a_hand(self: RankState, seat: int | None) -> dict[str, Any]:
        v = original(self, seat)
        if seat is None:
            v["hand"] = ["7"]
        return v

    monkeypatch.setattr(RankState, "view", spectator_sees_a_hand)
    with pytest.raises(ConformanceError, match="spectator's 'hand' is not empty"):
        check_vocabulary(state)
    monkeypatch.setattr(RankState, "view", original)

    from courtcards.core.views import ViewHeader

    class NoLog(ViewHeader):
        round: int
        turn: int | None
        hand: list[str]

    monkeypatch.setattr(type(state.game), "view_type", NoLog)
    with pytest.raises(ConformanceError, match="NoLog does not build on ViewBase"):
        check_vocabulary(state)
