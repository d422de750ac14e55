"""Text in, text out: let a language model (any ``Callable[[str], str]``) play a seat.

- :func:`build_prompt`: a self-contained prompt for one decision of one seat, made from the
  seat's view only (rules in brief, the situation as the terminal shows it, the legal moves).
- :func:`read_reply`: the move in a reply (a ``MOVE:`` line, a one-line answer, or a legal move
  named inside a longer answer); raises :class:`NoMoveError` if there is none.
- :class:`TextAgent`: asks, reads, submits; on a refusal asks again with the engine's reason,
  at most ``max_retries`` times, then raises :class:`AgentGaveUp` (never plays a move of its own).
- :func:`play_local`: text agents and bots at one local table.
- :class:`CommandAgent`: an external program as the agent (prompt on stdin, reply on stdout).
- :func:`play_table`: a text agent at a seat of a server table, over the WebSocket API.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.text import Text

from courtcards.bots.base import make_bot
from courtcards.core.errors import CourtcardsError, IllegalActionError, NotationError
from courtcards.core.game import Game, get_game
from courtcards.core.state import State
from courtcards.render import get_renderer, seats_numbered_from

AgentFn = Callable[[str], str]
#: submit a move's text; None when accepted, else the reason it was refused
SubmitFn = Callable[[str], str | None]

MAX_LISTED_MOVES = 300
RECENT_EVENTS = 12  # events of the log shown in a prompt


class AgentError(CourtcardsError):
    """A text agent could not play (its program failed, or it gave no legal move)."""


class NoMoveError(AgentError):
    """A reply in which no move can be found."""


class AgentGaveUp(AgentError):
    """Every attempt of a decision was refused."""

    def __init__(self, seat: int, attempts: list[Attempt]) -> None:
        self.seat = seat
        self.attempts = attempts
        last = attempts[-1].refusal if attempts else "no attempt"
        super().__init__(f"seat {seat} gave no legal move in {len(attempts)} attempts; last refusal: {last}")


# -- the prompt -----------------------------------------------------------------------------
def _plain(draw: Callable[[Console], None], width: int = 100) -> str:
    buf = io.StringIO()
    draw(Console(file=buf, width=width, color_system=None, force_terminal=False, emoji=False, highlight=False))
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()).strip("\n")


def situation(view: Mapping[str, Any]) -> str:
    """A seat's view in words: the board as the terminal renderer shows it, seats numbered
    from 0 as in the engine's notation, the log and the prompt."""
    renderer = get_renderer(str(view["game"]))
    with seats_numbered_from(0):
        return _plain(lambda console: renderer.view(console, dict(view)))


def recent(view: Mapping[str, Any], k: int = RECENT_EVENTS) -> str:
    """The last ``k`` events of the view's log, in the engine's words as this seat reads them: each
    event's ``text``, its template filled with the engine's names ("seat N", numbered from 0 as the
    prompt's notation is; courtcards.core.events), no prose rewritten."""
    events = list(view.get("log") or [])[-k:]
    return "\n".join(str(e["text"]) for e in events) or "nothing yet"


def notation(game: Game[Any]) -> str:
    """The game's notation help without the terminal's commands."""
    text = Text.from_markup(get_renderer(game).help).plain
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("Commands:"))


# sections of the rules pages about the software, not the game
_NOT_RULES = (
    "Bots",
    "Balance report",
    "Explicit positions",
    "Positions",
    "Views, positions and results",
    "The examples, checked",
    "Decisions the engine made",
    "Hidden information",
    "Tournament",
)


def full_rules(game: Game[Any]) -> str:
    """The game's rules page (docs/rules, shipped with the package) without code blocks and
    without the sections about bots, positions and checks."""
    from importlib.resources import files

    text = files("courtcards").joinpath(f"server/rules/{game.name}.md").read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```[ \t]*\n?", "", text, flags=re.S | re.M)
    text = re.sub(r"^<details>.*?^</details>[ \t]*\n?", "", text, flags=re.S | re.M)  # folded: for developers
    text = re.sub(r"\[([^\]]+)\]\(\.\./rulings\.md(?:#[\w-]*)?\)", r"\1", text)  # rulings, without the link
    parts = re.split(r"(?m)^(?=## )", text)
    kept = [p for p in parts if p.split("\n", 1)[0].strip()[3:] not in _NOT_RULES]
    return re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip()


def build_prompt(view: Mapping[str, Any], legal: Sequence[str], rules: str = "brief") -> str:
    """The whole prompt for one decision of the seat whose view this is; ``rules`` is ``"brief"``
    (a summary) or ``"full"`` (the game's rules page)."""
    if rules not in ("brief", "full"):
        raise AgentError(f"rules must be 'brief' or 'full', not {rules!r}")
    game = get_game(str(view["game"]))
    rules_text = (game.info.brief or game.title) if rules == "brief" else full_rules(game)
    seat = view["seat"]
    shown = list(legal[:MAX_LISTED_MOVES])
    more = f"\n(and {len(legal) - len(shown)} more legal moves in the same notation)" if len(legal) > len(shown) else ""
    opts = ", ".join(f"{k}={v}" for k, v in sorted(dict(view.get("options") or {}).items()))
    return (
        f"You are playing {game.title}, seat {seat} of {view['num_players']} (seats are numbered from 0).\n"
        f"Options: {opts or 'defaults'}\n\n"
        f"## Rules{' in brief' if rules == 'brief' else ''}\n{rules_text}\n\n"
        f"## Notation\n{notation(game)}\n\n"
        f"## The situation (what you can see; 'you' is seat {seat})\n{situation(view)}\n\n"
        f"## What happened lately (oldest first)\n{recent(view)}\n\n"
        f"## Your legal moves\n" + "\n".join(shown) + more + "\n\n"
        "## Your answer\nThink if you like, then end your answer with one line `MOVE: <move>`, the move written "
        "exactly as in the list above (e.g. `MOVE: " + (shown[0] if shown else "pass") + "`)."
    )


def retry_prompt(prompt: str, reply: str, refusal: str, left: int) -> str:
    quoted = reply.strip()
    if len(quoted) > 600:
        quoted = "..." + quoted[-600:]
    return (
        f"{prompt}\n\n## Your previous answer was refused\n{quoted}\n\nReason: {refusal}\n"
        f"Answer again ({left} attempt{'s' if left != 1 else ''} left), ending with one line `MOVE: <move>`."
    )


# -- reading a reply -------------------------------------------------------------------------
_MOVE_LINE = re.compile(r"^[\s>*_#-]*(?:final\s+)?(?:move|action|answer)[\s*_]*[:=]\s*(.+?)\s*$", re.I | re.M)


def _clean(text: str) -> str:
    return text.strip().strip("`*_\"'").strip().rstrip(".!").strip().strip("`*_\"'").strip()


def read_reply(game: Game[Any], reply: str, legal: Sequence[str]) -> str:
    """The move a reply means, canonical when it is one of ``legal``.

    An explicit ``MOVE: ...`` line (the last one) decides; otherwise the whole reply or its last
    line when it is a move in notation; otherwise the one legal move named inside the text (the
    longest ones that are not part of another). A move in notation that is not legal is returned
    as written so that the engine can say why. Raises NoMoveError when no move is found."""
    if not isinstance(reply, str):
        raise NoMoveError(f"the agent's reply must be text, not {type(reply).__name__}")
    legal_set = set(legal)
    lines = [line for line in reply.strip().splitlines() if line.strip()]
    explicit = _MOVE_LINE.findall(reply)
    candidates = [_clean(explicit[-1])] if explicit else [_clean(reply), *([_clean(lines[-1])] if lines else [])]
    for cand in candidates:
        if not cand:
            continue
        try:
            action = game.parse_action(cand)
        except NotationError:
            if explicit:
                return cand  # the agent said which move it meant: the engine gives the reason
            continue
        return action.text if action.text in legal_set else cand
    if explicit:
        raise NoMoveError("the MOVE: line is empty")
    found = _legal_inside(reply, legal)
    if len(found) == 1:
        return found[0]
    if found:
        named = ", ".join(found[:6]) + (", ..." if len(found) > 6 else "")
        raise NoMoveError(f"the answer names several legal moves ({named}); end it with one line `MOVE: <move>`")
    raise NoMoveError("no move found in the answer; end it with one line `MOVE: <move>`")


def _legal_inside(reply: str, legal: Sequence[str]) -> list[str]:
    spans: list[tuple[int, int, str]] = []
    for text in legal:
        pattern = r"(?<![\w])" + r"\s+".join(re.escape(w) for w in text.split()) + r"(?![\w])"
        spans += [(m.start(), m.end(), text) for m in re.finditer(pattern, reply, re.I)]
    outer = [s for s in spans if not any(o != s and o[0] <= s[0] and s[1] <= o[1] for o in spans)]
    return list(dict.fromkeys(text for _, _, text in outer))


# -- the agent -----------------------------------------------------------------------------------
@dataclass
class Attempt:
    prompt: str
    reply: str
    move: str | None
    refusal: str | None


@dataclass
class Decision:
    seat: int
    move: str
    attempts: list[Attempt] = field(default_factory=list)


class TextAgent:
    """A ``Callable[[str], str]`` playing one seat, with bounded retries on refusals."""

    def __init__(self, fn: AgentFn, max_retries: int = 3, rules: str = "brief") -> None:
        if not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be an integer >= 0, not {max_retries!r}")
        self.fn = fn
        self.max_retries = max_retries
        self.rules = rules

    def decide(self, view: Mapping[str, Any], legal: Sequence[str], submit: SubmitFn) -> Decision:
        """Ask until a move is accepted by ``submit``; raises AgentGaveUp after the last retry."""
        game = get_game(str(view["game"]))
        seat = int(view["seat"])
        base = prompt = build_prompt(view, legal, self.rules)
        attempts: list[Attempt] = []
        for left in range(self.max_retries, -1, -1):
            reply = self.fn(prompt)
            move: str | None = None
            try:
                move = read_reply(game, reply, legal)
                refusal = submit(move)
            except NoMoveError as exc:
                refusal = str(exc)
            attempts.append(Attempt(prompt, reply, move, refusal))
            if refusal is None and move is not None:
                return Decision(seat, move, attempts)
            prompt = retry_prompt(base, reply, str(refusal), left)
        raise AgentGaveUp(seat, attempts)


def local_submit(state: State, seat: int) -> SubmitFn:
    """Apply moves to a local state; the engine's reason for a refused one."""

    def submit(text: str) -> str | None:
        try:
            state.apply(seat, text)
        except (NotationError, IllegalActionError) as exc:
            return str(exc)
        return None

    return submit


@dataclass
class LocalGame:
    state: State
    decisions: list[Decision]


def play_local(
    game_name: str,
    agents: Mapping[int, AgentFn],
    *,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    preset: str | None = None,
    seed: int = 0,
    bots: str | Mapping[int, str] = "random",
    max_retries: int = 3,
    max_actions: int | None = None,
    rules: str = "brief",
) -> LocalGame:
    """Play a local game: the seats in ``agents`` by text, the others by bots (views only)."""
    game = get_game(game_name)
    state = game.new_game(num_players, options, seed, preset)
    n = state.num_players
    for seat in agents:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise AgentError(f"agent seat {seat!r} is not a seat of this table (0..{n - 1})")
    kinds = {s: (bots if isinstance(bots, str) else bots.get(s, "random")) for s in range(n) if s not in agents}
    bot_objs = {s: make_bot(game.name, kind, seed * 7919 + s) for s, kind in kinds.items()}
    text_agents = {s: TextAgent(fn, max_retries, rules) for s, fn in agents.items()}
    decisions: list[Decision] = []
    while not state.is_over() and (max_actions is None or len(state.history) < max_actions):
        for seat in state.to_move():
            if seat in text_agents:
                legal = [a.text for a in state.legal_actions(seat)]
                decisions.append(text_agents[seat].decide(state.view(seat), legal, local_submit(state, seat)))
            else:
                state.apply(seat, bot_objs[seat].choose(state.view(seat), state.legal_actions(seat)))
    return LocalGame(state, decisions)


# -- an external program as the agent -------------------------------------------------------
class CommandAgent:
    """Runs ``command`` once per decision: the prompt on its stdin, its stdout is the reply."""

    def __init__(self, command: str, timeout: float | None = 300.0) -> None:
        self.args = shlex.split(command)
        if not self.args:
            raise AgentError("the agent command is empty")
        self.timeout = timeout

    def __call__(self, prompt: str) -> str:
        try:
            done = subprocess.run(
                self.args, input=prompt, capture_output=True, text=True, timeout=self.timeout, check=False
            )
        except FileNotFoundError:
            raise AgentError(f"agent command not found: {self.args[0]!r}") from None
        except subprocess.TimeoutExpired:
            raise AgentError(f"agent command {self.args[0]!r} gave no answer within {self.timeout} s") from None
        if done.returncode != 0:
            tail = done.stderr.strip()[-400:]
            raise AgentError(f"agent command {self.args[0]!r} exited with code {done.returncode}: {tail}")
        return done.stdout


# -- a seat at a server table ------------------------------------------------------------------
def parse_table_url(url: str) -> tuple[str, str, int | None]:
    """(server, table id, seat or None) from a table, join or API link of a server."""
    parts = urlsplit(url)
    segs = [s for s in parts.path.split("/") if s]
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AgentError(f"--table must be a link like http://HOST:PORT/table/ID, not {url!r}")
    for key in ("join", "table", "tables", "replay"):
        if key in segs and segs.index(key) + 1 < len(segs):
            i = segs.index(key)
            seat = segs[i + 2] if key == "join" and i + 2 < len(segs) else None
            server = f"{parts.scheme}://{parts.netloc}"
            return server, segs[i + 1], int(seat) if seat is not None and seat.isdigit() else None
    raise AgentError(f"no table id in {url!r}: use the table's link (http://HOST:PORT/table/ID) or a join link")


class _Superseded(Exception):
    """The decision went away (a stand-in bot moved, or the game ended) before the move landed."""


class _Socket:
    """The seat's WebSocket, with the latest state message kept."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.latest: dict[str, Any] = {}

    def recv(self) -> dict[str, Any]:
        msg = dict(json.loads(self.ws.recv()))
        if msg.get("type") == "state":
            self.latest = msg
        return msg

    def submit(self, text: str) -> str | None:
        """Send the move on the latest version; a ping after it marks the end of the answer."""
        while True:
            self.ws.send(json.dumps({"type": "action", "action": text, "version": self.latest["version"]}))
            self.ws.send(json.dumps({"type": "ping"}))
            error: dict[str, Any] | None = None
            while (msg := self.recv()).get("type") != "pong":
                if msg.get("type") == "error":
                    error = msg
            if error is None:
                return None
            if error["code"] in ("illegal_action", "malformed_action"):
                return str(error["message"])
            if error["code"] == "stale_version" and text in self.latest.get("legal", []):
                continue  # another seat acted first: the same move on the new state
            raise _Superseded(error["code"])


def play_table(
    table_url: str,
    agent: AgentFn,
    *,
    seat: int | None = None,
    token: str | None = None,
    name: str = "agent",
    max_retries: int = 3,
    rules: str = "brief",
    log: Callable[[str], None] = lambda line: None,
) -> dict[str, Any]:
    """Join (or, with ``token``, resume) a seat of a server table and play it to the end with
    ``agent``; returns the last state message."""
    from websockets.sync.client import connect

    from courtcards.server.client_example import http

    server, table_id, link_seat = parse_table_url(table_url)
    if token is None:
        body: dict[str, Any] = {"name": name}
        if seat is not None or link_seat is not None:
            body["seat"] = seat if seat is not None else link_seat
        try:
            joined = http(server, "POST", f"/api/tables/{table_id}/join", body)
        except SystemExit as exc:  # the example client's way of reporting an HTTP error
            raise AgentError(str(exc)) from None
        token = str(joined["token"])
        log(f"joined table {table_id} at seat {joined['seat']} (token {token})")
    text_agent = TextAgent(agent, max_retries, rules)
    acted = -1
    with connect(server.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}") as ws:
        sock = _Socket(ws)
        while True:
            state = sock.latest
            if state.get("status") == "finished":
                return state
            if state.get("legal") and state["version"] != acted:
                acted = state["version"]
                try:
                    decision = text_agent.decide(state["view"], state["legal"], sock.submit)
                except _Superseded as why:
                    log(f"v{acted}: the decision went away ({why})")
                    continue
                tries = len(decision.attempts)
                log(f"v{acted}: seat {decision.seat} plays {decision.move} ({tries} attempt{'s' * (tries != 1)})")
                continue
            msg = sock.recv()
            if msg.get("type") == "error" and msg.get("code") in ("bad_token", "table_not_found"):
                raise AgentError(f"{msg['code']}: {msg['message']}")
