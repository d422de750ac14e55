"""A game the pages have never seen: Five Tricks (examples/plugin-game) declares no browser module, so
the generic renderer draws it from its view and the legal moves; a person plays a whole game against
two bots (the easy and the search bot, the only kinds a game without bots of its own has), from the
lobby to the result and the replay. And a rule variant of Rank gets Rank's renderer through its game."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from browser_ui import expect, finished, play_until_over, wait_state, wait_turn_or_end

if TYPE_CHECKING:
    from conftest import Pages, Screenshot, Server

CARD_NAME = re.compile(r"^[1-5] of (Hearts|Diamonds|Spades|Clubs)$")


def test_a_plug_in_game_is_played_through_the_generic_renderer(pages: Pages, screenshot: Screenshot) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    listed = pages.server.get("/api/games")["games"]
    five = next(g for g in listed if g["name"] == "fivetricks")
    assert five["browser_module"] is None and {"random", "ismcts"} <= set(five["bots"])
    assert [o.get_attribute("value") for o in page.locator("#game option").all()] == [g["name"] for g in listed]
    page.select_option("#game", "fivetricks")
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    page.wait_for_selector("#seat-2")
    assert page.input_value("#seat-0") == "human"
    assert page.input_value("#seat-1") == "bot:random"  # no medium bot: the easy one by default
    page.select_option("#seat-2", "bot:ismcts")
    page.click(".advanced summary")
    page.fill("#bot_delay", "0")
    page.fill("#seed", "3")
    page.fill("#name", "Ann")
    page.click("#create")
    page.wait_for_selector("#created .link-row")
    page.click("#created button.sit")
    page.wait_for_url("**/table/*")
    wait_state(page)
    table_id = page.url.rstrip("/").split("/")[-1]
    info = pages.server.get(f"/api/tables/{table_id}")["table"]
    assert info["game"] == "fivetricks" and [s["bot"] for s in info["seats"]] == [None, "random", "ismcts"]
    wait_turn_or_end(page)

    # the generic renderer: title, round word, whose turn, the players' table, the hand as cards
    expect(page.locator("#title")).to_contain_text("Five Tricks")
    expect(page.locator("#subtitle")).to_contain_text(re.compile(r"Five Tricks · Trick \d"))
    assert page.locator("#center .center-generic").count() == 1
    assert page.locator("#center .json").count() == 0  # no JSON dump
    players = page.locator("#center .players-table tbody tr")
    expect(players).to_have_count(3)
    assert players.first.locator("td").first.inner_text() == "Ann (you)"
    head = page.locator("#center .players-table thead").inner_text()
    assert "Hand size" in head and "Score" in head
    expect(page.locator('#center [data-field="set_aside"]')).to_contain_text("Set aside")
    hand = page.locator("#hand .card")
    assert hand.count() >= 3
    for i in range(hand.count()):
        assert CARD_NAME.match(str(hand.nth(i).get_attribute("title"))), hand.nth(i).get_attribute("title")
    assert page.locator("#hand .card svg").count() == hand.count()  # drawn by cards.js
    if not finished(page):
        expect(page.locator("#headline")).to_have_text("Your turn.")
    screenshot(page, "fivetricks-generic")

    played = play_until_over(page, max_moves=20)
    assert 3 <= len(played) <= 5  # one card a trick
    page.wait_for_selector("#summary .game-over")
    assert "Game over" in page.inner_text("#summary")
    assert page.locator("#summary .standings tbody tr").count() == 3
    log = page.inner_text("#log")
    assert "Ann (you)" in log  # the engine's sentences with the seats' names put in
    info = pages.server.get(f"/api/tables/{table_id}")["table"]
    assert info["status"] == "finished" and info["result"] is not None
    assert page.locator("#center .center-generic").count() == 1

    # the replay draws it too, and marks each trick by the game's round word
    replay = pages.new(f"/replay/{table_id}")
    replay.wait_for_function("() => document.body.dataset.step === '0'")
    assert replay.locator("#center .center-generic").count() == 1
    expect(replay.locator("#marks")).to_contain_text("Trick 1")
    replay.click("#last")
    replay.wait_for_function("() => document.body.dataset.step !== '0'")
    expect(replay.locator("#summary")).to_contain_text("Final standings")


def test_a_variant_gets_its_parents_renderer(pages: Pages, server: Server) -> None:
    listed = {g["name"]: g for g in server.get("/api/games")["games"]}
    assert listed["rank_knights"]["browser_module"] == "/static/js/games/rank_knights.js"
    table = server.create_table(
        game="rank_knights",
        players=3,
        options={"tokens_to_win": 1},
        seed=4,
        seats=[{"type": "bot", "bot": "random"}] * 3,
    )
    page = pages.new(f"/table/{table['id']}")
    wait_state(page)
    # Rank's own board (its pile and characters) and Rank's card faces, keyed by the variant's name
    expect(page.locator("#center .center-rank")).to_have_count(1)
    expect(page.locator("#subtitle")).to_contain_text("Hand ")
    expect(page.locator(".player .role").first).to_contain_text(re.compile("King|Queen|Knight|Beggar"))
