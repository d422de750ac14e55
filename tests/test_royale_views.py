"""Rank Royale's view in the shared words, the engine's event log (rulings RR-1 to RR-6),
positions in format 3 and the upgrade of older saves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_royale_rules import H0, H1, play
from test_royale_rules import position as rules_position

from courtcards.core.errors import PositionError, ViewError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.core.views import RETIRED_WORDS, ViewBase, vocabulary_problems
from courtcards.games.royale.cards import TEXT, TIER_OF_RANK, tier_name
from courtcards.games.royale.state import RoyaleState
from courtcards.games.royale.views import RoyalePlayer, RoyaleView

GAME = get_game("royale")
FIXTURES = Path(__file__).parent / "fixtures" / "positions"
D0 = ["2D", "3D", "4D"]  # seat 0 draws 2D first
D1 = ["6C", "7C"]


def position(hands: list[list[str]] | None = None, decks: list[list[str]] | None = None, **extra: Any) -> RoyaleState:
    return rules_position(hands or [H0, H1], decks or [D0, D1], **extra)


def texts(state: RoyaleState, seat: int | None) -> list[str]:
    return [e["text"] for e in state.view(seat)["log"]]


def last(state: RoyaleState, seat: int | None) -> str:
    return texts(state, seat)[-1]


# -- the shared words ------------------------------------------------------------------------------


def test_the_view_speaks_the_shared_words() -> None:
    assert set(ViewBase.__annotations__) <= set(RoyaleView.__annotations__)
    assert {"seat", "hand_size"} <= set(RoyalePlayer.__annotations__)
    state = position()
    play(state, "7S", "2H")  # seat 1 owes 3 (RR-4)
    state.apply(1, "discard 4H 8H JH")
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert vocabulary_problems(view) == []
        assert view["round"] == 2 and view["turn"] is None  # both decide at once (RR-3)
        assert view["hand"] == ([] if seat is None else state.view(seat)["hand"])
        assert "log" in view and "rounds_log" in view and "discard_pile" not in json.dumps(view)
        for p in view["players"]:
            assert not set(p) & RETIRED_WORDS
    assert state.view(None)["hand"] == [] and len(state.view(0)["hand"]) == 6
    # discard piles are public and listed top card first: the last card discarded leads
    assert state.view(None)["players"][1]["discard"][:4] == ["JH", "8H", "4H", "2H"]
    assert state.view(None)["players"][0]["discard"][:2] == ["7S", "KH"]  # then the cards in no deck
    assert state.view(None)["rounds_log"] == [
        {
            "round": 1,
            "cards": ["7S", "2H"],
            "tiers": ["middle", "low"],
            "outcome": "tier",
            "winner": 0,
            "discard": 3,
            "discarded": ["4H", "8H", "JH"],
        }
    ]


def test_the_view_gives_the_engines_tiers() -> None:  # RR-1
    tiers = position().view(None)["tiers"]
    assert tiers == TIER_OF_RANK and list(tiers) == ["A", *map(str, range(2, 11)), "J", "Q", "K"]
    assert [tiers[r] for r in ("A", "4", "5", "10", "J", "K")] == ["low", "low", "middle", "middle", "high", "high"]
    assert [tier_name(c) for c in ("AS", "4c", "10H", "QD")] == ["low", "low", "middle", "high"]


# -- the event log ---------------------------------------------------------------------------------


def test_a_new_game_says_the_deal() -> None:
    assert texts(GAME.new_game(2, seed=4), None) == ["Seat 0 and seat 1 shuffle their decks and draw 6 cards each"]


def test_a_tier_win_and_the_chosen_discards() -> None:  # RR-1, RR-2, RR-4, RR-5
    state = position()
    play(state, "7S", "2H")
    reveal = "Round 1: seat 0 plays 7S (middle), seat 1 plays 2H (low): middle beats low, seat 1 must discard 3 cards"
    chosen = "Seat 0 has chosen a card (hidden until both have chosen)"  # RR-3
    assert texts(state, None) == texts(state, 1) == [chosen, reveal]
    assert texts(state, 0) == ["Seat 0 chooses 7S (hidden until both have chosen)", reveal]
    state.apply(1, "discard 4H 5H 8H")  # discard piles are public
    assert last(state, None) == "Seat 1 discards 4H 5H 8H; seat 0 and seat 1 each draw a card"
    assert last(state, 0) == "Seat 1 discards 4H 5H 8H; seat 0 draws 2D and seat 1 draws a card"
    assert last(state, 1) == "Seat 1 discards 4H 5H 8H; seat 0 draws a card and seat 1 draws 6C"
    assert state.view(None)["log"][-1]["seat"] == 1 and state.view(None)["log"][1]["seat"] is None


def test_a_tier_win_that_takes_the_whole_hand() -> None:  # RR-4: no choice to make
    state = position([H0, ["2H", "4H", "5H", "8H"]])
    play(state, "7S", "2H")
    assert last(state, None) == (
        "Round 1: seat 0 plays 7S (middle), seat 1 plays 2H (low): middle beats low, "
        "seat 1 must discard 3 cards, its whole hand: 4H 5H 8H; "
        "seat 0 and seat 1 each draw a card"
    )


def test_a_tier_win_the_loser_cannot_pay() -> None:  # RR-4
    state = position([H0, ["2H", "5H", "8H"]])
    play(state, "7S", "2H")
    assert state.is_over()
    assert texts(state, 1)[-1] == (
        "Round 1: seat 0 plays 7S (middle), seat 1 plays 2H (low): middle beats low, "
        "seat 1 must discard 3 cards but holds 2, so seat 1 loses and seat 0 wins"
    )


def test_a_rank_win_draws_and_only_the_drawer_reads_its_card() -> None:  # RR-4, RR-5
    state = position()
    play(state, "9S", "5H")
    head = "Round 1: seat 0 plays 9S (middle), seat 1 plays 5H (middle): the same tier, seat 0 wins on rank and"
    assert last(state, None) == f"{head} draws a card; seat 0 and seat 1 each draw a card"
    assert last(state, 0) == f"{head} draws 2D; seat 0 draws 3D and seat 1 draws a card"
    assert last(state, 1) == f"{head} draws a card; seat 0 draws a card and seat 1 draws 6C"
    for seat, hidden in ((None, ("2D", "3D", "6C")), (1, ("2D", "3D")), (0, ("6C",))):
        text = json.dumps(state.view(seat)["log"])
        assert not any(card in text for card in hidden)


def test_the_same_rank_does_nothing() -> None:  # RR-4
    state = position([H0, ["KH", "7H", "3H", "AH", "5H", "9H"]])
    play(state, "KS", "KH")
    assert last(state, None) == (
        "Round 1: seat 0 plays KS (high), seat 1 plays KH (high): the same rank, "
        "nothing happens; seat 0 and seat 1 each draw a card"
    )


def test_a_reshuffle_is_public_and_the_card_drawn_is_not() -> None:  # RR-5
    rest0 = [t for t in TEXT if t not in H0]
    state = position(decks=[[], ["10C"]], discard=[rest0, [t for t in TEXT if t not in H1 and t != "10C"]])
    play(state, "KS", "KH")  # a tie: seat 0 draws from an empty deck
    public = last(state, None)
    assert public == (
        "Round 1: seat 0 plays KS (high), seat 1 plays KH (high): the same rank, nothing happens; "
        "seat 0 shuffles its discard pile of 47 cards into a new deck and draws a card; "
        "seat 1 draws a card"
    )
    drawn = next(c for c in state.view(0)["hand"] if c not in H0)
    assert last(state, 0) == public.replace("draws a card; seat 1", f"draws {drawn}; seat 1")
    assert last(state, 1) == public.replace("seat 1 draws a card", "seat 1 draws 10C")
    assert drawn not in json.dumps(state.view(1)["log"]) + json.dumps(state.view(None)["log"])


def test_the_round_limit_ends_in_a_draw() -> None:  # RR-6
    state = position(options={"max_rounds": 1})
    play(state, "KS", "KH")
    assert state.is_over() and last(state, None) == "The round limit (1) is reached: the game is a draw"


def test_a_secret_choice_is_in_no_log_until_the_reveal() -> None:  # RR-3
    state = position()
    state.apply(0, "QS")
    public = "Seat 0 has chosen a card (hidden until both have chosen)"
    assert last(state, None) == last(state, 1) == public  # that seat 0 has chosen is public, not what
    assert last(state, 0) == "Seat 0 chooses QS (hidden until both have chosen)"
    assert "QS" not in json.dumps(state.view(1)["log"]) + json.dumps(state.view(None)["log"])
    state.apply(1, "JH")
    assert "QS" in last(state, 1) and "JH" in last(state, 0)


def test_the_log_is_saved_and_loaded_with_the_state() -> None:
    state = position()
    play(state, "9S", "5H")
    saved = json.loads(json.dumps(state.to_json()))
    assert "log" not in saved
    assert saved["events"][-1]["secret"]["0"]["text"].endswith("seat 0 draws 3D and seat 1 draws a card")
    again = GAME.state_from_json(saved)
    for seat in (None, 0, 1):
        assert again.view(seat) == state.view(seat)


def test_a_world_shows_the_log_its_seat_saw() -> None:
    state = position()
    play(state, "9S", "5H")
    state.apply(1, "8H")
    for seat in (0, 1):
        view = state.view(seat)
        world = GAME.sample_world(view, 3)
        assert world.view(seat)["log"] == view["log"] and world.view(seat)["rounds_log"] == view["rounds_log"]
    broken = state.view(0)
    broken["log"] = [*broken["log"], {"n": 99, "seat": None, "text": "later"}]
    with pytest.raises(ViewError, match=r"log\[\d+\]\.n"):
        GAME.sample_world(broken, 1)


# -- positions ----------------------------------------------------------------------------------------


def test_positions_list_piles_top_card_first() -> None:
    state = position()
    play(state, "7S", "2H")
    state.apply(1, "discard 4H 5H 8H")
    data = state.to_json()
    assert data["format_version"] == 3 and "discard_piles" not in data and "log" not in data
    assert data["discard"][1][:4] == ["8H", "5H", "4H", "2H"] and data["decks"] == [["3D", "4D"], ["7C"]]
    assert data["rounds_log"] == state.view(None)["rounds_log"]
    assert state.card_places()["discard:1"] == data["discard"][1]
    again = GAME.state_from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data and again.piles == state.piles


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"discard": [["2H"], "x"]}, "discard[1]"),
        ({"discard": [[5], []]}, "discard[0][0]"),
        ({"hands": [H0, ["2H", "ZZ"]]}, "hands[1][1]"),
        ({"decks": [["2D", "2D"], []]}, "hands[0]"),
        ({"phase": "dance"}, "phase"),
        ({"round": 0}, "round"),
        ({"rng": -1}, "rng"),
        ({"reshuffles": [0, "1"]}, "reshuffles[1]"),
        ({"known_cards": [["AS"], ["2D"]]}, "known_cards[1]"),
        ({"winner": 2}, "winner"),
        ({"end_reason": "boredom"}, "end_reason"),
        ({"phase": "discard"}, "owed"),
        ({"phase": "discard", "owed": {"seat": 1, "count": 0}}, "owed.count"),
        ({"phase": "discard", "owed": {"seat": 3, "count": 1}}, "owed.seat"),
        ({"owed": {"seat": 1, "count": 1}}, "owed"),
        ({"rounds_log": {"round": 1}}, "rounds_log"),
        (
            {
                "rounds_log": [
                    {
                        "round": 1,
                        "cards": ["7S"],
                        "tiers": ["middle"],
                        "outcome": "tie",
                        "winner": None,
                        "discard": 0,
                        "discarded": [],
                    }
                ]
            },
            "rounds_log[0].cards",
        ),
        (
            {
                "rounds_log": [
                    {
                        "round": 1,
                        "cards": ["7S", "2H"],
                        "tiers": ["low", "low"],
                        "outcome": "tier",
                        "winner": 0,
                        "discard": 3,
                        "discarded": [],
                    }
                ]
            },
            "rounds_log[0].tiers",
        ),
        (
            {
                "rounds_log": [
                    {
                        "round": 1,
                        "cards": ["7S", "7H"],
                        "tiers": ["middle", "middle"],
                        "outcome": "tie",
                        "winner": 1,
                        "discard": 0,
                        "discarded": [],
                    }
                ]
            },
            "rounds_log[0].winner",
        ),
        (
            {
                "rounds_log": [
                    {
                        "round": 1,
                        "cards": ["7S", "7H"],
                        "tiers": ["middle", "middle"],
                        "outcome": "tie",
                        "winner": None,
                        "discard": 0,
                        "discarded": [],
                        "lost": "no",
                    }
                ]
            },
            "rounds_log[0].lost",
        ),
        ({"discard_piles": [[], []], "format_version": 3}, "discard_piles"),  # format 2's name in format 3
        ({"log": [], "format_version": 3}, "log"),
        ({"pending": {"0": "2H"}}, "pending.0"),
    ],
)
def test_a_bad_field_is_named(change: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError) as caught:
        position(**change)
    assert caught.value.field == field, str(caught.value)


def test_an_old_saved_state_loads_and_plays_on_bit_for_bit() -> None:
    # saved by the engine before format 3 (discard_piles oldest first, the rounds as 'log'), mid-discard;
    # its start is a hand-written format 2 position with discard_piles
    data = json.loads((FIXTURES / "royale_v2.json").read_text())
    assert data["format_version"] == 2 and "discard_piles" in data["start"]
    state = GAME.state_from_json(data)
    assert isinstance(state, RoyaleState)
    assert [p["discard"][:3] for p in state.view(None)["players"]] == [["9S", "7S", "KH"], ["JH", "8H", "5H"]]
    assert state.view(None)["players"][0]["discard"] == data["discard_piles"][0][::-1]
    assert state.rounds_log == data["log"] and state.view(None)["owed"] == {"seat": 0, "count": 2}
    assert state.view(None)["log"] == []  # saved before the engine kept a log
    assert state.record().replay().to_json()["hands"] == state.to_json()["hands"]  # the upgraded start replays
    # what the old engine did from here (its output, recorded): seat 1's pile is reshuffled in the same order
    state.apply(0, "discard 2D 3S")
    play(state, "KS", "KH")
    assert state.view(0)["hand"] == ["AS", "3D", "4D", "QS"] and state.view(1)["hand"] == ["6C", "6S", "7C"]
    assert state.decks[1][:-5:-1] == [TEXT.index(c) for c in ("JS", "8S", "AH", "AD")]  # the top card last
    assert state.rng.state == 13549413312986865175
    assert last(state, None) == (
        "Round 3: seat 0 plays KS (high), seat 1 plays KH (high): the same rank, nothing "
        "happens; seat 0 draws a card; seat 1 shuffles its discard pile of 50 cards into a "
        "new deck and draws a card"
    )


def test_an_old_record_replays() -> None:
    # a record saved before format 3 (record format 1): its start, a hand-written position, gives no
    # format_version, so the record reads it as state format 2, which the game upgrades
    assert json.loads((FIXTURES / "royale_v2_record.json").read_text())["format_version"] == 1
    record = GameRecord.load(FIXTURES / "royale_v2_record.json")
    assert record.start is not None and record.start["format_version"] == 2 and "discard_piles" in record.start
    saved = GAME.state_from_json(json.loads((FIXTURES / "royale_v2.json").read_text()))
    replayed = record.replay()
    assert isinstance(replayed, RoyaleState)
    assert replayed.to_json()["discard"] == saved.to_json()["discard"] and replayed.hands == saved.hands
    assert replayed.rounds_log == saved.rounds_log and replayed.rng.state == saved.rng.state


def test_an_old_position_is_upgraded_field_by_field() -> None:
    old = {
        "format_version": 2,
        "hands": [H0, H1],
        "decks": [D0, D1],
        "discard_piles": [[t for t in TEXT if t not in H0 + D0], [t for t in TEXT if t not in H1 + D1]],
        "log": [
            {
                "round": 1,
                "cards": ["7S", "7H"],
                "tiers": ["middle", "middle"],
                "outcome": "tie",
                "winner": None,
                "discard": 0,
                "discarded": [],
            }
        ],
        "round": 2,
    }
    state = GAME.state_from_json(old)
    assert state.view(None)["players"][0]["discard"][0] == "KH" and len(state.rounds_log) == 1
    unversioned = {k: v for k, v in old.items() if k != "format_version"}
    with pytest.raises(PositionError, match="'discard_piles'.*format_version 3 says 'discard'"):
        GAME.state_from_json(unversioned)  # a position without a format_version is in today's format
    with pytest.raises(PositionError) as caught:
        GAME.state_from_json({**old, "discard_piles": [["AS"], []]})
    assert caught.value.field is not None


# -- the terminal shows the engine's sentences --------------------------------------------------------


def test_the_terminal_says_what_the_engine_says() -> None:
    from rich.text import Text

    from courtcards.games.royale import render as R

    state = position()
    start = state.view(0)
    state.apply(0, "9S")
    chosen = state.view(0)
    assert [Text.from_markup(x).plain for x in R.describe_event(start, chosen, 0, "9S")] == [
        "Seat 1 (you) chooses 9S (hidden until both have chosen)"
    ]  # seats numbered from 1 for the player
    assert [Text.from_markup(x).plain for x in R.describe_event(start, state.view(1), 0, "9S")] == [
        "Seat 1 has chosen a card (hidden until both have chosen)"
    ]
    state.apply(1, "5H")
    lines = [Text.from_markup(x).plain for x in R.describe_event(chosen, state.view(0), 1, "5H")]
    assert lines == [
        "Round 1: seat 1 (you) plays 9S (middle), seat 2 plays 5H (middle): the same tier, seat 1 (you) "
        "wins on rank and draws 2D; seat 1 (you) draws 3D and seat 2 draws a card"
    ]
    assert R.tier_of("10H") == tier_name("10H") == "middle"  # the engine's tiers (RR-1)


@pytest.mark.parametrize("seed", range(4))
def test_the_legal_list_is_exactly_what_the_rules_allow(seed: int) -> None:
    # RR-3, RR-4: refusal() is the rules' one statement; the legal list agrees with it
    import itertools

    from courtcards.core.rng import Rng
    from courtcards.games.royale import actions as RA

    state = GAME.new_game(2, {"discards": "4,3,2"}, seed=seed)
    rng = Rng(seed)
    while not state.is_over() and state.round < 40:
        for seat in state.to_move():  # refusal() speaks for a seat with a decision now
            hand = state.hands[seat]
            candidates = {RA.play(c) for c in range(52)}
            for k in range(1, 5):
                candidates.update(RA.discard(combo) for combo in itertools.combinations(hand[:7], k))
            candidates.add(RA.discard([c for c in range(52) if c not in hand][:2]))
            legal = set(state.legal_actions(seat))
            allowed = {a for a in candidates if state.refusal(seat, a) is None}
            assert allowed == legal & candidates and all(state.refusal(seat, a) is None for a in legal)
        seat = min(state.to_move())
        options = state.legal_actions(seat)
        state.apply(seat, options[rng.below(len(options))])
