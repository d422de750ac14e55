"""The event log: what happened, as data and in the engine's own sentences.

Each game records its events once, here in the engine, when they happen. An event
is a structured record: its ``kind`` (a short identifier from the kinds its game
declares in ``courtcards/games/<game>/events.py``), its ``data`` (a JSON-ready
object: seats as ints under named keys, cards as lists of card texts, numbers as
ints) and its ``template``, the engine's sentence with each seat written as a
placeholder naming the data that holds it::

    kind "play", template "{seat} plays 8 8 and takes the round.", data {"seat": 2, "cards": ["8", "8"]}

The engine's sentence (``text``: "Seat 2 plays 8 8 and takes the round.") is the
template filled with the default names ("seat N", "Seat N" to begin a sentence);
a client names the seats its own way with :func:`fill`, reading no prose. A
placeholder is a path into the data: ``{seat}``, ``{finish.0}`` (an item of a
list of seats), ``{steps.2.seat}`` (a field of one step of a compound event).

The terminal, the browser, replays and text agents all show these events, so no
client words its own. A view carries the last :data:`LOG_LIMIT` events; each has
its number ``n`` since the game began, so a client that keeps a longer log can
append without duplicates.

A state appends plain tuples of the same eight fields (cheaper than the subclass)
and wraps its last one as an EventLog when read; every method here reads nodes by
index, so either kind of node may be in a chain. The sentence is made only when
read (a playout never reads it).

An event that shows private cards has a public record for everyone and, in
``secret``, the fuller record (its own template and data, the same kind) each
entitled seat sees instead ("seat 0 takes a card from seat 3" / to seat 0 and 3:
"seat 0 takes 12 from seat 3"). Every event has a public record, so the numbering
reveals nothing.

:class:`EventLog` is immutable (appending gives a new log that shares the old
one), so copies of a state share it for free. States own one (``State.events``,
appended with ``State.log_event``); it is saved with the state as ``events``.

Each game declares its kinds as :class:`EventKinds`; :func:`event_schema` makes
the JSON Schema published as ``docs/schemas/events/<game>.json``
(``python -m courtcards.core.events docs/schemas/events``) and :func:`event_problems`
checks an event against them.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from courtcards.core.errors import PositionError
from courtcards.core.positions import Fields

if TYPE_CHECKING:
    from courtcards.core.game import Game

LOG_LIMIT: Final = 40
MAX_TEXT: Final = 400
MAX_TEMPLATE: Final = 1000  # placeholders are longer than names: "{finish.10}" for "seat 10"
MAX_DEPTH: Final = 400  # 10 * LOG_LIMIT: a longer chain is cut back to the last LOG_LIMIT events (nothing shows more)
#: the kind of an event recorded as a bare sentence (``EventLog.add``; a log saved before events were data)
NOTE: Final = "note"
_new = tuple.__new__
_EMPTY_DATA: Final[dict[str, Any]] = {}

# -- templates ------------------------------------------------------------------------------------------------
Name = Callable[[int, bool], str]
_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z_]\w*(?:\.\w+)*)\}")
_SENTENCE_END: Final = (". ", "! ", "? ")


def placeholders(template: str) -> list[str]:
    """The data paths a template names, in order ("seat", "finish.0", "steps.2.seat")."""
    return _PLACEHOLDER.findall(template)


def resolve(data: Any, path: str | tuple[str, ...] | list[str]) -> Any:
    """The value at ``path`` in ``data`` (keys of objects, indexes of lists); None if there is none."""
    value = data
    for key in path.split(".") if isinstance(path, str) else path:
        if type(value) is dict:
            value = value.get(key)
        elif type(value) is list and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


def seat_name(seat: int, capital: bool) -> str:
    """The engine's own name of a seat: "seat 3", or "Seat 3" to begin a sentence."""
    return f"Seat {seat}" if capital else f"seat {seat}"


def fill(template: str, data: Mapping[str, Any], name: Name = seat_name) -> str:
    """The sentence of an event with each seat named by ``name(seat, capital)`` (capital: the
    name begins a sentence: it begins the template, or follows ". "). A placeholder whose path
    holds no seat stays as written."""
    if "{" not in template:
        return template
    parts = template.split("{")
    out = [parts[0]]
    for k in range(1, len(parts)):
        part = parts[k]
        close = part.find("}")
        key = part[:close]
        value = (data.get(key) if "." not in key else resolve(data, key)) if close > 0 else None
        if type(value) is int and key.replace(".", "_").isidentifier():
            before = out[-1]
            out.append(name(value, (k == 1 and not before) or before.endswith(_SENTENCE_END)))
            out.append(part[close + 1 :])
        else:
            out.append("{")
            out.append(part)
    return "".join(out)


# -- events of steps ---------------------------------------------------------------------------------------------
#: one part of an event of steps, made only when read: ``(word, *values)``, where ``word(*values)`` gives the
#: part's (template, data with its own ``kind``); the values must not change once logged
Step = tuple[Any, ...]
Steps = Sequence[Step]
_STEP: Final = tuple(f"{{steps.{i}." for i in range(256))


def step_records(parts: Steps) -> list[tuple[str, Mapping[str, Any]]]:
    """Each part's (template, data): ``word(*values)`` of a :data:`Step`."""
    return [part[0](*part[1:]) for part in parts]


def join_steps(records: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[str, dict[str, Any]]:
    """One event of an action's parts, each (template, data with its own ``kind``): their templates
    joined by "; " (each placeholder made a path into its own step: ``{steps.2.seat}``), the first
    letter a capital, and ``{"steps": [data, ...]}``. ``State.log_event`` takes the parts themselves
    as :data:`Steps` (template None) and the log words and joins them only when the event is read:
    a playout never reads it."""
    texts = [t.replace("{", _STEP[i]) for i, (t, _) in enumerate(records)]
    template = "; ".join(texts)
    first = template[:1]
    if first != "{" and not first.isupper():
        template = first.upper() + template[1:]
    return template, {"steps": [d for _, d in records]}


def record_of(template: str | None, data: Any) -> tuple[str, Mapping[str, Any]]:
    """A node's (template, data): its steps worded and joined if it holds them unjoined (template None)."""
    if template is None:
        return join_steps(step_records(data))
    return template, data


def since(log: tuple[Any, ...], n: int) -> list[tuple[str, Mapping[str, Any]]]:
    """The kind and data, as everyone reads them, of the events of ``log`` (a log node) after its ``n``-th,
    oldest first, without making their sentences (an event of steps: ``{"steps": [data, ...]}``)."""
    out: list[tuple[str, Mapping[str, Any]]] = []
    node = log
    while node[1] > n and node[0] is not None:
        data = node[7]
        out.append((node[6], data if node[3] is not None else {"steps": [d for _, d in step_records(data)]}))
        node = node[0]
    out.reverse()
    return out


# (id(template), id(data)) -> (template, data, text): the engine's sentences already made, holding what they
# were made of (so the ids stay theirs); data is never changed once logged, so a sentence is its pair's
_texts: dict[tuple[int, int], tuple[str, Mapping[str, Any], str]] = {}


def text_of(template: str, data: Mapping[str, Any]) -> str:
    """``fill(template, data)`` with the engine's names, remembered (views word the same events again and again)."""
    key = (id(template), id(data))
    got = _texts.get(key)
    if got is not None and got[0] is template and got[1] is data:
        return got[2]
    text = fill(template, data)
    if len(_texts) >= 16384:
        _texts.clear()
    _texts[key] = (template, data, text)
    return text


# id(node) for the public entry, (id(node), viewer) for a viewer's secret one -> (node, entry): each event's
# entry in a view's log, made once and held with its node (so the id stays its own); copied for each view
_entries: dict[Any, tuple[tuple[Any, ...], dict[str, Any]]] = {}


def _made(node: tuple[Any, ...], secret: tuple[str, Mapping[str, Any]] | None) -> dict[str, Any]:
    template, data = secret if secret is not None else record_of(node[3], node[7])
    return {
        "n": node[1],
        "seat": node[2],
        "kind": node[6],
        "template": template,
        "data": dict(data),
        "text": text_of(template, data),
    }


def _entry(
    key: Any, node: tuple[Any, ...], secret: tuple[str, Mapping[str, Any]] | None
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    got = (node, _made(node, secret))
    if len(_entries) >= 32768:  # about 40 MB at the most (1.3 kB an entry, Royals)
        _entries.clear()
    _entries[key] = got
    return got


# the same keys -> (node, the entry as JSON text)
_encoded: dict[Any, tuple[tuple[Any, ...], str]] = {}


def _copy(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy a client may change without changing the log (its lists are the log's: read them only)."""
    return dict(data)


# -- the log ----------------------------------------------------------------------------------------------------
Secret = Mapping[int, tuple[str, Mapping[str, Any]]]


class EventLog(tuple):  # type: ignore[type-arg]
    """One event and the log before it: ``(prev, n, seat, template, secret, depth, kind, data)``.

    A tuple underneath, so appending is one C-level allocation (``record``); compared,
    hashed and pickled by identity and content as an immutable log should be."""

    __slots__ = ()

    @property
    def prev(self) -> EventLog | None:
        node = self[0]
        return node if node is None or type(node) is EventLog else _new(EventLog, node)  # a state's plain node

    n: int = property(itemgetter(1))  # type: ignore[assignment]
    seat: int | None = property(itemgetter(2))  # type: ignore[assignment]

    @property
    def template(self) -> str:
        return record_of(self[3], self[7])[0]

    secret: Secret | None = property(itemgetter(4))  # type: ignore[assignment]
    kind: str = property(itemgetter(6))  # type: ignore[assignment]

    @property
    def data(self) -> Mapping[str, Any]:
        return record_of(self[3], self[7])[1]

    @property
    def text(self) -> str:
        """The engine's sentence (the template with the default seat names)."""
        return text_of(*record_of(self[3], self[7]))

    def __new__(
        cls,
        prev: EventLog | None = None,
        seat: int | None = None,
        text: str = "",
        secret: Mapping[int, str] | None = None,
    ) -> EventLog:
        if prev is None:
            return _new(cls, (None, 0, seat, text, _notes(secret), 0, NOTE, _EMPTY_DATA))
        return prev.add(seat, text, secret)

    @classmethod
    def base(cls, n: int = 0) -> EventLog:
        """An empty log whose next event is number ``n + 1`` (a log that kept only its last events)."""
        return _new(cls, (None, n, None, "", None, 0, NOTE, _EMPTY_DATA))

    def record(
        self, seat: int | None, kind: str, template: str | None, data: Any, secret: Secret | None = None
    ) -> EventLog:
        """A new log with one more event: ``(template, data)`` for everyone, ``secret[s]`` instead for seat ``s``
        (template None: data is the event's steps, joined when read, see :func:`join_steps`)."""
        depth = self[5]
        if depth >= MAX_DEPTH:
            return self._cut().record(seat, kind, template, data, secret)
        return _new(EventLog, (self, self[1] + 1, seat, template, secret, depth + 1, kind, data))

    def add(self, seat: int | None, text: str, secret: Mapping[int, str] | None = None) -> EventLog:
        """A new log with one more event of kind "note" worded by ``text`` alone (no data); ``secret[s]``
        the sentence seat ``s`` sees instead."""
        return self.record(seat, NOTE, text, _EMPTY_DATA, _notes(secret))

    def _tail(self) -> tuple[int, list[tuple[Any, ...]]]:
        """The last LOG_LIMIT events, flat: the number before the first and each
        (seat, template, secret, kind, data)."""
        nodes = self._nodes(LOG_LIMIT)
        return nodes[0][1] - 1 if nodes else self[1], [(e[2], e[3], e[4], e[6], e[7]) for e in nodes]

    def _cut(self) -> EventLog:
        return _rebuild(*self._tail())

    def _nodes(self, k: int) -> list[EventLog]:
        """The last ``k`` events, oldest first."""
        out: list[EventLog] = []
        node = self
        while node[0] is not None and len(out) < k:
            out.append(node)
            node = node[0]
        out.reverse()
        return out

    def then(self, later: EventLog) -> EventLog:
        """This log followed by the events of ``later`` (a log begun apart, from EMPTY)."""
        log = self
        for node in later._nodes(later[1]):
            log = log.record(node[2], node[6], node[3], node[7], node[4])
        return log

    def __len__(self) -> int:
        return int(self[1])

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _rebuild, self._tail()  # flat, not the chain: a chain of tuples pickles recursively

    def __copy__(self) -> EventLog:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        return self  # immutable

    def __repr__(self) -> str:
        return f"<EventLog of {self[1]} events>"

    def _seen(self, k: int, viewer: int | None) -> list[tuple[tuple[Any, ...], Any, Any]]:
        """The last ``k`` events as ``viewer`` sees them, oldest first: each (node, its entry's key in the
        caches: ``id(node)``, or ``(id(node), viewer)`` for the viewer's secret record, that record or None)."""
        out: list[tuple[tuple[Any, ...], Any, Any]] = []
        node: tuple[Any, ...] = self
        while node[0] is not None and len(out) < k:
            secret = node[4]
            if secret is not None and viewer is not None and viewer in secret:
                out.append((node, (id(node), viewer), secret[viewer]))
            else:
                out.append((node, id(node), None))
            node = node[0]
        out.reverse()
        return out

    def last(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[dict[str, Any]]:
        """The last ``k`` events as ``viewer`` sees them (None: a spectator), oldest first: each
        ``{"n", "seat", "kind", "template", "data", "text"}`` (a view's ``log``), the caller's own
        copy (its data's lists are the log's: read them only). Each event's entry is made once
        (events never change) and copied for every view that shows it."""
        out: list[dict[str, Any]] = []
        get = _entries.get
        for node, key, mine in self._seen(k, viewer):
            got = get(key)
            if got is None or got[0] is not node:
                got = _entry(key, node, mine)
            entry = got[1].copy()
            entry["data"] = entry["data"].copy()
            out.append(entry)
        return out

    def last_json(self, k: int = LOG_LIMIT, viewer: int | None = None) -> str:
        """:meth:`last` as compact JSON text (``json.loads`` gives it back), each entry encoded once
        (a server pushes the same events in every view, version after version)."""
        parts: list[str] = []
        get = _encoded.get
        for node, key, mine in self._seen(k, viewer):
            got = get(key)
            if got is None or got[0] is not node:
                got = (node, json.dumps(_made(node, mine), separators=(",", ":"), ensure_ascii=False))
                if len(_encoded) >= 65536:  # 0.4 kB an entry: a busy server's tables, 40 events each
                    _encoded.clear()
                _encoded[key] = got
            parts.append(got[1])
        return "[" + ",".join(parts) + "]"

    def texts(self, k: int = LOG_LIMIT, viewer: int | None = None) -> list[str]:
        """Just the sentences of :meth:`last`."""
        return [e["text"] for e in self.last(k, viewer)]

    def to_json(self) -> list[dict[str, Any]]:
        """The last LOG_LIMIT events with their secret records, for saving with the state."""
        out: list[dict[str, Any]] = []
        for node in self._nodes(LOG_LIMIT):
            template, data = record_of(node[3], node[7])
            entry: dict[str, Any] = {
                "n": node[1],
                "seat": node[2],
                "kind": node[6],
                "template": template,
                "data": _copy(data),
                "text": fill(template, data),
            }
            if node[4]:
                entry["secret"] = {
                    str(s): {"template": t, "data": _copy(d), "text": fill(t, d)}
                    for s, (t, d) in sorted(node[4].items())
                }
            out.append(entry)
        return out

    @classmethod
    def from_json(cls, entries: Iterable[Any], path: str = "log", num_players: int = 64) -> EventLog:
        """Read what :meth:`to_json` wrote, or a view's ``log`` (a PositionError names a
        malformed entry). Well-formed entries take a quick path: this runs for every
        world a search samples from a view. An entry with only ``text`` (a log saved
        before events were data) is read as a note."""
        raw = entries if isinstance(entries, list) else list(entries)
        log = _quick(raw, num_players)
        return log if log is not None else _checked(raw, path, num_players)


def _notes(secret: Mapping[int, str] | None) -> Secret | None:
    return {s: (t, _EMPTY_DATA) for s, t in secret.items()} if secret else None


def _rebuild(n: int, events: list[tuple[Any, ...]]) -> EventLog:
    log = EventLog.base(n)
    for seat, template, secret, kind, data in events:
        log = log.record(seat, kind, template, data, secret)
    return log


_ENTRY_KEYS: Final = frozenset({"n", "seat", "text", "kind", "template", "data"})
_LEGACY_KEYS: Final = frozenset({"n", "seat", "text"})


def _quick_record(e: Any) -> tuple[str, str, dict[str, Any]] | None:
    """(kind, template, data) of a well-formed entry or secret record whose sentence is its filled template."""
    if type(e) is str:  # a saved secret sentence of old
        return (NOTE, e, _EMPTY_DATA) if len(e) <= MAX_TEXT and "{" not in e else None
    if type(e) is not dict:
        return None
    text = e.get("text")
    if type(text) is not str or len(text) > MAX_TEXT:
        return None
    if "template" not in e:
        return (NOTE, text, _EMPTY_DATA) if "kind" not in e and "data" not in e and "{" not in text else None
    kind, template, data = e.get("kind", NOTE), e["template"], e.get("data")
    if type(kind) is not str or type(template) is not str or type(data) is not dict or len(template) > MAX_TEMPLATE:
        return None
    if not _filled(template, data, text):
        return None
    return kind, template, data


# (template, text) -> (data, its placeholders' paths): a sentence already checked to be its template filled with
# that data. Equal data gives the same sentence when each placeholder's value has the same type (True == 1,
# but only an int names a seat), so a view's log, read again for every world a search samples, is checked
# with one comparison per event instead of filling each template again.
_checked_texts: dict[tuple[str, str], tuple[dict[str, Any], list[str]]] = {}


def _filled(template: str, data: dict[str, Any], text: str) -> bool:
    """Whether ``text`` is ``fill(template, data)``."""
    if "{" not in template:
        return text == template
    got = _checked_texts.get((template, text))
    if got is not None and got[0] == data:
        known = got[0]
        for path in got[1]:
            if "." not in path:
                if type(data.get(path)) is not type(known.get(path)):
                    break
            elif type(resolve(data, path)) is not type(resolve(known, path)):
                break
        else:
            return True
    if fill(template, data) != text:
        return False
    if len(_checked_texts) >= 16384:
        _checked_texts.clear()
    _checked_texts[(template, text)] = (_snapshot(data), placeholders(template))
    return True


def _snapshot(value: Any) -> Any:
    """A copy of JSON-like data that no later change to ``value`` reaches (lists and objects copied, all the way)."""
    kind = type(value)
    if kind is dict:
        return {k: _snapshot(v) for k, v in value.items()}
    if kind is list:
        return [_snapshot(v) for v in value]
    if kind is int or kind is str or kind is bool or kind is float or value is None:
        return value
    return copy.deepcopy(value)


def _quick(raw: list[Any], num_players: int) -> EventLog | None:
    """The log from well-formed entries, or None to let ``_checked`` name the fault."""
    if not raw:
        return EMPTY
    first = raw[0]
    if type(first) is not dict or type(first.get("n")) is not int or first["n"] < 1:
        return None
    log = EventLog.base(first["n"] - 1)
    for e in raw:
        if type(e) is not dict or "seat" not in e:
            return None
        keys = e.keys()
        if not (keys <= _ENTRY_KEYS or (keys - {"secret"}) <= _ENTRY_KEYS):
            return None
        n, seat = e.get("n"), e.get("seat")
        if n != log[1] + 1:
            return None
        if seat is not None and (type(seat) is not int or not 0 <= seat < num_players):
            return None
        public = _quick_record(e)
        if public is None:
            return None
        secret: dict[int, tuple[str, Mapping[str, Any]]] | None = None
        if "secret" in e:
            given = e["secret"]
            if type(given) is not dict:
                return None
            secret = {}
            for key, value in given.items():
                if type(key) is not str or not key.isdigit() or int(key) >= num_players:
                    return None
                got = _quick_record(value)
                if got is None:
                    return None
                secret[int(key)] = got[1], got[2]
        log = log.record(seat, public[0], public[1], public[2], secret or None)
    return log


def _checked_record(f: Fields) -> tuple[str, str, dict[str, Any]]:
    text = _sentence(f, "text")
    if not f.has("template"):
        if f.has("kind") or f.has("data"):
            raise PositionError(f.at("template"), "an event with a kind or data needs its template")
        if "{" in text:
            raise PositionError(f.at("text"), "a sentence with no template may not hold a placeholder")
        return NOTE, text, {}
    kind = f.text("kind") if f.has("kind") else NOTE
    template = f.text("template")
    if len(template) > MAX_TEMPLATE:
        raise PositionError(f.at("template"), f"a template is at most {MAX_TEMPLATE} characters, not {len(template)}")
    data: dict[str, Any] = dict(f.obj("data").data) if f.has("data") else {}
    if fill(template, data) != text:
        raise PositionError(f.at("text"), f"is not its template filled with its data: {fill(template, data)!r}")
    return kind, template, data


def _checked(raw: list[Any], path: str, num_players: int) -> EventLog:
    log: EventLog | None = None
    for i, entry in enumerate(raw):
        f = Fields(entry, f"{path}[{i}]")
        n = f.integer("n", 1)
        if log is None:
            log = EventLog.base(n - 1)  # the log kept only the last events: number them on from there
        elif n != log.n + 1:
            raise PositionError(f.at("n"), f"events must be numbered one after another, not {log.n} then {n}")
        seat = f.opt_integer("seat", 0, num_players - 1)
        secret: dict[int, tuple[str, Mapping[str, Any]]] | None = None
        if f.has("secret"):
            sf = f.obj("secret")
            secret = {}
            for key in sf.data:
                if not (isinstance(key, str) and key.isdigit() and int(key) < num_players):
                    raise PositionError(sf.at(key), "is not a seat at this table")
                if isinstance(sf.data[key], str):
                    secret[int(key)] = _sentence(sf, key), {}
                else:
                    got = _checked_record(sf.obj(key))
                    secret[int(key)] = got[1], got[2]
        unknown = set(f.data) - _ENTRY_KEYS - {"secret"}
        if unknown:
            raise PositionError(f.at(sorted(unknown)[0]), "is not a field of an event")
        kind, template, data = _checked_record(f)
        log = log.record(seat, kind, template, data, secret or None)
    return log if log is not None else EMPTY


def _sentence(f: Fields, key: str) -> str:
    text = f.text(key)
    if len(text) > MAX_TEXT:
        raise PositionError(f.at(key), f"an event is at most {MAX_TEXT} characters, not {len(text)}")
    return text


EMPTY = EventLog()


# -- what kinds of events a game has, and their schema --------------------------------------------------------
#: the types a field of an event's data may have; a name ending in "?" marks a field that may be absent
FIELD_TYPES: Final[Mapping[str, dict[str, Any]]] = {
    "seat": {"type": "integer", "minimum": 0},
    "seats": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    "cards": {"type": "array", "items": {"type": "string"}},
    "int": {"type": "integer"},
    "ints": {"type": "array", "items": {"type": "integer"}},
    "str": {"type": "string"},
    "strs": {"type": "array", "items": {"type": "string"}},
    "bool": {"type": "boolean"},
    "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
}


@dataclass(frozen=True)
class EventKinds:
    """The events a game records: for each kind, its data's fields and their types (names of
    :data:`FIELD_TYPES`; "seat?" a seat that may be absent). ``steps`` declares the kinds of the
    parts of a compound event (a field of type "steps": a list of objects, each with its ``kind``
    and that kind's fields). ``open``: any kind with any data (the generic default of a game that
    declares none).

    ``refusals`` declares the game's refusal codes the same way: for each code its data's fields
    (a :class:`~courtcards.core.errors.Refusal`'s ``code`` and ``data``). A game that declares
    some refuses only with those and the core ones (:data:`CORE_REFUSALS`); one that declares
    none may refuse with any code, or with a bare sentence (code "illegal")."""

    kinds: Mapping[str, Mapping[str, str]]
    steps: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    open: bool = False
    refusals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for what, group in (("event kind", self.kinds), ("event kind", self.steps), ("refusal", self.refusals)):
            for kind, fields in group.items():
                if not kind.isidentifier():
                    raise ValueError(f"{what} {kind!r} is not an identifier")
                for name, typ in fields.items():
                    if typ.rstrip("?") not in FIELD_TYPES or (typ.rstrip("?") == "steps" and what == "refusal"):
                        raise ValueError(f"{what} {kind!r}: field {name!r} has no type {typ!r}")

    def with_core(self) -> EventKinds:
        """These kinds and those the engine records for every game (:data:`CORE_KINDS`); these
        refusals, if any, and the engine's own (:data:`CORE_REFUSALS`)."""
        refusals = {**CORE_REFUSALS, **self.refusals} if self.refusals else {}
        return EventKinds({**CORE_KINDS, **self.kinds}, self.steps, self.open, refusals)


#: kinds every game may record: a bare sentence, and a secret choice (``State._committed``)
CORE_KINDS: Final[Mapping[str, Mapping[str, str]]] = {NOTE: {}, "commit": {"seat": "seat", "action": "str?"}}
#: the codes the engine refuses with for every game (``State.verify``, ``State.refusal``'s default)
CORE_REFUSALS: Final[Mapping[str, Mapping[str, str]]] = {
    "no_such_seat": {"players": "int"},
    "game_over": {},
    "already_committed": {},
    "not_your_turn": {"waiting": "seats"},
    "not_legal_now": {},
}
GENERIC: Final = EventKinds({}, open=True)


def kinds_of(game: Game[Any]) -> EventKinds:
    """The event kinds ``game`` declares (its "events" profile), with the core ones; GENERIC if none."""
    declared = game.profile("events")
    return declared.with_core() if declared is not None else GENERIC  # (not isinstance: run as __main__)


def _fields_schema(fields: Mapping[str, str], kind: str) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {name: dict(FIELD_TYPES[typ.rstrip("?")]) for name, typ in fields.items()},
        "required": sorted(name for name, typ in fields.items() if not typ.endswith("?")),
    }


def envelope_schema() -> dict[str, Any]:
    """The JSON Schema of any game's event as a view's ``log`` shows it (data unconstrained)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "courtcards/event",
        "title": "courtcards event",
        "type": "object",
        "additionalProperties": False,
        "required": ["n", "seat", "kind", "template", "data", "text"],
        "properties": {
            "n": {"type": "integer", "minimum": 1},
            "seat": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
            "kind": {"type": "string"},
            "template": {
                "type": "string",
                "maxLength": MAX_TEMPLATE,
                "description": "the sentence with each seat as {path.in.data}",
            },
            "data": {"type": "object"},
            "text": {
                "type": "string",
                "maxLength": MAX_TEXT,
                "description": "the template with seats named 'seat N' ('Seat N' to begin a sentence)",
            },
        },
    }


def event_schema(game: Game[Any]) -> dict[str, Any]:
    """The JSON Schema of ``game``'s events: the envelope, with ``data`` by ``kind``."""
    kinds = kinds_of(game)
    schema = envelope_schema()
    schema["$id"] = f"courtcards/event/{game.name}"
    schema["title"] = f"{game.title} event"
    schema["properties"]["kind"] = {"enum": sorted(kinds.kinds)}
    schema["allOf"] = [
        {
            "if": {"properties": {"kind": {"const": kind}}},
            "then": {"properties": {"data": _fields_schema(fields, kind)}},
        }
        for kind, fields in sorted(kinds.kinds.items())
    ]
    if kinds.steps:
        steps = []
        for kind, fields in sorted(kinds.steps.items()):
            one = _fields_schema({"kind": "str", **fields}, kind)
            one["properties"]["kind"] = {"const": kind}
            steps.append(one)
        schema["$defs"] = {"step": {"oneOf": steps}}
    if kinds.refusals:
        schema.setdefault("$defs", {})["refusal"] = refusal_schema(kinds.refusals)
    return schema


def refusal_schema(refusals: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """The JSON Schema of a refusal (``{"code", "text", "data"}``: a Refusal's code, sentence and
    data) with ``data`` by ``code``, for the declared codes ``refusals``."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["code", "text", "data"],
        "properties": {"code": {"enum": sorted(refusals)}, "text": {"type": "string"}, "data": {"type": "object"}},
        "allOf": [
            {
                "if": {"properties": {"code": {"const": code}}},
                "then": {"properties": {"data": _fields_schema(fields, code)}},
            }
            for code, fields in sorted(refusals.items())
        ],
    }


def _type_ok(value: Any, typ: str, num_players: int, kinds: EventKinds, where: str, problems: list[str]) -> None:
    def seat_ok(v: Any) -> bool:
        return type(v) is int and 0 <= v < num_players

    base = typ.rstrip("?")
    ok = True
    if base == "seat":
        ok = seat_ok(value)
    elif base == "seats":
        ok = type(value) is list and all(seat_ok(v) for v in value)
    elif base in ("cards", "strs"):
        ok = type(value) is list and all(type(v) is str for v in value)
    elif base == "ints":
        ok = type(value) is list and all(type(v) is int for v in value)
    elif base == "int":
        ok = type(value) is int
    elif base == "str":
        ok = type(value) is str
    elif base == "bool":
        ok = type(value) is bool
    elif base == "steps":
        if type(value) is not list:
            ok = False
        else:
            for i, step in enumerate(value):
                if type(step) is not dict or step.get("kind") not in kinds.steps:
                    problems.append(f"{where}.{i}: not a declared step: {step!r}")
                    continue
                _fields_ok(
                    step, {"kind": "str", **kinds.steps[step["kind"]]}, num_players, kinds, f"{where}.{i}", problems
                )
    if not ok:
        problems.append(f"{where} is not of type {typ}: {value!r}")


def _fields_ok(
    data: Mapping[str, Any],
    fields: Mapping[str, str],
    num_players: int,
    kinds: EventKinds,
    where: str,
    problems: list[str],
) -> None:
    for name in data:
        if name not in fields:
            problems.append(f"{where}: {name!r} is not a declared field")
    for name, typ in fields.items():
        if name in data:
            _type_ok(data[name], typ, num_players, kinds, f"{where}.{name}", problems)
        elif not typ.endswith("?"):
            problems.append(f"{where}: no {name!r}")


def _seat_typed(data: Mapping[str, Any], fields: Mapping[str, str], path: list[str], kinds: EventKinds) -> bool:
    """Whether ``path`` names a seat by the declared types (a seat, an item of seats, a step's seat)."""
    if not path or path[0] not in fields:
        return False
    typ = fields[path[0]].rstrip("?")
    if typ == "seat":
        return len(path) == 1
    if typ == "seats":
        return len(path) == 2 and path[1].isdigit()
    if typ == "steps" and len(path) >= 3 and path[1].isdigit():
        steps = data.get(path[0])
        i = int(path[1])
        if type(steps) is list and i < len(steps) and type(steps[i]) is dict and steps[i].get("kind") in kinds.steps:
            return _seat_typed(steps[i], kinds.steps[steps[i]["kind"]], path[2:], kinds)
    return False


def event_problems(entry: Mapping[str, Any], kinds: EventKinds, num_players: int) -> list[str]:
    """What in a view's log ``entry`` departs from its game's declared kinds (empty if nothing):
    the kind declared, the data's fields present with their types, each placeholder of the template
    a seat by those types, and the sentence the template filled with the engine's seat names."""
    problems: list[str] = []
    kind, template, data, text = entry.get("kind"), entry.get("template"), entry.get("data"), entry.get("text")
    if type(kind) is not str or type(template) is not str or type(data) is not dict or type(text) is not str:
        return [f"not an event: {entry!r}"]
    if fill(template, data) != text:
        problems.append(f"{text!r} is not its template filled: {fill(template, data)!r}")
    if kinds.open:
        return problems
    fields = kinds.kinds.get(kind)
    if fields is None:
        return [*problems, f"kind {kind!r} is not declared"]
    _fields_ok(data, fields, num_players, kinds, f"{kind}.data", problems)
    for path in placeholders(template):
        if not _seat_typed(data, fields, path.split("."), kinds):
            problems.append(f"placeholder {{{path}}} of {template!r} is not a seat of the data")
    return problems


def refusal_problems(reason: object, kinds: EventKinds, num_players: int) -> list[str]:
    """What in a refusal ``reason`` (what ``State.refusal`` returned) departs from its game's declared
    refusals (empty if nothing): a non-empty sentence; a :class:`~courtcards.core.errors.Refusal` with an
    identifier for code and JSON-ready data; and, where the game declares refusal codes, a declared
    code with its data's fields present with their types (seats ints at the table)."""
    from courtcards.core.errors import Refusal

    if not isinstance(reason, str) or not reason:
        return [f"not a reason: {reason!r}"]
    if not isinstance(reason, Refusal):
        return [f"{reason!r} is a bare sentence, not a Refusal with a declared code"] if kinds.refusals else []
    problems: list[str] = []
    code, data = reason.code, reason.data
    if type(code) is not str or not code.isidentifier():
        return [f"refusal code {code!r} of {str(reason)!r} is not an identifier"]
    try:
        if type(data) is not dict or json.loads(json.dumps(data)) != data:
            problems.append(f"the data of refusal {code!r} is not JSON-ready: {data!r}")
    except (TypeError, ValueError):
        problems.append(f"the data of refusal {code!r} is not JSON-ready: {data!r}")
    if kinds.refusals and not problems:
        fields = kinds.refusals.get(code)
        if fields is None:
            return [f"refusal code {code!r} of {str(reason)!r} is not declared"]
        _fields_ok(data, fields, num_players, kinds, f"refusal {code}.data", problems)
    return problems


def write_schemas(folder: Path) -> list[Path]:
    """Write ``event.json`` (any game's event) and ``<game>.json`` for every game into ``folder``."""
    from courtcards.core.game import game_names, get_game

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in [("event", envelope_schema())] + [(n, event_schema(get_game(n))) for n in game_names()]:
        path = folder / f"{name}.json"
        path.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m courtcards.core.events docs/schemas/events
    for p in write_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas/events")):
        print(p)
