"""Text rendering of views and events: the terminal, text agents and environments use it.

A game's renderer is its "terminal" profile (``courtcards.games.<game>.render:RENDERER``), a
:class:`TerminalRenderer` whose methods override what the game shows its own way; a game that
declares none gets the generic renderer (:class:`TerminalRenderer` itself), driven by the view
and the legal moves alone, so that any game plays in the terminal before it gets a renderer.

- ``view(console, view)``: the board as one seat (or a spectator) sees it.
- ``event(before, after, seat, text) -> list[str]``: what the viewer learns when ``seat`` takes
  action ``text``; ``before``/``after`` are the viewer's views around the action. Never reveal
  what ``after`` does not show.
- ``start(view) -> list[str]``: what to say as the game begins.
- ``moves(console, view, legal, full)``: the legal moves (``full``: all of them).
- ``result(console, view)``: the end of the game, from the final view.
- ``hands(console, views)``: every seat's private part (replay ``--all``).
- ``help``: the game's notation, for the ``help`` command.
- ``move_text(view, text)`` / ``read_move(view, line)``: a move as the player reads and types
  it, where that differs from the engine's notation (seats numbered from 1).

Seats are numbered for the player by :mod:`courtcards.render.seats` (from 1 at the terminal).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from courtcards.core.errors import UnknownGameError
from courtcards.core.game import Game, get_game
from courtcards.render.seats import (
    event_sentence,
    mark_viewer,
    seat_number,
    seat_refs,
    seat_word,
    seats_numbered_from,
    sentence,
)

View = dict[str, Any]

SUIT_STYLE = {"H": "bold red", "D": "bold red", "C": "bold blue", "S": "bold blue"}


def suited_card(card: str, rank_style: str | None = None) -> str:
    """Markup for a standard card such as ``10H``: the suit letter in its colour (red hearts and diamonds,
    blue clubs and spades), the rank in ``rank_style`` (default: the suit's colour)."""
    rank, suit = card[:-1], card[-1:]
    style = SUIT_STYLE.get(suit.upper(), "bold")
    return f"[{rank_style or style}]{escape(rank)}[/][{style}]{escape(suit)}[/]"


def seat_name(view: Mapping[str, Any], seat: int | None, cap: bool = False) -> str:
    """``you`` for the viewer's own seat, else ``seat N`` numbered for the player (``nobody`` for None)."""
    if seat is None:
        return "nobody"
    if seat == view.get("seat"):
        return "You" if cap else "you"
    return f"{'Seat' if cap else 'seat'} {seat_number(seat)}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many``: an irregular plural)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def does(view: Mapping[str, Any], seat: int | None, they: str, you: str) -> str:
    """``Seat 2 attacks`` / ``You attack``: the subject capitalised, then ``they`` or, for the viewer, ``you``."""
    if seat is not None and seat == view.get("seat"):
        return f"You {you}"
    return f"{seat_name(view, seat, True)} {they}"


def print_result(console: Console, view: View, lines: Callable[[View], list[str]]) -> bool:
    """Print a finished game's result as ``lines`` words it, or that it is not over; whether it is."""
    if not view.get("result"):
        console.print("The game is not over.")
        return False
    for line in lines(view):
        console.print(line)
    return True


def sentences(view: Mapping[str, Any], after: int = -1) -> list[str]:
    """The events of ``view["log"]`` numbered above ``after``, as plain text the viewer reads
    (:func:`courtcards.render.seats.event_sentence`)."""
    return [event_sentence(view, e) for e in view.get("log") or [] if e["n"] > after]


def log_since(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[str]:
    """The sentences of ``after["log"]`` that ``before`` did not have yet (see :func:`sentences`)."""
    log = before.get("log") if before else None
    return sentences(after, log[-1]["n"] if log else -1)


HELP = (
    "Type an action in the game's notation (as the moves are listed). "
    "Commands: help, moves (all legal moves), board, hint, quit (save and exit)."
)

# view fields the generic board shows in its own way (or not at all)
_META = (
    "game",
    "seat",
    "num_players",
    "options",
    "version",
    "round",
    "phase",
    "to_move",
    "turn",
    "players",
    "hand",
    "hands",
    "log",
    "result",
    "pending",
)
RECENT = 4  # the generic board shows the last few events
ROW_CARDS = 12  # a list of cards in a table cell shows this many, then a count


def _words(key: str) -> str:
    return key.replace("_", " ")


def _is_cards(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


#: view fields (at any depth) whose integers are seats, by the views' naming convention (docs/plugins.md)
SEAT_KEYS = frozenset(
    {
        "seat",
        "seats",
        "turn",
        "owner",
        "winner",
        "to_move",
        "committed",
        "attacker",
        "defender",
        "from",
        "to",
        "king",
        "queen",
        "beggar",
        "first_player",
    }
)


def _is_seat_key(key: str) -> bool:
    return key in SEAT_KEYS or key.endswith(("_seat", "_seats"))


def _seats(value: Any) -> Any:
    """A seat field's value with each seat as the player reads it (``seat 2``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"seat {seat_number(value)}"
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return [f"seat {seat_number(v)}" for v in value]
    return value


def _value(value: Any, limit: int | None = None, key: str = "") -> str:
    """A field's value as markup: card lists as cards, scalars as written, seats numbered for the
    player, mappings as ``key value, ...`` and lists of them separated by ``;``."""
    if _is_seat_key(key):
        value = _seats(value)
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if _is_cards(value):
        if not value:
            return "[dim]none[/]"
        shown = value if limit is None or len(value) <= limit else value[:limit]
        more = f" [dim]({len(value) - len(shown)} more)[/]" if len(shown) < len(value) else ""
        return " ".join(f"[bold]{escape(c)}[/]" if not _is_seat_key(key) else escape(c) for c in shown) + more
    if isinstance(value, str | int | float):
        return escape(str(value))
    if isinstance(value, Mapping):
        return ", ".join(f"{escape(_words(str(k)))} {_value(v, limit, str(k))}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        if not value:
            return "[dim]none[/]"
        if all(isinstance(v, int | float | str) for v in value):
            return " ".join(escape(str(v)) for v in value)
        return "; ".join(f"({_value(v, limit)})" if isinstance(v, list) else _value(v, limit) for v in value)
    return escape(str(value))


def _entry(value: Any) -> str:
    """One entry of a history: a record as ``key value, ...``, a tuple in parentheses."""
    return _value(value, ROW_CARDS) if isinstance(value, Mapping) else f"({_value(value, ROW_CARDS)})"


class TerminalRenderer:
    """How a game is shown in words. The methods here are the generic versions, driven by the
    view and the legal moves; a game's renderer subclasses this and overrides what it shows its
    own way."""

    help: str = HELP

    @property
    def is_generic(self) -> bool:
        return type(self) is TerminalRenderer

    # -- the board ---------------------------------------------------------------------------
    def view(self, console: Console, view: View) -> None:
        game = _game_of(view)
        head = [f"[bold]{escape(game.title if game else str(view.get('game', '')))}[/]"]
        if isinstance(view.get("round"), int):
            head.append(f"{escape(game.info.round_word if game else 'Round')} {view['round']}")
        if isinstance(view.get("phase"), str):
            head.append(escape(_words(view["phase"])))
        console.rule(" · ".join(head))
        self._players(console, view)
        for key, value in view.items():
            if key in _META:
                continue
            history = isinstance(value, list) and any(isinstance(v, list | Mapping) for v in value)
            if history and not _is_seat_key(key):
                shown = value[-3:]  # a history (a list of records): its latest entries
                console.print(
                    f"{escape(_words(key))} ({len(value)}{', the last 3' if len(value) > 3 else ''}): "
                    + "; ".join(_entry(v) for v in shown),
                    soft_wrap=True,
                )
            else:
                console.print(f"{escape(_words(key))}: {_value(value, ROW_CARDS, key)}", soft_wrap=True)
        pending = view.get("pending")
        if isinstance(pending, Mapping):
            if pending.get("mine") is not None:
                console.print(f"You chose [bold]{escape(str(pending['mine']))}[/] (hidden from the others).")
            for s in pending.get("committed") or []:
                if s != view.get("seat"):
                    console.print(f"{seat_name(view, s, True)} has chosen (hidden).")
        recent = (view.get("log") or [])[-RECENT:]
        if recent:
            console.print("[dim]Lately:[/]")
            for e in recent:
                console.print("  " + escape(event_sentence(view, e)), soft_wrap=True)
        me = view.get("seat")
        if me is not None:
            hand = view.get("hand")
            hands = view.get("hands")
            if hand is None and isinstance(hands, list) and 0 <= me < len(hands):
                hand = hands[me]
            elif hand is None and isinstance(hands, Mapping):
                hand = hands.get(str(me), hands.get(me))
            if hand is not None:
                size = f" ({len(hand)})" if isinstance(hand, list) else ""
                console.print(f"[bold]Your hand[/]{size}: {_value(hand)}", soft_wrap=True)
        console.print(self._turn(view))

    def _players(self, console: Console, view: View) -> None:
        players = view.get("players")
        if not isinstance(players, list) or not players or not all(isinstance(p, Mapping) for p in players):
            return
        movers = set(view.get("to_move") or [])
        columns = list(dict.fromkeys(k for p in players for k in p if k != "seat"))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        for col in ("", "player", *columns):
            table.add_column(escape(_words(col)))
        for i, p in enumerate(players):
            seat = p.get("seat", i)
            name = seat_name(view, seat, True) if isinstance(seat, int) else escape(str(seat))
            table.add_row("▶" if seat in movers else "", name, *(_value(p.get(c), ROW_CARDS, c) for c in columns))
        console.print(table)

    def _turn(self, view: View) -> str:
        if view.get("result"):
            return "The game is over."
        movers = list(view.get("to_move") or [])
        if view.get("seat") is not None and view.get("seat") in movers:
            return "[bold green]Your turn.[/]"
        if not movers:
            return ""
        return "Waiting for " + ", ".join(seat_name(view, s) for s in movers) + "."

    # -- events --------------------------------------------------------------------------------
    def event(self, before: View, after: View, seat: int, text: str) -> list[str]:
        if "log" in after:
            return [escape(line) for line in log_since(before, after)]
        # without a log only the viewer's own actions are known to be public
        if after.get("seat") == seat:
            return [f"You: {escape(self.move_text(after, text))}"]
        return [f"{seat_name(after, seat, True)} moves."]

    def start(self, view: View) -> list[str]:
        return [escape(line) for line in log_since(None, view)]

    # -- moves ---------------------------------------------------------------------------------
    def moves(self, console: Console, view: View, legal: Sequence[str], full: bool = False) -> None:
        texts = [self.move_text(view, t) for t in legal]
        shown = texts if full or len(texts) <= 40 else texts[:40]
        console.print("Your moves: " + ", ".join(f"[bold]{escape(t)}[/]" for t in shown), soft_wrap=True)
        if len(shown) < len(texts):
            console.print(f"... and {len(texts) - len(shown)} more (type [bold]moves[/] to list all)")

    def move_text(self, view: Mapping[str, Any], text: str) -> str:
        """A legal move's engine notation as the player reads (and types) it."""
        return text

    def read_move(self, view: Mapping[str, Any], line: str) -> str:
        """What the player typed, in the engine's notation (the inverse of :meth:`move_text`)."""
        return line

    # -- the end ---------------------------------------------------------------------------------
    def result(self, console: Console, view: View) -> None:
        res = view.get("result")
        if not res:
            console.print("The game is not over.")
            return
        winner = res.get("winner")
        console.print("[bold]Game over.[/] " + ("A draw." if winner is None else f"Winner: {seat_name(view, winner)}."))
        scores = res.get("scores", [])
        for place, s in enumerate(res.get("ranking", []), 1):
            score = scores[s] if s < len(scores) else ""
            console.print(f"  {place}. {seat_name(view, s)}  score {score}")

    def hands(self, console: Console, views: Sequence[View]) -> None:
        """Each seat's view where it differs from the spectator's (``views[0]`` is the spectator)."""
        public = views[0]
        for v in views[1:]:
            private = {k: val for k, val in v.items() if k != "seat" and public.get(k) != val}
            console.print(f"Seat {seat_number(v['seat'])}: " + escape(json.dumps(private, default=str)))


class GameRenderer(TerminalRenderer):
    """A game's renderer made of its module's functions: each one given replaces the generic method
    of the same name, each one left out keeps it (``RENDERER = GameRenderer(HELP, view=render_view, ...)``)."""

    def __init__(
        self,
        help: str = HELP,
        *,
        view: Callable[[Console, View], None] | None = None,
        event: Callable[[View, View, int, str], list[str]] | None = None,
        start: Callable[[View], list[str]] | None = None,
        moves: Callable[[Console, View, Sequence[str], bool], None] | None = None,
        move_text: Callable[[Mapping[str, Any], str], str] | None = None,
        read_move: Callable[[Mapping[str, Any], str], str] | None = None,
        result: Callable[[Console, View], None] | None = None,
        hands: Callable[[Console, Sequence[View]], None] | None = None,
    ) -> None:
        self.help = help
        self._view, self._event, self._start, self._moves = view, event, start, moves
        self._move_text, self._read_move, self._result, self._hands = move_text, read_move, result, hands

    def view(self, console: Console, view: View) -> None:
        (self._view or super().view)(console, view)

    def event(self, before: View, after: View, seat: int, text: str) -> list[str]:
        return (self._event or super().event)(before, after, seat, text)

    def start(self, view: View) -> list[str]:
        return (self._start or super().start)(view)

    def moves(self, console: Console, view: View, legal: Sequence[str], full: bool = False) -> None:
        (self._moves or super().moves)(console, view, legal, full)

    def move_text(self, view: Mapping[str, Any], text: str) -> str:
        return (self._move_text or super().move_text)(view, text)

    def read_move(self, view: Mapping[str, Any], line: str) -> str:
        return (self._read_move or super().read_move)(view, line)

    def result(self, console: Console, view: View) -> None:
        (self._result or super().result)(console, view)

    def hands(self, console: Console, views: Sequence[View]) -> None:
        (self._hands or super().hands)(console, views)


def _game_of(view: Mapping[str, Any]) -> Game[Any] | None:
    try:
        return get_game(str(view.get("game")))
    except UnknownGameError:  # a view of a game not installed here: the board still shows
        return None


GENERIC = TerminalRenderer()


def get_renderer(game: str | Game[Any]) -> TerminalRenderer:
    """The game's terminal renderer (its "terminal" profile), or the generic one."""
    g = game if isinstance(game, Game) else get_game(game)
    found = g.profile("terminal")
    if found is None:
        return GENERIC
    if not isinstance(found, TerminalRenderer):
        raise TypeError(
            f"{g.name}: the terminal profile must be a courtcards.render.TerminalRenderer, not {type(found).__name__}"
        )
    return found


__all__ = [
    "GENERIC",
    "HELP",
    "SEAT_KEYS",
    "SUIT_STYLE",
    "GameRenderer",
    "TerminalRenderer",
    "View",
    "does",
    "event_sentence",
    "get_renderer",
    "log_since",
    "mark_viewer",
    "plural",
    "print_result",
    "seat_name",
    "seat_number",
    "seat_refs",
    "seat_word",
    "seats_numbered_from",
    "sentence",
    "sentences",
    "suited_card",
]
