// Royals: Royals in play, attacks and assassinations, commitments, pairing and hits.
import { cardEl, cardRow, frenchFace } from "../cards.js";
import { el, ordinal, plural } from "../util.js";

const PHASES = {
  action: "choose an action",
  commit: "commit cards in secret",
  pair: "the defender pairs blocks with attacks",
  hits: "the defender spreads the hits",
  losses: "hit Royals are discarded or replaced",
  over: "game over",
};

function royalEl(game, r, hits) {
  const box = el("span", { class: "royal", title: `Royal ${r.face} over ${r.number}: ${r.value} points` },
    cardEl(game, r.face, { small: true }), cardEl(game, r.number, { small: true }),
    el("span", { class: "royal-value" }, `${r.value}`));
  if (hits) box.append(el("span", { class: "hit-badge" }, `${hits} hit${hits === 1 ? "" : "s"}`));
  return box;
}

export default {
  cardFace: frenchFace,

  name: "royals",

  headline(view, ctx) {
    const movers = view.to_move || [];
    if (view.phase === "over") return "The game is over.";
    if (movers.includes(ctx.me)) {
      if (view.phase === "action") return "Your turn: play a Royal, attack, assassinate or discard your hand.";
      if (view.phase === "commit") return "Commit your cards in secret (red attacks, black blocks).";
      if (view.phase === "pair") return "Pair your block cards with attack cards, or done.";
      if (view.phase === "hits") return "Spread the hits over your Royals.";
      if (view.phase === "losses") return "A hit Royal: discard it or replace its number card.";
    }
    if ((view.pending || {}).mine) return "You have committed; waiting for the others.";
    return `Waiting for ${movers.map((s) => ctx.name(s)).join(", ")} (${PHASES[view.phase] || view.phase}).`;
  },

  subtitle(view) {
    return `Turn ${view.round} · ${PHASES[view.phase] || view.phase} · target ${view.target} points · hand limit ${view.hand_limit}`;
  },

  seatInfo(view, seat) {
    const p = view.players[seat];
    const fight = view.fight;
    const status = [];
    if (view.turn === seat && view.phase !== "over") status.push("turn");
    if (fight && fight.attacker === seat) status.push(fight.kind === "attack" ? "attacking" : "assassin");
    if (fight && fight.defender === seat) status.push("defending");
    if (((view.pending || {}).committed || []).includes(seat)) status.push("committed");
    const wounds = new Map(((fight && fight.wounds) || []).map(([face, h]) => [face, h]));
    const extra = el("div", { class: "royals-area" },
      p.royals.length ? p.royals.map((r) => royalEl(view.game, r, wounds.get(r.face))) : el("span", { class: "muted" }, "no Royals"));
    if (p.table.length) extra.append(el("div", { class: "on-table" }, el("span", { class: "muted" }, "on the table: "), cardRow(view.game, p.table)));
    if (p.discard.length) {
      // the view lists the pile top card first: show the top six
      extra.append(el("div", { class: "discards" }, el("span", { class: "muted" }, `discard pile (${p.discard.length}, top first): `),
        cardRow(view.game, p.discard.slice(0, 6))));
    }
    return {
      role: `${p.score} pts`,
      roleClass: p.score >= view.target ? "role-king" : "",
      cards: p.hand_size,
      stats: [["deck", p.deck_size]],
      status,
      extra,
    };
  },

  center(view, ctx) {
    const box = el("div", { class: "center-royals" });
    const fight = view.fight;
    if (!fight) {
      box.append(el("div", { class: "facts" }, el("span", {}, `${ctx.name(view.turn, { cap: true })} ${view.turn === ctx.me ? "are" : "is"} on turn.`)));
      return box;
    }
    const panel = el("div", { class: "fight" });
    const head = fight.kind === "attack"
      ? `${ctx.name(fight.attacker, { cap: true })} attack${fight.attacker === ctx.me ? "" : "s"} ${ctx.name(fight.defender)}.`
      : `${ctx.name(fight.attacker, { cap: true })} tr${fight.attacker === ctx.me ? "y" : "ies"} to assassinate ${fight.defender === ctx.me ? "your" : ctx.name(fight.defender) + "'s"} Royal ${fight.target}.`;
    panel.append(el("div", { class: "fight-head" }, head));
    if (!fight.revealed) {
      const committed = (view.pending || {}).committed || [];
      panel.append(el("ul", { class: "commitments" }, Object.entries(fight.need).map(([s, need]) => el("li", {},
        `${ctx.name(Number(s), { cap: true })}: ${need.up_to ? "up to " : ""}${plural(need.count, "card")} — `,
        el("strong", {}, committed.includes(Number(s)) ? "committed" : "choosing")))));
      if ((view.pending || {}).mine) panel.append(el("div", { class: "muted" }, `Your secret commitment: ${view.pending.mine}`));
    } else {
      panel.append(
        el("div", {}, "Attack cards (red): ", el("strong", {}, fight.attacks.join(" ") || "none"),
          " · block cards (black): ", el("strong", {}, fight.blocks.join(" ") || "none")),
        el("div", {}, "Paired: ", el("strong", {}, fight.pairs.map(([a, b]) => `${a} blocked by ${b}`).join(", ") || "none")),
      );
      if (["hits", "losses"].includes(view.phase) || fight.hits) {
        panel.append(el("div", {}, `Hits: ${fight.hits}`, fight.assigned.length ? ` · placed on ${fight.assigned.join(" ")}` : ""));
      }
    }
    box.append(panel);
    return box;
  },

  revealed(prev, view) {
    return !!(view.fight && view.fight.revealed && !(prev.fight && prev.fight.revealed));
  },

  roundEnded() {
    return false;
  },

  handEnded() {
    return false;
  },

  actionLabel(text, ctx) {
    const m = text.match(/^attack (\d+)$/);
    if (m) return `attack ${ctx.name(Number(m[1]))}`;
    const a = text.match(/^assassinate (\d+) (\S+)$/);
    if (a) return `assassinate ${ctx.name(Number(a[1]))}'s ${a[2]}`;
    return text;
  },

  standings(view, result, ctx) {
    return {
      head: ["Place", "Player", "Points in play"],
      rows: result.ranking.map((s, i) => [ordinal(i + 1), ctx.name(s, { cap: true }), result.scores[s]]),
      extra: result.winner !== null ? "" : (result.details || {}).turns ? `A draw after ${plural(result.details.turns, "turn")}.`
        : "A draw.",
    };
  },
};
