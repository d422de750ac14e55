"""``courtcards replay FILE``: step through a saved game record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from courtcards.cli.play import InputFn, engine_seat
from courtcards.cli.say import fail
from courtcards.core.errors import CourtcardsError, RecordError
from courtcards.core.record import GameRecord
from courtcards.core.state import State
from courtcards.render import TerminalRenderer, get_renderer, seat_number

NAV = "[dim]Enter: next · b: back · NUMBER: go to step · q: quit[/] "


class Replayer:
    """The states of a record and how to show them from one seat (or a spectator)."""

    def __init__(
        self, record: GameRecord, states: list[State], viewer: int | None, show_all: bool, console: Console
    ) -> None:
        self.record = record
        self.states = states
        self.viewer = viewer
        self.show_all = show_all
        self.console = console
        self.renderer: TerminalRenderer = get_renderer(record.game)
        self.views = [s.view(viewer) for s in states]

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def step_lines(self, i: int) -> list[str]:
        if i == 0:
            return [f"[bold]Step 0/{self.last}[/]: the start"]
        seat, text = self.record.actions[i - 1]
        shown = self.renderer.move_text(self.views[i - 1], text)
        head = f"[bold]Step {i}/{self.last}[/]: seat {seat_number(seat)}: [bold]{escape(shown)}[/]"
        return [head] + ["  " + line for line in self.renderer.event(self.views[i - 1], self.views[i], seat, text)]

    def show_board(self, i: int) -> None:
        self.renderer.view(self.console, self.views[i])
        if self.show_all:
            state = self.states[i]
            self.console.print("[bold]Every hand:[/]")
            self.renderer.hands(self.console, [state.view(None)] + [state.view(s) for s in range(state.num_players)])

    def show_step(self, i: int) -> None:
        for line in self.step_lines(i):
            self.console.print(line)
        self.show_board(i)

    def show_end(self) -> None:
        if self.states[-1].is_over():
            self.renderer.result(self.console, self.views[-1])
        else:
            self.console.print(f"The record ends after {self.last} actions; the game was not finished.")

    def print_all(self, to: int | None) -> None:
        end = self.last if to is None else to
        for i in range(end + 1):
            for line in self.step_lines(i):
                self.console.print(line)
        self.show_board(end)
        if end == self.last:
            self.show_end()

    def interactive(self, start: int, input_fn: InputFn) -> None:
        i = start
        self.show_step(i)
        while True:
            if i == self.last:
                self.show_end()
            try:
                line = input_fn(NAV).strip().lower()
            except (EOFError, KeyboardInterrupt):
                return
            if line in ("q", "quit"):
                return
            if line in ("b", "back"):
                i = max(0, i - 1)
            elif line.isdigit():
                i = min(int(line), self.last)
            elif line == "":
                if i == self.last:
                    return
                i += 1
            else:
                self.console.print("Enter: next · b: back · NUMBER: go to step · q: quit")
                continue
            self.show_step(i)


def load_replayer(path: Path, seat: int | None, show_all: bool, console: Console) -> Replayer:
    """Load and replay a record (raises CourtcardsError with the reason)."""
    record = GameRecord.load(path)
    states = record.states()
    final = states[-1]
    got = final.result()
    if record.result is not None and (got is None or got.to_json() != record.result):
        raise RecordError(f"{path}: the replayed result differs from the one in the record")
    if seat is not None and not 0 <= seat < final.num_players:
        raise RecordError(
            f"--seat must be a seat {seat_number(0)}..{seat_number(final.num_players - 1)}, not {seat_number(seat)}"
        )
    return Replayer(record, states, seat, show_all, console)


def register(app: typer.Typer) -> None:
    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="A game record (JSON) saved by play, simulate, ...")],
        seat: Annotated[
            int | None, typer.Option("--seat", help="Show this seat's view, 1..players (default: spectator).")
        ] = None,
        show_all: Annotated[bool, typer.Option("--all", help="Also show every hand.")] = False,
        to: Annotated[
            int | None, typer.Option("--to", help="Start at (or, with --no-interactive, stop at) step N.")
        ] = None,
        interactive: Annotated[
            bool, typer.Option("--interactive/--no-interactive", help="Step with the keyboard, or print every step.")
        ] = True,
    ) -> None:
        """Step through a saved game: each action, its seat, and the board."""
        console = Console(highlight=False)
        try:
            rep = load_replayer(file, engine_seat(seat), show_all, console)
        except CourtcardsError as exc:
            raise fail(str(exc)) from None
        meta: dict[str, Any] = rep.record.meta
        players = meta.get("players")
        console.print(
            f"[bold]{escape(rep.record.game)}[/] record: {rep.record.num_players} players, seed {rep.record.seed}, "
            f"{rep.last} actions" + (f", seats: {escape(', '.join(map(str, players)))}" if players else "")
        )
        if to is not None and not 0 <= to <= rep.last:
            raise fail(f"--to must be a step 0..{rep.last}, not {to}")
        if interactive:
            rep.interactive(to or 0, lambda prompt: console.input(prompt))
        else:
            rep.print_all(to)
