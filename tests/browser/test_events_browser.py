"""The page names the seats of the engine's events from their data: its ``fill`` (static/js/util.js) is
courtcards.core.events.fill to the letter, on every game's events and on odd templates."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from courtcards.core.events import fill
from courtcards.core.game import game_names, get_game

if TYPE_CHECKING:
    from conftest import Pages


def _name(seat: int, capital: bool) -> str:
    return f"{'S' if capital else 's'}<{seat}>"


def _events() -> list[dict[str, Any]]:
    """Distinct (template, data) of a few random games of each game, as every seat sees them."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for name in game_names():
        game = get_game(name)
        n, options = game.test_configs()[0]
        state = game.new_game(n, options, seed=1)
        rng = random.Random(1)
        for _ in range(120):
            if state.is_over():
                break
            seat = rng.choice(list(state.to_move()))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            for viewer in (None, *range(n)):
                for e in state.view(viewer)["log"]:
                    out.setdefault((e["template"], repr(e["data"])), e)
    odd = [
        ("{a..b} x", {"a": {"": {"b": 1}}}),
        ("{x", {"x": 1}),
        ("{} {seat}.", {"seat": 2}),
        ("{1x} {seat}", {"1x": 1}),
        ("{seat}. {seat}! {seat}? {seat} {other} ok", {"seat": 1, "other": True}),
        ("{l.5} {l.0}", {"l": [1]}),
        ("{seat}}", {"seat": 3}),
        ("no seats", {}),
        ("{n.x}", {"n": 4}),
    ]
    return [*out.values(), *({"template": t, "data": d} for t, d in odd)]


def test_the_page_fills_templates_as_the_engine_does(pages: Pages) -> None:
    events = _events()
    assert len(events) > 100 and {e.get("kind") for e in events} >= {"play", "deal"}
    page = pages.new("/")
    got = page.evaluate(
        """async (events) => {
        const { fill } = await import("/static/js/util.js");
        return events.map((e) => fill(e.template, e.data, (seat, cap) => `${cap ? "S" : "s"}<${seat}>`));
    }""",
        [{"template": e["template"], "data": e["data"]} for e in events],
    )
    expected = [fill(e["template"], e["data"], _name) for e in events]
    assert [(e["template"], g, x) for e, g, x in zip(events, got, expected, strict=True) if g != x] == []


def test_the_page_words_an_event_from_its_data_not_its_text(pages: Pages) -> None:
    page = pages.new("/")
    lines = page.evaluate("""async () => {
        const { eventText, seatNamer } = await import("/static/js/util.js");
        const seats = [{ name: "Ann" }, { name: "Bob" }, { type: "bot" }];
        const ctx = { me: 0, name: seatNamer(seats, 0) };
        const play = { kind: "play", template: "{seat} passes: {owner} wins the pile.", data: { seat: 2, owner: 0 },
                       text: "This text is not read." };
        const old = { text: "seat 1 leads." };  // a log saved before events were data: its text
        const note = { kind: "note", template: "seat 2 is waiting.", data: {}, text: "seat 2 is waiting." };
        return [eventText(play, ctx), eventText(old, ctx), eventText(note, ctx)];
    }""")
    assert lines == ["Bot 3 passes: Ann (you) wins the pile.", "Bob leads.", "Bot 3 is waiting."]
