"""Game records: how a game started and every action in order, so it replays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from courtcards.core.errors import CourtcardsError, PositionError, RecordError

if TYPE_CHECKING:
    from courtcards.core.state import JSON, State

RECORD_FORMAT = "courtcards/record"
RECORD_FORMAT_VERSION = 2  # 2: the start position names its state format_version (1: it was 2 if unnamed)


@dataclass
class GameRecord:
    """Game, table size, options, seed (or explicit start position), then each
    action with its seat. The record of a finished game also carries its result."""

    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    start: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State) -> GameRecord:
        res = state.result()
        return cls(
            game=state.game.name,
            num_players=state.num_players,
            options=dict(state.options),
            seed=state.seed,
            actions=list(state.history),
            start=state.start,
            result=None if res is None else res.to_json(),
        )

    def initial_state(self) -> State:
        from courtcards.core.game import get_game

        try:
            game = get_game(self.game)
            state: State = (
                game.state_from_json(self.start)
                if self.start is not None
                else game.new_game(self.num_players, self.options, self.seed)
            )
        except PositionError as exc:
            raise RecordError(f"the record's start position is refused: {exc}") from None
        except CourtcardsError as exc:
            raise RecordError(f"the record's game, table size or options are refused: {exc}") from None
        return state

    def states(self) -> list[State]:
        """The state before the first action and after each one."""
        state = self.initial_state()
        out = [state.copy()]
        out.extend(s.copy() for s in self._replayed(state))
        return out

    def replay(self) -> State:
        """The final state, replayed action by action."""
        state = self.initial_state()
        for _ in self._replayed(state):
            pass
        return state

    def _replayed(self, state: State) -> Iterator[State]:
        for i, (seat, text) in enumerate(self.actions):
            try:
                state.apply(seat, text)
            except CourtcardsError as exc:
                raise RecordError(f"action {i + 1} ({text!r} by seat {seat}) does not replay: {exc}") from exc
            yield state

    def to_json(self) -> JSON:
        return {
            "format": RECORD_FORMAT,
            "format_version": RECORD_FORMAT_VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "actions": [[s, t] for s, t in self.actions],
            "result": self.result,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f'not a courtcards game record (expected "format": "{RECORD_FORMAT}")')
        version = data.get("format_version")
        if version not in (1, RECORD_FORMAT_VERSION) or isinstance(version, bool):
            raise RecordError(f"unsupported record format version {version!r}")
        missing = [k for k in ("game", "num_players", "options", "seed", "actions") if k not in data]
        if missing:
            raise RecordError(f"malformed game record: no {', '.join(repr(k) for k in missing)}")
        raw = data["actions"]
        if not isinstance(raw, list) or not all(
            isinstance(p, list)
            and len(p) == 2
            and isinstance(p[0], int)
            and not isinstance(p[0], bool)
            and isinstance(p[1], str)
            for p in raw
        ):
            raise RecordError("malformed game record: 'actions' must be a list of [seat, action] pairs")
        actions = [(s, t) for s, t in raw]
        fields = {"num_players": int, "options": dict, "seed": int}
        values: dict[str, Any] = {}
        for key, kind in fields.items():
            value = data[key]
            if not isinstance(value, kind) or isinstance(value, bool):
                what = "an integer" if kind is int else "an object"
                raise RecordError(f"malformed game record: {key!r} must be {what}, not {value!r}")
            values[key] = kind(value)
        if not isinstance(data.get("meta") or {}, dict):
            raise RecordError("malformed game record: 'meta' must be an object")
        start = data.get("start")
        if version == 1 and isinstance(start, dict) and "format_version" not in start:
            start = {**start, "format_version": 2}  # written before states said their format in records
        return cls(
            game=str(data["game"]),
            actions=actions,
            start=start,
            result=data.get("result"),
            meta=dict(data.get("meta") or {}),
            **values,
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"{str(path)!r} is not a game record: it is not UTF-8 text "
                f"(byte {exc.object[exc.start]:#04x} at position {exc.start}); "
                "give a JSON record saved by courtcards play, simulate or the server"
            ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{str(path)!r} is not JSON: {exc}") from exc
        return cls.from_json(data)
