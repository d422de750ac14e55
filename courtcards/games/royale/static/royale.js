// Rank Royale: a two-player duel of secret choices revealed together (RR-3).
import { backEl, cardEl, cardRow, frenchFace, setTiers } from "../cards.js";
import { el, eventText, ordinal, plural } from "../util.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

// The engine gives each rank's tier (view.tiers, RR-1): the cards are drawn with it.
function learn(view) {
  setTiers(view.game, view.tiers);
}

export default {
  cardFace: frenchFace, // French cards, with the tier of their rank (setTiers)

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
    learn(view);
    const d = view.discard_table;
    return `Round ${view.round} · discards: low ${d.low}, middle ${d.middle}, high ${d.high} · Low beats High, Middle beats Low, High beats Middle`;
  },

  seatInfo(view, seat) {
    learn(view);
    const p = view.players[seat];
    const status = [];
    if (((view.pending || {}).committed || []).includes(seat)) status.push("has chosen");
    if (view.owed && view.owed.seat === seat) status.push(`must discard ${view.owed.count}`);
    return {
      role: null,
      cards: p.hand_size,
      stats: [["deck", p.deck_size], ["reshuffles", p.reshuffles]],
      status,
      extra: el("div", { class: "discards" }, el("span", { class: "muted" }, "discard pile, top first: "),
        cardRow(view.game, p.discard.slice(0, 8), { empty: "empty" }),
        p.discard.length > 8 ? el("span", { class: "muted" }, ` (+${p.discard.length - 8} older)`) : null),
    };
  },

  center(view, ctx) {
    learn(view);
    const box = el("div", { class: "center-royale" });
    const pending = view.pending || {};
    const committed = pending.committed || [];
    const arena = el("div", { class: "arena" });
    const rounds = view.rounds_log;
    const last = rounds.length && rounds[rounds.length - 1].cards.length === 2 ? rounds[rounds.length - 1] : null;
    const showReveal = last && view.phase !== "play" ? true : last && !committed.length && !pending.mine;
    for (const seat of [0, 1]) {
      const slot = el("div", { class: "duel-slot" }, el("div", { class: "muted" }, ctx.name(seat, { cap: true })));
      if (seat === ctx.me && pending.mine) slot.append(cardEl(view.game, pending.mine), el("div", { class: "muted" }, "your secret choice"));
      else if (committed.includes(seat)) slot.append(backEl("?", false), el("div", { class: "muted" }, "chosen, hidden"));
      else if (showReveal) slot.append(el("div", { class: "reveal" }, cardEl(view.game, last.cards[seat])), el("div", { class: "muted" }, last.tiers[seat]));
      else slot.append(el("div", { class: "slot-empty" }, "choosing…"));
      arena.append(slot);
    }
    box.append(arena);
    // once a round is revealed: the engine's last sentence (the reveal and its outcome, or what followed)
    const said = view.log[view.log.length - 1];
    if (rounds.length && said) box.append(el("div", { class: "outcome", role: "status" }, eventText(said, ctx)));
    return box;
  },

  revealed(prev, view) {
    return view.rounds_log.length > prev.rounds_log.length;
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
