// Rank: the board from one seat's view (RK-16: hands, the draw pile and exchanged cards are private).
// What happened is the engine's own sentences (view.log, shown by table.js); no rule and no
// event wording lives here.
import { cardRow } from "../cards.js";
import { el, ordinal, plural } from "../util.js";

const CHARACTERS = { king: "King", queen: "Queen", knight: "Knight", beggar: "Beggar" };
const ICONS = { king: "♚", queen: "♛", knight: "♞", beggar: "☂" };
const PHASES = {
  play: "play",
  benefit: "King's benefit: lead or steal",
  give_back: "the King gives a card back",
  exchange: "Classic President: cards given back",
  kings_hand: "King's Hand: swap or keep",
  over: "game over",
};
function goal(view) {
  const o = view.options || {};
  return o.endless ? `${o.hands} hands (endless)` : `first to ${plural(o.tokens_to_win, "token")}`;
}

// How the game's cards look (cards.js draws them with this face).
function rankFace(code) {
  const n = Number(code);
  if (Number.isInteger(n) && n >= 1 && n <= 12) {
    const hue = Math.round(215 - (n - 1) * 17);
    return { corner: code, center: code, ink: `hsl(${hue} 65% 34%)`, bg: "#fff", name: `${code}` };
  }
  switch (code) {
    case "W": return { corner: "W", center: "★", ink: "#8a6100", bg: "#fff4cc", name: "Wild", sub: "WILD" };
    case "U": return { corner: "U", center: "▲", ink: "#0b6e6e", bg: "#e3f6f5", name: "Rank-Up", sub: "UP" };
    case "D": return { corner: "D", center: "▼", ink: "#7a2e8a", bg: "#f4e8f7", name: "Rank-Down", sub: "DOWN" };
    case "C": return { corner: "C", center: "♛", ink: "#6b1f8a", bg: "#f1e4ff", name: "Crown", sub: "CROWN" };
    case "C2": return { corner: "C2", center: "♛", ink: "#a01850", bg: "#ffe4ef", name: "Crown + Draw 2", sub: "+2" };
    default: return { corner: code, center: "?", ink: "#333", bg: "#eee", name: code };
  }
}

export default {
  cardFace: rankFace,

  name: "rank",

  headline(view, ctx) {
    const phase = view.phase;
    const movers = view.to_move || [];
    if (phase === "over") return "The game is over.";
    if (phase === "play") {
      if (view.turn === ctx.me) return view.leading ? "Your turn: lead any set." : "Your turn: beat the pile or pass.";
      return `${ctx.name(view.turn, { cap: true })} to play${view.leading ? " (leading)" : ""}.`;
    }
    if (movers.includes(ctx.me)) return `Your decision: ${PHASES[phase] || phase}.`;
    return `Waiting for ${movers.map((s) => ctx.name(s)).join(", ")} (${PHASES[phase] || phase}).`;
  },

  subtitle(view) {
    return `Hand ${view.round} · ${PHASES[view.phase] || view.phase} · ${goal(view)}`;
  },

  seatInfo(view, seat) {
    const p = view.players[seat];
    const endless = (view.options || {}).endless;
    const status = [];
    if (p.out) status.push(`out (${ordinal(p.out)})`);
    else if (p.passed) status.push("passed");
    if (view.pile.owner === seat && view.pile.count) status.push("owns the pile");
    if ((view.pending || {}).committed && view.pending.committed.includes(seat)) status.push("has chosen");
    return {
      role: `${ICONS[p.character] || ""} ${CHARACTERS[p.character] || p.character}`,
      roleClass: `role-${p.character}`,
      cards: p.hand_size,
      stats: [[endless ? "times King" : "tokens", p.score]],
      status,
      passed: !!p.passed,
      out: !!p.out,
      owner: view.pile.owner === seat && view.pile.count > 0,
    };
  },

  center(view, ctx) {
    const box = el("div", { class: "center-rank" });
    const pile = view.pile;
    const pileBox = el("div", { class: "pile", "aria-label": "pile" });
    if (pile.count) {
      pileBox.append(
        el("div", { class: "pile-label" }, `Pile: ${plural(pile.count, "card")} of value ${pile.value}`,
          el("span", { class: "owner" }, ` · owner ${ctx.name(pile.owner)}`)),
        cardRow(view.game, pile.top, { small: false }),
      );
      const under = pile.cards.length - pile.top.length;
      if (under > 0) pileBox.append(el("div", { class: "muted" }, `${plural(under, "card")} beneath`));
    } else {
      pileBox.append(el("div", { class: "pile-label" }, view.phase === "play" ? "Pile: empty — a new round" : "Pile: empty"));
    }
    box.append(pileBox);
    const info = el("div", { class: "facts" },
      el("span", {}, `Draw pile: ${plural(view.deck_size, "card")}`),
      el("span", {}, `Discarded: ${plural((view.discard || []).length, "card")}`));
    box.append(info);
    const kh = view.kings_hand || {};
    if (kh.dealt) {
      box.append(el("div", { class: "notice" }, kh.choice
        ? `King's Hand: the King chose to ${kh.choice}.`
        : kh.waiting ? "King's Hand: the King decides whether to swap for the extra hand." : "King's Hand dealt."));
    }
    if (view.owed && Object.keys(view.owed).length) {
      box.append(el("div", { class: "notice" }, "Cards owed back: " +
        Object.entries(view.owed).map(([s, n]) => `${ctx.name(Number(s))} ${n}`).join(", ")));
    }
    return box;
  },

  roundEnded(prev, view) {
    return prev.pile && prev.pile.count > 0 && (!view.pile.count || view.round !== prev.round);
  },

  handEnded(prev, view) {
    return (view.hands_log || []).length > (prev.hands_log || []).length;
  },

  handSummary(view, ctx) {
    const h = view.hands_log[view.hands_log.length - 1];
    const endless = (view.options || {}).endless;
    const rows = h.finish.map((s, i) => {
      const role = s === h.king ? "King" : s === h.queen ? "Queen" : s === h.beggar ? "Beggar" : "Knight";
      const score = endless ? view.players[s].times_king : h.tokens[s];
      return [ordinal(i + 1), ctx.name(s, { cap: true }), role, score];
    });
    return { title: `Hand ${h.hand} over`, head: ["Finish", "Player", "Now", endless ? "Times King" : "Tokens"], rows };
  },

  standings(view, result, ctx) {
    const label = (result.details || {}).score || "score";
    return {
      head: ["Place", "Player", label],
      rows: result.ranking.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
      extra: `${plural((result.details || {}).hands || 0, "hand")} played.`,
    };
  },
};
