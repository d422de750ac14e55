"""Five Tricks: its rules on explicit positions, and the core's conformance suite."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from typing import Any

import pytest
from courtcards.core.conformance import check_playout, random_playout
from courtcards.core.errors import IllegalActionError, NotationError, OptionError, PositionError
from courtcards.core.game import get_game

import courtcards_fivetricks
from courtcards_fivetricks import FiveTricksAction, FiveTricksGame, FiveTricksState
from courtcards_fivetricks.cards import CODE

GAME = get_game("fivetricks", FiveTricksGame)


def position(**fields: Any) -> FiveTricksState:
    state = GAME.state_from_json(fields)
    assert isinstance(state, FiveTricksState)
    return state


def test_registered_by_import_and_declares_itself() -> None:
    assert GAME is courtcards_fivetricks.GAME
    info = GAME.info
    assert (info.name, info.title, info.min_players, info.max_players) == ("fivetricks", "Five Tricks", 2, 4)
    assert (info.dynamics, info.round_word, info.gym_id) == ("sequential", "Trick", "courtcards/FiveTricks-v0")
    assert info.openspiel_name == "courtcards_fivetricks" and "follow the led suit" in info.brief
    assert dict(info.profiles) == {} and GAME.profile("bots") is None and GAME.profile("terminal") is None


def test_a_new_game_deals_from_the_seed() -> None:
    a, b, c = GAME.new_game(2, seed=7), GAME.new_game(2, seed=7), GAME.new_game(2, seed=8)
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()
    assert [len(h) for h in a.hands] == [5, 5] and len(a.aside) == 10
    assert sorted([c for h in a.hands for c in h] + a.aside) == list(range(20))
    full = GAME.new_game(4, seed=3)
    assert [len(h) for h in full.hands] == [5, 5, 5, 5] and full.aside == []
    assert a.to_move() == (0,) and full.to_move() == (0,)
    text = a.events.texts(viewer=1)[0]
    assert text.startswith("The deal: 5 cards each to seat 0 and seat 1 (seat 1 holds ")
    assert "seat 0 holds" not in text and "holds" not in a.events.texts(viewer=None)[0]


def test_options_and_presets() -> None:
    quick = GAME.new_game(3, seed=11, preset="quick")
    assert quick.options == {"hand_size": 3, "random_leader": True}
    assert [len(h) for h in quick.hands] == [3, 3, 3] and len(quick.aside) == 11
    leaders = {GAME.new_game(3, seed=s, preset="quick").leader for s in range(30)}
    assert leaders == {0, 1, 2}
    assert {GAME.new_game(3, seed=s).leader for s in range(30)} == {0}
    with pytest.raises(OptionError):
        GAME.new_game(2, {"hand_size": 6})
    with pytest.raises(OptionError):
        GAME.new_game(5)


def test_must_follow_suit_when_able() -> None:
    state = position(
        num_players=3,
        hands=[["1H", "4D", "2S", "3C", "5C"], ["2H", "5H", "1D", "1S", "4S"], ["3H", "2D", "3D", "5D", "1C"]],
    )
    state.apply(0, "4D")
    assert [a.text for a in state.legal_actions(1)] == ["1D"]
    reason = state.refusal(1, FiveTricksAction.parse("5H"))
    assert reason == "you must follow Diamonds: play 1D"
    with pytest.raises(IllegalActionError, match="must follow Diamonds"):
        state.apply(1, "5H")
    assert state.refusal(1, FiveTricksAction.parse("3C")) == "you do not hold 3C (hand: 2H 5H 1D 1S 4S)"
    state.apply(1, "1D")
    # seat 2 holds three Diamonds: only those
    assert [a.text for a in state.legal_actions(2)] == ["2D", "3D", "5D"]


def test_a_void_player_plays_anything_and_is_known_void() -> None:
    state = position(num_players=2, hands=[["1H", "2H", "3S"], ["1D", "2D", "4C"]], options={"hand_size": 3})
    state.apply(0, "2H")
    assert [a.text for a in state.legal_actions(1)] == ["1D", "2D", "4C"]
    state.apply(1, "4C")
    assert state.view(0)["players"][1]["voids"] == ["H"]
    assert (
        state.events.texts()[-1] == "Trick 1: seat 1 plays 4C, having no Hearts; seat 0 wins the trick with 2H "
        "and leads."
    )


def test_the_highest_card_of_the_led_suit_wins_and_its_winner_leads() -> None:
    state = position(
        num_players=4,
        hands=[["1H", "1D", "1S"], ["5S", "2D", "2S"], ["3H", "3D", "4D"], ["2H", "5D", "5C"]],
        options={"hand_size": 3},
        leader=2,
        aside=["4H", "5H", "3S", "4S", "2C", "3C", "4C", "1C"],
    )
    assert state.to_move() == (2,)
    for seat, card in ((2, "3H"), (3, "2H"), (0, "1H"), (1, "5S")):  # a 5 off-suit does not win
        state.apply(seat, card)
    view = state.view(None)
    assert view["tricks_log"] == [{"trick": 1, "leader": 2, "cards": ["3H", "2H", "1H", "5S"], "winner": 2}]
    assert state.to_move() == (2,) and view["leader"] == 2 and view["round"] == 2
    for seat, card in ((2, "3D"), (3, "5D"), (0, "1D"), (1, "2D")):
        state.apply(seat, card)
    assert state.to_move() == (3,) and [p["score"] for p in state.view(0)["players"]] == [0, 0, 1, 1]


def test_the_final_result_and_its_tie_break() -> None:
    # two tricks played: seat 0 and seat 1 won one each; seat 1 leads the last trick
    state = position(
        num_players=2,
        options={"hand_size": 3},
        hands=[["5H"], ["1H"]],
        leader=1,
        tricks_log=[
            {"trick": 1, "leader": 0, "cards": ["5D", "1D"], "winner": 0},
            {"trick": 2, "leader": 0, "cards": ["2S", "3S"], "winner": 1},
        ],
    )
    assert state.result() is None and state.returns() == [0.0, 0.0]
    state.apply(1, "1H")
    state.apply(0, "5H")
    result = state.result()
    assert result is not None and result.winner == 0 and result.scores == (2, 1) and result.ranking == (0, 1)
    assert state.returns() == [1.0, -1.0]
    assert state.events.texts()[-1] == "The game is over: seat 0 wins with 2 of 3 tricks (seat 0 2, seat 1 1)."
    # three players tied on one trick each: the one who won a trick last wins
    tie = position(
        num_players=3,
        options={"hand_size": 3},
        hands=[["1C"], ["2C"], ["5C"]],
        leader=1,
        tricks_log=[
            {"trick": 1, "leader": 0, "cards": ["5D", "1D", "2D"], "winner": 0},
            {"trick": 2, "leader": 0, "cards": ["2S", "3S", "1S"], "winner": 1},
        ],
    )
    tie.apply(1, "2C")
    tie.apply(2, "5C")
    tie.apply(0, "1C")
    result = tie.result()
    assert result is not None and result.winner == 2 and result.ranking == (2, 1, 0)
    assert result.details["tie_break"] is True and result.details["last_trick_won"] == [1, 2, 3]
    assert tie.returns() == [-0.5, -0.5, 1.0]
    assert tie.events.texts()[-1] == (
        "The game is over: seat 2 wins with 1 of 3 tricks (seat 0 1, seat 1 1, "
        "seat 2 1); tied with seat 0 and seat 1, it won a trick later."
    )
    assert tie.is_over() and tie.to_move() == () and tie.view(0)["turn"] is None


def test_every_event_is_a_sentence() -> None:
    state = random_playout(GAME, 4, {}, seed=5)
    for seat in (None, 0, 1, 2, 3):
        for text in state.events.texts(k=40, viewer=seat):
            assert text[0].isupper() and text.endswith("."), text
            assert "Seat" not in text and "player" not in text, text


def test_loading_a_position_fills_the_rest_and_round_trips() -> None:
    state = position(
        num_players=3,
        hands=[["1H"], ["3H", "1D"], ["4H", "2H"]],
        options={"hand_size": 3},
        trick=["2S"],
        tricks_log=[{"trick": 1, "leader": 0, "cards": ["5S", "1S", "3S"], "winner": 0}],
    )
    assert state.leader == 0 and state.to_move() == (1,)
    view = state.view(1)
    assert view["led_suit"] == "S" and view["trick"] == [{"seat": 0, "card": "2S"}] and view["round"] == 2
    assert [a.text for a in state.legal_actions(1)] == ["3H", "1D"]  # no Spades: anything
    placed = {"1H", "3H", "1D", "4H", "2H", "2S", "5S", "1S", "3S"}
    assert state.card_places()["aside"] == [t for t in state.deck() if t not in placed]
    assert len(state.deck()) == 20 and state.deck()[:6] == ["1H", "2H", "3H", "4H", "5H", "1D"]
    # the leader of trick 2 must be trick 1's winner
    with pytest.raises(PositionError, match="winner of the last trick, seat 0"):
        position(
            num_players=3,
            hands=[["1H", "2H"], ["3H", "1D"], ["4H", "2S"]],
            options={"hand_size": 3},
            leader=2,
            tricks_log=[{"trick": 1, "leader": 0, "cards": ["5S", "1S", "3S"], "winner": 0}],
        )
    saved = json.loads(json.dumps(state.to_json()))
    again = GAME.state_from_json(saved)
    assert again.to_json() == state.to_json()
    again.apply(1, "1D")
    assert again.to_move() == (2,) and state.to_move() == (1,)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"num_players": 2, "hands": [["1H", "1H", "2H", "3H", "4H"], ["1D", "2D", "3D", "4D", "5D"]]}, "extra 1H"),
        (
            {"num_players": 2, "hands": [["1H", "2H", "3H", "4H"], ["1D", "2D", "3D", "4D", "5D"]]},
            "holds 4 cards, not 5",
        ),
        ({"num_players": 2, "hands": [["9H", "2H", "3H", "4H", "5H"], ["1D", "2D", "3D", "4D", "5D"]]}, "rank 1-5"),
        (
            {
                "num_players": 2,
                "options": {"hand_size": 3},
                "hands": [["1D"], ["3H"]],
                "tricks_log": [{"trick": 1, "leader": 0, "cards": ["1H", "5S"], "winner": 1}],
            },
            "seat 0 wins",
        ),
        (
            {
                "num_players": 2,
                "options": {"hand_size": 3},
                "hands": [["1D"], ["3C"]],
                "tricks_log": [
                    {"trick": 1, "leader": 0, "cards": ["1H", "5S"], "winner": 0},
                    {"trick": 2, "leader": 0, "cards": ["2S", "4H"], "winner": 0},
                ],
            },
            "seat 1 plays 4H after failing to follow Hearts",
        ),
        (
            {
                "num_players": 2,
                "options": {"hand_size": 3},
                "hands": [["1D", "2D"], ["3H", "4C"]],
                "leader": 0,
                "tricks_log": [{"trick": 1, "leader": 0, "cards": ["1H", "5S"], "winner": 0}],
            },
            "seat 1 holds 3H after failing to follow Hearts",
        ),
    ],
)
def test_impossible_positions_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GAME.state_from_json(fields)


def test_actions_notation_ids_and_repr() -> None:
    state = GAME.new_game(2, seed=1)
    action = state.legal_actions(0)[0]
    assert repr(action) == f"FiveTricksAction.parse({action.text!r})"
    assert eval(repr(action), {"FiveTricksAction": FiveTricksAction}) is action
    assert GAME.parse_action("play 3h") is GAME.parse_action("3H") and GAME.parse_action("3H").kind == "play"
    with pytest.raises(NotationError):
        GAME.parse_action("6H")
    assert GAME.num_distinct_actions(3) == 20 and GAME.action_codec(2).describe(7) == "play 3D"
    assert state.action_id("3D") == 7
    assert state.legal_action_ids(0) == sorted(CODE[a.text] for a in state.legal_actions(0))
    assert GAME.parse_cards("1h, 5c") == ["1H", "5C"]
    # planes: hand, played, the table by seat; 4 voids a seat, the led suit, 1 + 3 per seat + 5 numbers
    assert GAME.observation_shape(3) == (20 + 20 + 3 * 20 + 3 * 4 + 4 + 1 + 3 * 3 + 5,)
    assert state.observation_tensor(0).shape == GAME.observation_shape(2) == (20 + 20 + 40 + 8 + 4 + 1 + 6 + 5,)


def _exact_marginal(unseen: list[str], caps: tuple[int, int], void1: set[str]) -> dict[str, float]:
    """By enumeration: the chance each unseen card is seat 2's, over the deals where seat 1
    (one card) holds no suit of ``void1`` and seat 2 holds one card (the rest set aside)."""
    counts: Counter[str] = Counter()
    for c1, c2 in permutations(unseen, 2):
        if c1[-1] not in void1:
            counts[c2] += 1
    total = sum(counts.values())
    return {c: counts[c] / total for c in unseen}


def test_worlds_respect_voids_and_are_uniform() -> None:
    # seat 1 failed to follow Hearts, then Diamonds: it holds neither
    state = position(
        num_players=3,
        options={"hand_size": 3},
        hands=[["2C"], ["4S"], ["5H"]],
        leader=0,
        tricks_log=[
            {"trick": 1, "leader": 0, "cards": ["1H", "5D", "3H"], "winner": 2},
            {"trick": 2, "leader": 2, "cards": ["2D", "4D", "1C"], "winner": 0},
        ],
    )
    view = state.view(0)
    assert view["players"][1]["voids"] == ["H", "D"]
    seen = {"2C", "1H", "5D", "3H", "2D", "4D", "1C"}
    unseen = [t for t in state.deck() if t not in seen]
    exact = _exact_marginal(unseen, (1, 1), {"H", "D"})
    samples = 4000
    got: Counter[str] = Counter()
    for i in range(samples):
        world = GAME.sample_world(view, i, seat=0)
        one = world.view(1)["hand"][0]
        assert one[-1] in "SC"
        got[world.view(2)["hand"][0]] += 1
        assert world.view(0) == view
    for card, p in exact.items():
        sd = (p * (1 - p) / samples) ** 0.5
        assert abs(got[card] / samples - p) < 4.5 * sd, (card, got[card] / samples, p)
    # a sampler that dealt seat 2 first, ignoring seat 1's voids, would give every card 1/13:
    # seat 2 would hold one of the 5 unseen red cards 5/13 = 0.385 of the time, not 0.417
    red = sum(p for card, p in exact.items() if card[-1] in "HD")
    assert abs(red - 40 / 96) < 1e-12
    share = sum(got[card] for card in exact if card[-1] in "HD") / samples
    assert abs(share - red) < 3 * (red * (1 - red) / samples) ** 0.5 < abs(5 / 13 - red)


CONFIGS = [
    pytest.param(n, opts, id=f"{n}p-" + ("-".join(f"{k}={v}" for k, v in opts.items()) or "default"))
    for n, opts in GAME.test_configs()
]


def test_configs_cover_every_player_count_and_the_preset() -> None:
    assert {n for n, _ in GAME.test_configs()} == {2, 3, 4}
    assert (2, {"hand_size": 3, "random_leader": True}) in GAME.test_configs()


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_conformance_along_random_games(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        check_playout(GAME, players, options, seed=players * 7919 + seed, world_every=3)


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_random_playouts_end(players: int, options: dict[str, Any]) -> None:
    for seed in range(20):
        state = random_playout(GAME, players, options, seed=1000 + seed)
        result = state.result()
        assert result is not None and sum(result.scores) == options.get("hand_size", 5)
        assert len(state.history) == players * options.get("hand_size", 5)
