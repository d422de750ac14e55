"""Rank's engine for computation: action ids, masks, observations, world
sampling, copy, returns (docs/engine/rank.md), from explicit positions."""

from __future__ import annotations

import copy as copy_module
import itertools
import json
import pickle
from collections import Counter
from typing import Any

import numpy as np
import pytest
from test_rank_rules import G, hand, legal, pos

from courtcards.core.errors import ActionIdError, NotYourTurnError, PositionError, ViewError
from courtcards.games.rank import actions as A
from courtcards.games.rank import ids, observation
from courtcards.games.rank.ids import RankCodec
from courtcards.games.rank.state import RankState


def log(finish: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "hand": 1,
            "finish": finish,
            "king": finish[0],
            "queen": finish[1],
            "beggar": finish[-1],
            "tokens": [2, 1] + [0] * (len(finish) - 2),
        }
    ]


def dump(state: RankState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def view_text(state: RankState, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True)


def leading() -> RankState:
    # RK-4/RK-5: numbers, Wilds, both modifiers and a Crown: every kind of set can be led
    return pos(["3 4 4 W W U D C2", "5 6", "7 8", "9 10"], turn=0)


def following() -> RankState:
    return pos(["3 4 4 5 W U D C", "5 6", "7 8", "9 10"], turn=0, pile=["3", "3"], pile_value=3, pile_count=2, owner=3)


def benefit() -> RankState:
    return pos(
        ["3 8 8 10 10 11", "5 6", "7 8", "1 12 12"],
        phase="benefit",
        round=2,
        hands_log=log([0, 1, 2, 3]),
        tokens=[2, 1, 0, 0],
        characters=["king", "queen", "knight", "beggar"],
    )


def exchange() -> RankState:
    # RK-13: the King gives back two cards and the Queen one, at once
    exchanges = [
        {"from": 2, "to": 0, "cards": ["C", "12"], "why": "tax"},
        {"from": 3, "to": 1, "cards": ["11"], "why": "tax"},
    ]
    return pos(
        ["C 12 3 3 4", "11 6", "9 2", "7"],
        options={"classic_president": True},
        phase="exchange",
        round=2,
        hands_log=log([0, 1, 3, 2]),
        exchanges=exchanges,
        owed={"0": 2, "1": 1},
        characters=["king", "queen", "beggar", "knight"],
        tokens=[2, 1, 0, 0],
    )


def after_steal(seat_view: int = 2) -> RankState:
    """3 players, the King (0) stole a 12 from the Beggar (2) and gave back a 3; seat 1 is Queen."""
    exchanges = [
        {"from": 2, "to": 0, "cards": ["12"], "why": "steal"},
        {"from": 0, "to": 2, "cards": ["3"], "why": "give"},
    ]
    return pos(
        ["12 7", "9 W", "12 12 12 12 12 12 3"],
        draw_pile=["4", "9"],
        turn=0,
        round=2,
        hands_log=log([0, 1, 2]),
        exchanges=exchanges,
        tokens=[2, 1, 0],
    )


POSITIONS = {
    "leading": leading,
    "following": following,
    "benefit": benefit,
    "exchange": exchange,
    "after_steal": after_steal,
}


# -- action ids ----------------------------------------------------------------------------------


def test_sizes_match_the_documented_layout() -> None:
    # RK-1: one deck for 3-6 players, two for 7-12: at most 7 (14) of a number and 4 (8) Wilds in a set
    assert {G.num_distinct_actions(n) for n in range(3, 7)} == {1679}
    assert {G.num_distinct_actions(n) for n in range(7, 13)} == {5964}
    assert G.num_distinct_actions(4, {"classic_president": True, "kings_hand": True}) == 1679


@pytest.mark.parametrize("players", [4, 8])
def test_every_id_reads_back_to_its_action(players: int) -> None:
    codec = G.action_codec(players)
    assert isinstance(codec, RankCodec)
    for i in range(codec.size):
        text = codec.describe(i)
        assert codec.encode(A.parse_action(text)) == (i,), text
    assert codec.describe(ids.SETS + ids.LIFT_BLOCKS * codec.block) == "2 1 U"  # the first lifted set
    with pytest.raises(ActionIdError, match="out of range"):
        codec.describe(codec.size)


def test_documented_ids() -> None:
    s = leading()
    assert s.action_id("pass") == 0 and s.action_id("steal") == 2 and s.action_id("swap") == 4
    assert s.action_id("give 3") == ids.GIVE + 2 and s.action_id("give C2") == ids.GIVE + 16
    assert s.action_id("C") == 22 and s.action_id("U") == 24
    block = 7 * 5
    assert s.action_id("8 8 W U") == ids.SETS + (3 * 7 + 1) * block + 1 * 5 + 1
    assert s.action_id("8 8 7 W U") == ids.SETS + (36 + 6) * block + 1 * 5 + 1
    assert s.action_id("W W U") == ids.SETS + 47 * block + 2 * 1 + 1
    # Classic President: two cards back are two ids, the lower card code first, no 'done'
    assert s.action_ids("give 12 3") == (ids.GIVE + 2, ids.GIVE + 11)
    assert s.action_ids("give W 3") == (ids.GIVE + 2, ids.GIVE + 12)


def test_actions_that_can_never_be_legal_have_no_id() -> None:
    s = leading()
    for text in ("8 7", "8 U D", "C C", "D W", "8 8 8 8 8 8 8 8", "give 1 2 3"):  # RK-4 to RK-7
        with pytest.raises(ActionIdError, match="no id"):
            s.action_ids(text)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_ids_walk_to_every_legal_action_and_the_mask_matches(name: str) -> None:
    s = POSITIONS[name]()
    for seat in s.to_move():
        mask = s.legal_action_mask(seat)
        assert mask.dtype == np.bool_ and mask.shape == (G.num_distinct_actions(s.num_players),)
        assert list(np.flatnonzero(mask)) == s.legal_action_ids(seat)
        assert set(s.legal_action_ids(seat)) == {s.action_ids(a)[0] for a in s.legal_actions(seat)}
        for action in s.legal_actions(seat):
            walk, direct = s.copy(), s.copy()
            steps = walk.action_ids(action)
            for i in steps[:-1]:
                assert walk.apply_id(seat, i) is None
                assert walk.id_prefix(seat) == steps[: len(walk.id_prefix(seat))]
            assert walk.apply_id(seat, steps[-1]) is action
            direct.apply(seat, action)
            assert dump(walk) == dump(direct)


def test_two_card_give_back_walks_card_by_card() -> None:
    # RK-13: the King holds C 12 3 3 4; after choosing a 3 first, only 3 or higher cards may follow
    s = exchange()
    first = s.legal_action_ids(0)
    assert [G.action_codec(4).describe(i) for i in first] == ["give 3", "give 4", "give 12"]
    assert s.apply_id(0, ids.GIVE + 2) is None and s.to_move() == (0, 1)
    assert [G.action_codec(4).describe(i) for i in s.legal_action_ids(0)] == ["give 3", "give 4", "give 12", "give C"]
    s.apply_id(0, ids.GIVE + 2)
    assert s.pending[0].text == "give 3 3" and s.to_move() == (1,)


def test_bad_ids_are_refused_and_change_nothing() -> None:
    s = following()
    before = dump(s)
    size = G.num_distinct_actions(4)
    for bad, error, match in [
        (size, ActionIdError, "out of range"),
        (-1, ActionIdError, "out of range"),
        ("0", ActionIdError, "integer"),
        (1.0, ActionIdError, "integer"),
        (True, ActionIdError, "integer"),
        (s.action_id("C2"), ActionIdError, "not legal now"),  # RK-6: no Crown + Draw 2 in hand
        (s.action_id("4"), ActionIdError, "not legal now"),  # RK-5: a single on a pair
    ]:
        with pytest.raises(error, match=match):
            s.apply_id(0, bad)
        assert dump(s) == before
    with pytest.raises(NotYourTurnError, match="no decision"):
        s.apply_id(1, 0)
    with pytest.raises(NotYourTurnError, match="no decision"):
        s.legal_action_mask(2)
    with pytest.raises(ActionIdError, match="no seat"):
        s.legal_action_ids(4)
    assert dump(s) == before


# -- actions are interned ---------------------------------------------------------------------------


def test_equal_actions_are_the_same_object() -> None:
    act = A.parse_action("8 8 7 U")
    assert A.RankAction(A.RankKind.PLAY, (8, 8, 7, 14)) is act and A.make("play", act.cards) is act
    assert pickle.loads(pickle.dumps(act)) is act and copy_module.deepcopy(act) is act
    assert act == A.parse_action("U 7 8 8") and act != A.parse_action("8 8 U")
    assert {act: 1}[A.parse_action("8 8 7 U")] == 1


# -- copy ------------------------------------------------------------------------------------------------


def test_copy_is_independent() -> None:
    s = exchange()
    c = s.copy()
    assert dump(c) == dump(s)
    before = dump(s)
    c.apply(0, "give 4 3")
    c.hands[2][5] += 1
    c.sizes[3] = 9
    c.draw.append(3)
    c.tokens[0] += 1
    assert dump(s) == before
    with pytest.raises(TypeError):
        c.hands_log[0]["king"] = 3  # type: ignore[index]
    c.apply(1, "give 11")
    assert dump(s) == before and s.to_move() == (0, 1) and c.phase == "play"


def test_plays_with_another_hand_is_a_what_if_that_changes_nothing() -> None:
    # the pile is a single 7 (seat 0's); seat 1 to answer. With its own hand: the legal plays exactly
    s = pos(["5", "9 8 3", "4 4"], pile=["7"], pile_value=7, pile_count=1, owner=0, turn=1)
    before = dump(s)
    own = s.hands[1]
    assert [a.text for a in s.plays_with(1, own)] == [a.text for a in s.legal_actions(1)]
    # holding 12 W U instead: what seat 1 would have with that hand (RK-4, RK-5), the same as a position
    other = pos(["5", "12 W U", "4 4"], pile=["7"], pile_value=7, pile_count=1, owner=0, turn=1)
    swapped = s.plays_with(1, other.hands[1])
    assert {a.text for a in swapped} == legal(other) == {"12", "12 U", "W", "W U", "pass"}
    assert dump(s) == before and hand(s, 1) == "3 8 9"
    with pytest.raises(PositionError, match="3 cards"):
        s.plays_with(1, other.hands[1][:-1])  # not counts per card code
    with pytest.raises(PositionError, match="3 cards"):
        s.plays_with(1, pos(["5", "12 W", "4 4"]).hands[1])  # two cards for a hand of three
    with pytest.raises(PositionError, match="not the one to play"):
        s.plays_with(2, s.hands[2])
    assert dump(s) == before


# -- observations ----------------------------------------------------------------------------------------


def test_observation_layout() -> None:
    s = following()
    shape = G.observation_shape(4)
    assert shape == (observation.FIXED + 11 * 4,) and shape == (193,)
    t = s.observation_tensor(0)
    assert t.dtype == np.float32 and t.shape == shape
    assert t[3 - 1] == pytest.approx(1 / 7) and t[4 - 1] == pytest.approx(2 / 7)  # own hand: one 3, two 4s
    assert t[13 - 1] == pytest.approx(1 / 4) and t[16 - 1] == pytest.approx(1 / 2)  # a Wild, a Crown
    assert t[17 + 3 - 1] == pytest.approx(2 / 7)  # the pile's top: 3 3
    assert t[34 + 3] == 1.0 and t[34:48].sum() == 1.0  # pile value 3
    seats = observation.FIXED
    assert t[seats] == pytest.approx(8 / 15)  # the observer's own slot first
    assert t[seats + 3 * 11 + 3] == 1.0  # seat 3 (three to the left) owns the pile
    assert "hand: 3 4 4 5 W U D C" in s.observation_string(0)


def test_observations_depend_on_the_view_only() -> None:
    # the same view with the other hands dealt differently gives the same tensor and string
    s = after_steal()
    for seat in range(3):
        world = G.sample_world(s.view(seat), rng=seat + 1)
        assert view_text(world, seat) == view_text(s, seat)
        assert np.array_equal(world.observation_tensor(seat), s.observation_tensor(seat))
        assert world.observation_string(seat) == s.observation_string(seat)
    assert not np.array_equal(s.observation_tensor(1), s.observation_tensor(2))


def test_partial_give_back_shows_in_the_observation() -> None:
    s = exchange()
    before = s.observation_tensor(0)
    s.apply_id(0, ids.GIVE + 2)
    after = s.observation_tensor(0)
    assert not np.array_equal(before, after) and "chosen: give 3" in s.observation_string(0)
    assert np.array_equal(G.observation_tensor(s.view(0), s.id_prefix(0)), after)


# -- world sampling ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_worlds_keep_the_view_and_the_legal_actions(name: str) -> None:
    s = POSITIONS[name]()
    for seat in range(s.num_players):
        view = s.view(seat)
        for k in range(5):
            world = G.sample_world(view, rng=k)
            assert view_text(world, seat) == json.dumps(view, sort_keys=True)
            assert world.to_move() == s.to_move()
            if seat in s.to_move():
                assert world.legal_action_ids(seat) == s.legal_action_ids(seat)
            assert Counter(c for cards in world.card_places().values() for c in cards) == Counter(world.deck())
            assert world.rng.state != s.rng.state and world.history == []


def test_the_stolen_card_stays_with_the_king_unless_played() -> None:
    # RK-12: the Beggar saw the King take his 12 (and give a 3 back): the King still holds it
    s = after_steal()
    for k in range(200):
        world = G.sample_world(s.view(2), rng=k)
        assert "12" in hand(world, 0).split()
    # once a 12 has been played this hand, the King may have played it
    s2 = pos(
        ["12 7", "9 W", "12 12 12 12 12 3"],
        draw_pile=["4", "9"],
        turn=1,
        round=2,
        hands_log=log([0, 1, 2]),
        exchanges=after_steal().to_json()["exchanges"],
        tokens=[2, 1, 0],
        pile=["12"],
        pile_value=12,
        pile_count=1,
        owner=2,
    )
    held = Counter("12" in hand(G.sample_world(s2.view(2), rng=k), 0).split() for k in range(200))
    assert held[True] and held[False]


def test_the_king_knows_the_beggar_held_no_higher_number() -> None:
    # RK-12: the King took the Beggar's highest number card, an 8: the Beggar holds no 9-12
    # (none was given back to him, and no Crown + Draw 2 has been played this hand)
    # (the Crowns + Draw 2 and the other 3s are placed, not discarded: a discarded card counts as played)
    exchanges = [
        {"from": 2, "to": 0, "cards": ["8"], "why": "steal"},
        {"from": 0, "to": 2, "cards": ["3"], "why": "give"},
    ]
    s = pos(
        ["12 12 11 7 C2 C2 3 3 3 3 3", "9 W 5", "8 3 2 1 1"],
        draw_pile=["3", "5", "4", "11", "12", "9", "10"],
        turn=0,
        round=2,
        hands_log=log([0, 1, 2]),
        exchanges=exchanges,
        tokens=[2, 1, 0],
    )
    beggar_hands = [hand(G.sample_world(s.view(0), rng=k), 2).split() for k in range(300)]
    assert all(not {"9", "10", "11", "12"} & set(h) for h in beggar_hands)
    assert all("3" in h for h in beggar_hands)  # the card the King gave back (none played)
    assert len({tuple(h) for h in beggar_hands}) > 5


def test_the_king_knows_whether_he_may_steal() -> None:
    s = benefit()
    assert s.view(0)["steal_possible"] is True and "steal_possible" not in s.view(3)
    no_number = pos(
        ["3 8", "5 6", "7 8", "W U D"],
        phase="benefit",
        round=2,
        hands_log=log([0, 1, 2, 3]),
        tokens=[2, 1, 0, 0],
        characters=["king", "queen", "knight", "beggar"],
    )
    assert no_number.view(0)["steal_possible"] is False and legal(no_number) == {"lead"}
    for k in range(20):
        world = G.sample_world(no_number.view(0), rng=k)
        assert world.legal_action_ids(0) == [ids.LEAD]


def test_the_king_who_swapped_keeps_his_old_hand_set_aside() -> None:
    # RK-14: the King saw the hand he set aside; everyone else sees nothing of it
    s = G.new_game(4, {"kings_hand": True}, seed=4)
    assert isinstance(s, RankState)
    king = s.characters.index("king")
    own = s.card_places()[f"hand:{king}"]
    s.apply(king, "swap")
    assert s.view(king)["kings_hand"]["set_aside"] == own
    assert all("set_aside" not in s.view(o)["kings_hand"] for o in range(4) if o != king)
    for k in range(5):
        assert G.sample_world(s.view(king), rng=k).card_places()["set_aside"] == own
    asides = {tuple(G.sample_world(s.view((king + 1) % 4), rng=k).card_places()["set_aside"]) for k in range(5)}
    assert len(asides) == 5 and tuple(own) not in asides


def test_committed_give_backs_of_other_seats_are_resampled() -> None:
    # RK-13: the Queen has committed her secret give-back; the King's worlds redraw it from her legal choices
    s = exchange()
    s.apply(1, "give 11")
    chosen: Counter[str] = Counter()
    for k in range(60):
        world = G.sample_world(s.view(0), rng=k)
        assert world.to_move() == (0,) and set(world.pending) == {1}
        assert world.pending[1] in world._legal(1)
        chosen[world.pending[1].text] += 1
    assert len(chosen) > 1
    # her own world keeps her own choice
    assert all(G.sample_world(s.view(1), rng=k).pending[1].text == "give 11" for k in range(10))


def test_a_sampled_world_deals_its_own_future() -> None:
    # the sampled world's generator is fresh: the next hand is dealt differently from the true one
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[1, 0, 2, 0], rng=99)
    world = G.sample_world(s.view(1), rng=5)
    s.apply(1, "5")
    world.apply(1, "5")
    assert s.phase == world.phase == "benefit"
    assert hand(s, 1) != hand(world, 1)


def test_chi_square_uniform_deal() -> None:
    # the Queen sees only counts: the King's two cards are a uniform pair of the 11 cards she cannot see
    s = after_steal()
    hidden = ["12", "7"] + ["12"] * 6 + ["3"] + ["9", "4"]
    expected = Counter(tuple(sorted(pair)) for pair in itertools.combinations(hidden, 2))
    _chi_square(lambda k: tuple(sorted(hand(G.sample_world(s.view(1), rng=k), 0).split())), expected, 1100)


def test_chi_square_uniform_given_the_stolen_card() -> None:
    # the Beggar knows the King holds the 12: the King's other card is uniform over the other 5 hidden cards
    s = after_steal()
    expected = Counter(["7", "9", "W", "9", "4"])

    def other_card(k: int) -> str:
        cards = hand(G.sample_world(s.view(2), rng=k), 0).split()
        cards.remove("12")
        return cards[0]

    _chi_square(other_card, expected, 800)


def _chi_square(draw: Any, weights: Counter[Any], samples: int) -> None:
    seen = Counter(draw(k) for k in range(samples))
    assert set(seen) <= set(weights), set(seen) - set(weights)
    total = sum(weights.values())
    stat = sum((seen[c] - samples * w / total) ** 2 / (samples * w / total) for c, w in weights.items())
    critical = {3: 16.27, 10: 29.59}[len(weights) - 1]  # p = 0.001
    assert stat < critical, (stat, seen)


def test_bad_views_are_refused() -> None:
    s = following()
    with pytest.raises(ViewError, match="spectator"):
        G.sample_world(s.view(None), rng=1)
    with pytest.raises(ViewError, match="seat 1's view, not seat 2's"):
        G.sample_world(s.view(1), rng=1, seat=2)
    broken = s.view(1)
    del broken["pile"]
    with pytest.raises(ViewError, match="malformed Rank view"):
        G.sample_world(broken, rng=1)
    crowded = s.view(1)
    crowded["hand"] = ["C"] * 5
    crowded["players"][1]["hand_size"] = 5
    with pytest.raises(ViewError, match="do not fit in the deck"):
        G.sample_world(crowded, rng=1)


# -- returns ---------------------------------------------------------------------------------------------


def test_returns_at_the_end() -> None:
    # RK-11: the last card of the hand gives the King 2 tokens and he reaches 5: +1, the others -1/3
    s = pos(["", "5", "", "7 8"], turn=1, finished=[2, 0], tokens=[1, 0, 4, 0])
    assert s.returns() == [0.0] * 4
    s.apply(1, "5")
    assert s.is_over() and s.result() is not None and s.result().winner == 2  # type: ignore[union-attr]
    assert s.returns() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3]) and s.rewards() == s.returns()


def test_actions_are_frozen_and_their_repr_rebuilds_them() -> None:
    from courtcards.games.rank.actions import RankAction  # noqa: F401  (eval below needs the name)

    for text in ["8 8 7 U", "pass", "give 9 3", "steal", "W U", "C2"]:
        act = A.parse_action(text)
        assert eval(repr(act)) is act and act.kind in A.RankKind
    with pytest.raises(AttributeError, match="immutable"):
        A.PASS.cards = (1,)
