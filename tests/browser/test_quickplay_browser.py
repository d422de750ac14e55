"""Public tables and quick play in the lobby (issue 28): two browsers wait in the same quick-play queue and
land at the same table; a table listed publicly shows in the Open list and its Join takes a free seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from browser_ui import expect

if TYPE_CHECKING:
    from conftest import Pages, Server

READY = "() => document.body.dataset.ready === '1'"


def two_player_game(server: Server) -> dict[str, Any]:
    games = server.get("/api/games")["games"]
    return dict(next(g for g in games if g["min_players"] <= 2 <= g["max_players"]))


def test_two_browsers_meet_at_one_table_through_quick_play(pages: Pages, server: Server) -> None:
    game = two_player_game(server)
    first, second = pages.new("/"), pages.new("/")
    for page, name in ((first, "Una"), (second, "Dev")):
        page.wait_for_function(READY)
        page.fill("#name", name)
        page.select_option("#quick-game", game["name"])
        page.fill("#quick-players", "2")
        page.fill("#quick-wait", "300")  # nobody is filled in by bots during the test: the two meet
    first.click("#quick-start")
    expect(first.locator("#quick-status")).to_contain_text("Waiting for players: 1 of 2")
    expect(first.locator("#quick-stop")).to_be_visible()
    second.click("#quick-start")
    second.wait_for_url("**/table/*")
    first.wait_for_url("**/table/*")
    table_id = second.url.rstrip("/").split("/")[-1]
    assert first.url.rstrip("/").split("/")[-1] == table_id
    roles = {first.locator("#role").inner_text(), second.locator("#role").inner_text()}
    expect(first.locator("#role")).to_contain_text("seat")
    expect(second.locator("#role")).to_contain_text("seat")
    table = server.get(f"/api/tables/{table_id}")["table"]
    assert table["game"] == game["name"] and table["status"] == "playing"
    assert sorted(s["name"] for s in table["seats"]) == ["Dev", "Una"]
    assert all(s["type"] == "human" for s in table["seats"])
    assert len(roles) == 2  # each browser holds its own seat


def test_a_table_listed_publicly_is_joined_from_the_open_list(pages: Pages, server: Server) -> None:
    game = two_player_game(server)
    host = pages.new("/")
    host.wait_for_function(READY)
    host.select_option("#game", game["name"])
    host.fill("#players", "2")
    for s in range(2):
        host.select_option(f"#seat-{s}", "human")
    host.check("#public")
    host.click("#create")
    expect(host.locator("#created h3")).to_contain_text("created")
    table_id = host.locator("#created h3").inner_text().split()[1]
    guest = pages.new("/")
    guest.wait_for_function(READY)
    row = guest.locator(f'#table-list .table-row[data-table="{table_id}"]')
    expect(row).to_contain_text("0/2 seated")
    expect(row).to_contain_text("casual")
    row.locator("a.button.primary", has_text="Join").click()
    guest.wait_for_url("**/join/**")
    guest.wait_for_function(READY)
    guest.fill("#name", "Guest")
    guest.click("#join")
    guest.wait_for_url(f"**/table/{table_id}")
    table = server.get(f"/api/tables/{table_id}")["table"]
    assert table["private"] is False
    assert [s["name"] for s in table["seats"] if s["taken"]] == ["Guest"]
    host.reload()
    host.wait_for_function(READY)
    expect(host.locator(f'#table-list .table-row[data-table="{table_id}"]')).to_contain_text("1/2 seated")
    server.post(f"/api/tables/{table_id}/join", {"name": "Last"})  # full now: off the Open list
    host.reload()
    host.wait_for_function(READY)
    expect(host.locator("#table-list > *")).not_to_have_count(0)  # the list came (rows or "No tables")
    expect(host.locator(f'#table-list .table-row[data-table="{table_id}"]')).to_have_count(0)
