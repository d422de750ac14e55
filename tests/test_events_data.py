"""Events as data (issue 26, item 6): every event every seat sees is a declared kind with typed
data, its template names seats only through seat-typed data, and the engine's sentence is the
template filled with the engine's names; the schemas published under docs/schemas/events are current."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from courtcards.core.actions import Action
from courtcards.core.errors import IllegalActionError, OptionError, PositionError, Refusal
from courtcards.core.events import (
    EMPTY,
    EventKinds,
    EventLog,
    event_problems,
    event_schema,
    fill,
    kinds_of,
    placeholders,
)
from courtcards.core.game import game_names, get_game

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schemas" / "events"
def _configs() -> list[tuple[str, int, str | None]]:
    out = []
    for name in game_names():
        game = get_game(name)
        for n in sorted({game.min_players, game.max_players}):
            for preset in [None, *sorted(game.options.presets)]:
                try:
                    game.resolve_options(n, preset=preset)
                except OptionError:
                    continue
                out.append((name, n, preset))
    return out


CONFIGS = _configs()


#: the games whose every refusal carries a code and data (the others still give bare sentences: code "illegal")
CODED = {"royale"}


def engine_name(seat: int, cap: bool) -> str:
    return ("Seat " if cap else "seat ") + str(seat)


def play(name: str, n: int, preset: str | None, seed: int) -> tuple[set[str], int]:
    game = get_game(name)
    kinds = kinds_of(game)
    assert not kinds.open, f"{name} declares its event kinds"
    state = game.new_game(n, preset=preset, seed=seed)
    rng = random.Random(seed)
    seen: set[str] = set()
    checked = 0
    steps = 0
    while True:
        for viewer in [None, *range(n)]:
            for e in state.events.last(5, viewer):
                problems = event_problems(e, kinds, n)
                assert not problems, (name, e, problems)
                assert fill(e["template"], e["data"], engine_name) == e["text"]
                seen.add(e["kind"])
                checked += 1
        if state.is_over() or steps > 400:
            return seen, checked
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1


@pytest.mark.parametrize("name,n,preset", CONFIGS)
def test_every_event_of_random_games_fits_its_declared_kind(name: str, n: int, preset: str | None) -> None:
    seen: set[str] = set()
    for seed in range(3):
        kinds, checked = play(name, n, preset, seed)
        seen |= kinds
        assert checked
    assert seen <= set(kinds_of(get_game(name)).kinds)


def test_every_declared_kind_happens() -> None:
    """No kind is declared that the engine never records (core ones aside), over a few games each."""
    for name in game_names():
        game = get_game(name)
        seen: set[str] = set()
        for (g, n, preset) in CONFIGS:
            if g == name:
                for seed in range(6):
                    seen |= play(name, n, preset, seed)[0]
        declared = set(kinds_of(game).kinds) - {"note", "commit"}
        rare = {"round_limit", "no_tax", "no_give_back", "lone", "shed", "new_round"}  # need particular hands
        assert declared - seen <= rare, (name, declared - seen)


def test_fill_names_seats_with_the_clients_names() -> None:
    data = {"seat": 2, "finish": [3, 1], "steps": [{"kind": "x", "seat": 0}]}
    template = "{seat} plays. {finish.0} then {finish.1}; {steps.0.seat} draws {nothing}"
    assert placeholders(template) == ["seat", "finish.0", "finish.1", "steps.0.seat", "nothing"]
    names = ["Ann", "Bob", "Cy", "Di"]
    assert fill(template, data, lambda s, cap: names[s] if s else ("You" if cap else "you")) == \
        "Cy plays. Di then Bob; you draws {nothing}"
    assert fill(template, data) == "Seat 2 plays. Seat 3 then seat 1; seat 0 draws {nothing}"


def test_the_log_keeps_data_secret_variants_and_round_trips() -> None:
    log = EMPTY.record(0, "take", "{seat} takes a card from {giver}", {"seat": 0, "giver": 3},
                       {0: ("{seat} takes 12 from {giver}", {"seat": 0, "giver": 3, "cards": ["12"]})})
    log = log.add(None, "the round ends")
    first = log.last(viewer=0)[0]
    assert first == {"n": 1, "seat": 0, "kind": "take", "template": "{seat} takes 12 from {giver}",
                     "data": {"seat": 0, "giver": 3, "cards": ["12"]}, "text": "Seat 0 takes 12 from seat 3"}
    first["data"]["seat"] = 3  # a client's copy (its lists are the log's: read only)
    assert log.last(viewer=0)[0]["data"]["seat"] == 0
    assert log.texts(viewer=1) == ["Seat 0 takes a card from seat 3", "the round ends"]
    again = EventLog.from_json(log.to_json(), num_players=4)
    assert again.to_json() == log.to_json()
    assert EventLog.from_json(log.last(viewer=0), num_players=4).last(viewer=None) == log.last(viewer=0)
    bad = log.to_json()
    bad[0]["text"] = "Seat 1 takes a card from seat 3"
    with pytest.raises(Exception, match="template filled"):
        EventLog.from_json(bad, num_players=4)


def test_a_kind_checks_its_fields_and_placeholders() -> None:
    kinds = EventKinds({"play": {"seat": "seat", "cards": "cards", "count": "int?"}})
    good: dict[str, Any] = {"kind": "play", "template": "{seat} plays 8", "data": {"seat": 1, "cards": ["8"]},
                            "text": "Seat 1 plays 8"}
    assert event_problems(good, kinds, 4) == []
    changes: list[tuple[dict[str, Any], str]] = [({"kind": "dance"}, "not declared"),
                                                  ({"data": {"seat": 1}}, "no 'cards'"),
                          ({"data": {"seat": 9, "cards": ["8"]}}, "type seat"),
                          ({"data": {"seat": 1, "cards": ["8"], "extra": 1}}, "not a declared field"),
                          ({"template": "{count} plays 8", "data": {"seat": 1, "cards": ["8"], "count": 1}},
                           "not a seat")]
    for change, fault in changes:
        assert any(fault in p for p in event_problems({**good, **change}, kinds, 4)), change
    with pytest.raises(ValueError, match="no type"):
        EventKinds({"x": {"a": "colour"}})


@pytest.mark.parametrize("name", game_names())
def test_published_event_schemas_are_current(name: str) -> None:
    path = DOCS / f"{name}.json"
    assert json.loads(path.read_text()) == event_schema(get_game(name)), \
        "python -m courtcards.core.events docs/schemas/events"


def test_published_schemas_validate_events() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for name in game_names():
        schema = json.loads((DOCS / f"{name}.json").read_text())
        game = get_game(name)
        state = game.new_game(game.default_players, seed=1)
        rng = random.Random(1)
        for _ in range(60):
            if state.is_over():
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for e in state.events.last(viewer=0):
            jsonschema.validate(e, schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**state.events.last()[-1], "kind": "dance"}, schema)


@pytest.mark.parametrize("name", game_names())
def test_refusals_carry_a_code_and_data(name: str) -> None:
    """Actions legal elsewhere in the game, refused here: the reason is a Refusal (the engine's sentence
    with a code and JSON-ready data), and the error apply raises carries the same."""
    game = get_game(name)
    rng = random.Random(7)
    pool: dict[str, Action] = {}
    codes: set[str] = set()
    for seed in range(3):
        state = game.new_game(game.default_players, seed=seed)
        for _ in range(120):
            if state.is_over():
                break
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            pool.update((a.text, a) for a in legal)
            for text in rng.sample(sorted(pool), min(8, len(pool))):
                action = pool[text]
                if action in legal:
                    continue
                reason = state.refusal(seat, action)
                assert reason is not None
                if name in CODED:
                    assert isinstance(reason, Refusal) and reason.code.isidentifier(), (name, text, reason)
                code, data = (reason.code, dict(reason.data)) if isinstance(reason, Refusal) else ("illegal", {})
                json.dumps(data)
                with pytest.raises(IllegalActionError) as exc:
                    state.apply(seat, text)
                assert (exc.value.code, exc.value.data, exc.value.reason) == (code, data, str(reason))
                codes.add(code)
            state.apply(seat, rng.choice(legal))
    assert len(codes) >= (2 if name in CODED else 1), codes
    with pytest.raises(IllegalActionError) as exc:
        state.apply(state.num_players, "pass")
    assert exc.value.code in ("no_such_seat", "game_over")


def test_a_log_read_again_is_checked_as_strictly_as_the_first_time() -> None:
    # from_json remembers the sentences it has checked (a search reads the same view's log for every world):
    # the same template and sentence with data that only compares equal (True == 1) is still refused
    good = [{"n": 1, "seat": 1, "kind": "pass", "template": "{seat} passes.", "data": {"seat": 1},
             "text": "Seat 1 passes."}]
    for _ in range(2):
        assert EventLog.from_json(good, num_players=4).texts() == ["Seat 1 passes."]
    for value in (True, 1.0):
        bad = [dict(good[0], data={"seat": value})]
        with pytest.raises(PositionError):
            EventLog.from_json(bad, num_players=4)
    good[0]["data"]["seat"] = 2  # the caller's data changed after the check: not the remembered one
    with pytest.raises(PositionError):
        EventLog.from_json(good, num_players=4)
