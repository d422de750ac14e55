// Rank Royale: a two-player duel of secret choices revealed together (RR-3).
import { backEl, cardEl, cardRow } from "../cards.js";
import { el, ordinal, plural } from "../util.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function outcome(ctx, e) {
  const [c0, c1] = e.cards;
  const head = `Round ${e.round}: ${ctx.name(0, { cap: true })} ${c0} v ${ctx.name(1)} ${c1}: `;
  const w = e.winner;
  if (e.outcome === "tie") return head + "same rank, a tie.";
  if (e.outcome === "rank") return head + `same tier, ${ctx.name(w)} ${w === ctx.me ? "win" : "wins"} on rank and draw${w === ctx.me ? "" : "s"} a card.`;
  const loser = 1 - w;
  let text = head + `${e.tiers[w]} beats ${e.tiers[loser]}; ${ctx.name(loser)} must discard ${e.discard}`;
  if (e.lost) return text + ` but cannot: ${ctx.name(w)} ${w === ctx.me ? "win" : "wins"}!`;
  if (e.discarded && e.discarded.length) text += ` and discard${loser === ctx.me ? "" : "s"} ${e.discarded.join(" ")}`;
  return text + ".";
}

export default {
  name: "royale",

  sortHand(hand) {
    return [...hand].sort((a, b) => RANKS.indexOf(a.slice(0, -1)) - RANKS.indexOf(b.slice(0, -1)) || a.localeCompare(b));
  },

  headline(view, ctx) {
    const movers = view.to_move || [];
    if (view.phase === "over") return "The game is over.";
    const pending = view.pending || {};
    if (view.phase === "discard") {
      const owed = view.owed;
      if (owed.seat === ctx.me) return `You lost the tier battle: choose ${plural(owed.count, "card")} to discard.`;
      return `${ctx.name(owed.seat, { cap: true })} chooses ${plural(owed.count, "card")} to discard.`;
    }
    if (pending.mine) return `You chose ${pending.mine} in secret; waiting for ${movers.map((s) => ctx.name(s)).join(", ")}.`;
    if (movers.includes(ctx.me)) return "Choose a card in secret: it is revealed when both have chosen.";
    return `Waiting for ${movers.map((s) => ctx.name(s)).join(" and ")} to choose.`;
  },

  subtitle(view) {
    const d = view.discard_table;
    return `Round ${view.round} · discards: low ${d.low}, middle ${d.middle}, high ${d.high} · Low beats High, Middle beats Low, High beats Middle`;
  },

  seatInfo(view, seat) {
    const p = view.players[seat];
    const status = [];
    if (((view.pending || {}).committed || []).includes(seat)) status.push("has chosen");
    if (view.owed && view.owed.seat === seat) status.push(`must discard ${view.owed.count}`);
    return {
      role: null,
      cards: p.hand_size,
      stats: [["deck", p.deck_size], ["reshuffles", p.reshuffles]],
      status,
      extra: el("div", { class: "discards" }, el("span", { class: "muted" }, "discard pile: "),
        cardRow("royale", p.discard_pile.slice(-8), { empty: "empty" }),
        p.discard_pile.length > 8 ? el("span", { class: "muted" }, ` (+${p.discard_pile.length - 8} older)`) : null),
    };
  },

  center(view, ctx) {
    const box = el("div", { class: "center-royale" });
    const pending = view.pending || {};
    const committed = pending.committed || [];
    const arena = el("div", { class: "arena" });
    const last = view.log[view.log.length - 1];
    const showReveal = last && view.phase !== "play" ? true : last && !committed.length && !pending.mine;
    for (const seat of [0, 1]) {
      const slot = el("div", { class: "duel-slot" }, el("div", { class: "muted" }, ctx.name(seat, { cap: true })));
      if (seat === ctx.me && pending.mine) slot.append(cardEl("royale", pending.mine), el("div", { class: "muted" }, "your secret choice"));
      else if (committed.includes(seat)) slot.append(backEl("?", false), el("div", { class: "muted" }, "chosen, hidden"));
      else if (showReveal) slot.append(el("div", { class: "reveal" }, cardEl("royale", last.cards[seat])), el("div", { class: "muted" }, last.tiers[seat]));
      else slot.append(el("div", { class: "slot-empty" }, "choosing…"));
      arena.append(slot);
    }
    box.append(arena);
    if (last) box.append(el("div", { class: "outcome", role: "status" }, outcome(ctx, last)));
    return box;
  },

  initialLog(view, ctx) {
    return view.log.map((e) => outcome(ctx, e));
  },

  events(prev, view, ctx) {
    const lines = [];
    const prevCommitted = (prev.pending || {}).committed || [];
    for (const s of (view.pending || {}).committed || []) {
      if (!prevCommitted.includes(s)) lines.push(`${ctx.name(s, { cap: true })} ${s === ctx.me ? "have" : "has"} chosen a card.`);
    }
    for (const e of view.log.slice(prev.log.length)) lines.push(outcome(ctx, e));
    const pl = prev.log[prev.log.length - 1];
    const vl = view.log[prev.log.length - 1];
    if (pl && vl && (pl.discarded || []).length === 0 && (vl.discarded || []).length > 0) {
      const loser = 1 - vl.winner;
      lines.push(`${ctx.name(loser, { cap: true })} discard${loser === ctx.me ? "" : "s"} ${vl.discarded.join(" ")}.`);
    }
    return lines;
  },

  revealed(prev, view) {
    return view.log.length > prev.log.length;
  },

  roundEnded() {
    return false;
  },

  handEnded() {
    return false;
  },

  standings(view, result, ctx) {
    const d = result.details || {};
    return {
      head: ["Place", "Player", "Score"],
      rows: result.ranking.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
      extra: `${plural(d.rounds || 0, "round")}; ${d.reason === "round_limit" ? "a draw at the round limit" : "the loser could not discard"}.`,
    };
  },
};
