// Rank: the board from one seat's view (RK-16: hands, the draw pile and exchanged cards are private).
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
const MODS = new Set(["U", "D", "C", "C2"]);

function playCount(cards) {
  return cards.filter((c) => !MODS.has(c)).length;
}

function goal(view) {
  const o = view.options || {};
  return o.endless ? `${o.hands} hands (endless)` : `first to ${plural(o.tokens_to_win, "token")}`;
}

function playWords(ctx, seat, text) {
  const who = ctx.name(seat, { cap: true });
  const you = seat === ctx.me;
  if (text === "pass") return `${who} pass${you ? "" : "es"}.`;
  const cards = text.split(" ");
  if (text === "C" || text === "C2") return `${who} play${you ? "" : "s"} a Crown (${text}) and win${you ? "" : "s"} the round.`;
  if (text === "U" || text === "D") return `${who} play${you ? "" : "s"} a lone ${text === "U" ? "Rank-Up" : "Rank-Down"} and sit${you ? "" : "s"} out the round.`;
  return `${who} play${you ? "" : "s"} ${text} (${plural(playCount(cards), "card")}).`;
}

function exchangeWords(ctx, e) {
  const cards = e.cards ? `${e.cards.length === 1 ? "card" : "cards"} ${e.cards.join(" ")}` : plural(e.count, "card");
  const from = ctx.name(e.from);
  const to = ctx.name(e.to);
  if (e.why === "steal") return `The King (${to}) steals ${cards} from the Beggar (${from}).`;
  if (e.why === "tax") return `${ctx.name(e.from, { cap: true })} hands ${cards} to ${to} (tax).`;
  return `${ctx.name(e.from, { cap: true })} gives ${cards} back to ${to}.`;
}

function handOverLines(view, ctx, h) {
  const endless = (view.options || {}).endless;
  const parts = [`King ${ctx.name(h.king)}${endless ? "" : " (+2)"}`, `Queen ${ctx.name(h.queen)}${endless ? "" : " (+1)"}`];
  parts.push(`Beggar ${ctx.name(h.beggar)}`);
  return [`Hand ${h.hand} over: ${parts.join(", ")}.`];
}

function prefix(a, b) {
  if (a.length > b.length) return false;
  return a.every((x, i) => x[0] === b[i][0] && x[1] === b[i][1]);
}

export default {
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
    return `Hand ${view.hand_number} · ${PHASES[view.phase] || view.phase} · ${goal(view)}`;
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
      cards: p.cards,
      stats: [[endless ? "times King" : "tokens", endless ? p.times_king : p.tokens]],
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
        cardRow("rank", pile.top, { small: false }),
      );
      const under = pile.cards.length - pile.top.length;
      if (under > 0) pileBox.append(el("div", { class: "muted" }, `${plural(under, "card")} beneath`));
    } else {
      pileBox.append(el("div", { class: "pile-label" }, view.phase === "play" ? "Pile: empty — a new round" : "Pile: empty"));
    }
    box.append(pileBox);
    const info = el("div", { class: "facts" },
      el("span", {}, `Draw pile: ${plural(view.draw_pile, "card")}`),
      el("span", {}, `Discarded: ${plural((view.discard || []).length, "card")}`));
    box.append(info);
    const kh = view.kings_hand || {};
    if (kh.dealt) {
      box.append(el("div", { class: "notice" }, kh.choice
        ? `King's Hand: the King chose to ${kh.choice}.`
        : kh.waiting ? "King's Hand: the King decides whether to swap for the extra hand." : "King's Hand dealt."));
    }
    const ex = view.exchanges || [];
    if (ex.length) {
      box.append(el("div", { class: "exchanges" }, el("strong", {}, "Exchanges this hand"),
        el("ul", {}, ex.map((e) => el("li", {}, exchangeWords(ctx, e))))));
    }
    if (view.owed && Object.keys(view.owed).length) {
      box.append(el("div", { class: "notice" }, "Cards owed back: " +
        Object.entries(view.owed).map(([s, n]) => `${ctx.name(Number(s))} ${n}`).join(", ")));
    }
    return box;
  },

  initialLog(view, ctx) {
    const lines = [];
    for (const h of view.hands_log || []) lines.push(...handOverLines(view, ctx, h));
    if (view.round_log && view.round_log.length) for (const [s, t] of view.round_log) lines.push(playWords(ctx, s, t));
    else if (view.last_round) for (const [s, t] of view.last_round) lines.push(playWords(ctx, s, t));
    return lines;
  },

  events(prev, view, ctx) {
    const lines = [];
    const sameHand = prev.hand_number === view.hand_number;
    const prevLog = prev.round_log || [];
    const curLog = view.round_log || [];
    if (sameHand && prefix(prevLog, curLog)) {
      for (const [s, t] of curLog.slice(prevLog.length)) lines.push(playWords(ctx, s, t));
    } else if (prefix(prevLog, view.last_round || [])) {
      for (const [s, t] of view.last_round.slice(prevLog.length)) lines.push(playWords(ctx, s, t));
      const last = view.last_round[view.last_round.length - 1];
      if (sameHand && last && last[1] !== "C" && last[1] !== "C2" && prev.pile && prev.pile.owner !== null) {
        lines.push(`Round over: ${ctx.name(prev.pile.owner)} won it.`);
      }
      for (const [s, t] of curLog) lines.push(playWords(ctx, s, t));
    }
    const prevHands = (prev.hands_log || []).length;
    for (const h of (view.hands_log || []).slice(prevHands)) lines.push(...handOverLines(view, ctx, h));
    if (!sameHand && view.phase !== "over") lines.push(`Hand ${view.hand_number} is dealt.`);
    const oldEx = sameHand ? (prev.exchanges || []).length : 0;
    for (const e of (view.exchanges || []).slice(oldEx)) lines.push(exchangeWords(ctx, e));
    if (prev.phase === "benefit" && view.phase === "play" && (view.exchanges || []).length === oldEx) {
      lines.push(`The King (${ctx.name(view.turn)}) chooses to lead.`);
    }
    const kh = view.kings_hand || {};
    if (kh.choice && !((prev.kings_hand || {}).choice) && sameHand) {
      lines.push(kh.choice === "swap" ? "The King takes the King's Hand." : "The King keeps his hand.");
    }
    const committed = ((view.pending || {}).committed || []).filter((s) => !((prev.pending || {}).committed || []).includes(s));
    for (const s of committed) lines.push(`${ctx.name(s, { cap: true })} has chosen what to give back.`);
    return lines;
  },

  roundEnded(prev, view) {
    return prev.pile && prev.pile.count > 0 && (!view.pile.count || view.hand_number !== prev.hand_number);
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
