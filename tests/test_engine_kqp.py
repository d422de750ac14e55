"""King Queens & Paupers for computation: action ids, copies, sampled worlds,
observations and returns, from explicit positions (docs/engine/kqp.md)."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import permutations
from typing import Any

import numpy as np
import pytest

from courtcards.core.errors import ActionIdError, NotYourTurnError, PositionError, ViewError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.kqp.cards import parse_card
from courtcards.games.kqp.ids import KqpCodec
from courtcards.games.kqp.state import KqpState

KQP = get_game("kqp")


def pos(**fields: Any) -> KqpState:
    state = KQP.state_from_json(fields)
    assert isinstance(state, KqpState)
    return state


def codec_of(state: KqpState) -> KqpCodec:
    codec = state.action_codec()
    assert isinstance(codec, KqpCodec)
    return codec


def dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def walk(state: KqpState, seat: int, ids: tuple[int, ...]) -> Any:
    """Apply an id sequence on a copy; the engine action it completes."""
    copy = state.copy()
    done = None
    for step, i in enumerate(ids):
        assert i in copy.legal_action_ids(seat)
        done = copy.apply_id(seat, i)
        assert (done is None) == (step < len(ids) - 1)
    return done


def tax_position(**extra: Any) -> KqpState:
    # King 0 got 9 10 from Pauper-2 (seat 3), Queen 1 got G from Pauper-1 (seat 2); both give back now
    return pos(
        hands=[["4", "9", "10", "S", "K"], ["6", "G", "Q"], ["5", "7"], ["3", "3", "8"]],
        positions=[0, 1, 2, 3],
        phase="tax",
        owed={"0": 2, "1": 1},
        taxes=[
            {"from": 3, "to": 0, "cards": ["9", "10"], "why": "tax"},
            {"from": 2, "to": 1, "cards": ["G"], "why": "tax"},
        ],
        **extra,
    )


PLAYED = [["9", "10"], [], [], ["3"]]
HANDS = [["7", "8"], ["12", "G"], ["4", "Q"], ["S", "9", "5"]]


def after_taxes(played: list[list[str]], hands: list[list[str]], turn: int = 0) -> KqpState:
    # the same round in play: the King gave back 3 S, the Queen 4
    return pos(
        hands=hands,
        positions=[0, 1, 2, 3],
        turn=turn,
        played=played,
        taxes=[
            {"from": 3, "to": 0, "cards": ["9", "10"], "why": "tax"},
            {"from": 2, "to": 1, "cards": ["G"], "why": "tax"},
            {"from": 0, "to": 3, "cards": ["3", "S"], "why": "give"},
            {"from": 1, "to": 2, "cards": ["4"], "why": "give"},
        ],
    )


# -- action ids ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "size"), [(4, 130), (5, 144), (6, 158), (9, 158)])
def test_numbering_size_depends_on_the_copies_per_value(players: int, size: int) -> None:
    # KQ-1: 8, 9 or 10 copies of 3..Gold: 14 values x copies, Q, Q Q, K, pass, 14 give ids
    assert KQP.num_distinct_actions(players) == size
    codec = KQP.action_codec(players, {"rounds": 3, "target": None})
    assert codec.size == size
    per = (size - 18) // 14
    assert codec.describe(0) == "3" and codec.describe(size - 19) == " ".join(["G"] * per)
    assert [codec.describe(i) for i in range(size - 18, size - 14)] == ["Q", "Q Q", "K", "pass"]
    assert codec.describe(size - 1).startswith("give G")


def test_every_legal_play_round_trips_through_its_id() -> None:
    state = pos(
        hands=[["8", "8", "8", "9", "9", "S", "S", "Q", "Q", "K"], ["3"], ["3"], ["3"]],
        pile={"cards": ["7", "7"], "owner": 1},
        turn=0,
    )
    legal = state.legal_actions(0)
    assert [a.text for a in legal] == ["8 8", "9 9", "S S", "Q Q", "K", "pass"]
    ids = state.legal_action_ids(0)
    assert sorted(state.action_id(a) for a in legal) == ids
    mask = state.legal_action_mask(0)
    assert mask.dtype == np.bool_ and mask.shape == (130,) and np.flatnonzero(mask).tolist() == ids
    for action in legal:
        assert state.action_from_id(0, state.action_id(action)) == action
        assert walk(state, 0, state.action_ids(action)) == action


def test_the_kings_give_back_is_two_ids_lowest_first() -> None:
    state = tax_position()
    codec = codec_of(state)
    gives = state.legal_actions(0)
    assert [a.text for a in gives] == ["give 4 9", "give 4 10", "give 4 S", "give 9 10", "give 9 S", "give 10 S"]
    for action in gives:
        ids = state.action_ids(action)
        assert len(ids) == 2 and ids[0] < ids[1]
        assert walk(state, 0, ids) == action
    assert [codec.describe(i) for i in state.legal_action_ids(0)] == [
        "give 4 (one card of a give-back)",
        "give 9 (one card of a give-back)",
        "give 10 (one card of a give-back)",
    ]
    assert state.apply_id(0, codec.give_id(9)) is None  # the first card: nothing happens yet
    assert state.id_prefix(0) == (codec.give_id(9),) and state.to_move() == (0, 1)
    assert state.legal_action_ids(0) == [codec.give_id(10), codec.give_id(15)]
    assert [a.text for a in state.legal_actions(0)] == [a.text for a in gives]  # the engine's list is unchanged
    with pytest.raises(ActionIdError, match="not legal now"):
        state.apply_id(0, codec.give_id(4))  # lower than the first card
    done = state.apply_id(0, codec.give_id(15))
    assert done is not None and done.text == "give 9 S" and state.pending[0] == done and state.id_prefix(0) == ()


def test_a_pair_in_a_give_back_is_the_same_id_twice() -> None:
    state = pos(
        hands=[["5", "5", "K"], ["6", "G"], ["7"], ["3"]],
        positions=[0, 1, 2, 3],
        phase="tax",
        owed={"0": 2},
        taxes=[{"from": 3, "to": 0, "cards": ["5", "5"], "why": "tax"}],
    )
    codec = codec_of(state)
    assert state.action_ids("give 5 5") == (codec.give_id(5), codec.give_id(5))
    assert state.legal_action_ids(0) == [codec.give_id(5)]
    state.apply_id(0, codec.give_id(5))
    assert state.legal_action_ids(0) == [codec.give_id(5)]
    state.apply_id(0, codec.give_id(5))
    assert state.view(3)["hand"] == ["3", "5", "5"]


def test_the_queens_give_back_is_one_id() -> None:
    state = tax_position()
    codec = codec_of(state)
    assert state.legal_action_ids(1) == [codec.give_id(6), codec.give_id(16)]
    action = state.action_from_id(1, codec.give_id(16))
    assert action is not None and action.text == "give G"


def test_bad_ids_are_refused_and_leave_the_state_unchanged() -> None:
    state = tax_position()
    state.apply_id(0, codec_of(state).give_id(4))
    before = dump(state.to_json())
    size = state.action_codec().size
    cases: list[tuple[int, Any, type[Exception], str]] = [
        (0, size, ActionIdError, "out of range"),
        (0, -1, ActionIdError, "out of range"),
        (0, "3", ActionIdError, "an integer, not str"),
        (0, 1.0, ActionIdError, "an integer, not float"),
        (0, True, ActionIdError, "an integer, not bool"),
        (0, 0, ActionIdError, "'3' is not legal now"),
        (2, 0, NotYourTurnError, "no decision"),
        (7, 0, ActionIdError, "no seat 7"),
    ]
    for seat, action_id, error, reason in cases:
        with pytest.raises(error, match=reason):
            state.apply_id(seat, action_id)
        assert dump(state.to_json()) == before
    with pytest.raises(NotYourTurnError):
        state.legal_action_mask(3)
    state = after_taxes([[], [], [], []], [["3"], [], [], ["4"]])
    with pytest.raises(ActionIdError, match="a give-back is 1 or 2 cards"):
        state.action_ids("give Q")
    with pytest.raises(ActionIdError, match="no such play"):
        state.action_ids("3 4")
    over = pos(
        hands=[[], [], [], ["5"]],
        positions=[0, 1, 2, 3],
        phase="over",
        finished=[0, 1, 2],
        winner=0,
        scores=[1, 2, 3, 4],
        rounds_log=[{"round": 1, "finish": [0, 1, 2, 3], "points": [1, 2, 3, 4], "scores": [1, 2, 3, 4]}],
        options={"rounds": 1, "target": None},
    )
    with pytest.raises(NotYourTurnError, match="the game is over"):
        over.legal_action_ids(0)


def test_a_large_owed_is_refused_not_listed() -> None:
    # KQ-4: the King gives back at most two cards, the Queen one; a huge 'owed' used to hang legal_actions
    hand = [str(v) for v in range(3, 15) for _ in range(8)]
    for owed, role in (({"0": 12}, "King"), ({"1": 2}, "Queen"), ({"0": 0}, "King")):
        with pytest.raises(PositionError, match=f"the {role}"):
            pos(hands=[hand, ["3"], ["4"], ["5"]], positions=[0, 1, 2, 3], phase="tax", owed=owed)


# -- copies -------------------------------------------------------------------------------------------
def test_a_copy_is_independent_of_its_original() -> None:
    state = tax_position()
    state.apply(0, "give 4 9")
    copy = state.copy()
    assert isinstance(copy, KqpState)
    assert dump(copy.to_json()) == dump(state.to_json())
    copy.apply(1, "give G")
    assert state.phase == "tax" and copy.phase == "play"
    assert state.view(2)["hand"] == ["5", "7"] and copy.view(2)["hand"] == ["5", "7", "G"]
    assert len(state.taxes) == 2 and len(copy.taxes) == 4
    copy.hands[3][3] += 5
    copy.totals[0] += 1
    copy.played[0][3] += 1
    assert state.hands[3][3] == 2 and state.totals[0] == 0 and state.played[0][3] == 0
    assert state.rng.state == copy.rng.state and state.rng is not copy.rng


# -- sampled worlds ------------------------------------------------------------------------------------
def sample(state: KqpState, seat: int, count: int, seed: int = 1) -> list[KqpState]:
    rng = Rng(seed)
    view = state.view(seat)
    worlds = []
    for _ in range(count):
        world = KQP.sample_world(view, rng)
        assert isinstance(world, KqpState)
        assert dump(world.view(seat)) == dump(view)
        if seat in state.to_move():
            assert world.legal_action_ids(seat) == state.legal_action_ids(seat)
            assert [a.text for a in world.legal_actions(seat)] == [a.text for a in state.legal_actions(seat)]
        worlds.append(world)
    return worlds


def hand(world: KqpState, seat: int) -> list[str]:
    return list(world.view(seat)["hand"])


def test_the_king_knows_pauper2_kept_nothing_above_what_it_paid() -> None:
    # KQ-4: Pauper-2 paid its best, 9 and 10; the King gave back 3 and S; Pauper-2 has played a 3 since
    truth = after_taxes(PLAYED, HANDS)
    seen = set()
    for world in sample(truth, 0, 60):
        p2 = hand(world, 3)
        assert p2.count("S") == 1  # the S it got back, never played
        assert not {"10", "11", "12", "13", "14", "G"} & set(p2)
        seen.add(tuple(p2))
    assert len(seen) > 1


def test_pauper2_knows_the_king_holds_what_it_paid() -> None:
    # KQ-4: before the King gives back, the King holds the 9 and 10 Pauper-2 paid
    truth = tax_position(pending={"0": "give 4 9"})
    kings = set()
    commitments = set()
    for world in sample(truth, 3, 60):
        king = hand(world, 0)
        assert "9" in king and "10" in king and len(king) == 5
        action = world.pending[0]
        assert action in world._gives(0)  # redrawn among the King's give-backs in that world
        kings.add(tuple(king))
        commitments.add(action.text)
    assert len(kings) > 1 and len(commitments) > 1


def test_the_queen_forgets_a_give_back_that_may_have_been_played() -> None:
    # the Queen gave Pauper-1 a 4; once Pauper-1 has played a 4 it may be gone
    kept = after_taxes(PLAYED, HANDS, turn=1)
    assert all("4" in hand(w, 2) for w in sample(kept, 1, 40))
    played = after_taxes([["9", "10"], [], ["4"], ["3"]], HANDS, turn=1)
    assert not all("4" in hand(w, 2) for w in sample(played, 1, 40))


def test_pauper1_knows_the_queen_kept_the_gold_she_did_not_give_back() -> None:
    for world in sample(after_taxes(PLAYED, HANDS, turn=2), 2, 40):
        assert "G" in hand(world, 1)


def test_the_seats_own_commitment_is_kept() -> None:
    truth = tax_position(pending={"0": "give 4 9"})
    for world in sample(truth, 0, 10):
        assert world.pending == {0: truth.pending[0]} and world.to_move() == (1,)


def test_a_commoner_sees_counts_only() -> None:
    # 5 players: seat 2 is a Commoner and learns nothing about the tax cards
    state = KQP.new_game(5, seed=11)
    assert isinstance(state, KqpState)
    while state.phase == "tax":
        seat = state.to_move()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    commoner = state.positions[2]
    worlds = sample(state, commoner, 20)
    assert len({dump(w.to_json()["hands"]) for w in worlds}) == 20
    for world in worlds:
        assert [len(e["cards"]) for e in world.taxes] == [len(e["cards"]) for e in state.taxes]


def test_the_sampled_world_has_its_own_generator() -> None:
    # the last play ends the round; the next deal in a sampled world is not the true one
    truth = pos(
        hands=[[], ["9"], [], ["5", "7"]],
        positions=[0, 1, 2, 3],
        finished=[2, 0],
        turn=3,
        played=[["3"], [], ["4"], []],
        rounds_log=[],
        options={"rounds": 2, "target": None},
    )
    truth.apply(3, "5")
    worlds = sample(truth, 3, 5)
    truth.apply(1, "9")
    for world in worlds:
        assert world.rng.state != truth.rng.state
        world.apply(1, "9")
        assert world.round == truth.round == 2 and world.positions == truth.positions
        assert world.view(3)["hand"] != truth.view(3)["hand"]


def _chi2_sf(x: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom > x), by the incomplete gamma series."""
    s, z = dof / 2, x / 2
    term = total = 1 / s
    for k in range(1, 1000):
        term *= z / (s + k)
        total += term
    return 1 - math.exp(s * math.log(z) - z - math.lgamma(s)) * total


def _exact(pool: list[str], sizes: dict[int, int], fits: Any) -> Counter[tuple[tuple[str, ...], ...]]:
    """Every physical deal of ``pool`` (cards told apart) to the seats, kept if ``fits``."""
    counts: Counter[tuple[tuple[str, ...], ...]] = Counter()
    seats = sorted(sizes)
    for order in set(permutations(range(len(pool)))):
        at, hands = 0, []
        for s in seats:
            hands.append(tuple(sorted((pool[i] for i in order[at : at + sizes[s]]), key=parse_card)))
            at += sizes[s]
        if fits(dict(zip(seats, hands, strict=True))):
            counts[tuple(hands)] += 1
    return counts


def pauper2_paid_a_pair() -> KqpState:
    # Pauper-2 (seat 3) paid 9 9 and got back 3 9: the King holds at least one 9, maybe all three left
    return pos(
        hands=[["9", "5", "9"], ["9", "G"], ["5", "4"], ["3", "9", "8"]],
        positions=[0, 1, 2, 3],
        turn=3,
        taxes=[
            {"from": 3, "to": 0, "cards": ["9", "9"], "why": "tax"},
            {"from": 0, "to": 3, "cards": ["3", "9"], "why": "give"},
        ],
    )


UNIFORM_CASES = [
    # the King: Pauper-2 holds the S it got back and nothing else above the 9 it paid
    (
        lambda: after_taxes(PLAYED, HANDS),
        0,
        lambda h: h[3].count("S") == 1 and not {"10", "11", "12", "13", "14", "G"} & set(h[3]),
    ),
    # Pauper-1: the Queen kept the G it paid (she gave back a 4)
    (lambda: after_taxes(PLAYED, HANDS, turn=2), 2, lambda h: "G" in h[1]),
    (pauper2_paid_a_pair, 3, lambda h: "9" in h[0]),
]


@pytest.mark.parametrize(("make", "seat", "fits"), UNIFORM_CASES, ids=["king", "pauper-1", "pauper-2"])
def test_worlds_are_uniform_over_the_deals_that_fit(make: Any, seat: int, fits: Any) -> None:
    truth = make()
    me = truth.view(seat)
    others = {s: len(hand(truth, s)) for s in range(4) if s != seat}
    pool = sorted(c for s in others for c in hand(truth, s))
    exact = _exact(pool, others, fits)
    total = sum(exact.values())
    runs = 3000
    rng = Rng(99)
    seen: Counter[tuple[tuple[str, ...], ...]] = Counter()
    for _ in range(runs):
        world = KQP.sample_world(me, rng)
        seen[tuple(tuple(world.view(s)["hand"]) for s in sorted(others))] += 1
    assert set(seen) <= set(exact)
    chi2 = sum((seen[k] - runs * w / total) ** 2 / (runs * w / total) for k, w in exact.items())
    assert _chi2_sf(chi2, len(exact) - 1) > 0.001, (chi2, len(exact))


def test_bad_views_are_refused() -> None:
    state = after_taxes(PLAYED, HANDS)
    view = state.view(0)
    with pytest.raises(ViewError, match="seat 0's view, not seat 2's"):
        KQP.sample_world(view, 1, seat=2)
    with pytest.raises(ViewError, match="spectator"):
        KQP.sample_world(state.view(None), 1)
    with pytest.raises(ViewError, match="not a King Queens & Paupers view"):
        KQP.sample_world(get_game("rank").new_game(4, seed=1).view(0), 1)
    broken = json.loads(json.dumps(view))
    del broken["players"]
    with pytest.raises(ViewError, match="malformed King Queens & Paupers view: KeyError"):
        KQP.sample_world(broken, 1)
    broken = json.loads(json.dumps(view))
    broken["hand"].append("S")
    with pytest.raises(ViewError, match="holds 3 cards, not 2"):
        KQP.sample_world(broken, 1)
    broken = json.loads(json.dumps(view))
    broken["discard"] = broken["discard"][5:]
    with pytest.raises(ViewError, match="do not add up"):
        KQP.sample_world(broken, 1)
    with pytest.raises(TypeError, match="rng must be"):
        KQP.sample_world(view, "seed")  # type: ignore[arg-type]


# -- observations -----------------------------------------------------------------------------------
def block(state: KqpState, name: str, seat: int) -> np.ndarray:
    from courtcards.games.kqp.observation import _layout

    start, size = _layout(state.num_players)[name]
    return state.observation_tensor(seat)[start : start + size]


def test_observation_shape_and_blocks() -> None:
    state = after_taxes(PLAYED, HANDS)
    assert KQP.observation_shape(4) == (176 + 4 * 30,)
    assert KQP.observation_shape(9, {"rounds": 2, "target": None}) == (176 + 9 * 30,)
    tensor = state.observation_tensor(3)
    assert tensor.dtype == np.float32 and tensor.shape == KQP.observation_shape(4)
    hand3 = block(state, "hand", 3)  # S 9 5, as fractions of the 8 copies at 4 players
    assert hand3[5 - 3] == hand3[9 - 3] == hand3[15 - 3] == np.float32(1 / 8) and hand3.sum() == np.float32(3 / 8)
    assert block(state, "paid", 3)[[9 - 3, 10 - 3]].tolist() == [1 / 8, 1 / 8]
    assert block(state, "got_back", 3)[[3 - 3, 15 - 3]].tolist() == [1 / 8, 1 / 8]
    assert not block(state, "paid", 1).any() and block(state, "taxed", 1)[16 - 3] == np.float32(1 / 8)
    seats = block(state, "seats", 3).reshape(4, 29)
    # seat 3 first, then clockwise (Pauper-2 leads, then Pauper-1 = seat 2, ...); roles one-hot first
    assert seats[0, 4] == 1 and seats[1, 3] == 1 and seats[3, 0] == 1
    assert seats[3, 5 + 8 + 9 - 3] == np.float32(1 / 8)  # the King has played a 9 this round


def test_observations_depend_on_the_view_only() -> None:
    a = after_taxes(PLAYED, HANDS)
    b = after_taxes(PLAYED, [["7", "8"], ["12", "G"], ["9", "Q"], ["S", "4", "5"]])  # Pauper-1 and -2 swap 4 and 9
    for seat in (0, 1):
        assert dump(a.view(seat)) == dump(b.view(seat))
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
        assert a.observation_string(seat) == b.observation_string(seat)
        assert KQP.observation_string(a.view(seat)) == a.observation_string(seat)
    assert not np.array_equal(a.observation_tensor(2), b.observation_tensor(2))
    assert a.observation_string(3) != b.observation_string(3)


def test_the_partial_give_back_is_observed() -> None:
    state = tax_position()
    before = state.observation_tensor(0)
    text = state.observation_string(0)
    state.apply_id(0, codec_of(state).give_id(10))
    assert block(state, "choosing", 0)[10 - 3] == np.float32(1 / 8) and block(state, "choosing", 0).sum() == 1 / 8
    assert not np.array_equal(state.observation_tensor(0), before)
    assert state.observation_string(0) == text + "\nchoosing a give-back: 10 so far"
    assert np.array_equal(state.observation_tensor(1), KQP.observation_tensor(state.view(1)))  # others see nothing
    state.apply_id(0, codec_of(state).give_id(15))
    assert block(state, "mine", 0).sum() == np.float32(2 / 8) and "committed: give 10 S" in state.observation_string(0)
    assert block(state, "seats", 1).reshape(4, 29)[1, 5 + 6] == 1  # the Queen sees the King (next after her) commit


def test_observation_of_a_malformed_view_is_refused() -> None:
    with pytest.raises(ViewError, match="spectator"):
        KQP.observation_tensor(after_taxes(PLAYED, HANDS).view(None))
    with pytest.raises(ViewError, match="num_players"):
        KQP.observation_string({"game": "kqp", "num_players": 12, "seat": 0})


# -- returns -----------------------------------------------------------------------------------------
def test_returns_reward_the_lowest_total() -> None:
    # KQ-9: lowest total wins; the winner gets +1, every other seat -1/3, only at the end
    state = pos(
        hands=[[], ["9"], [], ["5", "7"]],
        positions=[0, 1, 2, 3],
        finished=[2, 0],
        turn=3,
        scores=[9, 2, 6, 3],
        round=2,
        options={"rounds": 2, "target": None},
        rounds_log=[{"round": 1, "finish": [1, 3, 2, 0], "points": [4, 1, 3, 2], "scores": [4, 1, 3, 2]}],
    )
    state.apply(3, "5")
    assert state.returns() == [0.0] * 4 and state.rewards() == [0.0] * 4
    state.apply(1, "9")  # finish 2 0 1 3: totals 11 5 9 7
    assert state.is_over() and state.result() is not None and state.result().winner == 1  # type: ignore[union-attr]
    assert state.returns() == [-1 / 3, 1.0, -1 / 3, -1 / 3] == state.rewards()
