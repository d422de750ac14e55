"""How the CLI shows Rank: the board from one seat's view, events, moves, results.

Everything here reads views only (RK-16: hands, the draw pile and the cards of
a steal/give are private; plays, passes, characters and tokens are public).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from courtcards.cli.render import View, seat_name

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


def _role_seat(view: View, role: str) -> int | None:
    for p in view["players"]:
        if p["character"] == role:
            return int(p["seat"])
    return None


def _set_words(count: int, value: int) -> str:
    return f"{_num(count, 'card')} of value {value}"


# -- the board ------------------------------------------------------------------------------
def render_view(console: Console, view: View) -> None:
    me = view.get("seat")
    opts = view.get("options", {})
    goal = (f"{opts.get('hands')} hands (endless)" if opts.get("endless")
            else f"first to {_num(opts.get('tokens_to_win', 5), 'token')}")
    console.rule(f"[bold]Rank[/] · hand {view['hand_number']} · {PHASES.get(view['phase'], view['phase'])} · {goal}")
    pile = view["pile"]
    movers = set(view.get("to_move", []))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for col in ("", "Seat", "Character", "Cards", "Tokens", "Status"):
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
        seat_text = f"{s} (you)" if s == me else str(s)
        table.add_row(
            "▶" if s in movers else "",
            f"[bold]{seat_text}[/]" if s == me else seat_text,
            CHARACTERS.get(p["character"], p["character"]),
            str(p["cards"]),
            str(p["times_king"] if opts.get("endless") else p["tokens"]),
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
    log = view.get("round_log") or []
    if log:
        entries = [f"{name(view, s)}: {'pass' if t == 'pass' else cards_markup(t.split())}" for s, t in log[-10:]]
        _flow(console, "This round: " + ("... " if len(log) > 10 else ""), entries, gap=" · ")
    console.print(f"Draw pile: {view['draw_pile']} cards · discarded: {len(view.get('discard', []))} cards")
    for e in view.get("exchanges", []):
        if "cards" in e or view["phase"] != "play":  # the viewer's own exchanges stay on the board
            console.print("This hand: " + _exchange_text(view, e))
    if me is not None and "hand" in view:
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


def _exchange_text(view: View, e: View) -> str:
    cards = f"[bold]{cards_markup(e['cards'])}[/]" if "cards" in e else _num(e["count"], "card")
    giver, taker = name(view, e["from"]), name(view, e["to"])
    if e["why"] == "steal":
        return f"the King ({name(view, e['to'])}) steals {cards} from the Beggar ({name(view, e['from'])})."
    if e["why"] == "tax":
        return f"{giver} hand{'' if giver == 'you' else 's'} {cards} to {taker} (tax)."
    return f"{giver} give{'' if giver == 'you' else 's'} {cards} back to {taker}."


def describe_start(view: View) -> list[str]:
    chars = ", ".join(f"{CHARACTERS[c]} {name(view, _role_seat(view, c))}" for c in ("king", "queen", "beggar"))
    lines = [f"[bold]Hand {view['hand_number']}[/]: characters dealt at random: {chars}."]
    if view["phase"] == "play" and view["leading"]:
        lines.append(f"{name(view, view['turn'], True)} lead{'' if view['turn'] == view.get('seat') else 's'}.")
    return lines


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
    lines: list[str] = []
    who = name(after, seat, True)
    phase = before["phase"]
    if phase == "play":
        lines += _describe_play(before, after, seat, text)
    elif phase == "benefit":
        if text == "lead":
            lines.append(f"The King ({name(after, seat)}) chooses to lead.")
        else:
            lines += ["Exchange: " + _exchange_text(after, e) for e in _new_exchanges(before, after)]
    elif phase == "kings_hand":
        took = "takes the King's Hand" if text == "swap" else "keeps his hand"
        lines.append(f"The King ({name(after, seat)}) {took}.")
    elif phase in ("give_back", "exchange"):
        new = _new_exchanges(before, after)
        if new:
            lines += ["Exchange: " + _exchange_text(after, e) for e in new]
        else:
            lines.append(f"{who} {'have' if who == 'You' else 'has'} chosen what to give back.")
    lines += _describe_transitions(before, after, text)
    return lines


def _new_exchanges(before: View, after: View) -> list[View]:
    old: list[View] = before.get("exchanges", [])
    new: list[View] = after.get("exchanges", [])
    if before["hand_number"] == after["hand_number"] and new[: len(old)] == old:
        return new[len(old) :]
    return new


def _describe_play(before: View, after: View, seat: int, text: str) -> list[str]:
    who = name(after, seat, True)
    verb = "" if who == "You" else "s"
    if text == "pass":
        return [f"{who} pass{'' if who == 'You' else 'es'}."]
    cards = text.split()
    shown = f"[bold]{cards_markup(cards)}[/]"
    lines: list[str] = []
    same_hand = after["hand_number"] == before["hand_number"] and after["phase"] == "play"
    if cards in (["C"], ["C2"]):
        lines.append(f"{who} play{verb} a Crown {shown} and win{verb} the round.")
        if cards == ["C2"] and same_hand:
            drawn = after["players"][seat]["cards"] - (before["players"][seat]["cards"] - 1)
            if drawn:
                got = ""
                if seat == after.get("seat") and "hand" in after:
                    old: list[str] = before["hand"]
                    new: list[str] = after["hand"]
                    extra = Counter(new) - (Counter(old) - Counter(["C2"]))
                    got = ": " + cards_markup(sorted(extra.elements(), key=after["hand"].index))
                lines.append(f"{who} draw{verb} {_num(drawn, 'card')}{got}.")
    elif cards in (["U"], ["D"]):
        if before["pile"]["count"]:
            way = "raises" if cards == ["U"] else "lowers"
            lines.append(f"{who} play{verb} a lone {shown}: {way.rstrip('s') if who == 'You' else way} the pile "
                         f"to value {after['pile']['value'] if same_hand else '?'} and sit{verb} out the round.")
        else:
            lines.append(f"{who} shed{verb} a lone {shown}.")
    else:
        pile = after["pile"]
        what = ""
        if same_hand and pile["owner"] == seat and pile["count"]:
            what = f" ({_set_words(pile['count'], pile['value'])})"
        lines.append(f"{who} play{verb} {shown}{what}.")
    hand_over = len(after.get("hands_log", [])) > len(before.get("hands_log", []))
    if hand_over or (before["players"][seat]["cards"] and not after["players"][seat]["cards"]):
        place = after["players"][seat]["out"]
        if hand_over:
            finish = after["hands_log"][-1]["finish"]
            if seat == finish[-1]:
                return lines
            place = finish.index(seat) + 1
        lines.append(f"{who} {'are' if who == 'You' else 'is'} out" + (f" ({ORDINALS.get(place, f'{place}th')})."
                                                                      if place else "."))
    return lines


def _describe_transitions(before: View, after: View, text: str) -> list[str]:
    lines: list[str] = []
    new_hand = after["hand_number"] != before["hand_number"] or (after["phase"] == "over" != before["phase"])
    if new_hand:
        lines += _hand_over_lines(after)
        if after["phase"] == "over":
            return lines
        lines.append(f"[bold]Hand {after['hand_number']}[/] is dealt.")
        lines += ["Exchange: " + _exchange_text(after, e) for e in after.get("exchanges", [])]
    elif before["phase"] == "play" and before["round_log"] and not after["round_log"] and text not in ("C", "C2"):
        lines.append(f"Round over: {name(after, before['pile']['owner'])} won it.")
    if after["phase"] == "play" and after["leading"]:
        lines.append(f"{name(after, after['turn'], True)} lead{'' if after['turn'] == after.get('seat') else 's'}.")
    if after["phase"] in ("benefit", "kings_hand") and before["phase"] != after["phase"]:
        king = _role_seat(after, "king")
        what = "lead or steal" if after["phase"] == "benefit" else "swap for the King's Hand or keep"
        lines.append(f"The King ({name(after, king)}) chooses: {what}.")
    return lines


def _hand_over_lines(after: View) -> list[str]:
    if not after.get("hands_log"):
        return []
    h = after["hands_log"][-1]
    finish: list[int] = h["finish"]
    endless = after["options"].get("endless")
    knights = finish[2:-1]
    parts = [f"King {name(after, h['king'])}" + ("" if endless else " (+2 tokens)"),
             f"Queen {name(after, h['queen'])}" + ("" if endless else " (+1 token)")]
    if knights:
        parts.append(("Knights " if len(knights) > 1 else "Knight ") + ", ".join(name(after, s) for s in knights))
    parts.append(f"Beggar {name(after, h['beggar'])}")
    lines = [f"[bold]Hand {h['hand']} over[/]: " + "; ".join(parts) + "."]
    if endless:
        kings = [p["times_king"] for p in after["players"]]
        lines.append("Times King: " + ", ".join(f"{name(after, s)} {k}" for s, k in enumerate(kings)) + ".")
    else:
        lines.append("Tokens: " + ", ".join(f"{name(after, s)} {t}" for s, t in enumerate(h["tokens"])) + ".")
    return lines


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
            table.add_row(str(h["hand"]), name(view, h["king"]), name(view, h["queen"]), name(view, h["beggar"]),
                          " ".join(str(s) for s in h["finish"]))
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
        console.print(f"  seat {s} ({_character(v, s)}): {cards_markup(v.get('hand', [])) or '-'}")


__all__ = ["HELP", "describe_event", "escape", "render_hands", "render_moves", "render_result", "render_view"]
