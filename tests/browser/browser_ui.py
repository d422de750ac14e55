"""Driving the courtcards pages through their UI, as a player would (used by the browser tests)."""

from __future__ import annotations

import time
from itertools import combinations
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # playwright may be missing: conftest then skips every test, with the reason
    from playwright.sync_api import Page


def expect(target: Any, timeout: float = 30000) -> Any:
    """Playwright's expect (imported here: without playwright every browser test skips), with a generous
    timeout: it returns as soon as the page's state matches, so only a failing check waits that long."""
    from playwright.sync_api import expect as playwright_expect

    playwright_expect.set_options(timeout=timeout)
    return playwright_expect(target)


TURN_OR_END = """() => document.body.dataset.status === 'finished'
    || !!document.querySelector('#actions button[data-action]:not(:disabled)')"""


def wait_state(page: Page) -> None:
    page.wait_for_function("() => document.body.dataset.version !== undefined")


def version(page: Page) -> str:
    return str(page.evaluate("() => document.body.dataset.version"))


def finished(page: Page) -> bool:
    return bool(page.evaluate("() => document.body.dataset.status === 'finished'"))


def wait_turn_or_end(page: Page, timeout: float = 60000) -> None:
    page.wait_for_function(TURN_OR_END, timeout=timeout)


def select_cards(page: Page, cards: list[str]) -> None:
    for code in cards:
        page.locator(f'#hand .card[data-code="{code}"][aria-pressed="false"]').first.click()


def not_a_legal_selection(hand: list[str], legal: list[str]) -> list[str] | None:
    """A selection of one or two cards from the hand that no legal move plays (None if there is none)."""
    plays = {tuple(sorted(t for t in text.split() if t in hand)) for text in legal}
    for size in (1, 2):
        for pick in combinations(sorted(set(hand)), size):
            if tuple(sorted(pick)) not in plays:
                return list(pick)
    return None


def play_first_legal(page: Page) -> str:
    """Play the first legal card play by clicking its cards and Play; else the first word button."""
    before = version(page)
    chips = page.locator("#actions .chip")
    if chips.count():
        text = str(chips.first.get_attribute("data-action"))
        select_cards(page, str(chips.first.get_attribute("data-cards")).split())
        play = page.locator("#play")
        assert play.is_enabled(), f"Play is not enabled after selecting {text!r}"
        play.click()
    else:
        button = page.locator("#actions button[data-action]:not(:disabled)").first
        text = str(button.get_attribute("data-action"))
        button.click()
    page.wait_for_function(f"() => document.body.dataset.version !== {before!r}")
    return text


def play_until_over(page: Page, max_moves: int = 400, reload_after: int | None = None) -> list[str]:
    played: list[str] = []
    while not finished(page):
        wait_turn_or_end(page)
        if finished(page):
            break
        played.append(play_first_legal(page))
        if reload_after is not None and len(played) == reload_after:
            page.reload()
            wait_state(page)
        assert len(played) < max_moves, "the game did not end"
    return played


def has_turn(page: Page) -> bool:
    return bool(page.evaluate(f"({TURN_OR_END})()")) and not finished(page)


def join(page: Page, name: str) -> None:
    """On a /join page: take the seat and wait for the table."""
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_url("**/table/*")
    wait_state(page)


def play_together_until_over(players: list[Page], max_moves: int = 800) -> int:
    """Each page plays its first legal action whenever it must decide, until the game is over."""
    moves = 0
    while not all(finished(p) for p in players):
        acted = False
        for p in players:
            if has_turn(p):
                play_first_legal(p)
                moves += 1
                acted = True
        if not acted:
            wait_any_turn_or_end(players)
        assert moves < max_moves, "the game did not end"
    return moves


def wait_any_turn_or_end(players: list[Page], timeout: float = 60.0) -> None:
    """Wait until one of the pages has a decision to make or every page shows the end: each page is asked
    in turn (a short wait on its state), until the deadline."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    while True:
        if all(finished(p) for p in players):
            return
        for p in players:
            try:
                p.wait_for_function(
                    f"() => ({TURN_OR_END})() && document.body.dataset.status !== 'finished'", timeout=200
                )
                return
            except PlaywrightTimeout:
                pass
        assert time.monotonic() < deadline, f"no page had a turn for {timeout} s and not all show the end"


LOBBY_READY = "() => document.body.dataset.ready === '1'"


def open_lobby(page: Page, base: str) -> None:
    """Go to the lobby and wait until it has its games, account and My games."""
    page.goto(base + "/")
    page.wait_for_function(LOBBY_READY)


def account_form(page: Page, mode: str, user: str, password: str) -> None:
    """In the lobby's account box: "up" creates an account, "in" signs in (check the outcome after)."""
    page.click(f"#show-sign-{mode}")
    page.fill("#acct-user", user)
    page.fill("#acct-pass", password)
    page.click("#acct-submit")


def create_and_sit(
    page: Page, game: str, players: int | None = None, preset: str = "", seed: int | None = None, rated: bool = False
) -> str:
    """In the lobby: a table of ``game`` with the form's default bots in the other seats and no bot delay,
    the player seated in seat 1; returns the table's id once its page shows the state."""
    page.select_option("#game", game)
    if players is not None:
        page.fill("#players", str(players))
    page.select_option("#preset", preset)
    page.click(".advanced summary")
    page.fill("#bot_delay", "0")
    if seed is not None:
        page.fill("#seed", str(seed))
    if rated:
        page.check("#rated")
    page.click("#create")
    page.click('#created .sit[data-seat="0"]')
    page.wait_for_url("**/table/*")
    wait_state(page)
    return page.url.rstrip("/").split("/")[-1]


def say(page: Page, text: str) -> None:
    """Send a chat message from the table page's chat box."""
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
