"""What every command says when it stops: one style of ``Error: <message>``, and how to run courtcards again."""

from __future__ import annotations

import os
import shlex
import shutil
import sys

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text


def error(message: str) -> None:
    """``Error: <message>`` on stderr, "Error:" in red at a terminal; the message is never read as markup
    (``pip install 'courtcards[analysis]'`` keeps its ``[analysis]``) and never wrapped."""
    Console(stderr=True, highlight=False).print(Text("Error: ", style="bold red") + Text(message), soft_wrap=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Say ``message`` as an error; the exit to raise."""
    error(message)
    return typer.Exit(code)


def player_count(low: int, high: int, between: str = "-") -> str:
    """``2 players`` for a game of exactly two, else ``3-12 players`` (``between``: " to ")."""
    return f"{low} players" if low == high else f"{low}{between}{high} players"


def install_hint(extra: str) -> str:
    """The command that installs an extra."""
    return f"pip install 'courtcards[{extra}]'"


def program() -> str:
    """The courtcards command as the user can type it again: ``courtcards`` when that is on PATH, else the path
    they launched (``.venv/bin/courtcards``), or ``python -m courtcards``."""
    argv0 = sys.argv[0] if sys.argv else ""
    name = os.path.basename(argv0)
    if not argv0 or name in ("__main__.py", "main.py", "-c") or name.endswith(".py"):
        python = shutil.which("python")
        same = python is not None and os.path.realpath(python) == os.path.realpath(sys.executable)
        return ("python" if same else shlex.quote(sys.executable)) + " -m courtcards"
    found = shutil.which(name)
    if found is not None and os.path.exists(argv0) and os.path.realpath(found) == os.path.realpath(argv0):
        return name
    if os.sep not in argv0 and found is None and not os.path.exists(argv0):
        return name  # run by a name we cannot find again (e.g. a test runner): say the name
    return shlex.quote(argv0)


def progress(console: Console, disable: bool = False) -> Progress:
    """The progress bar of the long commands (simulate, analyze, ladder): done of total, elapsed, remaining."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=disable,
    )
