"""Rank Royale's computation interface from explicit positions: action ids and
masks, observations, fair world sampling, copies, returns (docs/engine/royale.md)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from courtcards.core.errors import ActionIdError, NotYourTurnError, PositionError, ViewError
from courtcards.core.game import get_game
from courtcards.core.rng import Rng
from courtcards.games.royale.actions import RoyaleAction
from courtcards.games.royale.cards import TEXT, parse_card
from courtcards.games.royale.game import RoyaleGame
from courtcards.games.royale.ids import DISCARD_BASE, SIZE
from courtcards.games.royale.observation import P, S
from courtcards.games.royale.state import RoyaleState

GAME = get_game("royale", RoyaleGame)
H0 = ["AS", "3S", "7S", "9S", "QS", "KS"]
H1 = ["2H", "4H", "5H", "8H", "JH", "KH"]


def position(**data: Any) -> RoyaleState:
    state = GAME.state_from_json({"game": "royale", **data})
    assert isinstance(state, RoyaleState)
    return state


def dump(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


def ids(*cards: str, base: int = 0) -> list[int]:
    return [base + parse_card(c) for c in cards]


def discard_phase() -> RoyaleState:
    """Seat 1 lost Middle against Low and owes 3 of 4H 5H 8H JH KH (RR-2, RR-4)."""
    state = position(hands=[H0, H1], seed=3)
    state.apply(0, "7S")
    state.apply(1, "2H")
    assert state.to_move() == (1,) and state.owe == 3
    return state


# -- action ids -------------------------------------------------------------------------


def test_numbering_is_the_same_for_every_option() -> None:
    for _, options in GAME.test_configs():
        codec = GAME.action_codec(2, options)
        assert codec.size == SIZE == 104 == GAME.num_distinct_actions(2, options)
    codec = GAME.action_codec(2)
    assert codec.describe(0) == "play AC" and codec.describe(51) == "play KS"
    assert codec.describe(DISCARD_BASE + parse_card("7H")).startswith("discard 7H")
    with pytest.raises(ActionIdError, match="out of range"):
        codec.describe(SIZE)


def test_play_ids_round_trip_and_mask() -> None:
    state = position(hands=[H0, H1])
    for seat, hand in ((0, H0), (1, H1)):
        assert state.legal_action_ids(seat) == sorted(ids(*hand))
        mask = state.legal_action_mask(seat)
        assert mask.dtype == np.bool_ and mask.shape == (SIZE,)
        assert np.flatnonzero(mask).tolist() == state.legal_action_ids(seat)
        for action in state.legal_actions(seat):
            (i,) = state.action_ids(action)
            assert state.action_id(action) == i and state.action_from_id(seat, i) == action
    state.apply_id(0, parse_card("QS"))  # a secret commitment through the id layer (RR-3)
    assert state.view(0)["pending"] == {"committed": [0], "mine": "QS"} and state.to_move() == (1,)


def test_discard_ids_walk_one_card_at_a_time_in_ascending_order() -> None:  # RR-4
    state = discard_phase()
    hand = ["4H", "5H", "8H", "JH", "KH"]
    legal = state.legal_actions(1)
    assert len(legal) == 10
    # the first card of 3 in ascending order leaves at least 2 higher cards
    assert state.legal_action_ids(1) == ids("4H", "5H", "8H", base=DISCARD_BASE)
    for combo in combinations(hand, 3):
        walk = state.copy()
        steps = ids(*combo, base=DISCARD_BASE)
        assert walk.action_ids("discard " + " ".join(combo)) == tuple(steps)
        for step, i in enumerate(steps):
            mask = walk.legal_action_mask(1)
            assert np.flatnonzero(mask).tolist() == walk.legal_action_ids(1)
            done = walk.apply_id(1, i)
            assert (done is None) == (step < 2)
            if done is None:
                assert walk.id_prefix(1) == tuple(steps[: step + 1])
        assert walk.rounds_log[-1]["discarded"] == list(combo)
        assert walk.phase == "play" and walk.id_prefixes == {}
    walk = state.copy()
    walk.apply_id(1, DISCARD_BASE + parse_card("5H"))
    assert walk.legal_action_ids(1) == ids("8H", "JH", base=DISCARD_BASE)  # no going back to 4H
    with pytest.raises(ActionIdError, match="sequence of 3 ids"):
        state.action_id(legal[0])


def test_bad_ids_raise_and_change_nothing() -> None:
    state = discard_phase()
    state.apply_id(1, DISCARD_BASE + parse_card("4H"))
    before, prefix = dump(state.to_json()), state.id_prefix(1)
    bad: list[tuple[int, Any, type[Exception], str]] = [
        (1, SIZE, ActionIdError, "out of range"),
        (1, -1, ActionIdError, "out of range"),
        (1, "52", ActionIdError, "integer"),
        (1, 1.0, ActionIdError, "integer"),
        (1, True, ActionIdError, "integer"),
        (1, parse_card("5H"), ActionIdError, "not legal"),  # a play id in the discard phase
        (1, DISCARD_BASE + parse_card("4H"), ActionIdError, "not legal"),  # chosen already
        (1, DISCARD_BASE + parse_card("KH"), ActionIdError, "not legal"),  # leaves no third card
        (1, DISCARD_BASE + parse_card("7S"), ActionIdError, "not legal"),  # not in the hand
        (0, DISCARD_BASE + parse_card("9S"), NotYourTurnError, "no decision"),
        (2, DISCARD_BASE, ActionIdError, "no seat"),
    ]
    for seat, action_id, error, words in bad:
        with pytest.raises(error, match=words):
            state.apply_id(seat, action_id)
        assert dump(state.to_json()) == before and state.id_prefix(1) == prefix
    with pytest.raises(NotYourTurnError):
        state.legal_action_mask(0)
    over = position(hands=[H0, ["2H", "5H", "8H"]])
    over.apply(0, "7S")
    over.apply(1, "2H")  # holds 2, owes 3: the game is over (RR-4)
    with pytest.raises(NotYourTurnError, match="game is over"):
        over.legal_action_ids(1)


# -- observations ----------------------------------------------------------------------------


def test_observation_layout() -> None:
    state = discard_phase()
    assert GAME.observation_shape(2) == (550,)
    t = state.observation_tensor(1)
    assert t.dtype == np.float32 and t.shape == (550,)
    hand = [parse_card(c) for c in state.view(1)["hand"]]
    assert np.flatnonzero(t[P["my_hand"] : P["my_hand"] + 52]).tolist() == sorted(hand)
    assert np.flatnonzero(t[P["opp_pile"] : P["opp_pile"] + 52]).tolist() == [parse_card("7S")]
    assert t[P["last_my_card"] + parse_card("2H")] == 1 and t[P["last_opp_card"] + parse_card("7S")] == 1
    assert t[S["phase_discard"]] == 1 and t[S["me_to_move"]] == 1 and t[S["opp_to_move"]] == 0
    assert t[S["i_owe"]] == pytest.approx(3 / 6) and t[S["last_opp_won"]] == 1 and t[S["last_tier"]] == 1
    deck = t[P["my_deck"] : P["my_deck"] + 52]
    assert deck.sum() == 52 - 5 - 1 and deck[parse_card("2H")] == 0
    # the partial choice shows in the tensor and the string
    state.apply_id(1, DISCARD_BASE + parse_card("5H"))
    t2 = state.observation_tensor(1)
    assert t2[P["my_partial_discard"] + parse_card("5H")] == 1 and t2[S["partial_count"]] == pytest.approx(1 / 6)
    assert "your discard so far: 5H" in state.observation_string(1)
    assert "5H" not in state.observation_string(0) and "must discard 3" in state.observation_string(0)


def test_observations_depend_on_the_view_only() -> None:  # RR-3
    a, b = position(hands=[H0, H1], seed=1), position(hands=[H0, H1], seed=1)
    a.apply(0, "QS")
    b.apply(0, "AS")  # another secret card: seat 1 cannot tell
    assert dump(a.view(1)) == dump(b.view(1))
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert a.observation_string(1) == b.observation_string(1)
    assert not np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.observation_tensor(0)[P["my_committed"] + parse_card("QS")] == 1
    assert np.array_equal(GAME.observation_tensor(a.view(0)), a.observation_tensor(0))
    assert GAME.observation_string(a.view(0)) == a.observation_string(0)
    with pytest.raises(ViewError):
        GAME.observation_tensor(a.view(None))
    # a world sampled from the view observes the same
    world = GAME.sample_world(a.view(1), 7)
    assert np.array_equal(world.observation_tensor(1), a.observation_tensor(1))


def test_information_state_string_recalls_every_step() -> None:
    state = position(hands=[H0, H1])
    state.apply(0, "7S")
    state.apply(1, "2H")
    start, committed, revealed = state.information_state_string(1).split("Rank Royale seat 1")[1:]
    assert "committed: opponent" in committed and "7S" not in start + committed  # RR-3
    assert "last round: you 2H, opponent 7S: tier, opponent won" in revealed


# -- world sampling ------------------------------------------------------------------------------


def reshuffled() -> RoyaleState:
    """Seat 1's deck runs out: its pile is reshuffled and its hand at that moment is public (RR-5)."""
    rest1 = [t for t in TEXT if t not in H1]
    state = position(hands=[H0, H1], decks=[[t for t in TEXT if t not in H0], []], discard=[[], rest1])
    state.apply(0, "7S")
    state.apply(1, "8H")  # a rank win for seat 1: it draws from an empty deck
    assert state.reshuffles == [0, 1]
    return state


def test_known_cards_after_a_reshuffle() -> None:  # RR-5
    state = reshuffled()
    known = ["2H", "4H", "5H", "JH", "KH"]
    assert state.view(0)["players"][1]["known_cards"] == known
    assert set(known) <= set(state.view(1)["hand"])
    state.apply(0, "9S")
    state.apply(1, "JH")
    assert state.view(0)["players"][1]["known_cards"] == ["2H", "4H", "5H", "KH"]  # JH was played
    again = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert dump(again.view(0)) == dump(state.view(0))
    with pytest.raises(PositionError, match="known_cards"):
        position(hands=[H0, H1], known_cards=[["2D"], []])


def test_sampled_worlds_keep_what_the_seat_knows() -> None:
    state = reshuffled()
    state.apply(1, "KH")  # seat 1 commits; seat 0 has not chosen yet
    for seat in (0, 1):
        view = state.view(seat)
        for k in range(20):
            world = GAME.sample_world(view, k)
            assert dump(world.view(seat)) == dump(view)
            assert world.to_move() == state.to_move()
            if seat in state.to_move():
                assert world.legal_action_ids(seat) == state.legal_action_ids(seat)
            assert world.invariants() == [] and world.history == [] and world.version == state.version
            assert world.piles == state.piles and world.hands[seat] == state.hands[seat]
            assert {"2H", "4H", "5H", "JH"} <= {TEXT[c] for c in world.hands[1]}  # known to everyone
            assert world.rng.state != state.rng.state
            replayed, data = world.record().replay().to_json(), world.to_json()
            assert dump({**replayed, "start": None}) == dump({**data, "start": None})
    with pytest.raises(ViewError, match="seat 0's view"):
        GAME.sample_world(state.view(0), 1, seat=1)


def test_pending_commitment_is_resampled_and_own_kept() -> None:  # RR-3
    state = position(hands=[H0, H1])
    state.apply(1, "KH")
    chosen: Counter[str] = Counter()
    for k in range(600):
        world = GAME.sample_world(state.view(0), k)
        action = world.pending[1]
        assert isinstance(action, RoyaleAction)
        card = action.card
        assert card in world.hands[1]
        chosen[TEXT[card]] += 1
    assert "KH" in chosen and len(chosen) > 30  # any card of its unseen 52 may be the one
    mine = GAME.sample_world(state.view(1), 3)
    assert mine.pending == {1: GAME.parse_action("KH")} and mine.hands[1] == state.hands[1]


def test_worlds_have_fresh_generators() -> None:
    state = position(hands=[H0, H1], seed=11)
    view = state.view(0)
    decks = {tuple(GAME.sample_world(view, k).decks[0]) for k in range(10)}
    assert len(decks) == 10 and tuple(state.decks[0]) not in decks  # its own deck order is unknown to it
    a, b = GAME.sample_world(view, 5), GAME.sample_world(view, 5)
    assert a.to_json() == b.to_json()  # the same seed, the same world


def chi_square(counts: Counter[Any], cells: int, total: int) -> float:
    """Pearson's statistic against the uniform distribution (cells never seen count too)."""
    expected = total / cells
    return sum((n - expected) ** 2 / expected for n in counts.values()) + (cells - len(counts)) * expected


def test_hidden_cards_are_dealt_uniformly() -> None:
    # seat 1 holds 2 known cards and 2 more of 5 unseen (10 equally likely pairs);
    # seat 0's own deck of 3 cards may be in any of 6 orders
    pile0 = [t for t in TEXT if t not in H0 and t not in ("2D", "3D", "4D")]
    pile1 = [t for t in TEXT if t not in ("2H", "4H", "5H", "8H", "9C", "10C", "JC")]
    state = position(
        hands=[H0, ["2H", "4H", "5H", "8H"]],
        decks=[["2D", "3D", "4D"], ["9C", "10C", "JC"]],
        discard=[pile0, pile1],
        known_cards=[[], ["2H", "4H"]],
        reshuffles=[0, 1],
    )
    view = state.view(0)
    pairs: Counter[Any] = Counter()
    orders: Counter[Any] = Counter()
    rng = Rng(2024)
    n = 3000
    for _ in range(n):
        world = GAME.sample_world(view, rng)
        hand = [TEXT[c] for c in world.hands[1]]
        assert {"2H", "4H"} <= set(hand) and len(hand) == 4
        pairs[tuple(sorted(set(hand) - {"2H", "4H"}))] += 1
        orders[tuple(world.decks[0])] += 1
    # chi-square critical values at p = 0.001: 27.88 (9 degrees of freedom), 20.52 (5)
    assert len(pairs) == 10 and chi_square(pairs, 10, n) < 27.88
    assert len(orders) == 6 and chi_square(orders, 6, n) < 20.52


def test_malformed_views_are_refused() -> None:
    state = position(hands=[H0, H1])
    good = state.view(0)
    broken = [
        {**good, "hand": ["AS", "ZZ"]},
        {**good, "hand": H0[:5]},
        {**good, "phase": "dance"},
        {**good, "players": good["players"][:1]},
        {**good, "pending": {"committed": [1]}, "phase": "discard"},
        {**good, "rounds_log": ["not an entry"]},
        {**good, "log": ["not an event"]},
        {**good, "game": "rank"},
        {k: v for k, v in good.items() if k != "version"},
    ]
    for view in broken:
        with pytest.raises(ViewError):
            GAME.sample_world(view, 1)


# -- copies, returns, the shuffle ----------------------------------------------------------------


def test_copies_share_nothing_mutable() -> None:
    state = reshuffled()
    copy = state.copy()
    before = dump(state.to_json())
    copy.hands[0].append(99)
    copy.decks[1].pop()
    copy.piles[0].append(1)
    copy.known[1].clear()
    copy.reshuffles[1] = 9
    copy.rounds_log[0]["cards"].append("x")  # the rounds log is handed out as a fresh copy
    assert dump(state.to_json()) == before
    again = state.copy()
    again.apply(0, "9S")
    again.apply(1, "2H")
    assert dump(state.to_json()) == before and len(again.rounds_log) == len(state.rounds_log) + 1


def test_returns_win_loss_and_draw() -> None:
    state = position(hands=[H0, ["2H", "5H", "8H"]])
    assert state.returns() == [0.0, 0.0]
    state.apply(0, "7S")
    assert state.returns() == [0.0, 0.0] and state.rewards() == [0.0, 0.0]
    state.apply(1, "2H")  # seat 1 cannot pay 3 (RR-4)
    assert state.returns() == [1.0, -1.0] and state.rewards() == [1.0, -1.0]
    draw = position(hands=[H0, H1], options={"max_rounds": 1})
    draw.apply(0, "KS")
    draw.apply(1, "KH")
    assert draw.is_over() and draw.returns() == [0.0, 0.0]  # RR-6


def test_actions_are_immutable_values_but_not_tuples() -> None:
    # the server tells a refusal (a tuple) from an action by isinstance(x, tuple)
    play, discard = GAME.parse_action("7H"), GAME.parse_action("discard KS 3c")
    assert not isinstance(play, tuple) and not isinstance(discard, tuple)
    assert play.kind == "play" and play.cards == (parse_card("7H"),) and play.text == "7H"
    assert discard.kind == "discard" and discard.cards == (parse_card("3C"), parse_card("KS"))
    assert discard == GAME.parse_action("discard 3C KS") and hash(discard) == hash(GAME.parse_action("discard 3c ks"))
    assert discard.text == "discard 3C KS" and play != GAME.parse_action("discard 7H")
