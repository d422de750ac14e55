"""How the terminal shows King Queens & Paupers: roles, seats in play order, taxes,
the pile (consecutive mode clearly marked), events and results.

Everything here reads views only: hands and the cards of taxes are private
(only giver and receiver see them); plays, passes, roles and scores are public.
What happens is told in the engine's own sentences (the view's ``log``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from courtcards.render import GameRenderer, View, seat_name, seat_number, sentences

ROLES = {"king": "King", "queen": "Queen", "commoner": "Commoner", "pauper-1": "Pauper-1", "pauper-2": "Pauper-2"}
_STYLE = {"Q": "bold magenta", "K": "bold yellow", "S": "white", "G": "yellow"}

HELP = """[bold]King Queens & Paupers notation[/] (case does not matter)
  Cards:  [bold]3[/]-[bold]14[/], [bold]S[/] Silver, [bold]G[/] Gold, [bold]Q[/] Queen, [bold]K[/] King (low to high)
  Plays:  cards of one value, e.g. [bold]9 9 9[/] · [bold]S[/] · [bold]Q Q[/] · [bold]K[/]
  Words:  [bold]pass[/] (you may still play later on this pile) · [bold]give 3 4[/] (King's / Queen's give-back)
  Follow: the same number of cards, higher; a Queen tops any single, both Queens any pair, the King anything.
  Consecutive mode: if the 2nd play is one value up, every play must be exactly one value up.
  Commands: [bold]help[/] · [bold]moves[/] (all legal) · [bold]board[/] · [bold]hint[/] · [bold]quit[/] (saves)"""


def cards_markup(cards: Sequence[str]) -> str:
    return " ".join(f"[{_STYLE.get(c, 'bold')}]{c}[/]" for c in cards)


def who(view: View, seat: int | None, cap: bool = False) -> str:
    if seat is None:
        return "nobody"
    return f"{seat_name(view, seat, cap)} ({ROLES.get(view['players'][seat]['role'], '?')})"


def says(view: View, seat: int, verb: str) -> str:
    """``Seat 3 (Queen) plays`` / ``You (Queen) play``."""
    if seat == view.get("seat"):
        first, _, rest = verb.partition(" ")
        verb = " ".join(w for w in (first.removesuffix("s"), rest) if w)
    return f"{who(view, seat, cap=True)} {verb}"


def render_view(console: Console, view: View) -> None:
    opts = view["options"]
    limits = []
    if opts.get("target") is not None:
        limits.append(f"to {opts['target']} points")
    if opts.get("rounds") is not None:
        limits.append(f"{opts['rounds']} round{'s' if opts['rounds'] != 1 else ''}")
    phase = {"tax": "taxes: the King and Queen give cards back", "play": "play", "over": "game over"}[view["phase"]]
    console.print(f"[bold]King Queens & Paupers[/] — round {view['round']} ({' or '.join(limits)}) — {phase}")
    table = Table(box=box.SIMPLE, title="seats in play order (clockwise)")
    for col in ("", "seat", "role", "cards", "score", ""):
        table.add_column(col)
    movers = set(view["to_move"])
    for s in view["order"]:
        p = view["players"][s]
        status = ""
        if p["out"]:
            status = f"out ({p['out']})"
        elif p["passed"]:
            status = "passed"
        mark = "▶" if s in movers else ""
        me = " (you)" if s == view["seat"] else ""
        table.add_row(mark, f"{seat_number(s)}{me}", ROLES[p["role"]], str(p["hand_size"]), str(p["score"]), status)
    console.print(table)
    for line in tax_lines(view):
        console.print("  " + line)
    pile = view["pile"]
    if view["phase"] == "play":
        if pile["count"]:
            what = f"{cards_markup(pile['top'])} by {who(view, pile['owner'])}"
            console.print(f"Pile: {what} (sets of {pile['count']})")
            if pile["consecutive"]:
                nxt = "the next value up" if pile["value"] not in ("G", "Q", "K") else "a Queen or the King"
                console.print(f"[bold reverse] CONSECUTIVE MODE [/] play exactly {nxt}, or a Queen / the King")
            if pile["plays"]:
                console.print("  " + escape(" · ".join(f"{seat_number(s)}: {t}" for s, t in pile["plays"])))
        else:
            console.print(f"Pile: empty — {says(view, view['turn'], 'leads')}")
    if view["seat"] is not None:
        console.print(f"Your hand: {cards_markup(view['hand'])}")


def tax_lines(view: View) -> list[str]:
    """This round's taxes and give-backs, for the board (the cards only to the two seats, KQ-4)."""
    out = []
    for t in view["taxes"]:
        cards = f": {cards_markup(t['cards'])}" if "cards" in t else ""
        verb = "pays" if t["why"] == "tax" else "gives back"
        out.append(f"{says(view, t['from'], verb)} {t['count']} to {who(view, t['to'])}{cards}")
    return out


def log_lines(view: View, after: int = -1) -> list[str]:
    """The engine's sentences (``view["log"]``) numbered above ``after``, as the viewer reads them
    (courtcards.render.seats): ``Seat 1 (you, Pauper-1) pays ...``."""
    return [escape(line) for line in sentences(view, after)]


def _last_n(view: View) -> int:
    log = view["log"]
    return int(log[-1]["n"]) if log else -1


def describe_start(view: View) -> list[str]:
    return log_lines(view)


def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    return log_lines(after, _last_n(before))


def render_result(console: Console, view: View) -> None:
    res = view.get("result")
    if not res:
        console.print("The game is not over.")
        return
    rounds = res["details"]["rounds"]
    console.print(
        f"[bold]Game over[/] after {rounds} round{'s' if rounds != 1 else ''}. "
        f"Winner: {seat_name(view, res['winner'])} "
        "(lowest total; ties go to the better finish in the last round)."
    )
    for place, s in enumerate(res["ranking"], 1):
        points = res["scores"][s]
        console.print(f"  {place}. {seat_name(view, s)}  {points} point{'s' if points != 1 else ''}")


RENDERER = GameRenderer(
    HELP,
    view=render_view,
    event=describe_event,
    start=describe_start,
    result=render_result,
)
