"""Learn to play (issue 28, item 7): the lobby starts a first game against bots on a fixed deal, and a
panel beside the board says at each of the player's turns what the rules allow now (the legal moves the
table sent) and, when a move is not allowed, the engine's own reason."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from browser_ui import expect, not_a_legal_selection, play_first_legal, select_cards, wait_state, wait_turn_or_end

if TYPE_CHECKING:
    from conftest import Pages, Screenshot, Server

READY = "() => document.body.dataset.ready === '1'"


def test_learn_to_play_explains_each_turn_from_the_engines_data(
    pages: Pages, server: Server, screenshot: Screenshot
) -> None:
    games = server.get("/api/games")["games"]
    lobby = pages.new("/")
    lobby.wait_for_function(READY)
    # one lesson per registered game (plug-ins included), named by the game's own title
    expect(lobby.locator(".learn-game")).to_have_count(len(games))
    game = games[0]
    button = lobby.locator(f'.learn-game[data-game="{game["name"]}"]')
    expect(button).to_have_text(f"Learn to play {game['title']}")
    button.click()
    lobby.wait_for_url("**/table/*")
    page = lobby
    wait_state(page)
    table_id = page.url.rstrip("/").split("/")[-1]
    info = server.get(f"/api/tables/{table_id}")["table"]
    assert [s["type"] for s in info["seats"]] == ["human"] + ["bot"] * (len(info["seats"]) - 1)
    panel = page.locator("#learn")
    expect(panel).to_be_visible()
    wait_turn_or_end(page)
    expect(panel).to_contain_text("Your turn 1.")
    # the moves listed are the table's legal moves: as many as it sent
    legal = page.evaluate("() => courtcards.state.msg.legal")
    expect(panel).to_contain_text(f"allow {len(legal)} move" if len(legal) == 1 else f"allow {len(legal)} moves")
    expect(page.locator("#learn-moves li")).not_to_have_count(0)
    # a selection the rules do not allow: the engine's reason appears in the panel
    hand = page.evaluate("() => courtcards.state.shownHand")
    wrong = not_a_legal_selection(hand, legal)
    assert wrong is not None, f"every one- and two-card selection is legal on this deal: {legal}"
    select_cards(page, wrong)
    expect(page.locator("#learn-refusal")).to_contain_text("Not allowed: ")
    screenshot(page, "learn-to-play")
    page.keyboard.press("Escape")
    # a move: the panel follows the table to the next turn (or the end)
    before = page.evaluate("() => document.querySelector('#learn').dataset.version")
    play_first_legal(page)
    page.wait_for_function(f"() => document.querySelector('#learn').dataset.version !== {before!r}")
    wait_turn_or_end(page)
    if page.evaluate("() => document.body.dataset.status") == "finished":
        expect(panel).to_contain_text("The game is over")
    else:
        expect(panel).to_contain_text("Your turn 2.")
        expect(page.locator("#learn-refusal")).to_be_hidden()  # the old refusal went with its turn


@pytest.mark.slow
def test_every_registered_game_has_a_lesson_that_explains_its_first_turn(pages: Pages, server: Server) -> None:
    for game in server.get("/api/games")["games"]:
        page = pages.new("/")
        page.wait_for_function(READY)
        page.click(f'.learn-game[data-game="{game["name"]}"]')
        page.wait_for_url("**/table/*")
        wait_state(page)
        wait_turn_or_end(page)
        legal = page.evaluate("() => courtcards.state.msg.legal")
        assert legal, game["name"]
        expect(page.locator("#learn")).to_contain_text("Your turn 1.")
        expect(page.locator("#learn-moves li")).not_to_have_count(0)
        play_first_legal(page)
        page.close()
