"""Royals positions: piles top card first, fights loadable mid-way, every bad field named,
older saves (format_version 1 and 2) upgraded. Rulings RY-1 to RY-8."""

from __future__ import annotations

import json
from typing import Any

import pytest

from courtcards.core.errors import PositionError
from courtcards.core.game import get_game
from courtcards.core.record import GameRecord
from courtcards.games.royals.game import RoyalsGame
from courtcards.games.royals.state import RoyalsState

G = get_game("royals", RoyalsGame)


def pos(hands: list[str], **fields: Any) -> RoyalsState:
    state = G.state_from_json({"hands": [h.split() for h in hands], **fields})
    assert isinstance(state, RoyalsState)
    return state


def played(seed: int, steps: int, n: int = 3) -> RoyalsState:
    state = G.new_game(n, seed=seed)
    for k in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[(k * 7) % len(legal)])
    return state


# -- piles top card first ------------------------------------------------------------------------
def test_decks_are_listed_top_card_first() -> None:
    state = pos(["AC 2C", "", ""], decks=[["5C", "4C", "3C", "KD", "9H"], [], []], phase="start")
    assert state.view(0)["hand"] == ["AC", "2C", "3C", "4C", "5C", "KD"]  # RY-2: the top four drawn
    assert state.to_json()["decks"][0] == ["9H"]


def test_discard_piles_are_listed_top_card_first_in_views_and_positions() -> None:
    state = pos(["QH 7H 2C", "", ""], decks=[[], ["AC"], ["AC"]])
    state.apply(0, "discard hand")  # RY-7: onto the discard pile in the order listed: 2C, then 7H, then QH
    assert state.view(1)["players"][0]["discard"][:3] == ["QH", "7H", "2C"]
    assert state.to_json()["discards"][0][:3] == ["QH", "7H", "2C"]
    again = G.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and again.view(1) == state.view(1)


def test_a_saved_game_round_trips() -> None:
    for seed in range(6):
        state = played(seed, 80 + 13 * seed)
        data = json.loads(json.dumps(state.to_json()))
        again = G.state_from_json(data)
        assert again.to_json() == state.to_json()
        assert [again.view(s) for s in (None, 0, 1, 2)] == [state.view(s) for s in (None, 0, 1, 2)]


# -- older saves -------------------------------------------------------------------------------------
def as_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """A state JSON as Royals saved it in format_version 2: piles bottom card first, its own 'log'."""
    old = dict(data)
    old["format_version"] = 2
    old["decks"] = [list(reversed(d)) for d in data["decks"]]
    old["discards"] = [list(reversed(d)) for d in data["discards"]]
    old["log"] = [e["text"] for e in old.pop("events", [])]
    return old


def test_a_format_version_2_save_still_loads() -> None:
    state = played(3, 150)
    old = as_version_2(json.loads(json.dumps(state.to_json())))
    again = G.state_from_json(old)
    assert again.decks == state.decks and again.discards == state.discards and again.hands == state.hands
    assert again.events.texts() == state.events.texts()  # the old sentences, now the engine's events
    assert [e["seat"] for e in again.view(None)["log"]] == [None] * len(again.view(None)["log"])
    # and it plays on exactly like the original
    for _ in range(30):
        if state.is_over():
            break
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        again.apply(seat, action.text)
    assert again.decks == state.decks and again.discards == state.discards


def test_an_old_start_position_is_turned_over_once_even_through_a_record() -> None:
    old = {
        "format_version": 2,
        "num_players": 3,
        "hands": [[], [], []],
        "phase": "start",
        "decks": [["9H", "KD", "3C", "4C", "5C", "6C", "7C"], ["AC"], ["AC"]],  # bottom card first
        "log": ["an old sentence"],
    }
    state = G.state_from_json(old)
    assert state.view(0)["hand"] == ["3C", "4C", "5C", "6C", "7C", "KD"]  # drawn from the top: 7C down to KD
    assert state.events.texts()[0] == "an old sentence"
    state.apply(0, "discard hand")
    record = GameRecord.from_json(json.loads(json.dumps(state.record().to_json())))
    replayed = record.replay()
    assert replayed.to_json()["decks"] == state.to_json()["decks"]


def test_a_format_version_1_save_with_text_piles_loads() -> None:
    old = {
        "format_version": 1,
        "num_players": 3,
        "hands": ["", "", ""],
        "decks": ["5C 4C 3C", "", ""],
        "phase": "start",
    }  # bottom card first: 3C is drawn first
    state = G.state_from_json(old)
    assert {"3C", "4C", "5C"} <= set(state.view(0)["hand"])
    assert state.events.texts()[-1].startswith("Seat 0 shuffles its discard pile into a new deck (49 cards); ")  # RY-2


# -- fights loaded mid-way ---------------------------------------------------------------------------
ROYALS = [[], ["QH 7H", "KS 9S"], ["JC 2C"], []]


def test_an_attack_loads_in_the_commit_phase_with_a_pending_commitment() -> None:
    state = G.state_from_json(
        {
            "hands": [["2D", "9D"], ["2S", "4S"], ["5H", "6H"], []],
            "royals": ROYALS,
            "phase": "commit",
            "fight": {"kind": "attack", "attacker": 0, "defender": 1},
            "pending": {"0": "commit 9D"},
        }
    )
    assert isinstance(state, RoyalsState)
    assert state.turn == 0 and state.to_move() == (1, 2)  # seat 0 has committed
    fight = state.view(None)["fight"]
    assert fight is not None and fight["need"] == {
        "0": {"count": 1, "up_to": False},  # RY-4
        "1": {"count": 2, "up_to": True},
        "2": {"count": 1, "up_to": False},
    }
    state.apply(1, "commit none")
    state.apply(2, "commit 6H")
    assert state.phase == "hits" and state.fight is not None and state.fight.hits == 2


def test_an_attack_loads_in_the_pairing_phase_from_the_cards_on_the_table() -> None:
    state = pos(
        ["2D", "4S", "5H", ""],
        royals=ROYALS,
        phase="pair",
        fight={"kind": "attack", "attacker": 0, "defender": 1},
        table=[["9D"], ["10S"], ["6H"], []],
    )
    assert state.fight is not None and state.fight.attacks == [6, 9] and state.fight.blocks == [10]  # RY-4
    assert [a.text for a in state.legal_actions(1)] == ["block 6 with 10", "block 9 with 10", "done"]
    state.apply(1, "block 9 with 10")
    assert state.phase == "hits" and state.fight.hits == 1  # the 6 is not blocked: one hit to place


def test_an_attack_loads_while_the_hits_are_spread() -> None:
    state = pos(
        ["2D", "4S", "5H", ""],
        royals=ROYALS,
        phase="hits",
        fight={"kind": "attack", "attacker": 0, "defender": 1, "assigned": ["QH"]},
        table=[["9D"], [], ["6H"], []],
    )
    assert state.fight is not None and state.fight.hits == 2
    assert [a.text for a in state.legal_actions(1)] == ["hit QH", "hit KS"]


def test_an_assassination_loads_with_its_losses_to_take() -> None:
    state = pos(
        ["", "4H 2S", "", ""],
        royals=ROYALS,
        phase="losses",
        fight={"kind": "assassinate", "attacker": 0, "defender": 1, "target": "QH"},
        table=[["5D"], ["KC"], [], []],
    )
    assert state.fight is not None and state.fight.assigned == [state.fight.target]  # RY-5
    assert [a.text for a in state.legal_actions(1)] == ["discard QH", "replace QH 4H"]  # RY-6: at most 7 - 1


# -- a fight as RY-4 and RY-5 make it -----------------------------------------------------------------
def fight(
    kind: str = "attack",
    phase: str = "commit",
    hands: list[list[str]] | None = None,
    table: list[list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Seat 0 attacks seat 1 (two Royals); seat 2 has one Royal, seat 3 none but three cards in hand."""
    data: dict[str, Any] = {
        "hands": hands or [["2D", "9D"], ["2S", "4S"], ["5H", "6H"], ["3C", "4C", "5C"]],
        "royals": ROYALS,
        "phase": phase,
        "fight": {"kind": kind, "attacker": 0, "defender": 1, **extra},
    }
    if kind == "assassinate":
        data["fight"]["target"] = "QH"
    if table is not None:
        data["table"] = table
    return data


@pytest.mark.parametrize(
    ("data", "field"),
    [
        # RY-4: a seat with no Royal commits nothing, whatever it holds
        (fight(need={"3": 3}), "fight.need.3"),
        # RY-4: the attacker commits max(1, its Royals), every other seat exactly its Royals (the defender: up to)
        (fight(need={"0": 2}), "fight.need.0"),
        (fight(need={"2": 2}), "fight.need.2"),
        (fight(need={"2": 0}), "fight.need.2"),
        (fight(need={"1": 1}), "fight.need.1"),
        # RY-5: an assassination is one card from the assassin and one from the Royal's owner, no one else
        (fight("assassinate", need={"2": 1}), "fight.need.2"),
        (fight("assassinate", need={"0": 2}), "fight.need.0"),
        (fight("assassinate", need={"1": 0}), "fight.need.1"),
    ],
)
def test_a_need_no_royals_and_hands_give_is_refused(data: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError) as info:
        G.state_from_json(data)
    assert info.value.field == field, info.value


def test_the_refusal_of_a_need_says_what_ry4_asks() -> None:
    with pytest.raises(PositionError) as info:
        G.state_from_json(fight(need={"3": 3}))
    assert info.value.reason == (
        "seat 3 has 0 Royals in play and holds 3 cards: as a seat that joins it commits "
        "0 cards to the attack, not 3 (RY-4)"
    )


@pytest.mark.parametrize(
    ("data", "field"),
    [
        # RY-4: seat 2 has one Royal, so one card on the table, not two; seat 3 none, so no card
        (
            fight(phase="pair", hands=[["2D"], ["4S"], [], ["3C"]], table=[["9D"], ["10S"], ["6H", "5H"], []]),
            "table[2]",
        ),
        (
            fight(phase="pair", hands=[["2D"], ["4S"], ["5H"], ["3C"]], table=[["9D"], ["10S"], ["6H"], ["7D"]]),
            "table[3]",
        ),
        # RY-4: the defender commits at most its two Royals' worth
        (
            fight(phase="pair", hands=[["2D"], [], ["5H"], ["3C"]], table=[["9D"], ["10S", "2S", "4S"], ["6H"], []]),
            "table[1]",
        ),
        # RY-4: the attacker commits max(1, 0) = 1 card, not two
        (
            fight(phase="hits", hands=[[], ["2S", "4S"], ["5H"], ["3C"]], table=[["9D", "2D"], [], ["6H"], []]),
            "table[0]",
        ),
        # RY-4: seat 2 must commit its one card's worth: it cannot have kept it back
        (
            fight(phase="pair", hands=[["2D"], ["4S"], ["5H", "6H"], ["3C"]], table=[["9D"], ["10S"], [], []]),
            "table[2]",
        ),
        # RY-5: one card each from the assassin and the owner, none from seat 2
        (
            fight(
                "assassinate", phase="losses", hands=[["2D"], ["4H"], ["5H"], []], table=[["9D"], ["KC"], ["6H"], []]
            ),
            "table[2]",
        ),
        (
            fight(
                "assassinate",
                phase="losses",
                hands=[[], ["4H"], ["5H", "6H"], []],
                table=[["9D", "2D"], ["KC"], [], []],
            ),
            "table[0]",
        ),
    ],
)
def test_a_table_no_royals_and_hands_give_is_refused(data: dict[str, Any], field: str) -> None:
    with pytest.raises(PositionError) as info:
        G.state_from_json(data)
    assert info.value.field == field, info.value


def test_fights_as_ry4_and_ry5_make_them_still_load() -> None:
    # RY-4: the need RY-4 asks for, given or worked out, and a defender committing fewer than it may
    for need in ({"0": 1, "1": 2, "2": 1, "3": 0}, None):
        extra: dict[str, Any] = {} if need is None else {"need": need}
        state = G.state_from_json(fight(**extra))
        assert state.fight is not None and state.fight.need == {0: 1, 1: 2, 2: 1, 3: 0}
    state = G.state_from_json(
        fight(phase="pair", hands=[["2D"], ["4S"], ["5H"], ["3C"]], table=[["9D"], ["10S"], ["6H"], []])
    )
    assert state.fight is not None and state.fight.need[1] == 2 and state.phase == "pair"
    # capped by the hand (RY-4): seat 2 holds no card, so commits none
    state = G.state_from_json(fight(hands=[["2D"], ["4S"], [], ["3C"]], need={"2": 0}))
    assert state.fight is not None and state.fight.need[2] == 0
    # RY-5: one card each
    state = G.state_from_json(
        fight(
            "assassinate",
            phase="losses",
            hands=[["2D"], ["4H"], ["5H"], []],
            table=[["9D"], ["KC"], [], []],
            need={"0": 1, "1": 1},
        )
    )
    assert [a.text for a in state.legal_actions(1)] == ["discard QH", "replace QH 4H"]  # RY-6: at most 7 - 1
    # the losses phase after a Royal was discarded: the defender committed two cards when it had two Royals
    losses = fight(
        phase="losses",
        hands=[[], [], ["5H"], []],
        table=[["9D"], ["2S", "3S"], ["6H"], []],
        assigned=["QH", "KS"],
        resolved=1,
    )
    losses["royals"] = [[], ["KS 9S"], ["JC 2C"], []]
    for extra in ({}, {"need": {"0": 1, "1": 2, "2": 1}}):
        state = G.state_from_json({**losses, "fight": {**losses["fight"], **extra}})
        assert state.fight is not None and state.fight.need[1] == 2
        assert [a.text for a in state.legal_actions(1)] == ["discard KS"]


def test_a_saved_game_loads_at_every_step_of_a_fight() -> None:
    seen = set()
    for seed in range(40):
        state = G.new_game(3, seed=seed)
        for k in range(300):
            if state.is_over():
                break
            if state.phase in ("commit", "pair", "hits", "losses"):
                seen.add(state.phase)
                data = json.loads(json.dumps(state.to_json()))
                for key in ("history", "start", "version"):  # as an explicit position
                    data.pop(key)
                again = G.state_from_json(data)
                seat = state.to_move()[0]
                assert again.view(seat) | {"version": 0} == state.view(seat) | {"version": 0}
            movers = state.to_move()
            seat = movers[k % len(movers)]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[(k * 5) % len(legal)])
    assert seen == {"commit", "pair", "hits", "losses"}


# -- bad fields are named -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"decks": [["5C", "ZZ"], [], []]}, "decks[0][1]"),
        ({"decks": [["5C"], []]}, "decks"),
        ({"hands": [["5C"], 7, []]}, "hands[1]"),
        ({"royals": [["QH 7S"], [], []]}, "royals[0][0]"),
        ({"royals": [["QH"], [], []]}, "royals[0][0]"),
        ({"phase": "lunch"}, "phase"),
        ({"turn": 3}, "turn"),
        ({"turns": -1}, "turns"),
        ({"rng": "x"}, "rng"),
        ({"opening": [["AC", "2C"]]}, "opening[0]"),
        ({"opening": [["AC", "2C", "XX"]]}, "opening[0][2]"),
        ({"new_decks": [None, ["AC", 3], None]}, "new_decks[1][1]"),
        ({"winner": 1}, "winner"),
        ({"phase": "pair"}, "fight"),
        ({"phase": "pair", "fight": {"kind": "duel", "attacker": 0, "defender": 1}}, "fight.kind"),
        ({"phase": "pair", "fight": {"kind": "attack", "attacker": 0, "defender": 0}}, "fight.defender"),
        (
            {"phase": "pair", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "pairs": [[5, 3]]}},
            "fight.pairs[0]",
        ),
        (
            {"phase": "pair", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "pairs": [[5, 6]]}},
            "fight.pairs",
        ),
        (
            {"phase": "pair", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "revealed": False}},
            "fight.revealed",
        ),
        ({"phase": "pair", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "attacks": [4]}}, "fight.attacks"),
        (
            {"phase": "losses", "fight": {"kind": "assassinate", "attacker": 0, "defender": 1, "target": "KH"}},
            "fight.target",
        ),
        (
            {"phase": "losses", "fight": {"kind": "assassinate", "attacker": 0, "defender": 1, "target": "7H"}},
            "fight.target",
        ),
        (
            {"phase": "commit", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "need": {"0": 5}}},
            "fight.need.0",
        ),
        (
            {"phase": "commit", "fight": {"kind": "attack", "attacker": 0, "defender": 1, "need": {"9": 1}}},
            "fight.need.9",
        ),
        ({"phase": "commit", "turn": 0, "fight": {"kind": "attack", "attacker": 2, "defender": 1}}, "fight.attacker"),
        ({"phase": "action", "fight": {"kind": "attack", "attacker": 0, "defender": 1}}, "fight"),
        ({"table": [["3C"], [], []]}, "table"),
    ],
)
def test_a_bad_field_is_named(change: dict[str, Any], field: str) -> None:
    data: dict[str, Any] = {"hands": [["2C", "9D"], ["4S"], []], "royals": [[], ["QH 7H"], []], **change}
    with pytest.raises(PositionError) as info:
        G.state_from_json(data)
    assert info.value.field == field, info.value
