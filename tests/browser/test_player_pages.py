"""What a new player meets in the browser: the lobby keeps what they type, join links friends can open,
messages in the page's own words, the rules pages, every Royal's two cards, and a rematch."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from browser_ui import expect, finished, join, play_until_over, wait_state, wait_turn_or_end

from courtcards.core.game import game_names

if TYPE_CHECKING:
    from conftest import Pages, Screenshot, Server

RULING_ID = re.compile(r"\b(RK|KQ|RR|RY)-\d")


def test_lobby_keeps_typed_values_across_player_and_preset_changes(pages: Pages, server: Server) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.select_option("#game", "kqp")
    page.wait_for_selector("#opt-rounds")
    page.locator("#opt-rounds").press_sequentially("1")
    page.locator("#players").fill("")
    page.locator("#players").press_sequentially("6")
    # straight into another option, keystroke by keystroke, while the new defaults are on their way
    page.locator("#opt-target").click()
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    page.wait_for_function("() => document.getElementById('doc-target').textContent.includes('default: 20')")
    assert page.evaluate("() => document.activeElement.id") == "opt-target"
    page.select_option("#seat-5", "bot:random")
    page.select_option("#preset", "tournament")
    page.select_option("#preset", "")
    page.locator("#players").fill("5")
    page.dispatch_event("#players", "input")
    page.locator("#players").fill("6")
    page.dispatch_event("#players", "input")
    assert page.input_value("#opt-rounds") == "1" and page.input_value("#opt-target") == "30"
    assert page.input_value("#seat-5") == "bot:random"  # a seat choice survives the count going down and up
    page.click(".advanced summary")
    page.fill("#bot_delay", "0")
    page.click("#create")
    page.wait_for_selector("#created .link-row")
    table_id = page.inner_text("#created h3").split()[1]
    info = server.get(f"/api/tables/{table_id}")["table"]
    assert info["players"] == 6 and info["options"]["rounds"] == 1 and info["options"]["target"] == 30
    assert info["seats"][5] == {**info["seats"][5], "type": "bot", "bot": "random"}


def test_lobby_hides_removed_seats_and_links_every_human_seat(pages: Pages, server: Server) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.select_option("#game", "rank")
    page.fill("#players", "6")
    expect(page.locator("#seat-5")).to_be_visible()
    # people count seats from 1 (ids, links and the API from 0)
    assert page.inner_text('label[for="seat-0"]') == "Seat 1" and page.inner_text('label[for="seat-5"]') == "Seat 6"
    page.select_option("#seat-4", "human")
    page.select_option("#seat-5", "human")
    page.fill("#players", "4")
    # the rows past the count are off the screen (a seat row's display rule once overrode `hidden`)
    expect(page.locator("#seat-4")).to_be_hidden()
    expect(page.locator("#seat-5")).to_be_hidden()
    expect(page.locator(".seat-row:visible")).to_have_count(4)
    page.select_option("#seat-2", "human")
    page.fill("#players", "5")
    expect(page.locator("#seat-4")).to_be_visible()
    assert page.input_value("#seat-4") == "human"  # the choice came back with its row
    page.click("#create")
    expect(page.locator("#created .link-row")).to_have_count(3)
    table_id = page.inner_text("#created h3").split()[1]
    info = server.get(f"/api/tables/{table_id}")["table"]
    humans = [s["seat"] for s in info["seats"] if s["type"] == "human"]
    assert info["players"] == 5 and humans == [0, 2, 4]
    links = page.locator("#created .link-row input").evaluate_all("ns => ns.map(n => n.value)")
    assert [link.rsplit("/", 1)[1] for link in links] == ["0", "2", "4"]  # every Human seat got its join link
    assert page.locator("#created .link-row span").all_inner_texts() == ["Seat 1", "Seat 3", "Seat 5"]
    assert page.inner_text('#created .link-row[data-seat="4"] button.sit') == "Play seat 5 here"


def test_words_shown_to_players(pages: Pages, server: Server) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.select_option("#game", "royale")
    expect(page.locator("#game-doc")).to_contain_text("2 players.")
    assert "2-2" not in page.inner_text("#game-doc")
    # the engine's "card(s)" reaches the page as real plurals
    words = page.evaluate("""async () => {
        const { playerWords } = await import('/static/js/util.js');
        return ['you must commit exactly 1 card(s) (RY-4, RY-5)', 'give back 2 card(s)', 'some card(s)']
            .map(playerWords);
    }""")
    assert words == ["you must commit exactly 1 card", "give back 2 cards", "some cards"]
    table = server.create_table(game="royale", seed=5, seats=[{"type": "human"}, {"type": "human"}])
    join_page = pages.new(f"/join/{table['id']}/1")
    join_page.wait_for_function("() => document.body.dataset.ready === '1'")
    assert join_page.inner_text("#join-title") == f"Join table {table['id']}, seat 2"


def test_join_links_use_an_address_friends_can_open(pages: Pages, server: Server) -> None:
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.click("#create")
    page.wait_for_selector("#created .link-row")
    # the test server listens on 127.0.0.1 only: the page says how to let friends in
    assert page.input_value("#created .link-row input").startswith(server.base + "/join/")
    assert "courtcards serve --host 0.0.0.0" in page.inner_text("#created .link-note")
    # a server that listens on the network too: the links use that address, not 127.0.0.1
    lan = pages.new("/")
    lan.route("**/api/addresses", lambda route: route.fulfill(json={"lan": ["http://192.168.1.50:8000"]}))
    lan.reload()
    lan.wait_for_function("() => document.body.dataset.ready === '1'")
    lan.click("#create")
    lan.wait_for_selector("#created .link-row")
    assert lan.input_value("#created .link-row input").startswith("http://192.168.1.50:8000/join/")
    assert "192.168.1.50" in lan.inner_text("#created .link-note")


def test_refusal_reasons_in_the_pages_words(pages: Pages, server: Server) -> None:
    table = server.create_table(game="royale", seed=4, seats=[{"type": "human"}, {"type": "bot", "bot": "greedy"}])
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Dee")
    wait_turn_or_end(page)
    cards = page.locator("#hand .card")
    cards.nth(0).click()
    cards.nth(1).click()
    # the engine says "play exactly one card, like '7H' (to discard write 'discard 3C 9S')"
    page.wait_for_function("() => document.getElementById('why').textContent.includes('play exactly one card')")
    why = page.inner_text("#why")
    assert why == "Not a legal play: play exactly one card." and "'" not in why and "write" not in why
    rank = server.create_table(
        game="rank",
        players=3,
        seed=4,  # seat 0 leads holding a Crown
        seats=[{"type": "human"}, {"type": "bot"}, {"type": "bot"}],
    )
    page = pages.new(f"/join/{rank['id']}/0")
    join(page, "Eve")
    wait_turn_or_end(page)
    hand = [str(c) for c in page.locator("#hand .card").evaluate_all("ns => ns.map(n => n.dataset.code)")]
    crown = next(c for c in hand if c in ("C", "C2"))
    number = next(c for c in hand if c.isdigit())
    for code in (crown, number):  # the engine's reason cites RK-6; the page's words do not
        page.locator(f'#hand .card[data-code="{code}"][aria-pressed="false"]').first.click()
    page.wait_for_function("() => document.getElementById('why').textContent.includes('Crown')")
    assert page.inner_text("#why") == "Not a legal play: a Crown is always played alone."
    assert not RULING_ID.search(page.inner_text("body"))


def test_rules_pages_linked_from_the_table(pages: Pages, server: Server) -> None:
    table = server.create_table(game="royale", seed=1, seats=[{"type": "bot"}, {"type": "bot"}])
    page = pages.new(f"/table/{table['id']}")
    wait_state(page)
    assert page.get_attribute("#rules-link", "href") == "/rules/royale"
    rules = pages.new("/rules/royale")
    assert rules.inner_text("h1") == "Rules of Rank Royale"
    assert rules.locator("main table").count() >= 1 and rules.locator('nav a[href="/rules/rank"]').count() == 1
    rules.click('nav a[href="/rules/royals"]')
    assert rules.inner_text("h1") == "Rules of Royals"


def test_every_royal_shows_its_face_and_its_number_card(pages: Pages, server: Server, screenshot: Screenshot) -> None:
    table = server.create_table(
        game="royals", players=4, preset="short", seed=3, bot_delay=0.05, seats=[{"type": "bot", "bot": "greedy"}] * 4
    )
    page = pages.new(f"/table/{table['id']}")
    wait_state(page)
    # measured in one go: the board is redrawn after every bot move
    measure = """() => {
        const royal = [...document.querySelectorAll('.royal')].find((r) => r.getBoundingClientRect().width > 0);
        return royal ? [...royal.querySelectorAll('.card')].map((n) => {
            const r = n.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; }) : null;
    }"""
    page.wait_for_function(measure)
    boxes = page.evaluate(measure)
    assert len(boxes) == 2
    (l1, r1, t1, b1), (l2, r2, t2, b2) = boxes
    overlap = max(0, min(r1, r2) - max(l1, l2)) * max(0, min(b1, b2) - max(t1, t2))
    assert overlap == 0 and r1 - l1 > 0 and r2 - l2 > 0
    screenshot(page, "royals-royal")


def test_rematch_seats_the_same_people_and_bots(pages: Pages, server: Server) -> None:
    table = server.create_table(game="royale", seed=9, seats=[{"type": "human"}, {"type": "bot", "bot": "mixed"}])
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Flo")
    play_until_over(page, max_moves=2000)
    assert finished(page)
    expect(page.locator("#rematch")).to_be_enabled()  # the game-over box is drawn once the result has come
    page.click("#rematch")
    page.wait_for_url(re.compile(r".*/table/(?!" + table["id"] + r"$)\w+$"))
    wait_state(page)
    new_id = page.url.rstrip("/").split("/")[-1]
    info = server.get(f"/api/tables/{new_id}")["table"]
    assert info["status"] == "playing" and info["seats"][0]["name"] == "Flo"
    assert info["seats"][1]["type"] == "bot" and info["seats"][1]["bot"] == "mixed"
    assert page.locator(".player.me .player-name").inner_text().startswith("Flo")


def test_hint_for_a_forced_move(pages: Pages, server: Server) -> None:
    # Royals, 3 players, seed 2: the person's first decision is forced (discard hand); its hint was an HTTP 500
    table = server.create_table(
        game="royals",
        players=3,
        seed=2,
        seats=[{"type": "human"}, {"type": "bot", "bot": "greedy"}, {"type": "bot", "bot": "greedy"}],
    )
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Gus")
    wait_turn_or_end(page)
    page.click("#hint")
    expect(page.locator("#hint-text")).to_have_text("Only one move: discard hand.")


@pytest.mark.parametrize("game", game_names())
def test_rules_pages_fit_a_phone(pages: Pages, game: str) -> None:
    page = pages.new(f"/rules/{game}", width=375, height=812)
    expect(page.locator(".topbar h1")).to_contain_text("Rules of")
    width = page.evaluate("() => window.innerWidth")
    # wide tables and code blocks scroll inside their own box; the page does not scroll sideways
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width
