// King Queens & Paupers: roles, play order, taxes, the pile and consecutive mode.
// What happens is told by the engine (view.log, shown by table.js); nothing here words events.
import { cardRow } from "../cards.js";
import { el, ordinal, plural } from "../util.js";

const ROLES = { king: "♚ King", queen: "♛ Queen", commoner: "Commoner", "pauper-1": "Pauper-1", "pauper-2": "Pauper-2" };
const ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "S", "G", "Q", "K"];

function taxWords(ctx, t) {
  const cards = t.cards ? `: ${t.cards.join(" ")}` : "";
  const you = t.from === ctx.me;
  const verb = t.why === "tax" ? (you ? "pay" : "pays") : you ? "give back" : "gives back";
  return `${ctx.name(t.from, { cap: true })} ${verb} ${plural(t.count, "card")} to ${ctx.name(t.to)}${cards}.`;
}

// How the game's cards look (cards.js draws them with this face).
function kqpFace(code) {
  const n = Number(code);
  if (Number.isInteger(n) && n >= 3 && n <= 14) {
    const hue = Math.round(200 - (n - 3) * 14);
    return { corner: code, center: code, ink: `hsl(${hue} 60% 32%)`, bg: "#fff", name: code };
  }
  switch (code) {
    case "S": return { corner: "S", center: "◆", ink: "#4b5563", bg: "#eef1f5", name: "Silver", sub: "SILVER" };
    case "G": return { corner: "G", center: "◆", ink: "#8a6100", bg: "#fff1c2", name: "Gold", sub: "GOLD" };
    case "Q": return { corner: "Q", center: "♛", ink: "#a01850", bg: "#ffe4ef", name: "Queen", sub: "QUEEN" };
    case "K": return { corner: "K", center: "♚", ink: "#6b1f8a", bg: "#f1e4ff", name: "King", sub: "KING" };
    default: return { corner: code, center: "?", ink: "#333", bg: "#eee", name: code };
  }
}

export default {
  cardFace: kqpFace,

  name: "kqp",

  seatOrder(view) {
    return view.order;
  },

  headline(view, ctx) {
    const movers = view.to_move || [];
    if (view.phase === "over") return "The game is over.";
    if (view.phase === "tax") {
      if (movers.includes(ctx.me)) return `Your decision: give ${plural(view.owed[String(ctx.me)] || 0, "card")} back.`;
      return `Taxes: waiting for ${movers.map((s) => ctx.name(s)).join(", ")} to give cards back.`;
    }
    if (view.turn === ctx.me) return view.leading ? "Your turn: lead any set of one value." : "Your turn: beat the pile or pass.";
    return `${ctx.name(view.turn, { cap: true })} to play${view.leading ? " (leading)" : ""}.`;
  },

  subtitle(view) {
    const o = view.options || {};
    const limits = [];
    if (o.target !== null && o.target !== undefined) limits.push(`to ${o.target} points`);
    if (o.rounds !== null && o.rounds !== undefined) limits.push(plural(o.rounds, "round"));
    const phase = { tax: "taxes", play: "play", over: "game over" }[view.phase] || view.phase;
    return `Round ${view.round} · ${phase} · ${limits.join(" or ")} (lowest total wins)`;
  },

  seatInfo(view, seat) {
    const p = view.players[seat];
    const status = [];
    if (p.out) status.push(`out (${ordinal(p.out)})`);
    else if (p.passed) status.push("passed");
    if (view.pile.owner === seat && view.pile.count) status.push("owns the pile");
    if (((view.pending || {}).committed || []).includes(seat)) status.push("has chosen");
    return {
      role: ROLES[p.role] || p.role,
      roleClass: `role-${p.role}`,
      cards: p.hand_size,
      stats: [["points", p.score], ["position", p.position]],
      status,
      passed: !!p.passed,
      out: !!p.out,
      owner: view.pile.owner === seat && view.pile.count > 0,
    };
  },

  center(view, ctx) {
    const box = el("div", { class: "center-kqp" });
    const pile = view.pile;
    const pileBox = el("div", { class: "pile", "aria-label": "pile" });
    if (pile.count) {
      pileBox.append(el("div", { class: "pile-label" }, `Pile: sets of ${pile.count}`,
        el("span", { class: "owner" }, ` · owner ${ctx.name(pile.owner)}`)), cardRow(view.game, pile.top, { small: false }));
      if (pile.consecutive) {
        const next = ["G", "Q", "K"].includes(String(pile.value)) ? "a Queen or the King" : "exactly one value up";
        pileBox.append(el("div", { class: "mode-badge", role: "status" }, `CONSECUTIVE MODE — play ${next} (or a Queen / the King)`));
      }
      if (pile.plays && pile.plays.length) {
        pileBox.append(el("div", { class: "muted" }, "This pile: " + pile.plays.map(([s, t]) => `${ctx.name(s)}: ${t}`).join(" · ")));
      }
    } else if (view.phase === "play") {
      pileBox.append(el("div", { class: "pile-label" }, `Pile: empty — ${ctx.name(view.turn)} lead${view.turn === ctx.me ? "" : "s"}`));
    } else {
      pileBox.append(el("div", { class: "pile-label" }, "Pile: empty"));
    }
    box.append(pileBox);
    if ((view.taxes || []).length) {
      box.append(el("div", { class: "exchanges" }, el("strong", {}, `Taxes, round ${view.round}`),
        el("ul", {}, view.taxes.map((t) => el("li", {}, taxWords(ctx, t))))));
    }
    box.append(el("div", { class: "facts" }, el("span", {}, "Play order: " + view.order.map((s) => ctx.name(s)).join(" → "))));
    return box;
  },

  roundEnded(prev, view) {
    return prev.pile.count > 0 && !view.pile.count;
  },

  handEnded(prev, view) {
    return (view.rounds_log || []).length > (prev.rounds_log || []).length;
  },

  handSummary(view, ctx) {
    const r = view.rounds_log[view.rounds_log.length - 1];
    const rows = r.finish.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), r.points[s], r.scores[s]]);
    return { title: `Round ${r.round} over`, head: ["Finish", "Player", "Points", "Total"], rows };
  },

  standings(view, result, ctx) {
    return {
      head: ["Place", "Player", "Points (lower is better)"],
      rows: result.ranking.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
      extra: `${plural((result.details || {}).rounds || 0, "round")} played.`,
    };
  },
};
