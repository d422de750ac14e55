"""How the terminal shows Rank: the board from one seat's view, events, moves, results.

Everything here reads views only (RK-16: hands, the draw pile and the cards of
a steal/give are private; plays, passes, characters and tokens are public). What
happened is the engine's own sentences (``view["log"]``), never worded here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from courtcards.render import GameRenderer, View, event_sentence, log_since, seat_name, seat_number

CHARACTERS = {"king": "King", "queen": "Queen", "knight": "Knight", "beggar": "Beggar"}
PHASES = {
    "play": "play",
    "benefit": "King's benefit: lead or steal",
    "give_back": "the King gives a card back",
    "exchange": "Classic President: cards given back",
    "kings_hand": "King's Hand: swap or keep",
    "over": "game over",
}
COUNT_WORDS = {1: "singles", 2: "pairs", 3: "triples", 4: "fours"}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
RECENT = 4  # the board shows the last few events

HELP = """[bold]Rank notation[/] (case does not matter)
  Cards:  [bold]1[/]-[bold]12[/] numbers, [bold]W[/] Wild, [bold]U[/] Rank-Up, [bold]D[/] Rank-Down, \
[bold]C[/] Crown, [bold]C2[/] Crown + Draw 2
  Plays:  list the cards, e.g.
          [bold]8 8[/]      two 8s
          [bold]8 8 7 U[/]  three 8s (the Rank-Up lifts the 7)
          [bold]5 W[/]      two 5s (a Wild takes the set's value)
          [bold]9 9 D[/]    two 9s that beat a pair of any value
          [bold]C[/]        a Crown: played alone, wins the round
  Words:  [bold]pass[/] · [bold]lead[/] / [bold]steal[/] (King's benefit) · \
[bold]give 9[/] (cards given back) · [bold]swap[/] / [bold]keep[/] (King's Hand)
  Follow: the same count (number cards + Wilds) at a higher value.
  Commands: [bold]help[/] · [bold]moves[/] (all legal) · [bold]board[/] · [bold]hint[/] · [bold]quit[/] (saves)"""

# Number cards plain bold; each kind of special its own colour.
_STYLE = {"W": "bold yellow", "U": "bold green", "D": "bold red", "C": "bold magenta", "C2": "bold magenta"}


def cards_markup(cards: Sequence[str], sep: str = " ") -> str:
    return sep.join(f"[{_STYLE.get(c, 'bold')}]{c}[/]" for c in cards)


def _num(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


name = seat_name


def _character(view: View, seat: int) -> str:
    return CHARACTERS.get(view["players"][seat]["character"], "?")


def _set_words(count: int, value: int) -> str:
    return f"{_num(count, 'card')} of value {value}"


# -- the board ------------------------------------------------------------------------------
def render_view(console: Console, view: View) -> None:
    me = view.get("seat")
    opts = view.get("options", {})
    goal = (
        f"{opts.get('hands')} hands (endless)"
        if opts.get("endless")
        else f"first to {_num(opts.get('tokens_to_win', 5), 'token')}"
    )
    console.rule(f"[bold]Rank[/] · hand {view['round']} · {PHASES.get(view['phase'], view['phase'])} · {goal}")
    pile = view["pile"]
    movers = set(view.get("to_move", []))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col in ("", "Seat", "Character", "Cards", "Times King" if opts.get("endless") else "Tokens", "Status"):
        table.add_column(col)
    for p in view["players"]:
        s = p["seat"]
        status = []
        if p["out"]:
            status.append(f"out ({ORDINALS.get(p['out'], str(p['out']) + 'th')})")
        elif p["passed"]:
            status.append("passed")
        if pile["owner"] == s and pile["count"]:
            status.append("owns the pile")
        if s in view.get("pending", {}).get("committed", []):
            status.append("has chosen")
        seat_text = f"{seat_number(s)} (you)" if s == me else str(seat_number(s))
        table.add_row(
            "▶" if s in movers else "",
            f"[bold]{seat_text}[/]" if s == me else seat_text,
            CHARACTERS.get(p["character"], p["character"]),
            str(p["hand_size"]),
            str(p["score"]),
            ", ".join(status),
        )
    console.print(table)
    if pile["count"]:
        console.print(
            f"Pile: [bold]{cards_markup(pile['top'])}[/]  ({_set_words(pile['count'], pile['value'])}), "
            f"owner {name(view, pile['owner'])}"
        )
    elif view["phase"] == "play":
        console.print("Pile: empty (a new round)")
    recent = view.get("log", [])[-RECENT:]
    if recent:
        console.print("[dim]Lately:[/]")
        for e in recent:
            console.print("  " + log_line(view, e), soft_wrap=True)
    console.print(f"Draw pile: {view['deck_size']} cards · discarded: {len(view.get('discard', []))} cards")
    if me is not None:
        console.print(f"[bold]Your hand[/] ({len(view['hand'])}): {cards_markup(view['hand'])}")
    console.print(_turn_text(view))


def _turn_text(view: View) -> str:
    phase, me = view["phase"], view.get("seat")
    movers = view.get("to_move", [])
    if phase == "over":
        return "The game is over."
    if phase == "play":
        turn = view["turn"]
        if turn == me:
            todo = "you lead (any set)." if view["leading"] else "beat the pile or pass."
            return "[bold green]Your turn[/]: " + todo
        return f"{name(view, turn, True)} to play" + (" (leading)." if view["leading"] else ".")
    if me in movers:
        return f"[bold green]Your decision[/] ({PHASES[phase]})."
    return "Waiting for " + ", ".join(name(view, s) for s in movers) + f" ({PHASES.get(phase, phase)})."


def log_line(view: View, entry: Mapping[str, Any]) -> str:
    """One event of the log (courtcards.core.events) as markup, the viewer's seat marked "(you)"."""
    return escape(event_sentence(view, entry))


def _new_events(before: View | None, after: View) -> list[str]:
    return [escape(line) for line in log_since(before, after)]


def describe_start(view: View) -> list[str]:
    return _new_events(None, view)


# -- moves ----------------------------------------------------------------------------------------
def _play_count(text: str) -> int:
    return sum(1 for c in text.split() if c not in ("U", "D", "C", "C2"))


def _flow(console: Console, label: str, items: Sequence[str], gap: str = "   ") -> None:
    """Print ``label`` then the items, wrapped between items (never inside one)."""
    indent = " " * min(len(label), 24)
    width = max(console.width, 40)
    line, used = label, len(label)
    for item in items:
        size = Text.from_markup(item).cell_len
        if used > len(indent) and used + len(gap) + size > width:
            console.print(line, soft_wrap=True)
            line, used = indent + item, len(indent) + size
        else:
            sep = "" if used == len(label) and line == label else gap
            line, used = line + sep + item, used + len(sep) + size
    console.print(line, soft_wrap=True)


def render_moves(console: Console, view: View, legal: Sequence[str], full: bool) -> None:
    words = [t for t in legal if t in ("pass", "lead", "steal", "swap", "keep")]
    gives = [t for t in legal if t.startswith("give")]
    crowns = [t for t in legal if t in ("C", "C2")]
    plays = [t for t in legal if t not in words and t not in gives and t not in crowns]
    compact = not full and len(legal) > 24
    if legal == ["pass"]:
        console.print("Your moves: [bold]pass[/] (nothing you hold beats the pile)")
        return
    console.print("Your moves:")
    if words:
        _flow(console, "  ", [f"[bold]{w}[/]" for w in words])
    if crowns:
        _flow(console, "  Crown (wins the round): ", [cards_markup([c]) for c in crowns])
    groups: dict[int, list[str]] = {}
    for t in plays:
        groups.setdefault(_play_count(t), []).append(t)
    hidden = 0
    for count in sorted(groups):
        items = groups[count]
        label = COUNT_WORDS.get(count, f"{count} cards") if count else "lone modifier"
        shown = items
        if compact:
            shown = [t for t in items if not any(c in ("W", "U", "D") for c in t.split())]
        more = len(items) - len(shown)
        hidden += more
        texts = [cards_markup(t.split()) for t in shown] + ([f"[dim]+{more} with W/U/D[/]"] if more else [])
        _flow(console, f"  {label}: ", texts)
    if gives:
        k = len(gives[0].split()) - 1
        if compact and len(gives) > 12:
            console.print(f"  give {_num(k, 'card')} from your hand, e.g. [bold]{gives[0]}[/] ({len(gives)} choices)")
        else:
            _flow(console, "  ", [f"give {cards_markup(g.split()[1:])}" for g in gives])
    if hidden:
        console.print("  [dim](type [bold]moves[/] to list them all; any legal play is accepted)[/]")


# -- events ----------------------------------------------------------------------------------------
def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    """The engine's sentences logged since ``before``, as the viewer sees them (RK-16)."""
    return _new_events(before, after)


# -- results -------------------------------------------------------------------------------------
def render_result(console: Console, view: View) -> None:
    res = view.get("result")
    if not res:
        console.print("The game is not over.")
        return
    console.rule("[bold]Game over[/]")
    hands = view.get("hands_log", [])
    if hands:
        table = Table(title="Hands", box=box.SIMPLE_HEAD, show_edge=False)
        for col in ("Hand", "King", "Queen", "Beggar", "Finish"):
            table.add_column(col)
        for h in hands:
            table.add_row(
                str(h["hand"]),
                name(view, h["king"]),
                name(view, h["queen"]),
                name(view, h["beggar"]),
                " ".join(str(seat_number(s)) for s in h["finish"]),
            )
        console.print(table)
    label = res.get("details", {}).get("score", "score")
    table = Table(title="Final ranking", box=box.SIMPLE_HEAD, show_edge=False)
    for col in ("Place", "Seat", label):
        table.add_column(col)
    for place, s in enumerate(res["ranking"], 1):
        table.add_row(str(place), name(view, s), str(res["scores"][s]))
    console.print(table)
    winner = res.get("winner")
    if winner is None:
        console.print("[bold]No winner.[/]")
    elif winner == view.get("seat"):
        console.print(f"[bold green]You win[/] with {res['scores'][winner]} {label}!")
    else:
        console.print(f"[bold]Winner: {name(view, winner)}[/] with {res['scores'][winner]} {label}.")


def render_hands(console: Console, views: Sequence[View]) -> None:
    for v in views[1:]:
        s = v["seat"]
        console.print(f"  seat {seat_number(s)} ({_character(v, s)}): {cards_markup(v.get('hand', [])) or '-'}")


RENDERER = GameRenderer(
    HELP,
    view=render_view,
    event=describe_event,
    start=describe_start,
    moves=render_moves,
    result=render_result,
    hands=render_hands,
)

__all__ = [
    "HELP",
    "RENDERER",
    "describe_event",
    "escape",
    "render_hands",
    "render_moves",
    "render_result",
    "render_view",
]
