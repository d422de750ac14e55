"""The core pieces every game is built on (issue 11): position fields, the event
log, the Action base class, the climbing games' actions, the 52-card numbering."""

from __future__ import annotations

import pickle
from enum import StrEnum
from typing import Any

import pytest

from courtcards.core import cards as cards52
from courtcards.core.actions import Action
from courtcards.core.climbing import ClimbingAction, counts_of, expand, transfers_view
from courtcards.core.errors import NotationError, PositionError
from courtcards.core.events import EMPTY, LOG_LIMIT, EventLog
from courtcards.core.game import get_game
from courtcards.core.positions import Fields, check_conservation


def test_fields_name_the_field_and_the_reason() -> None:
    f = Fields({"tokens": [0, -2], "turn": "1", "hands": [["7H", "ZZ"]]})
    with pytest.raises(PositionError) as exc:
        f.ints("tokens")
    assert exc.value.field == "tokens[1]" and "at least 0" in exc.value.reason
    with pytest.raises(PositionError) as exc:
        f.seat("turn", 4)
    assert exc.value.field == "turn" and "integer" in exc.value.reason
    with pytest.raises(PositionError) as exc:
        f.card_lists("hands", cards52.parse_card)
    assert exc.value.field == "hands[0][1]"
    with pytest.raises(PositionError, match="'round': is missing"):
        f.integer("round")
    assert f.integer("round", default=1) == 1
    with pytest.raises(PositionError, match="must be a JSON object"):
        Fields([1, 2], "players[0]")
    with pytest.raises(PositionError, match="lists a seat twice"):
        Fields({"order": [1, 1]}).seats("order", 3)
    with pytest.raises(PositionError, match="true or false"):
        Fields({"x": 1}).boolean("x")


def test_conservation_names_extra_and_missing_cards() -> None:
    check_conservation({"a": ["1", "2"], "b": ["2"]}, ["2", "1", "2"])
    with pytest.raises(PositionError, match="extra 3; missing 2"):
        check_conservation({"a": ["1", "3"], "b": ["2"]}, ["2", "1", "2"])


def test_a_loaded_position_must_hold_exactly_the_deck() -> None:
    state = get_game("rank").new_game(4, seed=3)
    data = state.to_json()
    data["hands"][0].append(data["hands"][1][0])  # one card in two hands
    with pytest.raises(PositionError, match="deck"):
        get_game("rank").state_from_json(data)


def test_positions_name_bad_envelope_fields() -> None:
    game = get_game("royals")
    good = game.new_game(3, seed=1).to_json()
    for key, value, field in [
        ("num_players", 9, "num_players"),
        ("seed", "x", "seed"),
        ("history", [[0]], "history[0]"),
        ("pending", {"7": "done"}, "pending.7"),
        ("version", -1, "version"),
        ("format_version", 99, "format_version"),
    ]:
        with pytest.raises(PositionError) as exc:
            game.state_from_json({**good, key: value})
        assert exc.value.field == field, (key, exc.value)


def test_event_log_keeps_numbers_and_is_shared_safely() -> None:
    log = EMPTY
    for i in range(LOG_LIMIT + 5):
        log = log.add(i % 3, f"seat {i % 3} does {i}")
    branch = log.add(None, "the round ends")
    assert len(log) == LOG_LIMIT + 5 and len(branch) == LOG_LIMIT + 6  # the old log is unchanged
    last = log.last()
    assert (
        len(last) == LOG_LIMIT
        and last[0]["n"] == 6
        and last[-1]
        == {"n": 45, "seat": 2, "kind": "note", "template": "seat 2 does 44", "data": {}, "text": "seat 2 does 44"}
    )
    again = EventLog.from_json(log.to_json())
    assert again.to_json() == log.to_json() and len(again) == len(log)
    with pytest.raises(PositionError, match="numbered one after another"):
        EventLog.from_json([{"n": 1, "seat": 0, "text": "a"}, {"n": 3, "seat": 0, "text": "b"}])
    with pytest.raises(PositionError, match=r"log\[0\].text"):
        EventLog.from_json([{"n": 1, "seat": 0}])


def test_secret_events_show_their_cards_only_to_the_entitled_seats() -> None:
    log = EMPTY.add(
        0, "seat 0 takes a card from seat 3", {0: "seat 0 takes 12 from seat 3", 3: "seat 0 takes 12 from seat 3"}
    )
    log = log.add(None, "the round ends")
    assert log.texts(viewer=1) == log.texts() == ["seat 0 takes a card from seat 3", "the round ends"]
    assert log.texts(viewer=0) == log.texts(viewer=3) == ["seat 0 takes 12 from seat 3", "the round ends"]
    saved = log.to_json()
    assert {s: v["text"] for s, v in saved[0]["secret"].items()} == {
        "0": "seat 0 takes 12 from seat 3",
        "3": "seat 0 takes 12 from seat 3",
    }
    assert "secret" not in saved[1]
    again = EventLog.from_json(saved, num_players=4)
    assert again.to_json() == saved and again.texts(viewer=3) == log.texts(viewer=3)
    with pytest.raises(PositionError, match=r"log\[0\].secret.7"):
        EventLog.from_json([{**saved[0], "secret": {"7": "x"}}], num_players=4)
    with pytest.raises(PositionError, match="at most 400 characters"):
        EventLog.from_json([{"n": 1, "seat": None, "text": "x" * 401}])


def test_the_quick_reading_of_a_log_agrees_with_the_checked_one() -> None:
    from courtcards.core.events import _checked, _quick

    log = EMPTY
    for i in range(LOG_LIMIT * 11):  # past the length where the chain is cut back
        log = log.add(i % 3 if i % 5 else None, f"event {i}", {2: f"secret {i}"} if i % 4 == 0 else None)
    assert len(log) == LOG_LIMIT * 11 and log.prev is not None and log.prev.n == len(log) - 1
    for entries in (log.to_json(), log.last(viewer=2), log.last(5), []):
        quick, checked = _quick(entries, 3), _checked(entries, "log", 3)
        assert quick is not None and quick.to_json() == checked.to_json() and quick.n == checked.n
    bad = log.to_json()
    for fault in ({"n": "1"}, {"seat": 3}, {"text": 5}, {"secret": {"9": "x"}}, {"extra": 1}):
        entries = [dict(e) for e in bad]
        entries[3].update(fault)
        assert _quick(entries, 3) is None
        with pytest.raises(PositionError, match=r"log\[3\]"):
            EventLog.from_json(entries, "log", 3)
    empty_secret = [dict(e) for e in bad]
    empty_secret[3]["secret"] = {}  # nothing more for anyone: read as no secret
    assert EventLog.from_json(empty_secret, "log", 3).last(viewer=2)[3]["text"] == bad[3]["text"]
    again = pickle.loads(pickle.dumps(log))  # flat, whatever the log's length
    assert again.to_json() == log.to_json() and again is not log and again != log


def test_a_state_owns_its_log_saves_it_and_copies_share_it() -> None:
    game = get_game("rank")
    state = game.new_game(4, seed=3)
    start = state.events.n
    state.log_event(1, "note", "{seat} waves", {"seat": 1}, {1: ("{seat} waves at {other}", {"seat": 1, "other": 2})})
    twin = state.copy()
    assert twin.events is state.events
    state.log_event(None, "note", "later", {})
    assert twin.events.n == start + 1 and state.events.n == start + 2  # appending never touches the copy
    assert state.log_view(1)[-2]["text"] == "Seat 1 waves at seat 2" and state.log_view(2)[-2]["text"] == "Seat 1 waves"
    loaded = game.state_from_json(state.to_json())
    assert loaded.events.to_json() == state.events.to_json()
    bad = state.to_json()
    bad["events"][-1]["n"] = 99
    with pytest.raises(PositionError, match=r"events\[\d+\].n"):
        game.state_from_json(bad)


def test_vocabulary_problems_name_each_departure_from_the_shared_words() -> None:
    from courtcards.core.views import vocabulary_problems

    good: dict[str, Any] = {
        "game": "toy",
        "seat": 0,
        "num_players": 2,
        "options": {},
        "version": 0,
        "phase": "play",
        "to_move": [0],
        "pending": {"committed": []},
        "result": None,
        "round": 1,
        "turn": 0,
        "hand": ["7H", "8H"],
        "log": [{"n": 1, "seat": None, "text": "dealt"}, {"n": 2, "seat": 0, "text": "x"}],
        "players": [{"seat": 0, "hand_size": 2, "score": 0}, {"seat": 1, "hand_size": 5, "score": 3}],
    }
    assert vocabulary_problems(good) == []
    cases: list[tuple[dict[str, Any], str]] = [
        ({"round": 0}, "counts from 1"),
        ({"turn": 2}, "'turn' is not a seat"),
        ({"seat": None}, "spectator's 'hand' is not empty"),
        ({"log": list(reversed(good["log"]))}, "not numbered in order"),
        ({"players": good["players"][:1]}, "one entry per seat"),
        ({"players": [{"seat": 0, "hand_size": 2}, {"seat": 1, "cards": 5, "hand_size": 5}]}, "says 'cards'"),
        ({"players": [{"seat": 0, "hand_size": 2}, {"seat": 1}]}, "players[1] has no 'hand_size'"),
        ({"players": [{"seat": 0, "hand_size": 3}, {"seat": 1, "hand_size": 5}]}, "hand_size 3 is not its hand's 2"),
        ({"players": [{"seat": 0, "hand_size": 2}, {"seat": 1, "hand_size": 5, "score": True}]}, "score is not int"),
    ]
    for change, problem in cases:
        assert any(problem in p for p in vocabulary_problems({**good, **change})), (change, problem)
    missing = {k: v for k, v in good.items() if k != "log"}
    assert vocabulary_problems(missing) == ["no 'log'"]


class Kind(StrEnum):
    PLAY = "play"
    PASS = "pass"
    GIVE = "give"
    LEAD = "lead"


class Toy(ClimbingAction):
    __slots__ = ()
    Kind = Kind
    TEXT = ("0", "1", "2", "3", "4", "5")
    HINT = "cards 1-5, pass, lead or give CARDS"

    @classmethod
    def read_cards(cls, text: str) -> list[int]:
        out = []
        for t in text.replace(",", " ").split():
            if t not in cls.TEXT[1:]:
                raise NotationError(t, "not a toy card")
            out.append(int(t))
        return out

    @classmethod
    def canonical(cls, cards: Any) -> tuple[int, ...]:
        return tuple(sorted(cards, reverse=True))


def test_climbing_actions_are_interned_frozen_and_round_trip() -> None:
    for text in ["3 5 3", "pass", "give 2 4", "LEAD"]:
        a = Toy.parse(text)
        assert a is Toy.parse(a.text) and eval(repr(a)) is a and pickle.loads(pickle.dumps(a)) is a
        assert isinstance(a, Action) and isinstance(a.kind, Kind)
    assert Toy.parse("3 5 3").text == "5 3 3" and Toy.parse("3 5 3").kind == "play"
    assert repr(Toy.parse("give 4 2")) == "Toy.parse('give 4 2')"
    with pytest.raises(AttributeError, match="immutable"):
        Toy.parse("pass").cards = (1,)
    for bad, why in [("lead 3", "takes no cards"), ("give", "needs the cards"), ("9", "cards 1-5"), ("", "empty")]:
        with pytest.raises(NotationError, match=why):
            Toy.parse(bad)


def test_counts_and_transfers() -> None:
    assert counts_of([3, 1, 3], 5) == [0, 1, 0, 2, 0] and expand([0, 1, 0, 2, 0]) == [1, 3, 3]
    moves = [{"from": 2, "to": 0, "cards": ["9"], "why": "steal"}]
    assert transfers_view(moves, 0) == [{"from": 2, "to": 0, "count": 1, "why": "steal", "cards": ["9"]}]
    assert transfers_view(moves, 1) == [{"from": 2, "to": 0, "count": 1, "why": "steal"}]


def test_one_numbering_of_the_52_cards() -> None:
    assert [cards52.parse_card(t) for t in cards52.TEXT] == list(range(52))
    assert cards52.TEXT[:5] == ("AC", "AD", "AH", "AS", "2C") and cards52.CODE["KS"] == 51
    assert all(cards52.code(cards52.rank_of(c), cards52.suit_of(c)) == c for c in cards52.DECK52)
    assert cards52.parse_card("10h") == cards52.parse_card("TH") == cards52.CODE["10H"]


def test_saved_states_must_hold_their_invariants_and_play() -> None:
    game = get_game("rank")
    state = game.new_game(3, seed=4)
    state.apply(0, "2")  # seat 0 owns the pile
    data = state.to_json()
    owner = data["owner"]
    skipped = (owner + 1) % 3
    assert data["turn"] == skipped and not data["passed"][skipped]
    with pytest.raises(PositionError, match=f"seat {skipped} .* has neither passed nor gone out"):  # RK-9
        game.state_from_json({**data, "turn": (owner + 2) % 3})
    with pytest.raises(PositionError, match=r"hands_log\[0\]\.finish'?: must be a list"):
        game.state_from_json({**data, "hands_log": [{"finish": None}]})
    royals = get_game("royals").new_game(3, seed=2).to_json()
    with pytest.raises(PositionError, match="fight.defender.*cannot fight itself"):
        get_game("royals").state_from_json(
            {**royals, "phase": "commit", "fight": {"kind": "attack", "attacker": 1, "defender": 1}}
        )


@pytest.mark.parametrize("name", ["rank", "kqp", "royale", "royals"])
def test_every_game_has_a_view_type_and_its_published_schema_is_current(name: str) -> None:
    import json
    from pathlib import Path

    from courtcards.core.views import validate_view, view_schema

    game = get_game(name)
    assert game.view_type is not None
    state = game.new_game(game.default_players, seed=5)
    validate_view(game, state.view(0))
    bad = dict(state.view(0), surprise=1)
    with pytest.raises(ValueError, match="surprise"):
        validate_view(game, bad)
    path = Path(__file__).parent.parent / "docs" / "schemas" / "views" / f"{name}.json"
    assert json.loads(path.read_text()) == view_schema(game), "python -m courtcards.core.views docs/schemas/views"
