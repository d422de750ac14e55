"""Renderer registry: how the CLI shows a game.

A renderer is a module ``courtcards.cli.render_<game>`` defining any of the
functions below; what it leaves out falls back to the generic versions here,
so a game plays (with a plain JSON view) before it gets a renderer.

- ``render_view(console, view)``: the board as one seat (or a spectator) sees it.
- ``describe_event(before, after, seat, text) -> list[str]``: what the viewer
  learns when ``seat`` takes action ``text``; ``before``/``after`` are the
  viewer's views around the action (``after["seat"]`` is the viewer, None for a
  spectator). Never reveal what ``after`` does not show.
- ``describe_start(view) -> list[str]``: what to say as the game begins.
- ``render_moves(console, view, legal, full)``: the legal moves (``full``: all).
- ``render_result(console, view)``: the end of the game, from the final view.
- ``render_hands(console, views)``: every seat's private part (replay ``--all``).
- ``HELP``: the game's notation, for the ``help`` command.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.markup import escape

View = dict[str, Any]


SUIT_STYLE = {"H": "bold red", "D": "bold red", "C": "bold blue", "S": "bold blue"}


def suited_card(card: str, rank_style: str | None = None) -> str:
    """Markup for a standard card such as ``10H``: the suit letter in its colour (red hearts and diamonds,
    blue clubs and spades), the rank in ``rank_style`` (default: the suit's colour)."""
    rank, suit = card[:-1], card[-1:]
    style = SUIT_STYLE.get(suit.upper(), "bold")
    return f"[{rank_style or style}]{escape(rank)}[/][{style}]{escape(suit)}[/]"


def seat_name(view: View, seat: int | None, cap: bool = False) -> str:
    """``you`` for the viewer's own seat, else ``seat N`` (``nobody`` for None)."""
    if seat is None:
        return "nobody"
    if seat == view.get("seat"):
        return "You" if cap else "you"
    return f"Seat {seat}" if cap else f"seat {seat}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards`` (``many``: an irregular plural)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def does(view: View, seat: int | None, they: str, you: str) -> str:
    """``Seat 2 attacks`` / ``You attack``: the subject capitalised, then ``they`` or, for the viewer, ``you``."""
    if seat is not None and seat == view.get("seat"):
        return f"You {you}"
    return f"{seat_name(view, seat, True)} {they}"


# -- generic versions -----------------------------------------------------------------
def render_view(console: Console, view: View) -> None:
    console.print_json(json.dumps(view, default=str))


def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    # Without game knowledge only the viewer's own actions are known to be public.
    if after.get("seat") == seat:
        return [f"You: {text}"]
    return [f"Seat {seat} moves."]


def describe_start(view: View) -> list[str]:
    return []


def render_moves(console: Console, view: View, legal: Sequence[str], full: bool) -> None:
    shown = list(legal) if full or len(legal) <= 40 else list(legal[:40])
    console.print("Your moves: " + ", ".join(f"[bold]{escape(t)}[/]" for t in shown))
    if len(shown) < len(legal):
        console.print(f"... and {len(legal) - len(shown)} more (type [bold]moves[/] to list all)")


def print_result(console: Console, view: View, lines: Callable[[View], list[str]]) -> bool:
    """Print a finished game's result as ``lines`` words it, or that it is not over; whether it is."""
    if not view.get("result"):
        console.print("The game is not over.")
        return False
    for line in lines(view):
        console.print(line)
    return True


def render_result(console: Console, view: View) -> None:
    res = view.get("result")
    if not res:
        console.print("The game is not over.")
        return
    winner = res.get("winner")
    console.print("[bold]Game over.[/] " + ("A draw." if winner is None else f"Winner: seat {winner}."))
    scores = res.get("scores", [])
    for place, s in enumerate(res.get("ranking", []), 1):
        score = scores[s] if s < len(scores) else ""
        console.print(f"  {place}. seat {s}  score {score}")


def render_hands(console: Console, views: Sequence[View]) -> None:
    """Each seat's view where it differs from the spectator's (``views[0]`` is the spectator)."""
    public = views[0]
    for v in views[1:]:
        private = {k: val for k, val in v.items() if k != "seat" and public.get(k) != val}
        console.print(f"Seat {v.get('seat')}: " + escape(json.dumps(private, default=str)))


HELP = "Type an action in the game's notation. Commands: help, moves (all legal moves), hint, quit (save and exit)."

class Renderer:
    """A game's renderer module with the generic functions filling its gaps."""

    def __init__(self, game: str, module: ModuleType | None) -> None:
        self.game = game
        self.module = module

    def _fn(self, name: str) -> Any:
        found = getattr(self.module, name, None) if self.module is not None else None
        return found if found is not None else globals()[name]

    @property
    def is_generic(self) -> bool:
        return self.module is None

    def view(self, console: Console, view: View) -> None:
        self._fn("render_view")(console, view)

    def event(self, before: View, after: View, seat: int, text: str) -> list[str]:
        return list(self._fn("describe_event")(before, after, seat, text))

    def start(self, view: View) -> list[str]:
        return list(self._fn("describe_start")(view))

    def moves(self, console: Console, view: View, legal: Sequence[str], full: bool = False) -> None:
        self._fn("render_moves")(console, view, legal, full)

    def result(self, console: Console, view: View) -> None:
        self._fn("render_result")(console, view)

    def hands(self, console: Console, views: Sequence[View]) -> None:
        self._fn("render_hands")(console, views)

    @property
    def help(self) -> str:
        return str(self._fn("HELP"))


_CACHE: dict[str, Renderer] = {}


def get_renderer(game: str) -> Renderer:
    """The renderer for ``game`` (``courtcards.cli.render_<game>``), or the generic one."""
    if game not in _CACHE:
        modname = f"courtcards.cli.render_{game}"
        try:
            module: ModuleType | None = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name != modname:
                raise
            module = None
        _CACHE[game] = Renderer(game, module)
    return _CACHE[game]
