"""Text from clients never reaches the database with NUL, other control characters, surrogates or
non-characters (issue 30, item 4): refused with a clear error, the table untouched."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_server_api import create, err, join

from courtcards.server import create_app, database_url
from courtcards.server.logs import QuietBadFrames
from courtcards.server.text import clean_text, text_fault

BAD = ["a\x00b", "tab\there", "\x7f", "\u0085x", "x\ufdd0", "\ufffe", "z\U0010ffff", "\U0001fffe"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:
        yield c


@pytest.mark.parametrize("text", BAD)
def test_faults_are_named_and_cleaned(text: str) -> None:
    fault = text_fault(text)
    assert fault is not None and "must not contain" in fault and "U+" in fault
    assert text_fault(clean_text(text)) is None
    assert text_fault("Ana María 王 🂡") is None and clean_text("Ana María 王 🂡") == "Ana María 王 🂡"


def test_names_and_options_with_bad_characters_are_refused(client: TestClient) -> None:
    tid = create(client, "royale", 2)["id"]
    for bad in BAD:
        msg = err(client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": bad}), 422, "bad_request")
        assert "name" in msg and "must not contain" in msg
        seats = [{"type": "bot", "name": bad}, {"type": "human"}]
        msg = err(client.post("/api/tables", json={"game": "royale", "seats": seats}), 422, "bad_request")
        assert "seats.0.name" in msg and "must not contain" in msg
        msg = err(client.post("/api/tables", json={"game": "royale", "options": {bad: 1}}), 422, "bad_request")
        assert "must not contain" in msg
        msg = err(client.post("/api/tables", json={"game": "royale", "options": {"x": bad}}), 422, "bad_request")
        assert "must not contain" in msg
    info = client.get(f"/api/tables/{tid}").json()["table"]
    assert [s["taken"] for s in info["seats"]] == [False, False]  # nothing was half done
    assert list(client.app.state.lobby.tables) == [tid]  # type: ignore[attr-defined]
    join(client, tid, 0, name="Ana María 王")
    assert client.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["name"] == "Ana María 王"


def test_the_lobby_cleans_what_reaches_it_by_another_way(client: TestClient) -> None:
    tid = create(client, "royale", 2)["id"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    seat, _, table = client.portal.call(lobby.join, tid, 1, "a\x00b\ufffe")  # type: ignore[union-attr]
    assert seat == 1 and table.seats[1].name == "ab"


def test_an_invalid_frame_is_one_warning_line_not_a_traceback() -> None:
    try:
        "\xff".encode("latin-1").decode()
    except UnicodeDecodeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord(
        "uvicorn.error", logging.ERROR, __file__, 1, "Invalid UTF-8 sequence received from client.", (), exc_info
    )
    assert QuietBadFrames().filter(record)
    assert record.levelno == logging.WARNING and record.exc_info is None
    line = logging.Formatter().format(record)
    assert "\n" not in line and "UnicodeDecodeError" in line and "closed" in line
