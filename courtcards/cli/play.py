"""``courtcards play GAME``: play a game against bots, or watch bots play.

The player (and every bot) sees only its seat's view; the state stays here.
"""

from __future__ import annotations

import os
import secrets
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from courtcards.bots.base import Bot, check_bot, check_bot_table, default_bot_kind, make_bot
from courtcards.bots.ismcts import HINT_SECONDS, hint
from courtcards.cli.prompt import terminal_input
from courtcards.cli.say import fail, player_count, program
from courtcards.core.errors import CourtcardsError, IllegalActionError, NotationError, OptionError, RecordError
from courtcards.core.game import Game, get_game
from courtcards.core.options import parse_option_pairs
from courtcards.core.record import GameRecord
from courtcards.core.state import Action, State
from courtcards.render import TerminalRenderer, get_renderer, seat_number, seat_refs

InputFn = Callable[[str], str]

# The terminal's commands, each with the words that call it: the one list the prompt checks (before reading
# a line as a move) and completes. No word may be a move of any game (KQP's Queen is ``Q``: no ``q`` for quit);
# tests/test_cli_commands.py checks them against every game's legal moves.
COMMANDS: dict[str, tuple[str, ...]] = {
    "quit": ("quit", "exit"),
    "help": ("help", "?"),
    "moves": ("moves", "m"),
    "board": ("board", "b"),
    "hint": ("hint",),
}
COMMAND_WORDS = tuple(COMMANDS)  # offered by Tab completion
COMMAND_OF = {word: command for command, words in COMMANDS.items() for word in words}
PROMPT = "[bold]Your move>[/] "
SEED_LIMIT = 2**63


def bot_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, fixed by the game's seed so a game is reproducible."""
    return (seed * 1_000_003 + seat + 1) & ((1 << 63) - 1)


def parse_bot_kinds(game: str, spec: str | None, num_players: int, human: int | None) -> dict[int, str]:
    """``--bots``: one kind for every bot seat, or one per bot seat (in seat order), or one per seat."""
    bot_seats = [s for s in range(num_players) if s != human]
    kinds = [k.strip().lower() for k in spec.split(",")] if spec else [default_bot_kind(game)]
    if len(kinds) == 1:
        kinds = kinds * len(bot_seats)
    elif len(kinds) == num_players:
        kinds = [k for s, k in enumerate(kinds) if s != human]
    elif len(kinds) != len(bot_seats):
        raise UsageError(
            f"--bots lists {len(kinds)} kinds; give one kind for all bots or one per bot seat ({len(bot_seats)})"
        )
    for k in kinds:
        try:
            check_bot(game, k)
        except OptionError as exc:
            raise UsageError(str(exc)) from None
    return dict(zip(bot_seats, kinds, strict=True))


def _is_bot(game: str, kind: str) -> bool:
    try:
        check_bot(game, kind)
    except OptionError:
        return False
    return True


def engine_seat(seat: int | None) -> int | None:
    """``--seat`` as typed (numbered for the player, from 1) in the engine's numbering (from 0)."""
    return None if seat is None else seat - seat_number(0)


class UsageError(Exception):
    """A bad command line (exit code 2)."""


class PlaySession:
    """One game at the terminal: bots move, the human (if any) types actions.

    ``input_fn(prompt)`` reads a line (EOFError ends the session, the record is kept).
    """

    def __init__(
        self,
        state: State,
        *,
        human: int | None,
        bots: dict[int, Bot],
        viewer: int | None,
        console: Console,
        input_fn: InputFn | None = None,
        delay: float = 0.0,
        record_path: Path | None = None,
        meta: dict[str, Any] | None = None,
        resumed: bool = False,
    ) -> None:
        self.state = state
        self.human = human
        self.bots = bots
        self.viewer = viewer
        self.console = console
        self.input_fn: InputFn = input_fn or self._default_input()
        self.delay = delay
        self.record_path = record_path
        self.meta = meta or {}
        self.resumed = resumed
        self.hint_seconds = HINT_SECONDS
        self.renderer: TerminalRenderer = get_renderer(state.game)
        self._view = state.view(viewer)
        self.saved: Path | None = None

    def _default_input(self) -> InputFn:
        """Line editing, history and Tab completion of the legal moves at a terminal; plain input otherwise."""
        if sys.stdin.isatty() and sys.stdout.isatty():
            return terminal_input(lambda: [*self.shown_legal(), *COMMAND_WORDS], Text.from_markup(PROMPT).plain)
        return lambda prompt: self.console.input(prompt)

    # -- what the human may know -------------------------------------------------------
    def view(self) -> dict[str, Any]:
        return self.state.view(self.viewer)

    def human_legal(self) -> list[str]:
        """The human's legal actions now, in notation (empty if not their decision)."""
        if self.human is None:
            return []
        return [a.text for a in self.state.legal_actions(self.human)]

    def shown_legal(self) -> list[str]:
        """The human's legal actions as the player reads and types them (the renderer's ``move_text``)."""
        return [self.renderer.move_text(self._view, t) for t in self.human_legal()]

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (or quit); save the record; return the exit code."""
        code = 0
        try:
            if not self.resumed:
                for line in self.renderer.start(self._view):
                    self.console.print(line)
            while not self.state.is_over():
                bots = [s for s in self.state.to_move() if s != self.human]
                if bots:  # in a simultaneous choice the bots commit first (hidden), then the human
                    for seat in bots:
                        self._bot_turn(seat)
                    continue
                if not self._human_turn():
                    self.console.print("You quit the game.")
                    break
            else:
                self.renderer.result(self.console, self.view())
        except EOFError:
            self.console.print("\nEnd of input: the game stops here.")
        except KeyboardInterrupt:
            self.console.print("\nInterrupted: the game stops here.")
            code = 130
        finally:
            self.save()
        if self.saved is not None and not self.state.is_over():
            again = f"{program()} play --resume {shlex.quote(str(self.saved))}"
            self.console.print(Text.assemble("Continue it with: ", (again, "bold")), soft_wrap=True)
        return code

    def _bot_turn(self, seat: int) -> None:
        if seat == self.viewer:  # watching: show the board the watched bot decides on
            self.renderer.view(self.console, self._view)
        action = self.bots[seat].choose(self.state.view(seat), self.state.legal_actions(seat))
        self._apply(seat, action)
        if self.delay:
            time.sleep(self.delay)

    def _human_turn(self) -> bool:
        """Ask until the human gives a legal action; False if they quit."""
        assert self.human is not None
        view = self.view()
        self.renderer.view(self.console, view)
        self.renderer.moves(self.console, view, self.human_legal())
        while True:
            line = self.input_fn(PROMPT).strip()
            low = line.lower()
            if not line:
                continue
            command = COMMAND_OF.get(low)
            if command == "quit":
                return False
            if command == "help":
                self.console.print(self.renderer.help)
                continue
            if command == "moves":
                self.renderer.moves(self.console, view, self.human_legal(), full=True)
                continue
            if command == "board":
                self.renderer.view(self.console, view)
                continue
            if command == "hint":
                self._hint(view)
                continue
            try:
                action = self.state.verify(self.human, self.renderer.read_move(view, line))
            except (NotationError, IllegalActionError) as exc:
                self.console.print(f"[red]{escape(seat_refs(self.human, str(exc)))}[/]")
                self.console.print("Try again ([bold]help[/]: notation, [bold]moves[/]: every legal move).")
                continue
            self._apply(self.human, action)
            return True

    def _hint(self, view: dict[str, Any]) -> None:
        """The search bot's move from the human's view (never the state), with its win chance."""
        assert self.human is not None
        self.console.print("[dim]Thinking...[/]")
        seed = bot_seed(self.state.seed ^ self.state.version, self.human)
        advice = hint(view, self.state.legal_actions(self.human), seed, self.hint_seconds)
        chance = "" if advice.chance is None else f" (estimated win chance {advice.chance:.0%})"
        self.console.print(f"Hint: [bold]{escape(self.renderer.move_text(view, advice.action.text))}[/]{chance}")

    def _apply(self, seat: int, action: Action) -> None:
        before = self._view
        self.state.apply(seat, action)
        self._view = self.state.view(self.viewer)
        for line in self.renderer.event(before, self._view, seat, action.text):
            self.console.print(line)

    def save(self) -> Path | None:
        if self.record_path is None:
            return None
        record = GameRecord.from_state(self.state)
        record.meta = dict(self.meta)
        path = self.record_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            record.save(path)
        except OSError as exc:  # e.g. the folder went away during the game: keep the record elsewhere
            fallback = default_record_path(self.state.game.name, self.state.seed)
            self.console.print(f"[red]Cannot write {escape(str(path))}: {escape(exc.strerror or str(exc))}[/]")
            fallback.parent.mkdir(parents=True, exist_ok=True)
            record.save(fallback)
            path = fallback
        self.saved = path
        self.console.print(f"Game record saved to [bold]{escape(str(path))}[/]")
        return path


def default_record_path(game: str, seed: int) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("records") / f"{game}-{stamp}-{seed}.json"


def check_record_path(path: Path) -> Path:
    """Refuse a record path that cannot be written before the game starts, not after it ends."""
    if path.is_dir():
        raise UsageError(f"--record {path} is a folder; give a file name, e.g. --record {path / 'game.json'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--record {path}: cannot create the folder {path.parent} ({exc.strerror})") from None
    if path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        raise UsageError(f"--record {path}: the folder {path.parent} is not writable; choose another place")
    return path


def setup_session(
    game_name: str,
    *,
    players: int | None = None,
    seat: int = 0,
    bots: str | None = None,
    preset: str | None = None,
    options: Sequence[str] = (),
    seed: int | None = None,
    watch: bool = False,
    delay: float | None = None,
    record: Path | None = None,
    console: Console,
    input_fn: InputFn | None = None,
) -> PlaySession:
    """Check the command line and deal the game (raises UsageError or CourtcardsError)."""
    game: Game[Any] = get_game(game_name)
    n = game.default_players if players is None else players
    opts = parse_option_pairs(list(options))
    if not isinstance(n, int) or not game.min_players <= n <= game.max_players:
        raise UsageError(f"{game.title} is for {player_count(game.min_players, game.max_players, ' to ')}, not {n}")
    if not 0 <= seat < n:
        raise UsageError(f"--seat must be a seat {seat_number(0)}..{seat_number(n - 1)}, not {seat_number(seat)}")
    game.resolve_options(n, opts, preset)  # unknown options / presets fail before anything else
    human = None if watch else seat
    kinds = parse_bot_kinds(game.name, bots, n, human)
    for kind in set(kinds.values()):
        try:
            check_bot_table(game.name, kind, n, game.resolve_options(n, opts, preset))
        except OptionError as exc:
            raise UsageError(str(exc)) from None
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    elif not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise UsageError(f"--seed must be a 64-bit signed integer, not {seed}")
    path = check_record_path(record if record is not None else default_record_path(game.name, seed))
    state = game.new_game(n, opts, seed, preset)
    bot_objs = {s: make_bot(game.name, k, bot_seed(seed, s)) for s, k in kinds.items()}
    seats = ["human" if s == human else f"bot:{kinds[s]}" for s in range(n)]
    console.print(f"[bold]{game.title}[/], {n} players, seed [bold]{seed}[/] (play this deal again with --seed {seed})")
    bot_text = ", ".join(f"seat {seat_number(s)} {k}" for s, k in kinds.items())
    console.print(("Watching from seat " if watch else "You are seat ") + f"{seat_number(seat)}. Bots: {bot_text}.")
    if not watch:
        console.print(
            "Type [bold]help[/] for the notation, [bold]moves[/] for every legal move, [bold]quit[/] to save and stop."
        )
    return PlaySession(
        state,
        human=human,
        bots=bot_objs,
        viewer=seat,
        console=console,
        input_fn=input_fn,
        delay=(0.5 if watch else 0.0) if delay is None else delay,
        record_path=path,
        meta={"players": seats, "preset": preset, "command": "play"},
    )


def seats_from_meta(game: str, meta: dict[str, Any], n: int, seat: int | None) -> tuple[int | None, dict[int, str]]:
    """The human seat and each bot's kind, as ``play`` saved them; else ``seat`` (0) plays and bots fill the rest."""
    saved = meta.get("players")
    if (
        isinstance(saved, list)
        and len(saved) == n
        and all(p == "human" or (isinstance(p, str) and _is_bot(game, p.removeprefix("bot:"))) for p in saved)
    ):
        humans = [s for s, p in enumerate(saved) if p == "human"]
        human = humans[0] if humans else None
        if seat is not None and seat != human:
            raise UsageError(
                f"this game was played from seat {seat_number(human)}"
                if human is not None
                else "this game was watched (bots play every seat); leave out --seat"
            )
        return human, {s: p.removeprefix("bot:") for s, p in enumerate(saved) if s != human}
    human = 0 if seat is None else seat
    if not 0 <= human < n:
        raise UsageError(f"--seat must be a seat {seat_number(0)}..{seat_number(n - 1)}, not {seat_number(human)}")
    return human, {s: default_bot_kind(game) for s in range(n) if s != human}


def resume_session(
    path: Path,
    *,
    game_name: str | None = None,
    seat: int | None = None,
    delay: float | None = None,
    record: Path | None = None,
    console: Console,
    input_fn: InputFn | None = None,
) -> PlaySession:
    """Continue the unfinished game saved in ``path`` (raises UsageError or CourtcardsError)."""
    rec = GameRecord.load(path)
    if game_name is not None and get_game(game_name).name != rec.game:
        raise UsageError(f"{path} is a {rec.game} game, not {game_name}; leave out the game name to resume it")
    state = rec.replay()
    if state.is_over():
        raise RecordError(
            f"the game in {path} is over; step through it with: {program()} replay {shlex.quote(str(path))}"
        )
    human, kinds = seats_from_meta(rec.game, rec.meta, state.num_players, seat)
    out = check_record_path(record if record is not None else path)
    bots = {s: make_bot(rec.game, k, bot_seed(rec.seed, s)) for s, k in kinds.items()}
    watch = human is None
    console.print(
        f"[bold]{state.game.title}[/], {state.num_players} players, seed [bold]{rec.seed}[/]: "
        f"resumed after {len(rec.actions)} actions from {escape(str(path))}"
    )
    bot_text = ", ".join(f"seat {seat_number(s)} {k}" for s, k in kinds.items())
    console.print(("Watching. " if human is None else f"You are seat {seat_number(human)}. ") + f"Bots: {bot_text}.")
    meta = dict(rec.meta)
    meta.setdefault("players", ["human" if s == human else f"bot:{kinds[s]}" for s in range(state.num_players)])
    return PlaySession(
        state,
        human=human,
        bots=bots,
        viewer=0 if watch else human,
        console=console,
        input_fn=input_fn,
        delay=(0.5 if watch else 0.0) if delay is None else delay,
        record_path=out,
        meta=meta,
        resumed=True,
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        game: Annotated[
            str | None, typer.Argument(help="The game to play (see `courtcards games`); not needed with --resume.")
        ] = None,
        players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
        seat: Annotated[
            int | None,
            typer.Option("--seat", help="Your seat, 1..players (the watched seat with --watch); default 1."),
        ] = None,
        bots: Annotated[
            str | None, typer.Option("--bots", help="Bot kind for the other seats: KIND or KIND,KIND,... per seat.")
        ] = None,
        preset: Annotated[str | None, typer.Option("--preset", help="A named set of options.")] = None,
        option: Annotated[
            list[str] | None, typer.Option("--option", "-o", help="A game option name=value (repeatable).")
        ] = None,
        seed: Annotated[int | None, typer.Option("--seed", help="Deal seed (default: random, printed).")] = None,
        watch: Annotated[bool, typer.Option("--watch", help="Bots play every seat; you watch.")] = False,
        delay: Annotated[
            float | None,
            typer.Option("--delay", min=0, help="Seconds between bot moves (default 0.5 watching, else 0)."),
        ] = None,
        record: Annotated[
            Path | None, typer.Option("--record", help="Where to save the game record (default ./records/).")
        ] = None,
        resume: Annotated[
            Path | None,
            typer.Option(
                "--resume", help="Continue an unfinished game from its record (saved on quit).", metavar="FILE"
            ),
        ] = None,
    ) -> None:
        """Play a game against bots (or --watch bots play), or --resume a game you quit."""
        console = Console(highlight=False)
        try:
            if resume is not None:
                given = [
                    name
                    for name, value in (
                        ("--players", players),
                        ("--bots", bots),
                        ("--preset", preset),
                        ("--option", option),
                        ("--seed", seed),
                    )
                    if value
                ]
                if given or watch:
                    raise UsageError(
                        f"--resume continues the saved game as it was; leave out "
                        f"{', '.join(given + (['--watch'] if watch else []))}"
                    )
                session = resume_session(
                    resume, game_name=game, seat=engine_seat(seat), delay=delay, record=record, console=console
                )
            elif game is None:
                raise UsageError("name a game to play (see `courtcards games`), or --resume FILE")
            else:
                session = setup_session(
                    game,
                    players=players,
                    seat=engine_seat(seat) or 0,
                    bots=bots,
                    preset=preset,
                    options=option or [],
                    seed=seed,
                    watch=watch,
                    delay=delay,
                    record=record,
                    console=console,
                )
        except (UsageError, CourtcardsError) as exc:
            raise fail(str(exc)) from None
        code = session.run()
        if code:
            raise typer.Exit(code)
