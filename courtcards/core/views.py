"""Typed views: one vocabulary for what every game shares.

A seat's view is a JSON object. Each game describes its view once, as a
``TypedDict`` (``games/<game>/views.py``) built from the shared parts below and
set as ``Game.view_type``; the server's response models, the published JSON
Schemas (``docs/schemas/views/<game>.json``) and the conformance suite's check
(every view validates, with no field outside its schema) all come from it.

The shared words, used by every game that has the thing (docs/notation.md):

================  ==============================================================
``game``          the game's name
``seat``          whose view this is; null for a spectator
``num_players``   the table size
``options``       the resolved options
``version``       how many actions have been applied
``phase``         the current phase, from the game's own list
``round``         the number of the current round (Rank's hand, KQP's round,
                  Rank Royale's round, Royals' turn), from 1
``to_move``       the seats with a decision now, ascending
``turn``          the seat whose turn it is in a turn-based phase, else null
``hand``          the viewer's own cards (empty for a spectator)
``players``       one entry per seat, in seat order: ``seat``, ``hand_size``,
                  and where the game has them ``deck_size`` (cards left to
                  draw), ``discard`` (a pile: top card first) and ``score``
                  (what the result ranks by: Rank's tokens, or times King in
                  Endless; KQP's total; Royals' points)
``deck_size``     a draw pile shared by the table: the cards left in it
``discard``       a pile shared by the table, top card first
``log``           the last events of the game, oldest first: ``{"n": number,
                  "seat": seat or null, "kind", "template", "data", "text"}``
                  (courtcards.core.events: data, and the engine's sentence; a
                  seat sees the secret record of events that show it private cards)
``pending``       a simultaneous decision: who has committed (``committed``),
                  and to its owner only its own choice (``mine``)
``result``        null until the game ends, then how it ended
================  ==============================================================
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, TypeVar

from typing_extensions import TypedDict  # pydantic needs this one on Python < 3.12

from courtcards.core.options import OptionValue

if TYPE_CHECKING:
    from courtcards.core.game import Game

T = TypeVar("T")


def closed(cls: T) -> T:
    """Mark a view TypedDict as closed: a field outside it is a schema error."""
    setattr(cls, "__pydantic_config__", {"extra": "forbid"})  # noqa: B010  (pydantic reads it)
    return cls


@closed
class Event(TypedDict):
    """One event of the log (courtcards.core.events): ``kind`` (declared by the game), ``data``
    (seats as ints, cards as card texts), ``template`` (the sentence with each seat a ``{path}``
    into the data) and ``text``, the engine's sentence (the template filled with "seat N")."""

    n: int
    seat: int | None
    kind: str
    template: str
    data: dict[str, Any]
    text: str


# cards passed between two seats (exchanges, taxes); ``cards`` only for those two (core.climbing)
Transfer = TypedDict("Transfer", {"from": int, "to": int, "count": int, "why": str, "cards": NotRequired[list[str]]})
closed(Transfer)


@closed
class PendingView(TypedDict):
    committed: list[int]
    mine: NotRequired[str]


@closed
class ResultView(TypedDict):
    winner: int | None
    ranking: list[int]
    scores: list[int]
    details: dict[str, Any]


class ViewHeader(TypedDict):
    """The fields every game's view opens with (its type adds the rest)."""

    game: str
    seat: int | None
    num_players: int
    options: dict[str, OptionValue]
    version: int
    phase: str
    to_move: list[int]
    pending: PendingView
    result: ResultView | None


class PlayerBase(TypedDict):
    """What every game's ``players`` entry opens with (its type adds the rest)."""

    seat: int
    hand_size: int


class ViewBase(ViewHeader):
    """The whole shared vocabulary (module docstring): every game's view type builds on it."""

    round: int
    turn: int | None
    hand: list[str]
    log: list[Event]


#: the fields a ``players`` entry may have under the shared words, with their JSON types
PLAYER_WORDS: dict[str, tuple[type, ...]] = {
    "seat": (int,),
    "hand_size": (int,),
    "deck_size": (int,),
    "discard": (list,),
    "score": (int,),
}
#: names the shared vocabulary retired: a view using one is speaking a dialect
RETIRED_WORDS = frozenset(
    {"hand_number", "turn_number", "cards", "hand", "deck", "discard_pile", "discards", "points", "total", "tokens"}
)


def vocabulary_problems(view: Any) -> list[str]:
    """What in ``view`` departs from the shared vocabulary (empty if nothing)."""
    problems: list[str] = []
    for key in ViewBase.__annotations__:
        if key not in view:
            problems.append(f"no {key!r}")
    if problems:
        return problems
    seat = view["seat"]
    if seat is None and view["hand"]:
        problems.append("a spectator's 'hand' is not empty")
    if view["round"] < 1:
        problems.append(f"'round' counts from 1, not {view['round']}")
    if view["turn"] is not None and not 0 <= view["turn"] < view["num_players"]:
        problems.append(f"'turn' is not a seat: {view['turn']}")
    numbers = [e["n"] for e in view["log"]]
    if numbers != sorted(set(numbers)):
        problems.append(f"'log' is not numbered in order: {numbers}")
    players = view.get("players")
    if not isinstance(players, list) or len(players) != view["num_players"]:
        return [*problems, "'players' needs one entry per seat"]
    for i, p in enumerate(players):
        if p.get("seat") != i:
            problems.append(f"players[{i}] is seat {p.get('seat')}")
        for key in p:
            if key in RETIRED_WORDS:
                problems.append(f"players[{i}] says {key!r}, not the shared word")
        for key, kinds in PLAYER_WORDS.items():
            if key in p and (not isinstance(p[key], kinds) or isinstance(p[key], bool)):
                problems.append(f"players[{i}].{key} is not {kinds[0].__name__}")
        if "hand_size" not in p:
            problems.append(f"players[{i}] has no 'hand_size'")
    if seat is not None and "hand_size" in players[seat] and players[seat]["hand_size"] != len(view["hand"]):
        problems.append(f"seat {seat}'s hand_size {players[seat]['hand_size']} is not its hand's {len(view['hand'])}")
    return problems


def _adapter(game: Game[Any]) -> Any:
    try:
        from pydantic import TypeAdapter
    except ImportError:  # pragma: no cover - pydantic comes with courtcards[server] and [dev]
        raise RuntimeError(
            "checking views against their schema needs pydantic: pip install 'courtcards[server]'"
        ) from None
    cached = getattr(game, "_view_adapter", None)
    if cached is None:
        if game.view_type is None:
            raise TypeError(f"{game.title} has no view_type")
        cached = TypeAdapter(game.view_type)
        game._view_adapter = cached  # type: ignore[attr-defined]
    return cached


def validate_view(game: Game[Any], view: Any) -> None:
    """Raise pydantic's ValidationError if ``view`` does not fit the game's view type."""
    _adapter(game).validate_python(view, strict=True)


def view_schema(game: Game[Any]) -> dict[str, Any]:
    """The JSON Schema of the game's views."""
    schema: dict[str, Any] = _adapter(game).json_schema()
    schema["$id"] = f"courtcards/view/{game.name}"
    schema["title"] = f"{game.title} view"
    return schema


def write_schemas(folder: Path) -> list[Path]:
    """Write ``<game>.json`` for every game with a view type into ``folder``."""
    from courtcards.core.game import game_names, get_game

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in game_names():
        game = get_game(name)
        if game.view_type is None:
            continue
        path = folder / f"{name}.json"
        path.write_text(json.dumps(view_schema(game), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m courtcards.core.views docs/schemas/views
    for p in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas/views")):
        print(p)
