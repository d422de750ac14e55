"""Rank in a real browser: a table made in the lobby, a whole game played by clicking, a reload
in the middle, two people at one table, and the replay of the finished game."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from browser_ui import finished, join, play_first_legal, play_until_over, wait_state, wait_turn_or_end

if TYPE_CHECKING:
    from conftest import Pages, Screenshot, Server
    from playwright.sync_api import Page


def test_lobby_rank_three_bots_whole_game_with_reload(pages: Pages, screenshot: Screenshot) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    # the server's games, in its order (no page keeps a list of games)
    listed = [g["name"] for g in pages.server.get("/api/games")["games"]]
    assert [o.get_attribute("value") for o in page.locator("#game option").all()] == listed
    assert listed[0] == "rank"  # the flagship first (GameInfo.listing)
    page.select_option("#game", "rank")
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    page.wait_for_selector("#opt-tokens_to_win")
    # the default is shown (filled in once the defaults for 4 players have arrived)
    page.wait_for_function("() => document.querySelector('#opt-tokens_to_win').value === '5'")
    page.fill("#opt-tokens_to_win", "1")
    for seat in (1, 2, 3):
        assert page.input_value(f"#seat-{seat}").startswith("bot:")
    assert page.input_value("#seat-0") == "human"
    page.click(".advanced summary")
    page.fill("#bot_delay", "0")
    page.fill("#seed", "7")
    page.fill("#name", "Ann")
    page.click("#create")
    page.wait_for_selector("#created .link-row")
    link = page.input_value("#created .link-row input")
    assert link.endswith("/join/" + link.split("/join/")[1]) and link.split("/")[-1] == "0"
    page.click("#created button.sit")
    page.wait_for_url("**/table/*")
    wait_state(page)
    table_id = page.url.rstrip("/").split("/")[-1]
    assert page.locator(".player.me .player-name").inner_text().startswith("Ann")
    wait_turn_or_end(page)
    screenshot(page, "rank")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "rank-phone")
    page.set_viewport_size({"width": 1280, "height": 860})
    played = play_until_over(page, reload_after=3)
    assert len(played) >= 3
    assert finished(page)
    page.wait_for_selector("#summary .game-over")
    assert "Game over" in page.inner_text("#summary")
    assert page.locator("#summary .standings tbody tr").count() == 4
    # the log is the engine's sentences with the seats' names put in (RK-10/RK-11 among them)
    log = page.inner_text("#log")
    assert "Ann (you)" in log and "wins the game with" in log and "is over: " in log
    info = pages.server.get(f"/api/tables/{table_id}")["table"]
    assert info["status"] == "finished" and info["result"]["scores"][info["result"]["winner"]] >= 1


def test_illegal_selection_explained_and_play_disabled(pages: Pages, server: Server) -> None:
    table = server.create_table(
        game="rank",
        players=3,
        options={"tokens_to_win": 1},
        seed=11,
        seats=[{"type": "human"}, {"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}],
    )
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Bea")
    while True:
        wait_turn_or_end(page)
        assert not finished(page), "the game ended before a turn to test"
        if page.locator("#actions .chip").count():
            break
        play_first_legal(page)
    hand = [c.get_attribute("data-code") for c in page.locator("#hand .card").all()]
    legal = {str(c.get_attribute("data-cards")) for c in page.locator("#actions .chip").all()}
    # find two cards that are not a legal play together
    pair = next(
        (
            [a, b]
            for i, a in enumerate(hand)
            for b in hand[i + 1 :]
            if f"{a} {b}" not in legal and f"{b} {a}" not in legal
        ),
        None,
    )
    assert pair is not None
    page.locator(f'#hand .card[data-code="{pair[0]}"]').first.click()
    page.locator(f'#hand .card[data-code="{pair[1]}"][aria-pressed="false"]').first.click()
    assert page.locator("#play").is_disabled()
    assert page.inner_text("#why").startswith("Not a legal play:")
    # the engine's own reason replaces the page's quick one (RK-4/RK-5 wording comes from the server)
    page.wait_for_function(
        "() => (window.courtcards.state.lastCheck || {}).action === window.courtcards.state.checking"
    )
    reply = page.evaluate("window.courtcards.state.lastCheck")
    assert reply["legal"] is False and reply["code"] == "illegal_action" and reply["reason"]
    # ... in the page's words: the ruling ids the engine cites (RK-4) are left out
    words = re.sub(r"\s*\((?:[A-Z]{2}-\d+[a-z]?(?:[,;]\s*)?)+\)", "", reply["reason"])
    page.wait_for_function("() => !document.getElementById('why').textContent.includes('legal plays')")
    assert page.inner_text("#why") == f"Not a legal play: {words}." and "RK-" not in page.inner_text("#why")
    page.keyboard.press("Escape")
    assert page.locator('#hand .card[aria-pressed="true"]').count() == 0


def seated_against_bots(pages: Pages, server: Server) -> tuple[str, Page]:
    """A Rank table of Cid and two greedy bots, Cid's page at Cid's turn: (the table's id, the page)."""
    table = server.create_table(
        game="rank",
        players=3,
        options={"tokens_to_win": 1},
        seed=12,
        seats=[{"type": "human"}, {"type": "bot", "bot": "greedy"}, {"type": "bot", "bot": "greedy"}],
    )
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Cid")
    wait_turn_or_end(page)
    return table["id"], page


def test_reconnects_by_itself_after_a_dropped_connection(pages: Pages, server: Server) -> None:
    _, page = seated_against_bots(pages, server)
    page.wait_for_selector("#conn.ok")
    page.evaluate("() => window.courtcards.state.socket.ws.close()")
    page.wait_for_selector("#conn.bad")
    assert "retrying" in page.inner_text("#conn")
    page.wait_for_selector("#conn.ok")
    wait_turn_or_end(page)
    assert page.locator(".player.me .player-name").inner_text().startswith("Cid")
    play_first_legal(page)  # still seated and playing


def test_a_socket_with_nothing_to_do_spreads_its_reconnection(pages: Pages, server: Server) -> None:
    """After a dropped connection, the player to move retries at once (0.32-0.48 s), while a spectator's
    page spreads its first retry over SPREAD_MS more: in a failover the survivor serves the players to
    move first. Math.random is pinned to its extremes, so the two delays are exact bounds."""
    tid, player = seated_against_bots(pages, server)
    watcher = pages.new(f"/table/{tid}")
    spread = watcher.evaluate("async () => (await import('/static/js/ws.js')).SPREAD_MS")
    assert spread >= 1000
    for page, high in ((player, 0.48), (watcher, 0.48 + spread / 1000)):
        page.wait_for_selector("#conn.ok")
        page.evaluate("() => { Math.random = () => 0.999999; window.courtcards.state.socket.ws.close(); }")
        page.wait_for_selector("#conn.bad")
        delay = page.evaluate("() => window.courtcards.state.socket.delay") / 1000
        assert high - 0.01 < delay <= high, (page.url, delay)
        page.wait_for_selector("#conn.ok", timeout=high * 1000 + 10000)
