"""A player comes back (issue 28): a guest plays, closes the tab and finds the game in My games, makes an
account, claims the seat and resumes it from another browser; the your-turn title and icon; chat between
players, apart from spectators, escaped, and the creator's mute."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING

from browser_ui import (
    account_form,
    create_and_sit,
    expect,
    join,
    open_lobby,
    play_first_legal,
    play_until_over,
    say,
    wait_state,
    wait_turn_or_end,
)

if TYPE_CHECKING:
    from conftest import Pages, Server

READY = "() => document.body.dataset.ready === '1'"


def game_title(server: Server, name: str) -> str:
    return str(next(g["title"] for g in server.get("/api/games")["games"] if g["name"] == name))


def test_guest_comes_back_makes_an_account_claims_the_seat_and_resumes_elsewhere(pages: Pages, server: Server) -> None:
    title = game_title(server, "royale")
    lobby = pages.new("/")
    lobby.wait_for_function(READY)
    expect(lobby.locator("#account")).to_contain_text("Playing as a guest")
    lobby.fill("#name", "Ida")
    table_id = create_and_sit(lobby, "royale")
    wait_turn_or_end(lobby)
    # the tab says whose turn it is, with the game's own title, and its icon changes
    lobby.wait_for_function(f"() => document.title === {'● Your turn · ' + title!r}")
    assert str(lobby.get_attribute("link[rel=icon]", "href")).startswith("data:image/svg+xml")
    play_first_legal(lobby)
    # a casual game against a bot: Undo takes the move back (and the bot's reply)
    moved = int(lobby.evaluate("() => document.body.dataset.version"))
    expect(lobby.locator("#undo")).to_be_visible()
    lobby.click("#undo")
    lobby.wait_for_function(f"() => Number(document.body.dataset.version) < {moved}")
    wait_turn_or_end(lobby)
    # chat is text: markup in a message is shown, never obeyed
    say(lobby, "<b>good luck</b>")
    expect(lobby.locator("#chat-log li .text")).to_have_text("<b>good luck</b>")
    assert lobby.locator("#chat-log b").count() == 0
    context = lobby.context
    lobby.close()  # the tab is closed: nothing is lost

    home = context.new_page()
    home.goto(server.base + "/")
    home.wait_for_function(READY)
    row = home.locator(f'.my-game[data-table="{table_id}"]')
    expect(row).to_contain_text(title)
    row.locator(".resume").click()
    home.wait_for_url(f"**/table/{table_id}")
    wait_state(home)
    expect(home.locator("#role")).to_have_text("seat 1")

    # an account, then the guest's seat claimed into it
    home.goto(server.base + "/")
    home.wait_for_function(READY)
    user = "ida" + secrets.token_hex(3)
    account_form(home, "up", user, "a long enough password")
    expect(home.locator("#signed-in")).to_contain_text(user)
    claim = home.locator(f'.my-game[data-table="{table_id}"] .claim')
    claim.click()
    expect(home.locator(f'.my-game[data-table="{table_id}"] .claim')).to_have_count(0)
    expect(home.locator(f'.my-game[data-table="{table_id}"]')).to_have_count(1)

    # another browser (no seat token there): signed in, the game is in My games and resumes in the seat
    laptop = pages.new("/")
    laptop.wait_for_function(READY)
    expect(laptop.locator("#my-games")).to_contain_text("Your games appear here")
    account_form(laptop, "in", user, "a long enough password")
    expect(laptop.locator("#signed-in")).to_contain_text(user)
    laptop.locator(f'.my-game[data-table="{table_id}"] .resume').click()
    laptop.wait_for_url(f"**/table/{table_id}")
    wait_state(laptop)
    expect(laptop.locator("#role")).to_have_text("seat 1")
    expect(laptop.locator("#chat-log li .text")).to_have_text("<b>good luck</b>")  # the players' chat so far
    # a rated game against a bot (a fixed anchor): finished, it puts a rating on the player's profile
    open_lobby(laptop, server.base)
    create_and_sit(laptop, "royale", rated=True)
    expect(laptop.locator("#undo")).to_be_hidden()  # never in a rated game
    play_until_over(laptop, max_moves=2000)
    laptop.goto(f"{server.base}/players/{user}")
    expect(laptop.locator(".rating[data-game=royale] .rating-value")).to_be_visible()
    expect(laptop.locator(".rating[data-game=royale] svg.rating-plot")).to_be_visible()
    expect(laptop.locator(".rating[data-game=royale]")).to_contain_text("after 1 rated games")
    # a wrong password says so, and signs nobody in
    other = pages.new("/")
    other.wait_for_function(READY)
    account_form(other, "in", user, "not the password")
    expect(other.locator("#account-error")).to_contain_text("wrong username or password")
    expect(other.locator("#signed-in")).to_have_count(0)
    # Chromium logs the refused sign-in (HTTP 401) in the console: that one is expected, nothing else
    refused = [e for e in pages.errors if "status of 401" in e]
    assert len(refused) == 1
    pages.errors.remove(refused[0])


def test_chat_players_apart_from_spectators_and_the_creator_mutes(pages: Pages, server: Server) -> None:
    made = server.post(
        "/api/tables", {"game": "royale", "seed": 4, "bot_delay": 0, "seats": [{"type": "human"}, {"type": "human"}]}
    )
    table_id, owner = made["table"]["id"], made["owner_key"]
    ann = pages.new(f"/join/{table_id}/0")
    ann.evaluate(f"() => localStorage.setItem('courtcards:owner:{table_id}', {owner!r})")  # ann made the table
    join(ann, "Ann")
    bo = pages.new(f"/join/{table_id}/1")
    join(bo, "Bo")
    watcher = pages.new(f"/table/{table_id}")
    wait_state(watcher)
    expect(watcher.locator("#chat-title")).to_have_text("Spectators' chat")
    expect(ann.locator("#chat-title")).to_have_text("Players' chat")

    say(ann, "hello Bo")
    expect(bo.locator("#chat-log li")).to_have_text("Ann:hello Bo")
    say(watcher, "Bo holds the king")
    expect(watcher.locator("#chat-log li .text")).to_have_text(["Bo holds the king"])
    # the spectators' line never reaches the players, nor theirs the spectators
    say(bo, "hi Ann")
    expect(ann.locator("#chat-log li .text")).to_have_text(["hello Bo", "hi Ann"])
    expect(watcher.locator("#chat-log li .text")).to_have_text(["Bo holds the king"])

    # the creator mutes Bo; Bo's box says so; a player who is not the creator has no mute buttons
    expect(bo.locator("#chat-mutes")).to_be_hidden()
    ann.locator('#chat-mutes .mute[data-seat="1"]').click()
    expect(bo.locator("#chat-input")).to_be_disabled()
    expect(ann.locator('#chat-mutes .mute[data-seat="1"]')).to_have_text(re.compile("^Unmute"))
    ann.locator('#chat-mutes .mute[data-seat="1"]').click()
    expect(bo.locator("#chat-input")).to_be_enabled()
