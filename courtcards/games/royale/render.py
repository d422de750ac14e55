"""How the terminal shows Rank Royale, from one seat's view only.

Hands and decks are private; discard piles, hand and deck sizes, and every
revealed round are public. A card chosen in secret is shown only to its owner
until both have chosen (RR-3). What happens is told in the engine's own
sentences (``view["log"]``), and the tiers are the engine's (RR-1).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from courtcards.games.royale.cards import CODE, TIER_OF_RANK, tier_name
from courtcards.render import (
    GameRenderer,
    View,
    does,
    event_sentence,
    plural,
    print_result,
    seat_name,
    seat_number,
    suited_card,
)

TIER_STYLE = {"low": "green", "middle": "yellow", "high": "magenta"}


def _tier_span(name: str) -> str:
    """A tier's ranks as the engine groups them (RR-1), such as ``A-4``."""
    ranks = [r for r, t in TIER_OF_RANK.items() if t == name]
    return f"{ranks[0]}-{ranks[-1]}"


HELP = f"""[bold]Rank Royale notation[/] (case does not matter)
  Cards:  rank then suit: [bold]AS[/] [bold]7H[/] [bold]10D[/] [bold]KC[/] (A = 1; suits C D H S; T also means 10)
  Tiers:  [green]Low {_tier_span("low")}[/] beats [magenta]High {_tier_span("high")}[/], \
[yellow]Middle {_tier_span("middle")}[/] beats [green]Low[/], [magenta]High[/] beats [yellow]Middle[/]
  Play:   type one card, e.g. [bold]7H[/]: it stays secret until both players have chosen
  Lose on tier: discard that many cards of your choice, e.g. [bold]discard 3C 9S[/]
  Same tier: the higher rank draws a card; same rank: nothing happens
  Commands: [bold]help[/] · [bold]moves[/] · [bold]board[/] · [bold]hint[/] · [bold]quit[/] (save and exit)"""

#: what may stand around a card in the engine's sentences ("7H,", "(7H)", "7H;")
_AROUND = "(),;:."


def tier_of(card: str) -> str:
    """The card's tier, from the engine (RR-1)."""
    return tier_name(card)


def card_markup(card: str) -> str:
    """The rank in its tier's colour, the suit in the suit's."""
    return suited_card(card, TIER_STYLE[tier_of(card)])


def cards_markup(cards: Sequence[str]) -> str:
    return " ".join(card_markup(c) for c in cards) if cards else "[dim]none[/]"


who = seat_name


def _texts_of(data: Any) -> Iterator[str]:
    """The texts an event's data holds at any depth (its cards among them: "cards", a secret "action")."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for value in data.values():
            yield from _texts_of(value)
    elif isinstance(data, list):
        for value in data:
            yield from _texts_of(value)


def sentence(view: View, entry: Mapping[str, Any]) -> str:
    """One event of ``view["log"]`` as markup: the seats named for the viewer (courtcards.render.seats),
    the cards its data names in their tier's colours."""
    text = event_sentence(view, entry)
    cards = {c for c in _texts_of(entry.get("data")) if c in CODE}
    if not cards:
        return escape(text)
    out = []
    for word in text.split(" "):
        core = word.strip(_AROUND)
        if core in cards:
            at = word.index(core)
            out.append(escape(word[:at]) + card_markup(core) + escape(word[at + len(core) :]))
        else:
            out.append(escape(word))
    return " ".join(out)


def new_events(before: View | None, after: View) -> list[dict[str, Any]]:
    """The events of ``after["log"]`` that ``before`` did not have yet."""
    seen = before["log"][-1]["n"] if before and before["log"] else -1
    return [e for e in after["log"] if e["n"] > seen]


def render_view(console: Console, view: View) -> None:
    me = view.get("seat")
    table_ = view["discard_table"]
    console.rule(
        f"[bold]Rank Royale[/] · round {view['round']} · discards low {table_['low']}, "
        f"middle {table_['middle']}, high {table_['high']}"
    )
    table = Table(box=box.SIMPLE, show_header=True)
    for col in ("player", "hand", "deck", "discard pile (top card first)"):
        table.add_column(col)
    for p in view["players"]:
        pile = p["discard"]
        shown = cards_markup(pile[:12]) if pile else "[dim]empty[/]"
        if len(pile) > 12:
            shown += f" [dim]({len(pile) - 12} more)[/]"
        name = who(view, p["seat"], True) + (f" [dim](reshuffled {p['reshuffles']}x)[/]" if p["reshuffles"] else "")
        table.add_row(name, str(p["hand_size"]), str(p["deck_size"]), shown)
    console.print(table)
    if view["log"]:
        console.print("Last: " + sentence(view, view["log"][-1]))
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
        console.print(f"{does(view, owed['seat'], 'must discard', 'must discard')} {plural(owed['count'], 'card')}.")


def describe_start(view: View) -> list[str]:
    return [
        "Rank Royale: each round both players choose a card in secret, then both are revealed. "
        "Type [bold]help[/] for the rules in short.",
        *(sentence(view, e) for e in view["log"]),
    ]


def describe_event(before: View, after: View, seat: int, text: str) -> list[str]:
    """The engine's new sentences; a secret choice (RR-3) is only said to have been made."""
    return [sentence(after, e) for e in new_events(before, after)]


def render_moves(console: Console, view: View, legal: Sequence[str], full: bool) -> None:
    if view["phase"] == "discard":
        count = view["owed"]["count"]
        console.print(
            f"Discard {plural(count, 'card')} of your choice, e.g. [bold]discard {' '.join(view['hand'][:count])}[/]."
        )
        if full:
            console.print(", ".join(escape(t) for t in legal))
        return
    by_tier: dict[str, list[str]] = {"low": [], "middle": [], "high": []}
    for t in legal:
        by_tier[tier_of(t)].append(t)
    console.print(
        "Choose a card: " + " · ".join(f"{name}: {cards_markup(cards)}" for name, cards in by_tier.items() if cards)
    )


def _result_lines(view: View) -> list[str]:
    res = view["result"]
    if res["winner"] is None:
        return [f"[bold]Game over:[/] a draw after {res['details']['rounds']} rounds (round limit)."]
    return [f"[bold]Game over:[/] {who(view, res['winner'])} won after {res['details']['rounds']} rounds."]


def render_result(console: Console, view: View) -> None:
    print_result(console, view, _result_lines)


def render_hands(console: Console, views: Sequence[View]) -> None:
    for v in views[1:]:
        console.print(f"Seat {seat_number(v['seat'])}: {cards_markup(v['hand'])}")


RENDERER = GameRenderer(
    HELP,
    view=render_view,
    event=describe_event,
    start=describe_start,
    moves=render_moves,
    result=render_result,
    hands=render_hands,
)
