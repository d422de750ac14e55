"""The server serves games it was never told about (issue #26): a plug-in game with no profile at
all (examples/plugin-game, ``fivetricks``) and a rule variant of a built-in game
(examples/rank-variant, ``rank_knights``), registered by importing their packages (CI also
pip-installs them: their entry points register them)."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from plugin_examples import ROOT, register_examples
from test_server_api import create, db_actions, err, join, play_out, table_of

from courtcards.core.game import Game, get_game
from courtcards.core.record import GameRecord
from courtcards.server import browser, create_app, database_url, schemas


@pytest.fixture(scope="module")
def examples() -> list[Game[Any]]:
    return register_examples()


@pytest.fixture
def client(examples: list[Game[Any]], tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(database_url(None, tmp_path / "cc.sqlite"))) as c:  # the examples registered first
        yield c


def test_the_games_listing_has_the_plug_ins_with_their_round_words_and_renderers(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    five, knights, rank = games["fivetricks"], games["rank_knights"], games["rank"]
    assert (five["title"], five["round_word"], five["browser_module"]) == ("Five Tricks", "Trick", None)
    assert {"random", "ismcts"} <= set(five["bots"])
    assert rank["browser_module"] == "/static/js/games/rank.js" and rank["round_word"] == "Hand"
    # the variant inherits Rank's profiles: its renderer is Rank's, served under its own name
    assert knights["browser_module"] == "/static/js/games/rank_knights.js" and knights["round_word"] == "Hand"
    for g in games.values():
        assert schemas.GamesResponse.model_validate({"games": [g]})


def test_browser_modules_are_served_from_the_games_packages(client: TestClient) -> None:
    for name in ("rank", "kqp", "royale", "royals"):
        r = client.get(f"/static/js/games/{name}.js")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert r.content == (ROOT / "courtcards" / "games" / name / "static" / f"{name}.js").read_bytes()
        assert 'from "../cards.js"' in r.text  # its relative imports resolve next to the shared modules
    assert client.get("/static/js/games/rank_knights.js").content == client.get("/static/js/games/rank.js").content
    for path in ("fivetricks.js", "nope.js", "rank", "index.js", "RANK.js", "rank.py"):
        assert client.get(f"/static/js/games/{path}").status_code == 404, path
    for path in ("..%2F..%2F..%2Fgames%2Frank%2Fgame.py", "%2E%2E%2F..%2F..%2Fgames%2Frank%2Fstatic%2Frank.js"):
        assert client.get(f"/static/js/games/{path}").status_code == 404, path  # nothing outside the static folder
    assert client.get("/static/js/generic.js").status_code == 200  # the generic renderer draws fivetricks


def test_a_browser_path_outside_the_package_is_refused(examples: list[Game[Any]]) -> None:
    five = examples[0]
    assert browser.module_file(five) is None  # declares none
    for spec in ("../rank/static/rank.js", "/etc/passwd.js", "static/../../x.js", "static/missing.js", "game.py"):
        info = dataclasses.replace(five.info, name="fivetricks_x", profiles={"browser": spec})
        game = type("Untyped", (type(five),), {"info": info})()
        assert browser.module_file(game) is None, spec
    assert browser.module_file(get_game("rank")) is not None


def test_the_api_models_list_every_registered_games_view(client: TestClient) -> None:
    api = client.get("/openapi.json").json()
    defs = api["components"]["schemas"]
    view = defs["TableWithView"]["properties"]["view"]
    refs = {x.get("$ref", "").rsplit("/", 1)[-1] for x in view["anyOf"]}
    assert {"RankView", "KqpView", "RoyaleView", "RoyalsView", "FiveTricksView"} <= refs
    assert len(view["anyOf"]) == len(refs)  # the variant's view type is Rank's: listed once
    # the published schemas are the built-in games' only, whatever is installed
    published = schemas.schemas()["http-TableWithView.json"]
    assert "FiveTricksView" not in json.dumps(published) and "RankView" in json.dumps(published)


def test_a_game_without_a_view_type_gets_the_generic_view_model(examples: list[Game[Any]]) -> None:
    five = examples[0]
    untyped_info = dataclasses.replace(five.info, name="fivetricks_untyped")
    untyped = type("Untyped", (type(five),), {"info": untyped_info, "view_type": None})()
    m = schemas.models([get_game("rank"), untyped])
    view = untyped.new_game(3, seed=1).view(0)
    msg = {
        "type": "state",
        "table": "abcdef",
        "version": 0,
        "seat": 0,
        "view": view,
        "legal": ["5H"],
        "to_move": [0],
        "seats": [],
        "status": "playing",
        "result": None,
        "deadline": None,
    }
    assert m.server_messages.validate_python(msg).model_dump(mode="json")["view"] == view
    with pytest.raises(ValueError):  # with only the typed games, a view outside their types is refused
        schemas.models([get_game("rank")]).server_messages.validate_python(msg)
    assert schemas.view_type([untyped]) == schemas.GenericView


def test_a_plug_in_game_plays_to_the_end_over_the_api(client: TestClient) -> None:
    t = create(client, "fivetricks", 3)
    tid = t["id"]
    tokens = [join(client, tid, s) for s in range(3)]
    conns = play_out(client, tid, tokens, random.Random(5), limit=100, refuse=True)
    assert conns[0].last["status"] == "finished" and conns[0].last["result"]["winner"] in (0, 1, 2, None)
    states = GameRecord.from_state(table_of(client, tid).state).states()
    m = schemas.models()
    for c in conns:
        for msg in c.log:
            assert m.server_messages.validate_python(msg).model_dump(mode="json") == msg
            if msg["type"] == "state":
                assert msg["view"] == json.loads(json.dumps(states[msg["version"]].view(msg["seat"])))
    assert client.get(f"/api/tables/{tid}").json()["view"]["game"] == "fivetricks"
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert replay["marks"][0] == {"label": "Trick 1", "step": 0}  # GameInfo.round_word
    assert [m["label"] for m in replay["marks"]][:3] == ["Trick 1", "Trick 2", "Trick 3"]
    last = client.get(f"/api/tables/{tid}/replay/{len(replay['actions'])}").json()
    assert last["view"]["result"] == conns[0].last["result"]


def test_a_rule_variant_plays_to_the_end_with_bots(client: TestClient, tmp_path: Path) -> None:
    kinds = client.get("/api/games").json()["games"]
    bots = next(g for g in kinds if g["name"] == "rank_knights")["bots"]
    plain = [b for b in ("greedy", "random") if b in bots]
    assert "random" in plain
    seats = [{"type": "bot", "bot": plain[s % len(plain)]} for s in range(4)]
    tid = create(client, "rank_knights", 4, seats=seats, preset="quick")["id"]
    end = time.time() + 120
    while not table_of(client, tid).state.is_over():
        assert time.time() < end, "the bots did not finish the game"
        time.sleep(0.05)
    info = client.get(f"/api/tables/{tid}").json()
    assert info["table"]["game"] == "rank_knights" and info["table"]["title"] == "Rank: Knights' Tokens"
    assert info["table"]["status"] == "finished" and info["view"]["game"] == "rank_knights"
    result = info["table"]["result"]
    assert max(result["scores"]) >= 3 and result["ranking"][0] == result["winner"]  # first to 3 tokens (quick)
    record = GameRecord.from_json(client.get(f"/api/tables/{tid}/record").json())
    assert record.game == "rank_knights" and record.replay().result().to_json() == result  # type: ignore[union-attr]
    # the variant's rule shows: a Knight gains a token at the end of a hand (Rank gives Knights none)
    hands = record.replay().view(None)["hands_log"]
    assert any(h["tokens"][s] == 1 for h in hands for s in h["finish"][2:-1])
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert replay["marks"][0] == {"label": "Hand 1", "step": 0}
    err(client.get(f"/api/tables/{tid}/replay/{len(replay['actions']) + 1}"), 404, "bad_request")
    assert len(db_actions(tmp_path / "cc.sqlite", tid)) == len(replay["actions"])


def test_a_plug_in_game_without_a_rules_page_shows_its_rules_in_brief(client: TestClient) -> None:
    r = client.get("/rules/fivetricks")
    assert r.status_code == 200 and "Rules of Five Tricks" in r.text and "trick" in r.text.lower()
    assert "/rules/fivetricks" in client.get("/rules").text
    assert client.get("/rules/rank").status_code == 200 and "The rules in brief" not in client.get("/rules/rank").text
    assert client.get("/rules/nope").status_code == 404
