"""Royals' computation interface: fast copy, action ids, world sampling,
observations and returns, from explicit positions (rulebook 002, RY-1..RY-8)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from courtcards.core import cards as cards52
from courtcards.core.errors import ActionIdError, NotYourTurnError, ViewError
from courtcards.core.game import get_game
from courtcards.games.royals.actions import RoyalsAction
from courtcards.games.royals.cards import DECK, TEXT, parse_card
from courtcards.games.royals.ids import RoyalsCodec
from courtcards.games.royals.state import RoyalsState

G = get_game("royals")


def codec_of(codec: object) -> RoyalsCodec:
    assert isinstance(codec, RoyalsCodec)
    return codec


def cards_of(action: object) -> tuple[int, ...]:
    assert isinstance(action, RoyalsAction)
    return action.cards


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    """A position from hands as card text ("QH 7H"; "" for none)."""
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def dump(state: RoyalsState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def attack_position() -> RoyalsState:
    """Seat 0 attacks seat 1 (one Royal each for seats 1 and 2): seats 0, 1, 2 commit at once."""
    state = pos(
        ["7H 2C KS 3D", "9C 4H QD", "5H 6S", ""],
        royals=[[], ["QH 8H"], ["JC 4C"], []],
        decks=[["AS"], ["AC"], ["AD"], ["AH"]],
    )
    state.apply(0, "attack 1")
    return state


# -- copy ----------------------------------------------------------------------------------------
def test_copy_is_equal_and_independent_in_the_middle_of_a_fight() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    copy = state.copy()
    assert dump(copy) == dump(state)
    before = dump(state)
    copy.apply(0, "commit 7H")
    copy.apply(1, "commit 9C")  # reveal: hands, tables, fight and log all change in the copy
    assert copy.phase == "pair" and dump(state) == before
    assert state.fight is not None and copy.fight is not None and state.fight is not copy.fight
    state.hands[0].append(12)
    state.fight.attacks.append(3)
    assert 12 not in copy.hands[0] and copy.fight.attacks == [5, 7]


# -- action ids ----------------------------------------------------------------------------------
def walk(state: RoyalsState, seat: int, ids: tuple[int, ...]) -> Any:
    """Apply an id sequence to a copy; the engine action it completes."""
    copy = state.copy()
    for i in ids[:-1]:
        assert i in copy.legal_action_ids(seat) and copy.apply_id(seat, i) is None
    assert ids[-1] in copy.legal_action_ids(seat)
    return copy.apply_id(seat, ids[-1])


def assert_ids_round_trip(state: RoyalsState) -> None:
    codec = codec_of(state.action_codec())
    for seat in state.to_move():
        legal = state.legal_actions(seat)
        encoded = [state.action_ids(a) for a in legal]
        assert len(set(encoded)) == len(legal)
        assert state.legal_action_ids(seat) == sorted({ids[0] for ids in encoded})
        mask = state.legal_action_mask(seat)
        assert mask.shape == (codec.size,) and mask.dtype == bool
        assert mask.nonzero()[0].tolist() == state.legal_action_ids(seat)
        for action, ids in zip(legal, encoded, strict=True):
            assert all(codec.describe(i) for i in ids)
            assert walk(state, seat, ids) == action


def test_numbering_size_and_blocks() -> None:
    for n in (3, 4, 5, 6):
        assert G.num_distinct_actions(n) == 374 + 13 * n
    codec = codec_of(G.action_codec(4))
    assert codec.describe(0) == "royal JC AC" and codec.describe(119) == "royal KS 10S"
    assert codec.describe(120 + 2) == "attack 2" and codec.describe(124 + 2 * 12 + 4) == "assassinate 2 QD"
    state = pos(["QH 7H", "", "", ""])
    assert state.action_ids("royal QH 7H") == (7 * 10 + 6,)
    # commit ids use the one numbering of the 52 cards ((rank - 1) * 4 + suit), as Rank Royale's do
    assert state.action_ids("commit 7H KS") == (codec.COMMIT_CARD + 26, codec.COMMIT_CARD + 51, codec.COMMIT_DONE)
    assert cards52.CODE["7H"] == 26 and cards52.CODE["KS"] == 51
    assert codec.describe(codec.COMMIT_CARD + 26) == "commit: card 7H"
    assert state.action_ids("commit none") == (codec.COMMIT_DONE,)
    assert state.action_ids("block 1 with 1") == (codec.BLOCK,) and codec.describe(codec.DONE) == "done"
    assert state.action_ids("replace KS 9S") == (codec.size - 2,)


def test_every_legal_action_round_trips_through_its_ids_in_every_phase() -> None:
    state = attack_position()
    assert state.phase == "commit" and state.to_move() == (0, 1, 2)
    assert_ids_round_trip(state)  # commitments: several seats, each its own sequence
    state.apply(0, "commit 7H")
    state.apply(2, "commit 5H")
    state.apply(1, "commit 9C")
    assert state.phase == "pair"
    assert_ids_round_trip(state)
    state.apply(1, "block 7 with 9")
    assert state.phase == "losses"  # one hit, one Royal: placed by itself
    assert_ids_round_trip(state)
    assert {a.text for a in state.legal_actions(1)} == {"discard QH", "replace QH 4H"}


def test_hits_are_placed_one_id_at_a_time() -> None:
    state = pos(["7H 8D", "2C", "", ""], royals=[["JC 2C", "JS 3S"], ["QH 8H", "KD 9D"], [], []])
    state.apply(0, "attack 1")
    state.apply(0, "commit 7H 8D")
    state.apply(1, "commit none")
    assert state.phase == "hits"
    codec = codec_of(state.action_codec())
    assert state.legal_action_ids(1) == [codec.HIT + 5, codec.HIT + 7]  # KD, QH in card order
    assert_ids_round_trip(state)


def test_a_commitment_is_chosen_card_by_card_then_done() -> None:
    state = attack_position()
    codec = codec_of(state.action_codec())
    card = {t: codec.COMMIT_CARD + c for c, t in enumerate(cards52.TEXT)}
    # the attacker commits exactly one card: done only after it
    assert state.legal_action_ids(0) == sorted(card[t] for t in ("7H", "2C", "KS", "3D"))
    assert state.apply_id(0, card["3D"]) is None and state.id_prefix(0) == (card["3D"],)
    assert state.legal_action_ids(0) == [codec.COMMIT_DONE]
    # the defender commits up to one: done alone is "commit none"
    assert state.legal_action_ids(1) == sorted([codec.COMMIT_DONE, card["9C"], card["4H"], card["QD"]])
    # each committing seat keeps its own partial choice
    state.apply_id(2, card["6S"])
    assert state.id_prefix(2) == (card["6S"],) and state.id_prefix(0) == (card["3D"],)
    assert state.apply_id(0, codec.COMMIT_DONE) == G.parse_action("commit 3D")
    assert state.pending[0].text == "commit 3D" and state.id_prefix(0) == ()
    assert state.apply_id(1, codec.COMMIT_DONE) == G.parse_action("commit none")
    assert state.apply_id(2, codec.COMMIT_DONE) == G.parse_action("commit 6S")
    assert state.phase == "pair"  # revealed: an attack of 3 (3D) and a block of 6 (6S)
    assert state.fight is not None and state.fight.attacks == [3] and state.fight.blocks == [6]


def test_a_defender_with_two_royals_may_stop_after_one_card() -> None:
    state = pos(["7H", "9C 2S 4H", "", ""], royals=[[], ["QH 8H", "KD 9D"], [], []])
    state.apply(0, "attack 1")
    codec = codec_of(state.action_codec())
    c9, c2, c4 = (codec.COMMIT_CARD + cards52.CODE[t] for t in ("9C", "2S", "4H"))
    assert state.legal_action_ids(1) == sorted([codec.COMMIT_DONE, c9, c2, c4])
    assert_ids_round_trip(state)
    state.apply_id(1, c4)  # 4H: only later cards in the numbering (9C) may follow, or done
    assert state.legal_action_ids(1) == sorted([c9, codec.COMMIT_DONE])


@pytest.mark.parametrize(
    ("seat", "bad", "error", "words"),
    [
        (0, 426, ActionIdError, "out of range"),
        (0, -1, ActionIdError, "out of range"),
        (0, "0", ActionIdError, "integer"),
        (0, 1.0, ActionIdError, "integer"),
        (0, True, ActionIdError, "integer"),
        (0, 120 + 0, ActionIdError, "'attack 0' is not legal"),  # attacking oneself
        (0, 0, ActionIdError, "'royal JC AC' is not legal"),
        (1, 121, NotYourTurnError, "no decision"),
        (9, 121, ActionIdError, "no seat 9"),
    ],
)
def test_bad_ids_are_refused_and_change_nothing(seat: int, bad: Any, error: type, words: str) -> None:
    state = pos(["QH 7H", "", "", ""], royals=[[], ["KD 9D"], [], []])
    before = dump(state)
    with pytest.raises(error, match=words):
        state.apply_id(seat, bad)
    with pytest.raises(error, match=words):
        state.action_from_id(seat, bad)
    assert dump(state) == before


def test_ids_of_actions_that_can_never_be_legal_are_refused() -> None:
    state = pos(["QH 7H", "", "", ""])
    with pytest.raises(ActionIdError, match="no seat 7"):
        state.action_ids("attack 7")
    with pytest.raises(NotYourTurnError, match="no decision"):
        state.legal_action_mask(2)


# -- world sampling ------------------------------------------------------------------------------
def same_view(world: Any, seat: int, view: dict[str, Any]) -> bool:
    return json.dumps(world.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)


def small_position(**fields: Any) -> RoyalsState:
    """Three seats whose hidden cards are few: every other card is in a discard pile."""
    return pos(["QH 7H", "2C 3C", "2S 3S 5S"], decks=[["3H", "2H", "AH"], ["6C", "5C", "4C"], ["6S", "4S"]], **fields)


def test_a_sampled_world_shows_the_seat_the_same_view_and_the_same_legal_ids() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    for seat in range(4):
        view = state.view(seat)
        for k in range(5):
            world = G.sample_world(view, k)
            assert same_view(world, seat, view) and world.invariants() == []
            assert world.to_move() == state.to_move()
            if seat in state.to_move():
                assert world.legal_action_ids(seat) == state.legal_action_ids(seat)
                assert {a.text for a in world.legal_actions(seat)} == {a.text for a in state.legal_actions(seat)}


def test_sampled_worlds_keep_every_public_place_and_deal_only_the_hidden_cards() -> None:
    state = small_position()
    view = state.view(0)
    for k in range(30):
        world = G.sample_world(view, k)
        places = world.card_places()
        assert places["hand:0"] == ["7H", "QH"] and sorted(places["deck:0"]) == ["2H", "3H", "AH"]
        for s in range(3):
            assert places[f"discard:{s}"] == state.card_places()[f"discard:{s}"]
        assert sorted(places["hand:1"] + places["deck:1"]) == ["2C", "3C", "4C", "5C", "6C"]
        assert len(places["hand:1"]) == 2 and len(places["deck:1"]) == 3


def chi_square(counts: dict[Any, int], cells: int, total: int) -> float:
    expected = total / cells
    assert len(counts) == cells
    return sum((c - expected) ** 2 / expected for c in counts.values())


def test_hidden_cards_are_dealt_uniformly_chi_square() -> None:
    state = pos(["QH", "2C 3C", "2S"], decks=[["AH"], ["5C", "4C"], ["3S"]])
    view = state.view(0)
    counts: dict[Any, int] = {}
    total = 2400
    for k in range(total):
        places = G.sample_world(view, 7_000 + k).card_places()
        key = (tuple(places["hand:1"]), tuple(places["deck:1"]))
        counts[key] = counts.get(key, 0) + 1
    # 6 hands of 2 of the 4 hidden cards x 2 orders of the deck: 12 equally likely deals
    assert chi_square(counts, 12, total) < 31.26  # the 0.1% critical value, 11 degrees of freedom


def test_opening_cards_stay_at_the_bottom_of_a_deck_not_yet_drawn_past_or_reshuffled() -> None:  # RY-1
    state = small_position(opening=[["AH", "4C", "4S"], ["", "5C", "6S"]])
    view = state.view(0)
    for k in range(40):
        world = G.sample_world(view, k)
        assert world.decks[0][0] == parse_card("AH") and world.decks[1][:2] == [parse_card("4C"), parse_card("5C")]
        assert world.decks[2] == [parse_card("4S"), parse_card("6S")]
    # seat 1 drew down past its second shown card: that card is in its hand
    state = pos(
        ["QH 7H", "2C 3C 5C", "2S"],
        decks=[["3H", "2H", "AH"], ["4C"], ["4S"]],
        opening=[["AH", "4C", "4S"], ["", "5C", ""]],
    )
    for k in range(20):
        world = G.sample_world(state.view(0), k)
        assert world.decks[1] == [parse_card("4C")] and parse_card("5C") in world.hands[1]


def test_after_a_reshuffle_the_deck_holds_only_cards_of_the_pile_that_made_it() -> None:  # RY-2
    state = small_position(new_decks=[None, None, ["4S", "5S", "6S"]], opening=[["AH", "4C", "4S"]])
    view = state.view(0)
    assert view["players"][2]["new_deck"] == ["4S", "5S", "6S"]
    decks = set()
    for k in range(60):
        world = G.sample_world(view, k)
        assert set(world.decks[2]) <= {parse_card(t) for t in ("4S", "5S", "6S")}  # the opening no longer binds
        assert parse_card("2S") in world.hands[2] and parse_card("3S") in world.hands[2]
        decks.add(tuple(world.decks[2]))
    assert len(decks) == 6  # any 2 of the 3 in any order


def test_a_reshuffle_records_the_pile_that_became_the_deck() -> None:
    state = pos(["QH", "2C 3C", "", ""], decks=[[], [], [], []], royals=[[], ["KD 9D"], [], []])
    state.apply(0, "discard hand")  # seat 1 begins its turn with an empty deck and 48 cards in its pile
    pile = tuple(c for c in DECK if c not in (parse_card("2C"), parse_card("3C"), parse_card("KD"), parse_card("9D")))
    assert state.new_decks[1] == pile and state.new_decks[0] is None
    assert state.view(0)["players"][1]["new_deck"] == [TEXT[c] for c in pile]
    assert G.state_from_json(json.loads(json.dumps(state.to_json()))).new_decks == state.new_decks


def test_pending_commitments_of_other_seats_are_resampled_the_own_kept() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    state.apply(0, "commit 3D")
    view = state.view(0)
    seen = set()
    for k in range(60):
        world = G.sample_world(view, k)
        assert world.pending[0].text == "commit 3D"
        mine = world.pending[2]
        assert isinstance(mine, RoyalsAction)
        assert len(mine.cards) == 1 and mine.cards[0] in world.hands[2]
        seen.add(mine.text)
        world.apply(1, "commit none")  # the sampled world plays on: the reveal uses the sampled cards
        revealed = [part for line in world.events.texts() for part in line.split("; ") if part.startswith("revealed")]
        assert world.phase != "commit" and f"seat 2 {TEXT[mine.cards[0]]}" in revealed[-1]
    assert seen == {"commit 5H", "commit 6S", "commit AD"}  # any of its 3 hidden cards: 2 in hand, 1 in deck
    # the defender's pending choice is drawn among any number of cards up to its limit
    state = attack_position()
    state.apply(1, "commit 9C")
    counts = {len(cards_of(G.sample_world(state.view(2), k).pending[1])) for k in range(60)}
    assert counts == {0, 1}


def test_a_sampled_world_has_a_fresh_generator_so_future_deals_differ() -> None:
    state = pos(["QH", "", "", ""], decks=[[], [], [], []], royals=[[], [], [], []])
    view = state.view(0)
    state.apply(0, "discard hand")  # seat 1 shuffles its 52-card discard pile into a new deck
    hands = set()
    for k in range(5):
        world = G.sample_world(view, k)
        assert world.rng.state != state.rng.state
        world.apply(0, "discard hand")
        hands.add(tuple(world.hands[1]))
    assert tuple(state.hands[1]) not in hands and len(hands) == 5


def test_sampled_world_record_replays_to_it() -> None:
    state = attack_position()
    state.apply(1, "commit 9C")
    world = G.sample_world(state.view(2), 3)
    replayed = world.record().replay().to_json()
    assert replayed.pop("start") is not None
    assert replayed == {k: v for k, v in world.to_json().items() if k != "start"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda v: v.update(game="rank"), "not a Royals view"),
        (lambda v: v.update(seat=None), "spectator"),
        (lambda v: v["players"][1].update(hand_size=3), "hidden cards"),
        (lambda v: v["players"][1].update(discard=["ZZ"]), "'ZZ' is not a card"),
        (lambda v: v.update(hand=["KS"]), "does not fit its hidden cards"),
        (lambda v: v.pop("players"), "malformed Royals view"),
        (lambda v: v.update(phase="lunch"), "unknown phase"),
    ],
)
def test_malformed_views_are_refused_with_the_reason(change: Any, words: str) -> None:
    view = small_position().view(0)
    change(view)
    with pytest.raises(ViewError, match=words):
        G.sample_world(view, 1)


def test_a_view_of_another_seat_is_refused() -> None:
    with pytest.raises(ViewError, match="seat 1's view, not seat 0's"):
        G.sample_world(small_position().view(1), 1, seat=0)


# -- observations --------------------------------------------------------------------------------
def test_observation_tensor_layout() -> None:
    state = attack_position()
    state.apply(0, "commit 7H")
    codec = codec_of(state.action_codec())
    state.apply_id(2, codec.COMMIT_CARD + cards52.CODE["6S"])
    assert G.observation_shape(4) == (212 + 289 * 4,) and G.observation_shape(6) == (212 + 289 * 6,)
    obs = state.observation_tensor(0)
    assert obs.dtype == np.float32 and obs.shape == (1368,)
    cards = cards52.TEXT  # card blocks use the one numbering of the 52 cards
    assert [cards[c] for c in np.flatnonzero(obs[:52])] == ["2C", "3D", "7H", "KS"]  # own hand
    assert [cards[c] for c in np.flatnonzero(obs[52:104])] == ["7H"]  # own pending commitment
    assert obs[156 + 1] == 1 and obs[156:162].sum() == 1  # phase commit
    # seat 1 is the first seat after the observer: its Royal QH 8H at face index 7, value 8
    seat1 = 162 + 289
    assert np.flatnonzero(obs[seat1 : seat1 + 120]).tolist() == [7 * 10 + 7]
    assert obs[seat1 + 277 + 9] == 1 and obs[seat1 + 277 + 7] == 1  # defender, may commit up to
    assert obs[seat1 + 277 + 4] == 1 and obs[seat1 + 277 + 5] == 0  # decides now, not committed yet
    # seen from seat 2, seat 1 is the last block and seat 2's partial choice is 6S
    obs2 = state.observation_tensor(2)
    assert np.flatnonzero(obs2[104:156]).tolist() == [cards52.CODE["6S"]]
    assert np.flatnonzero(obs2[162 + 289 * 3 : 162 + 289 * 3 + 120]).tolist() == [77]
    fight = 162 + 289 * 4
    assert obs[fight] == 1 and obs[fight + 48] == 0  # an attack, not revealed yet


def test_observations_depend_on_the_view_only() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    for seat in range(4):
        view = state.view(seat)
        tensor, text = state.observation_tensor(seat), state.observation_string(seat)
        assert np.array_equal(G.observation_tensor(view), tensor) and G.observation_string(view) == text
        for k in range(5):  # other hidden hands and decks, another pending commitment of seat 2
            world = G.sample_world(view, k)
            assert np.array_equal(world.observation_tensor(seat), tensor)
            assert world.observation_string(seat) == text
    assert state.observation_tensor(0).tolist() != state.observation_tensor(1).tolist()


def test_observation_string_says_what_the_seat_sees() -> None:
    state = attack_position()
    state.apply(2, "commit 5H")
    text = state.observation_string(2)
    assert "seat 2 (you): hand 5H 6S" in text and "seat 0: hand 4;" in text
    assert "Royals QH 8H = 8" in text and "commit seat 0 1, seat 1 up to 1, seat 2 1" in text
    assert "committed: seat 2 (yours: commit 5H)" in text
    assert "yours" not in state.observation_string(0) and "5H 6S" not in state.observation_string(0)
    lines = state.information_state_string(0).split("\n")  # one line per step
    assert len(lines) == len(state.history) + 1 and lines[-1] == state.observation_string(0)
    state.apply_id(0, codec_of(state.action_codec()).COMMIT_CARD + cards52.CODE["KS"])
    assert "choosing to commit: KS" in state.observation_string(0)


def test_returns_at_the_end() -> None:
    state = pos(["", "", ""], royals=[["KH 10H", "QS 7S"], [], []], phase="start")  # RY-2: 17 points, 3 seats
    assert state.is_over() and state.returns() == [1.0, -0.5, -0.5] and state.rewards() == [1.0, -0.5, -0.5]
    draw = pos(["", "", ""], turns=5, phase="start", options={"max_turns": 5})  # RY-8
    assert draw.is_over() and draw.returns() == [0.0, 0.0, 0.0]
    assert attack_position().returns() == [0.0] * 4
