"""How the terminal shows Royals, from one seat's view only.

Hands and decks are private; Royals, discard piles, hand and deck sizes and the
cards revealed in a fight are public. Cards committed to a fight are shown only
to their owner until every committing seat has chosen (RY-4, RY-5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from courtcards.render import (
    SUIT_STYLE,
    GameRenderer,
    View,
    does,
    plural,
    print_result,
    seat_name,
    seat_number,
    sentences,
    suited_card,
)

HELP = """[bold]Royals notation[/] (case does not matter)
  Cards:   rank then suit: [bold]AS[/] [bold]7H[/] [bold]10D[/] [bold]KC[/] (A = 1; suits C D H S; \
[red]red[/] attacks, black blocks)
  Turn:    [bold]royal QH 7H[/] (face card + number card of its suit) · [bold]attack 2[/] · \
[bold]assassinate 2 QH[/] · [bold]discard hand[/]
  Fights:  [bold]commit 7H KS[/] / [bold]commit none[/] (secret until all have committed) · \
[bold]block 7 with 9[/] · [bold]done[/]
  Hits:    [bold]hit QH[/] (one hit on your Royal QH) · [bold]discard QH[/] · [bold]replace QH 3H[/] \
(a lower heart under QH)
  Win:     begin your turn with 20 - players points in play
  Commands: [bold]help[/] · [bold]moves[/] · [bold]board[/] · [bold]hint[/] · [bold]quit[/] (save and exit)"""


def card_markup(card: str) -> str:
    """Red attacks, black (blue on screen) blocks; face cards (Royals) underlined."""
    face = card[:-1].upper() in ("J", "Q", "K")
    return suited_card(card, f"{SUIT_STYLE.get(card[-1:].upper(), 'bold')} underline" if face else None)


def cards_markup(cards: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in cards) if cards else "[dim]none[/]"


who = seat_name


def _royals(p: dict[str, Any]) -> str:
    if not p["royals"]:
        return "[dim]none[/]"
    return " ".join(f"{card_markup(r['face'])}/{card_markup(r['number'])}" for r in p["royals"])


def _fight_lines(view: View) -> list[str]:
    fight = view.get("fight")
    if not fight:
        return []
    if fight["kind"] == "attack":
        head = f"{does(view, fight['attacker'], 'attacks', 'attack')} {who(view, fight['defender'])}."
    else:
        owner = "your" if fight["defender"] == view.get("seat") else f"{seat_name(view, fight['defender'])}'s"
        head = (
            f"{does(view, fight['attacker'], 'tries', 'try')} to assassinate "
            f"{owner} Royal {card_markup(fight['target'])}."
        )
    lines = [head]
    if not fight["revealed"]:
        committed = set((view.get("pending") or {}).get("committed", []))
        for s, need in fight["need"].items():
            count = ("up to " if need["up_to"] else "") + plural(need["count"], "card")
            state = "committed" if int(s) in committed else "choosing"
            lines.append(f"  {who(view, int(s), True)}: {count}, {state}")
        mine = (view.get("pending") or {}).get("mine")
        if mine:
            lines.append(f"  You chose: {escape(mine)} (hidden from the others until the reveal)")
        return lines
    lines.append(
        f"  attacks {fight['attacks'] or '-'} · blocks {fight['blocks'] or '-'} · "
        f"paired {[f'{a}<={b}' for a, b in fight['pairs']] or '-'}"
    )
    if view["phase"] in ("hits", "losses"):
        lines.append(f"  {plural(fight['hits'], 'hit')}; placed: {cards_markup(fight['assigned'])}")
    return lines


def render_view(console: Console, view: View) -> None:
    console.rule(
        f"[bold]Royals[/] · turn {view['round']} · target {view['target']} points · hand limit {view['hand_limit']}"
    )
    table = Table(box=box.SIMPLE, show_header=True)
    for col in ("player", "points", "Royals", "hand", "deck", "table", "discard pile (top first)"):
        table.add_column(col)
    for p in view["players"]:
        pile = p["discard"]  # top card first
        shown = cards_markup(pile[:8]) if pile else "[dim]empty[/]"
        if len(pile) > 8:
            shown += f" [dim]({len(pile) - 8} more)[/]"
        name = who(view, p["seat"], True) + (" [bold]*[/]" if p["seat"] == view["turn"] else "")
        table.add_row(
            name,
            str(p["score"]),
            _royals(p),
            str(p["hand_size"]),
            str(p["deck_size"]),
            cards_markup(p["table"]) if p["table"] else "",
            shown,
        )
    console.print(table)
    for line in _fight_lines(view):
        console.print(line)
    if view.get("seat") is not None:
        console.print("Your hand: " + cards_markup(view["hand"]))


def log_lines(view: View, after: int = -1) -> list[str]:
    """The engine's sentences of ``view["log"]`` numbered after ``after``, as the viewer reads them
    (courtcards.render.seats: seats numbered for the player, the viewer's own marked "(you)")."""
    return [escape(line) for line in sentences(view, after)]


def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    """What the engine logged since ``before`` (its sentences are worded for each viewer)."""
    last = before["log"][-1]["n"] if before["log"] else -1
    return log_lines(after, last)


def describe_start(view: View) -> list[str]:
    return log_lines(view)


def render_moves(console: Console, view: View, legal: Sequence[str], full: bool) -> None:
    groups: dict[str, list[str]] = {}
    for t in legal:
        groups.setdefault(t.split()[0], []).append(t)
    for word, items in groups.items():
        items = [move_text(view, t) for t in items]
        shown = items if full or len(items) <= 15 else items[:15]
        more = f" [dim]... and {len(items) - len(shown)} more (type moves)[/]" if len(shown) < len(items) else ""
        console.print(f"[bold]{word}[/]: " + ", ".join(escape(t) for t in shown) + more)


def _result_lines(view: View) -> list[str]:
    res = view["result"]
    if res["winner"] is None:
        return [f"[bold]Game over:[/] a draw after {res['details']['turns']} turns (turn limit)."]
    points = res["scores"][res["winner"]]
    return [f"[bold]Game over:[/] {who(view, res['winner'])} began a turn with {points} points and won."]


def render_result(console: Console, view: View) -> None:
    if not print_result(console, view, _result_lines):
        return
    res = view["result"]
    for place, s in enumerate(res["ranking"], 1):
        console.print(f"  {place}. {who(view, s)}: {res['scores'][s]} points in play")


def render_hands(console: Console, views: Sequence[View]) -> None:
    for v in views[1:]:
        console.print(f"Seat {seat_number(v['seat'])}: {cards_markup(v['hand'])}")


#: the moves whose second word is a seat (RY-4, RY-5): the player reads and types it numbered for display
_SEAT_MOVE = re.compile(r"^(\s*(?:attack|assassinate)\s+)(-?\d+)\b", re.I)


def move_text(view: Any, text: str) -> str:
    """``attack 1`` (engine seat 1) as the player reads it: ``attack 2`` at the terminal."""
    return _SEAT_MOVE.sub(lambda m: f"{m.group(1)}{seat_number(int(m.group(2)))}", text)


def read_move(view: Any, line: str) -> str:
    """What the player typed, seats back in the engine's numbering (``attack 2`` -> ``attack 1``)."""
    return _SEAT_MOVE.sub(lambda m: f"{m.group(1)}{int(m.group(2)) - seat_number(0)}", line)


RENDERER = GameRenderer(
    HELP,
    view=render_view,
    event=describe_event,
    start=describe_start,
    moves=render_moves,
    move_text=move_text,
    read_move=read_move,
    result=render_result,
    hands=render_hands,
)
