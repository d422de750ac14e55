// One renderer module per game; an unknown game falls back to a plain JSON view.
import kqp from "./kqp.js";
import rank from "./rank.js";
import royale from "./royale.js";
import royals from "./royals.js";
import { el } from "../util.js";

const generic = {
  name: "generic",
  headline: (view, ctx) => ((view.to_move || []).includes(ctx.me) ? "Your decision." : "Waiting."),
  subtitle: () => "",
  seatInfo: () => ({ role: null, cards: null, stats: [], status: [] }),
  center: (view) => el("pre", { class: "json" }, JSON.stringify(view, null, 1)),
  initialLog: () => [],
  events: () => [],
  roundEnded: () => false,
  handEnded: () => false,
  standings: (view, result, ctx) => ({
    head: ["Place", "Player", "Score"],
    rows: result.ranking.map((s, i) => [String(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
  }),
};

const GAMES = { rank, kqp, royale, royals };

export function renderer(game) {
  return { ...generic, ...(GAMES[game] || {}) };
}
