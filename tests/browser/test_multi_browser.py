"""Two people in two browser contexts: a Rank table and a Rank Royale duel; a replay; the other games' tables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from browser_ui import (
    finished,
    has_turn,
    join,
    play_first_legal,
    play_together_until_over,
    version,
    wait_state,
    wait_turn_or_end,
)

if TYPE_CHECKING:
    from conftest import Pages, Screenshot, Server
    from playwright.sync_api import Page

HUMAN = {"type": "human"}


def test_two_people_at_one_rank_table(pages: Pages, server: Server) -> None:
    table = server.create_table(
        game="rank",
        players=4,
        options={"tokens_to_win": 1},
        seed=5,
        seats=[HUMAN, {"type": "bot", "bot": "greedy"}, HUMAN, {"type": "bot", "bot": "random"}],
    )
    ann = pages.new(f"/join/{table['id']}/0")
    join(ann, "Ann")
    assert "Waiting" in ann.inner_text("#headline")  # seat 2 is still free
    assert ann.locator("#seats-open input").input_value().endswith(f"/join/{table['id']}/2")
    bob = pages.new(f"/join/{table['id']}/2")
    join(bob, "Bob")
    for p in (ann, bob):
        p.wait_for_function("() => document.body.dataset.status !== 'open'")
    # each sees the other by name, and only its own hand
    assert "Bob" in ann.inner_text("#players") and "Ann" in bob.inner_text("#players")
    assert ann.locator(".player.me .player-name").inner_text().startswith("Ann")
    play_together_until_over([ann, bob])
    for p in (ann, bob):
        p.wait_for_selector("#summary .game-over")
    standings = [p.inner_text("#summary .standings").replace(" (you)", "") for p in (ann, bob)]
    assert standings[0] == standings[1] and "Ann" in standings[0] and "Bob" in standings[0]


def test_rank_royale_duel_between_two_contexts(pages: Pages, server: Server, screenshot: Screenshot) -> None:
    table = server.create_table(game="royale", players=2, seed=3, seats=[HUMAN, HUMAN])
    ann = pages.new(f"/join/{table['id']}/0")
    join(ann, "Ann")
    bob = pages.new(f"/join/{table['id']}/1")
    join(bob, "Bob")
    wait_turn_or_end(ann)
    wait_turn_or_end(bob)
    screenshot(ann, "royale")
    # Ann chooses in secret: Bob sees only that she has chosen
    chosen = play_first_legal(ann)
    bob.wait_for_function("() => document.querySelector('.player[data-seat=\"0\"]').innerText.includes('has chosen')")
    # the engine's sentences name the seats as they are now: Bob joined after Ann's page showed the deal
    ann.wait_for_function("() => document.querySelector('#log').innerText.includes('Bob')")
    assert "Seat 1" not in ann.inner_text("#log") and "Ann (you)" in ann.inner_text("#log")
    assert "Ann has chosen a card" in bob.inner_text("#log") and chosen not in bob.inner_text("#log")  # RR-3
    assert "chosen, hidden" in bob.inner_text("#center")
    assert ann.locator(f'#center .card[data-code="{chosen}"]').count() == 1  # her own choice, to her only
    assert "You chose" in ann.inner_text("#headline")
    play_first_legal(bob)
    ann.wait_for_function("() => document.querySelector('#center .outcome') !== null")
    assert "Round 1" in ann.inner_text("#center .outcome")
    bob.wait_for_function("() => document.querySelector('#center .outcome') !== null")
    assert chosen in ann.inner_text("#center .outcome") and chosen in bob.inner_text("#center .outcome")
    play_together_until_over([ann, bob])
    for p in (ann, bob):
        p.wait_for_selector("#summary .game-over")
    result = server.get(f"/api/tables/{table['id']}")["table"]["result"]
    winner_page = ann if result["winner"] == 0 else bob
    assert "you win" in winner_page.inner_text("#summary h2")


def test_replay_viewer(pages: Pages, server: Server, screenshot: Screenshot) -> None:
    table = server.create_table(
        game="rank", players=3, options={"tokens_to_win": 3}, seed=9, seats=[{"type": "bot", "bot": "greedy"}] * 3
    )
    tid = table["id"]
    watch = pages.new(f"/table/{tid}")
    watch.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=120000)
    page = pages.new("/")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.click('.tabs [data-status="finished"]')
    page.click(f'.table-row[data-table="{tid}"] a:has-text("Replay")')
    page.wait_for_url(f"**/replay/{tid}")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    steps = len(server.get(f"/api/tables/{tid}/replay")["actions"])
    # every hand is shown face up
    assert page.locator(".player .open-hand .card").count() == 45
    page.click("#forward")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert "Step 1 of" in page.inner_text("#step-label")
    page.click("#back")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    marks = page.locator("#marks option")
    assert marks.count() >= 3  # "Jump to…", hand 1, hand 2 at least
    value = marks.nth(2).get_attribute("value")
    page.select_option("#marks", value)
    page.wait_for_function(f"() => document.body.dataset.step === '{value}'")
    assert "Hand 2" in page.inner_text("#subtitle")
    page.click("#last")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    page.wait_for_selector("#summary .standings")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps - 1}'")
    screenshot(page, "replay")


def _one_human_table(pages: Pages, server: Server, game: str, players: int, seed: int, moves: int, **body: Any) -> Page:
    bots = [{"type": "bot", "bot": "greedy"}] * (players - 1)
    table = server.create_table(game=game, players=players, seed=seed, seats=[HUMAN, *bots], **body)
    page = pages.new(f"/join/{table['id']}/0")
    join(page, "Ann")
    for _ in range(moves):
        wait_turn_or_end(page)
        if finished(page):
            break
        play_first_legal(page)
    wait_turn_or_end(page)
    return page


def test_kqp_taxes_then_play(pages: Pages, server: Server, screenshot: Screenshot) -> None:
    page = _one_human_table(pages, server, "kqp", 4, 1, 0)  # seed 1: seat 0 is the King
    assert "give 2 cards back" in page.inner_text("#headline")
    assert "Taxes, round 1" in page.inner_text("#center")
    log = page.inner_text("#log")  # the engine's sentences, seats named by the page (KQ-2, KQ-4)
    assert "Round 1: seats drawn at random" in log and "in tax" in log
    chip = page.locator("#actions .chip").first
    cards = str(chip.get_attribute("data-cards")).split()
    page.locator(f'#hand .card[data-code="{cards[0]}"]').first.click()
    # the page's wording first, then the engine's ("give back exactly 2 cards")
    assert page.locator("#play").is_disabled() and "exactly 2 cards" in page.inner_text("#why")
    page.locator(f'#hand .card[data-code="{cards[1]}"][aria-pressed="false"]').first.click()
    assert page.inner_text("#play").startswith("Give ")
    before = version(page)
    page.click("#play")
    # the give-back's buttons stay until the server's answer redraws the page (slow under load)
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}")
    for _ in range(3):
        wait_turn_or_end(page)
        play_first_legal(page)
    wait_turn_or_end(page)
    assert has_turn(page)
    assert "Play order" in page.inner_text("#center")
    screenshot(page, "kqp")


def test_royals_table(pages: Pages, server: Server, screenshot: Screenshot) -> None:
    page = _one_human_table(pages, server, "royals", 4, 8, 4)
    assert has_turn(page)
    screenshot(page, "royals")


def test_move_timer_and_stand_in_visible(pages: Pages, server: Server) -> None:
    table = server.create_table(
        game="royale", players=2, seed=4, seats=[HUMAN, HUMAN], move_time_limit=30, absent_timeout=0.5
    )
    ann = pages.new(f"/join/{table['id']}/0")
    join(ann, "Ann")
    bob = pages.new(f"/join/{table['id']}/1")
    join(bob, "Bob")
    ann.wait_for_selector("#timer:not([hidden])")
    assert "s" in ann.inner_text("#timer")
    bob.context.close()
    ann.wait_for_selector('.player[data-seat="1"] .badge.standin')
    wait_state(ann)
