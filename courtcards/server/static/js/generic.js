// The generic renderer: draws any game from its view alone (the shared words of every view,
// courtcards.core.views, and whatever else the game puts in it), for a game whose package has no
// browser module. The moves are the legal actions (table.js and actions.js offer them); what happened
// is the engine's log (view.log, shown by table.js). A game's own module overrides any of these.
import { cardRow, isFrenchCard } from "./cards.js";
import { el, ordinal } from "./util.js";

// the view's shared words, drawn by the page itself (the title, the headline, the hand, the log, the result)
const SHOWN_ELSEWHERE = new Set([
  "game", "seat", "num_players", "options", "version", "phase", "round", "to_move", "turn", "hand", "players",
  "log", "pending", "result",
]);
// fields whose number is a seat, by the words of their names
const SEAT_FIELD = /(^|_)(seat|seats|turn|leader|owner|winner|loser|dealer|attacker|defender|from|to)$/;

// The codes a game uses for its cards, as learnt from the hands this page has seen (per game).
const SEEN = new Map();

function seen(game) {
  if (!SEEN.has(game)) SEEN.set(game, new Set());
  return SEEN.get(game);
}

function words(key) {
  const text = String(key).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isScalar(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

// A string is a card if it reads as one (rank then suit) or if it was seen in a hand of this game.
function isCard(game, v) {
  return typeof v === "string" && v.length > 0 && v.length <= 4 && !/\s/.test(v) && (isFrenchCard(v) || seen(game).has(v));
}

function isCardList(game, v) {
  return Array.isArray(v) && v.length > 0 && v.every((c) => isCard(game, c));
}

function scalarText(key, v, ctx) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number" && Number.isInteger(v) && SEAT_FIELD.test(key) && ctx.name) return ctx.name(v, { cap: true });
  return String(v);
}

// Any value as page content: cards as cards, seats by name, lists and objects compactly.
function valueEl(game, key, v, ctx) {
  if (isCard(game, v)) return cardRow(game, [v]);
  if (isScalar(v)) return scalarText(key, v, ctx);
  if (Array.isArray(v)) {
    if (!v.length) return el("span", { class: "muted" }, "none");
    if (isCardList(game, v)) return cardRow(game, v);
    if (v.every(isScalar)) return v.map((x) => scalarText(key, x, ctx)).join(", ");
    if (v.every((x) => x && typeof x === "object" && !Array.isArray(x))) return objectsTable(game, v, ctx);
    return JSON.stringify(v);
  }
  if (typeof v === "object") {
    const entries = Object.entries(v);
    if (!entries.length) return el("span", { class: "muted" }, "none");
    if (entries.every(([, x]) => isScalar(x) || isCardList(game, x))) {
      return el("span", { class: "kv-inline" }, entries.map(([k, x], i) =>
        el("span", {}, i ? " · " : "", `${words(k)}: `, valueEl(game, k, x, ctx))));
    }
    return JSON.stringify(v);
  }
  return String(v);
}

// A list of records (tricks, fights, plays) as a table, one row each.
function objectsTable(game, rows, ctx, { first = null } = {}) {
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  const head = first ? [first.head, ...keys.map(words)] : keys.map(words);
  return el("table", { class: "standings generic-table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r, i) => el("tr", {},
      first ? el("td", {}, first.cell(r, i)) : null,
      keys.map((k) => el("td", {}, k in r ? valueEl(game, k, r[k], ctx) : ""))))));
}

function playersTable(game, view, ctx) {
  const players = view.players.map((p) => {
    const row = {};
    for (const [k, v] of Object.entries(p)) if (k !== "seat") row[k] = v;
    return row;
  });
  const named = (seat) => ctx.name(seat, { cap: true, you: false }) + (seat === ctx.me ? " (you)" : "");
  return objectsTable(game, players, ctx, { first: { head: "Player", cell: (r, i) => named(view.players[i].seat ?? i) } });
}

function who(ctx, seats) {
  return seats.map((s) => ctx.name(s)).join(", ");
}

export function genericRenderer(game, info) {
  const roundWord = (info && info.round_word) || "Round";
  const title = (info && info.title) || game;
  return {
    name: game,
    title,

    headline(view, ctx) {
      const movers = view.to_move || [];
      if (view.result || view.phase === "over") return "The game is over.";
      if (movers.includes(ctx.me)) return movers.length > 1 ? "Your decision (the others decide too)." : "Your turn.";
      if (view.pending && view.pending.mine) return `You have chosen; waiting for ${who(ctx, movers)}.`;
      if (movers.length === 1) return `${ctx.name(movers[0], { cap: true })} to play.`;
      return movers.length ? `Waiting for ${who(ctx, movers)}.` : "Waiting.";
    },

    subtitle(view) {
      const parts = [title];
      if (view.round !== undefined && view.round !== null) parts.push(`${roundWord} ${view.round}`);
      if (view.phase) parts.push(view.phase);
      return parts.join(" · ");
    },

    seatInfo(view, seat) {
      const p = (view.players || [])[seat];
      if (!p) return { role: null, cards: null, stats: [], status: [] };
      const status = [];
      for (const [k, v] of Object.entries(p)) if (v === true) status.push(words(k).toLowerCase());
      if (((view.pending || {}).committed || []).includes(seat)) status.push("has chosen");
      return {
        role: null,
        cards: p.hand_size ?? null,
        stats: p.score !== undefined ? [["score", p.score]] : [],
        status,
        out: !!p.out,
        passed: !!p.passed,
      };
    },

    center(view, ctx) {
      for (const c of view.hand || []) seen(game).add(c);
      const box = el("div", { class: "center-generic" });
      const facts = el("dl", { class: "kv" });
      const blocks = [];
      for (const [key, value] of Object.entries(view)) {
        if (SHOWN_ELSEWHERE.has(key)) continue;
        if (isScalar(value) || !Array.isArray(value)) {
          facts.append(el("div", { class: "kv-row", dataset: { field: key } }, el("dt", {}, words(key)), el("dd", {}, valueEl(game, key, value, ctx))));
        } else {
          blocks.push(el("div", { class: "generic-block", dataset: { field: key } }, el("div", { class: "pile-label" }, words(key)),
            valueEl(game, key, value, ctx)));
        }
      }
      const pending = view.pending || {};
      if ((pending.committed || []).length) {
        facts.append(el("div", { class: "kv-row" }, el("dt", {}, "Chosen"), el("dd", {}, who(ctx, pending.committed))));
      }
      if (pending.mine) facts.append(el("div", { class: "kv-row" }, el("dt", {}, "Your choice"), el("dd", {}, valueEl(game, "mine", pending.mine, ctx))));
      if (facts.children.length) box.append(facts);
      box.append(...blocks);
      if (Array.isArray(view.players) && view.players.length) {
        box.append(el("div", { class: "generic-block players-table" }, el("div", { class: "pile-label" }, "Players"), playersTable(game, view, ctx)));
      }
      return box;
    },

    initialLog: () => [],
    events: () => [],
    roundEnded: () => false,
    handEnded: () => false,

    standings(view, result, ctx) {
      const label = (result.details || {}).score || "Score";
      return {
        head: ["Place", "Player", words(label)],
        rows: result.ranking.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
      };
    },
  };
}
