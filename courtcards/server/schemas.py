"""The server's messages as pydantic models: HTTP answers and both directions of the WebSocket.

FastAPI uses the HTTP models as ``response_model`` (so ``/docs`` shows them); the WebSocket
messages are discriminated by ``type``. Incoming messages are validated by :data:`ClientMessage`.
The state push, the hot path, is encoded by hand in ``tables.py``; the tests check that every push
validates against :data:`ServerMessage`.

The models that carry a seat's view (:class:`TableWithView`, :class:`ReplayStep`, :class:`StateMessage`)
are built from the registered games (:func:`models`): their ``view`` is the union of every game's
``view_type``, and a game that declares none gets the generic view model (any JSON object). The app
builds them when it is created, so its OpenAPI schema lists every game it serves.

``python -m courtcards.server.schemas docs/schemas`` writes the JSON Schemas of the games that come
with courtcards (the tests check that the committed files are current).
"""

from __future__ import annotations

import functools
import json
import operator
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model

from courtcards.core.game import Game, builtin_games, registered_games

# The view model of a game that declares no ``view_type``: any JSON object (its fields are the game's own).
GenericView = dict[str, Any]

MAX_ACTION = 512  # characters of an action text in a message

TableStatus = Literal["open", "playing", "finished"]
SocketErrorCode = Literal[
    "bad_token",
    "table_not_found",
    "not_your_turn",
    "illegal_action",
    "malformed_action",
    "stale_version",
    "game_over",
    "spectator",
    "bad_message",
    "server_error",
    "bad_origin",
    "rate_limited",
    "table_unavailable",
    "too_many_spectators",
    "chat_too_long",
    "chat_rate_limited",
    "muted",
    "not_owner",
    "undo_refused",
]


# -- HTTP --------------------------------------------------------------------------------------
class ErrorBody(BaseModel):
    code: str = Field(description="Typed error code, e.g. bad_request, table_not_found, rate_limited.")
    message: str


class ErrorResponse(BaseModel):
    """Every refusal of the HTTP API."""

    error: ErrorBody


class OptionInfo(BaseModel):
    name: str
    kind: str
    default: Any = Field(description="The default for the game's default number of players.")
    doc: str
    choices: list[Any]
    minimum: int | float | None
    maximum: int | float | None
    optional: bool


class PresetInfo(BaseModel):
    doc: str
    values: dict[str, Any]


class LessonInfo(BaseModel):
    players: int = Field(description="Seats at the lesson's table: the learner's and bots'.")
    preset: str | None = Field(description="The game's shortest preset (null: the defaults).")
    seed: int = Field(description="The lesson's deal: the same for every learner.")
    turns: float = Field(description="The learner's turns in an average random playout of the lesson.")


class GameInfo(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: list[OptionInfo]
    presets: dict[str, PresetInfo]
    bots: list[str]
    round_word: str = Field(description='What a player calls one round of the game\'s views ("Hand", "Turn").')
    browser_module: str | None = Field(
        description="URL of the game's browser renderer (an ES module); null: "
        "the pages draw the game with the generic renderer."
    )
    lesson: LessonInfo = Field(description="Learn to play: the table of the game's lesson (its shortest preset).")


class GamesResponse(BaseModel):
    games: list[GameInfo]


class DefaultsResponse(BaseModel):
    options: dict[str, Any] = Field(description="Option values of a table of that size and preset.")


class SeatInfo(BaseModel):
    seat: int
    type: Literal["human", "bot"]
    bot: str | None
    name: str | None
    taken: bool
    connected: bool = Field(description="A bot, or a human with a connection to any server process.")
    stand_in: bool = Field(description="A bot plays this absent human's seat.")


class TableSettings(BaseModel):
    bot_delay: float
    absent_timeout: float
    move_time_limit: float | None
    hints: bool | None
    rated: bool = Field(False, description="The game's end rates its players (accounts only; bots are anchors).")


class GameResult(BaseModel):
    winner: int | None = Field(description="None: a draw.")
    ranking: list[int] = Field(description="Seats, best first.")
    scores: list[int]
    details: dict[str, Any]


class TableInfo(BaseModel):
    id: str
    private: bool
    game: str
    title: str
    players: int
    options: dict[str, Any]
    status: TableStatus
    created: str = Field(description="UTC, e.g. 2025-01-01T12:00:00Z.")
    seats: list[SeatInfo]
    version: int = Field(description="Actions taken so far.")
    to_move: list[int] = Field(description="Seats that must decide now (empty for tables not in memory).")
    settings: TableSettings
    result: GameResult | None


class TableResponse(BaseModel):
    table: TableInfo
    owner_key: str | None = Field(
        None, description="The creator's key (shown once, when the table is made): it mutes seats in the chat."
    )


class TableList(BaseModel):
    tables: list[TableInfo]
    total: int
    offset: int
    next: int | None = Field(description="The offset of the next page; null on the last page.")


class _TableWithView(BaseModel):
    table: TableInfo
    view: Any = Field(description="The spectator's view.")


class JoinResponse(BaseModel):
    seat: int
    token: str = Field(description="Shown once; it acts for the seat (the server keeps its SHA-256 only).")
    table: TableInfo


class GameRecordFile(BaseModel):
    """A finished game's record (``courtcards replay FILE`` steps through it)."""

    model_config = ConfigDict(extra="allow")

    format: Literal["courtcards/record"]
    format_version: int
    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    start: dict[str, Any] | None
    actions: list[tuple[int, str]]
    result: GameResult | None
    meta: dict[str, Any]


class ReplayMark(BaseModel):
    label: str
    step: int


class ReplayResponse(BaseModel):
    game: str
    players: int
    actions: list[tuple[int, str]] = Field(description="[seat, action text] in order.")
    result: GameResult | None
    marks: list[ReplayMark]


class _ReplayStep(BaseModel):
    step: int
    steps: int
    action: tuple[int, str] | None = Field(description="The action that led here (null at step 0).")
    view: Any = Field(description="The spectator's view after this step.")
    places: dict[str, list[str]] = Field(description="Every card by place.")


class HintResponse(BaseModel):
    seat: int
    version: int
    action: str
    win_chance: float | None = Field(
        description="The estimated chance to win after the move; null when the move is forced."
    )
    forced: bool = Field(description="Whether the action is the seat's only legal move (no search is run).")
    iterations: int


class Addresses(BaseModel):
    lan: list[str]


# -- WebSocket: client to server -----------------------------------------------------------------
class _Incoming(BaseModel):
    model_config = ConfigDict(strict=True)  # "3" is not 3; other fields are ignored


class ActionMessage(_Incoming):
    """Make a move, acting on the state of ``version``."""

    type: Literal["action"]
    action: str = Field(max_length=MAX_ACTION, description="The action in the game's notation.")
    version: int


class CheckMessage(_Incoming):
    """Ask whether an action would be accepted now (answered with a ``check`` message)."""

    type: Literal["check"]
    action: str = Field(max_length=MAX_ACTION)


class PingMessage(_Incoming):
    type: Literal["ping"]


class ChatMessage(_Incoming):
    """Say something to the table: players to players, spectators to spectators (never across)."""

    type: Literal["chat"]
    text: str = Field(max_length=4096, description="The message (the server's limit is shorter: chat_too_long).")


class MuteMessage(_Incoming):
    """The table's creator mutes (or unmutes) a seat's chat, with the creator's key."""

    type: Literal["mute"]
    seat: int
    muted: bool
    owner: str = Field(max_length=128, description="The owner_key the table's creation answered.")


class UndoMessage(_Incoming):
    """Take back this seat's last action and what the bots did after it: a casual table with one person
    seated (the others bots), never a rated one."""

    type: Literal["undo"]


IncomingMessage = ActionMessage | CheckMessage | PingMessage | ChatMessage | MuteMessage | UndoMessage
ClientMessage = Annotated[IncomingMessage, Field(discriminator="type")]


# -- WebSocket: server to client -----------------------------------------------------------------
class _StateMessage(BaseModel):
    """Pushed on connecting and after every change: this seat's view and nothing else."""

    type: Literal["state"]
    table: str
    version: int
    seat: int | None = Field(description="null: a spectator.")
    view: Any
    legal: list[str] = Field(description="Non-empty only when this seat must decide now.")
    to_move: list[int]
    seats: list[SeatInfo]
    status: TableStatus
    result: GameResult | None
    deadline: float | None = Field(description="Unix seconds when the seat's bot moves for it (move time limit).")


_REASON_CODE = (
    "The rule that refuses an action, as the engine names it (courtcards.core.errors.Refusal: e.g. "
    "not_in_hand; 'illegal' where the game names none, 'not_your_turn', 'game_over'); null for other "
    "errors."
)
_REASON_DATA = "The refusal's data (seats as ints, numbered from 0); null for other errors."


class CheckReply(BaseModel):
    type: Literal["check"]
    action: str
    version: int
    legal: bool
    code: SocketErrorCode | None
    reason: str | None
    reason_code: str | None = Field(default=None, description=_REASON_CODE)
    reason_data: dict[str, Any] | None = Field(default=None, description=_REASON_DATA)


class ErrorMessage(BaseModel):
    """A refused message (to its sender only; nothing changed), or why the socket is closed."""

    type: Literal["error"]
    code: SocketErrorCode
    message: str
    version: int | None
    reason_code: str | None = Field(default=None, description=_REASON_CODE)
    reason_data: dict[str, Any] | None = Field(default=None, description=_REASON_DATA)


class PongMessage(BaseModel):
    type: Literal["pong"]


class ChatPush(BaseModel):
    """A chat message (escape it: it is the sender's text). Spectators' and players' never mix."""

    type: Literal["chat"]
    id: int = Field(description="The message's number (stored with the table; increasing).")
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="The sender's seat; null: a spectator.")
    name: str
    text: str
    at: float = Field(description="Unix seconds.")


class MutedPush(BaseModel):
    """The seats whose chat the table's creator muted (on connecting and when it changes)."""

    type: Literal["muted"]
    seats: list[int]


client_messages: TypeAdapter[IncomingMessage] = TypeAdapter(ClientMessage)


# -- the models that carry a view, built from the games ------------------------------------------
def view_type(games: Iterable[Game[Any]]) -> Any:
    """What a seat may know of these games (``state.view(seat)``): the union of their view types
    (courtcards.core.views), :data:`GenericView` for a game that declares none."""
    types: list[Any] = []
    for game in games:
        kind = game.view_type if game.view_type is not None else GenericView
        if kind not in types:
            types.append(kind)
    return functools.reduce(operator.or_, types) if types else GenericView


@dataclass(frozen=True)
class Models:
    """The view-carrying models of one set of games (:func:`models`)."""

    games: tuple[str, ...]
    view: Any  # the union of the games' view types
    table_with_view: type[BaseModel]
    replay_step: type[BaseModel]
    state_message: type[BaseModel]
    server_message: Any  # StateMessage | CheckReply | ErrorMessage | PongMessage, by ``type``
    server_messages: TypeAdapter[Any]


def _with_view(name: str, base: type[BaseModel], view: Any) -> type[BaseModel]:
    field = base.model_fields["view"]
    return create_model(
        name,
        __base__=base,
        __module__=__name__,
        __doc__=base.__doc__,
        view=(view, Field(description=field.description)),
    )


@functools.cache
def _models(games: tuple[Game[Any], ...]) -> Models:
    view = view_type(games)
    state = _with_view("StateMessage", _StateMessage, view)
    union = Annotated[
        state | CheckReply | ErrorMessage | PongMessage | ChatPush | MutedPush,  # type: ignore[valid-type]
        Field(discriminator="type"),
    ]
    return Models(
        games=tuple(g.name for g in games),
        view=view,
        table_with_view=_with_view("TableWithView", _TableWithView, view),
        replay_step=_with_view("ReplayStep", _ReplayStep, view),
        state_message=state,
        server_message=union,
        server_messages=TypeAdapter(union),
    )


def models(games: Sequence[Game[Any]] | None = None) -> Models:
    """The models for these games (default: every game registered now), built once per set."""
    return _models(tuple(registered_games() if games is None else games))


# The models for the games registered when this module is imported (the app builds its own when it is created).
_NOW = models()
View = _NOW.view
TableWithView = _NOW.table_with_view
ReplayStep = _NOW.replay_step
StateMessage = _NOW.state_message
ServerMessage = _NOW.server_message
server_messages = _NOW.server_messages

_NEEDS = {
    "action": 'an action message needs "action" (text of at most {n} characters) and "version" (int)',
    "check": 'a check message needs "action" (text of at most {n} characters)',
    "chat": 'a chat message needs "text" (text)',
    "undo": "an undo message needs nothing but its type",
    "mute": 'a mute message needs "seat" (int), "muted" (bool) and "owner" (the table\'s owner key)',
}


def parse_client_message(text: str, max_action: int = MAX_ACTION) -> IncomingMessage:
    """The message, or ValueError with the reason a client is told (``bad_message``)."""
    try:
        msg = client_messages.validate_json(text)
    except ValidationError as exc:
        raise ValueError(_why(exc, text, max_action)) from None
    if isinstance(msg, ActionMessage | CheckMessage) and len(msg.action) > max_action:
        raise ValueError(_NEEDS[msg.type].format(n=max_action))
    return msg


def _why(exc: ValidationError, text: str, max_action: int) -> str:
    first = exc.errors(include_url=False)[0]
    kind = first["type"]
    if kind == "json_invalid":
        what = "nested too deeply" if "recursion" in first["msg"] else "not JSON"
        return f"messages are JSON objects; this one is {what}"
    loc = first["loc"]
    if kind in ("union_tag_invalid", "union_tag_not_found", "dict_type", "model_type") or not loc:
        try:
            tag = json.loads(text).get("type") if kind != "dict_type" else None
        except (ValueError, RecursionError, AttributeError):
            tag = None
        return f"unknown message type {str(tag)[:32]!r}; expected action, check, ping, chat, mute or undo"
    return _NEEDS[str(loc[0])].format(n=max_action)


# -- published schemas ---------------------------------------------------------------------------
def http_models(m: Models) -> tuple[type[BaseModel], ...]:
    return (
        ErrorResponse,
        GamesResponse,
        DefaultsResponse,
        TableResponse,
        TableList,
        m.table_with_view,
        JoinResponse,
        GameRecordFile,
        ReplayResponse,
        m.replay_step,
        HintResponse,
        Addresses,
    )


def schemas(games: Sequence[Game[Any]] | None = None) -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, as published under docs/schemas: for ``games`` (default: the games
    that come with courtcards, :func:`builtin_games`)."""
    m = models(builtin_games() if games is None else games)
    out: dict[str, dict[str, Any]] = {
        "ws-client-message.json": {"title": "ClientMessage", **client_messages.json_schema()},
        "ws-server-message.json": {"title": "ServerMessage", **m.server_messages.json_schema()},
    }
    for model in http_models(m):
        out[f"http-{model.__name__}.json"] = model.model_json_schema()
    return out


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m courtcards.server.schemas FOLDER   (e.g. docs/schemas)", file=sys.stderr)
        return 2
    for path in write(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
