"""Issue 28's acceptance walk: a new player, clicking as a person would, plays as a guest, closes the tab,
finds the game again in My games, makes an account, claims the seat, finishes the game, sees a rated game
change their rating (profile and leaderboard), meets a second browser at a quick-play table (chat, the
your-turn title there) and finishes the lesson ("Learn to play") of every registered game.

The games come from the server (GET /api/games) and the lobby's buttons, never by name: the walk plays
the game and preset whose lesson is the shortest, so it stays short whatever games are installed."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING, Any

import pytest
from browser_ui import (
    LOBBY_READY,
    account_form,
    create_and_sit,
    expect,
    finished,
    has_turn,
    not_a_legal_selection,
    open_lobby,
    play_first_legal,
    play_until_over,
    say,
    select_cards,
    wait_any_turn_or_end,
    wait_state,
    wait_turn_or_end,
)

if TYPE_CHECKING:
    from conftest import Pages, Server
    from playwright.sync_api import Page

PASSWORD = "a long enough password"


def shortest_game(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The game whose lesson (its shortest preset, measured by the server) takes the fewest turns."""
    return min(games, key=lambda g: g["lesson"]["turns"])


def table_id(page: Page) -> str:
    return page.url.rstrip("/").split("/")[-1]


def finish_lesson(page: Page) -> tuple[int, int]:
    """Play a lesson to its end; at each turn the panel names the turn and lists the moves the rules allow
    (as many as the table sent), and a selection of cards that no legal move plays, tried before the move
    where there is one, shows the engine's refusal. Returns the learner's turns and the refusals shown."""
    turns = refusals = 0
    while True:
        wait_turn_or_end(page)
        if finished(page):
            break
        turns += 1
        legal = page.evaluate("() => courtcards.state.msg.legal")
        panel = page.locator("#learn")
        expect(panel).to_contain_text(re.compile(r"Your turn \d+\."))
        expect(panel).to_contain_text(f"allow {len(legal)} move")
        expect(page.locator("#learn-moves li")).not_to_have_count(0)
        wrong = not_a_legal_selection(page.evaluate("() => courtcards.state.shownHand || []"), legal)
        if wrong is not None:
            select_cards(page, wrong)
            expect(page.locator("#learn-refusal")).to_contain_text("Not allowed: ")
            page.keyboard.press("Escape")
            refusals += 1
        play_first_legal(page)
        assert turns < 400, "the lesson did not end"
    expect(page.locator("#learn")).to_contain_text("The game is over")
    return turns, refusals


@pytest.mark.slow
def test_a_new_player_walks_through_the_home_for_players(pages: Pages, server: Server) -> None:
    games = server.get("/api/games")["games"]
    game = shortest_game(games)
    short = {"game": game["name"], "players": game["lesson"]["players"], "preset": game["lesson"]["preset"] or ""}
    your_turn = f"● Your turn · {game['title']}"

    # a guest: a table against bots from the lobby, one move, then the tab is closed
    guest = pages.new("/")
    guest.wait_for_function(LOBBY_READY)
    expect(guest.locator("#account")).to_contain_text("Playing as a guest")
    guest.fill("#name", "Ida")
    first = create_and_sit(guest, seed=game["lesson"]["seed"], **short)
    wait_turn_or_end(guest)
    expect(guest).to_have_title(your_turn)
    play_first_legal(guest)
    assert not finished(guest), "the game ended at the guest's first move: nothing left to come back to"
    context = guest.context
    guest.close()

    # the game again, from the lobby's My games
    home = context.new_page()
    home.set_default_timeout(60000)
    open_lobby(home, server.base)
    row = home.locator(f'.my-game[data-table="{first}"]')
    expect(row).to_contain_text(game["title"])
    row.locator(".resume").click()
    home.wait_for_url(f"**/table/{first}")
    wait_state(home)
    expect(home.locator("#role")).to_have_text("seat 1")

    # an account; the guest's seat claimed into it; the game finished
    open_lobby(home, server.base)
    user = "ida" + secrets.token_hex(3)
    account_form(home, "up", user, PASSWORD)
    expect(home.locator("#signed-in")).to_contain_text(user)
    home.locator(f'.my-game[data-table="{first}"] .claim').click()
    expect(home.locator(f'.my-game[data-table="{first}"] .claim')).to_have_count(0)
    home.locator(f'.my-game[data-table="{first}"] .resume').click()
    home.wait_for_url(f"**/table/{first}")
    wait_state(home)
    play_until_over(home)
    open_lobby(home, server.base)
    expect(home.locator(f'.my-game[data-table="{first}"][data-status="finished"]')).to_contain_text("Replay")

    # a rated game against bots (fixed anchors) changes the rating: profile and leaderboard
    home.click("#signed-in a")
    expect(home.locator("main")).to_contain_text("No rated games yet")
    open_lobby(home, server.base)
    rated = create_and_sit(home, rated=True, **short)
    expect(home.locator("#undo")).to_be_hidden()  # never in a rated game
    play_until_over(home)
    open_lobby(home, server.base)
    home.click("#signed-in a")
    home.wait_for_url(f"**/players/{user}")
    rating = home.locator(f'.rating[data-game="{game["name"]}"]')
    expect(rating).to_contain_text("after 1 rated games")
    expect(rating.locator("svg.rating-plot")).to_be_visible()
    expect(rating.locator(f'li:has(a[href="/replay/{rated}"])')).to_contain_text(
        re.compile(r"rating -?[\d.]+ → -?[\d.]+")
    )
    open_lobby(home, server.base)
    home.locator("#account a.button", has_text="Leaderboards").click()
    home.click(f'main a[href="/leaderboard/{game["name"]}"]')
    expect(home.locator(".leaderboard")).to_contain_text(user)

    # quick play: a second browser (a guest) and the player wait in one queue and meet at a table
    pair = next(g for g in games if g["min_players"] <= 2 <= g["max_players"])
    friend = pages.new("/")
    open_lobby(home, server.base)
    friend.wait_for_function(LOBBY_READY)
    for page, name in ((home, user), (friend, "Dev")):
        page.fill("#name", name)
        page.select_option("#quick-game", pair["name"])
        page.fill("#quick-players", "2")
        page.fill("#quick-wait", "300")  # no bots: the two meet
    home.click("#quick-start")
    expect(home.locator("#quick-status")).to_contain_text("Waiting for players: 1 of 2")
    friend.click("#quick-start")
    friend.wait_for_url("**/table/*")
    home.wait_for_url("**/table/*")
    assert table_id(home) == table_id(friend)
    wait_state(home)
    wait_state(friend)

    # chat at that table, both ways
    say(home, "good luck")
    expect(friend.locator("#chat-log li .text")).to_have_text(["good luck"])
    say(friend, "you too")
    expect(home.locator("#chat-log li .text")).to_have_text(["good luck", "you too"])

    # the your-turn title: on the tab of a seat to move; gone once it has moved and waits for the other
    wait_any_turn_or_end([home, friend])
    mover, other = (home, friend) if has_turn(home) else (friend, home)
    expect(mover).to_have_title(f"● Your turn · {pair['title']}")
    play_first_legal(mover)
    if not has_turn(mover):
        expect(mover).not_to_have_title(re.compile("^●"))
    wait_turn_or_end(other)
    if not finished(other):
        expect(other).to_have_title(f"● Your turn · {pair['title']}")

    # Learn to play: the lesson of every game the lobby offers, to the end
    open_lobby(home, server.base)
    buttons = home.locator(".learn-game")
    expect(buttons).to_have_count(len(games))
    names = [str(n) for n in buttons.evaluate_all("(bs) => bs.map((b) => b.dataset.game)")]
    assert sorted(names) == sorted(g["name"] for g in games)
    explained = 0
    for name in names:
        setup = next(g["lesson"] for g in games if g["name"] == name)
        open_lobby(home, server.base)
        button = home.locator(f'.learn-game[data-game="{name}"]')
        # the button says which table the lesson is: its players and the game's shortest variant
        expect(button).to_have_attribute(
            "title", re.compile(f"^{setup['players']} players, " + re.escape(setup["preset"] or ""))
        )
        button.click()
        home.wait_for_url("**/table/*")
        wait_state(home)
        expect(home.locator("#learn")).to_be_visible()
        turns, refusals = finish_lesson(home)
        assert turns >= 1, name
        explained += refusals
    assert explained >= 1, "no lesson showed a refusal of the engine"
