"""Typed messages (issue 11): HTTP response models, WebSocket messages as pydantic models, and the
JSON Schemas published under docs/schemas."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_server_api import client, create, db_path, join, play_out  # noqa: F401  (fixtures)

from courtcards.server import schemas
from courtcards.server.schemas import ActionMessage, CheckMessage, PingMessage, parse_client_message

DOCS = Path(__file__).resolve().parents[1] / "docs" / "schemas"


def test_published_schemas_are_current() -> None:
    expected = schemas.schemas()
    on_disk = {p.name for p in DOCS.glob("*.json")}
    assert on_disk == set(expected), "run: python -m courtcards.server.schemas docs/schemas"
    for name, schema in expected.items():
        assert (DOCS / name).read_text(encoding="utf-8") == schemas.render(schema), (
            f"docs/schemas/{name} is out of date: python -m courtcards.server.schemas docs/schemas"
        )


def test_every_api_answer_has_a_response_schema(client: TestClient) -> None:  # noqa: F811
    api = client.get("/openapi.json").json()
    paths = {p: ops for p, ops in api["paths"].items() if p.startswith("/api/")}
    assert len(paths) >= 11
    for path, ops in paths.items():
        for method, op in ops.items():
            ok = {s: r for s, r in op["responses"].items() if s.startswith("2")}
            assert ok, (method, path)
            for status, resp in ok.items():
                schema = resp["content"]["application/json"]["schema"]
                assert "$ref" in schema, (method, path, status, schema)  # a named model, not a bare object
            err = op["responses"]["4XX"]["content"]["application/json"]["schema"]
            assert err["$ref"].endswith("/ErrorResponse"), (method, path)


def test_every_message_of_a_game_validates(client: TestClient) -> None:  # noqa: F811
    t = create(client, "rank", 3, preset="quick")
    tokens = [join(client, t["id"], s) for s in range(3)]
    conns = play_out(client, t["id"], tokens, random.Random(3), limit=60, refuse=True)
    seen: set[str] = set()
    for c in conns:
        for msg in c.log:
            parsed = schemas.server_messages.validate_python(msg)
            assert parsed.model_dump(mode="json") == msg  # the model holds every field the server sends
            seen.add(msg["type"])
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={tokens[0]}") as ws:
        first = ws.receive_json()
        for sent in ({"type": "ping"}, {"type": "check", "action": "pass"}, {"type": "shout"}):
            ws.send_json(sent)
            reply = ws.receive_json()
            assert schemas.server_messages.validate_python(reply).model_dump(mode="json") == reply
            seen.add(reply["type"])
    assert schemas.server_messages.validate_python(first)
    assert seen == {"state", "error", "check", "pong"}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("not json", "this one is not JSON"),
        ("[" * 300 + "]" * 300, "nested too deeply"),
        ("[]", "unknown message type 'None'"),
        ("5", "unknown message type 'None'"),
        ('{"type": "shout"}', "unknown message type 'shout'"),
        ('{"type": 5}', "unknown message type '5'"),
        ("{}", "unknown message type 'None'"),
        ('{"type": "action", "action": "pass"}', 'an action message needs "action"'),
        ('{"type": "action", "action": "pass", "version": true}', 'an action message needs "action"'),
        ('{"type": "action", "action": "pass", "version": "3"}', 'an action message needs "action"'),
        ('{"type": "action", "action": "pass", "version": 3.0}', 'an action message needs "action"'),
        ('{"type": "action", "action": 5, "version": 3}', 'an action message needs "action"'),
        ('{"type": "action", "action": "' + "8" * 513 + '", "version": 3}', "at most 512 characters"),
        ('{"type": "check"}', 'a check message needs "action" (text of at most 512'),
        ('{"type": "check", "action": ["8"]}', 'a check message needs "action"'),
    ],
)
def test_bad_client_messages_are_refused_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(ValueError) as exc:
        parse_client_message(text)
    assert why in str(exc.value)


def test_client_messages_parse_to_their_models() -> None:
    assert parse_client_message('{"type": "ping", "extra": 1}') == PingMessage(type="ping")
    assert parse_client_message('{"type": "check", "action": "8 8"}') == CheckMessage(type="check", action="8 8")
    msg = parse_client_message(json.dumps({"type": "action", "action": "pass", "version": 4}))
    assert msg == ActionMessage(type="action", action="pass", version=4)
    with pytest.raises(ValueError, match="at most 10 characters"):
        parse_client_message(json.dumps({"type": "action", "action": "8" * 11, "version": 4}), max_action=10)


def test_a_record_fits_its_published_model(client: TestClient) -> None:  # noqa: F811
    t = create(client, "royale", 2)
    tokens = [join(client, t["id"], s) for s in range(2)]
    play_out(client, t["id"], tokens, random.Random(2), limit=5000)
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert schemas.GameRecordFile.model_validate(record).model_dump(mode="json") == record
