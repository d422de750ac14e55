"""How the CLI shows Rank Royale, from one seat's view only.

Hands and decks are private; discard piles, hand and deck sizes, and every
revealed round are public. A card chosen in secret is shown only to its owner
until both have chosen (RR-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from courtcards.cli.render import View, seat_name, suited_card

TIER_STYLE = {"low": "green", "middle": "yellow", "high": "magenta"}
RANK_TIER = {**{r: "low" for r in ("A", "2", "3", "4")}, **{r: "high" for r in ("J", "Q", "K")}}

HELP = """[bold]Rank Royale notation[/] (case does not matter)
  Cards:  rank then suit: [bold]AS[/] [bold]7H[/] [bold]10D[/] [bold]KC[/] (A = 1; suits C D H S; T also means 10)
  Tiers:  [green]Low A-4[/] beats [magenta]High J-K[/], [yellow]Middle 5-10[/] beats [green]Low[/], \
[magenta]High[/] beats [yellow]Middle[/]
  Play:   type one card, e.g. [bold]7H[/]: it stays secret until both players have chosen
  Lose on tier: discard that many cards of your choice, e.g. [bold]discard 3C 9S[/]
  Same tier: the higher rank draws a card; same rank: nothing happens
  Commands: [bold]help[/] · [bold]moves[/] · [bold]board[/] · [bold]hint[/] · [bold]quit[/] (save and exit)"""


def tier_of(card: str) -> str:
    return RANK_TIER.get(card[:-1].upper(), "middle")


def card_markup(card: str) -> str:
    """The rank in its tier's colour, the suit in the suit's."""
    return suited_card(card, TIER_STYLE[tier_of(card)])


def cards_markup(cards: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in cards) if cards else "[dim]none[/]"


who = seat_name


def _outcome(view: View, entry: dict[str, Any]) -> str:
    c0, c1 = entry["cards"]
    head = f"Round {entry['round']}: {who(view, 0, True)} {card_markup(c0)} v {who(view, 1)} {card_markup(c1)}: "
    w = entry["winner"]
    if entry["outcome"] == "tie":
        return head + "same rank, a tie."
    if entry["outcome"] == "rank":
        return head + f"same tier, {who(view, w)} {'win' if w == view.get('seat') else 'wins'} on rank and draw" + (
            "" if w == view.get("seat") else "s") + " a card."
    loser = 1 - w
    beat = f"{entry['tiers'][w]} beats {entry['tiers'][loser]}"
    text = head + f"{beat}; {who(view, loser)} must discard {entry['discard']}"
    if entry.get("lost"):
        return text + f" but {'hold' if loser == view.get('seat') else 'holds'} fewer: {who(view, w)} win" + (
            "" if w == view.get("seat") else "s") + "!"
    if entry["discarded"]:
        text += f" and {'discard' if loser == view.get('seat') else 'discards'} {cards_markup(entry['discarded'])}"
    return text + "."


def render_view(console: Console, view: View) -> None:
    me = view.get("seat")
    console.rule(f"[bold]Rank Royale[/] · round {view['round']} · discards low {view['discard_table']['low']}, "
                 f"middle {view['discard_table']['middle']}, high {view['discard_table']['high']}")
    table = Table(box=box.SIMPLE, show_header=True)
    for col in ("player", "hand", "deck", "discard pile (oldest first)"):
        table.add_column(col)
    for p in view["players"]:
        pile = p["discard_pile"]
        shown = cards_markup(pile[-12:]) if pile else "[dim]empty[/]"
        if len(pile) > 12:
            shown = f"[dim]({len(pile) - 12} more)[/] " + shown
        name = who(view, p["seat"], True) + (f" [dim](reshuffled {p['reshuffles']}x)[/]" if p["reshuffles"] else "")
        table.add_row(name, str(p["hand_size"]), str(p["deck_size"]), shown)
    console.print(table)
    if view["log"]:
        console.print("Last: " + _outcome(view, view["log"][-1]))
    if me is not None:
        console.print("Your hand: " + cards_markup(view["hand"]))
    pending = view.get("pending") or {}
    if pending.get("mine"):
        console.print(f"You chose {card_markup(pending['mine'])}; waiting for the other player.")
    others = [s for s in pending.get("committed", []) if s != me]
    for s in others:
        console.print(f"{who(view, s, True)} has chosen a card (hidden until both have chosen).")
    owed = view.get("owed")
    if owed:
        console.print(f"{who(view, owed['seat'], True)} must discard {owed['count']} card(s).")


def describe_start(view: View) -> list[str]:
    return ["Rank Royale: each round both players choose a card in secret, then both are revealed. "
            "Type [bold]help[/] for the rules in short."]


def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    me = after.get("seat")
    lines: list[str] = []
    new = after["log"][len(before["log"]):]
    if before["phase"] == "play":
        if seat == me:
            lines.append(f"You choose {card_markup(text)}" + ("." if new else " (secret until both have chosen)."))
        elif not new:
            lines.append(f"{who(after, seat, True)} has chosen a card.")
        for entry in new:
            lines.append(_outcome(after, entry))
    elif before["phase"] == "discard" and before["log"]:
        entry = after["log"][len(before["log"]) - 1]
        lines.append(f"{who(after, seat, True)} {'discard' if seat == me else 'discards'} "
                     f"{cards_markup(entry['discarded'])}.")
    return lines


def render_moves(console: Console, view: View, legal: Sequence[str], full: bool) -> None:
    if view["phase"] == "discard":
        count = view["owed"]["count"]
        console.print(f"Discard {count} card(s) of your choice, e.g. [bold]discard "
                      f"{' '.join(view['hand'][:count])}[/].")
        if full:
            console.print(", ".join(escape(t) for t in legal))
        return
    by_tier: dict[str, list[str]] = {"low": [], "middle": [], "high": []}
    for t in legal:
        by_tier[tier_of(t)].append(t)
    console.print("Choose a card: " + " · ".join(
        f"{name}: {cards_markup(cards)}" for name, cards in by_tier.items() if cards))


def _result_lines(view: View) -> list[str]:
    res = view["result"]
    if res["winner"] is None:
        return [f"[bold]Game over:[/] a draw after {res['details']['rounds']} rounds (round limit)."]
    return [f"[bold]Game over:[/] {who(view, res['winner'])} won after {res['details']['rounds']} rounds."]


def render_result(console: Console, view: View) -> None:
    if not view.get("result"):
        console.print("The game is not over.")
        return
    for line in _result_lines(view):
        console.print(line)


def render_hands(console: Console, views: Sequence[View]) -> None:
    for v in views[1:]:
        console.print(f"Seat {v['seat']}: {cards_markup(v['hand'])}")
