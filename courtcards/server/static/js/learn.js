// Learn to play: a first game of any registered game against bots, with a fixed deal (seed) and the
// game's shortest preset (the server's lesson: courtcards/server/lessons.py), and a panel
// beside the board that says at each of the player's turns what they may do now. Everything it says
// comes from the engine's data: the legal moves the table sends, the engine's log of what just happened,
// and the engine's own refusal (its reason and rule code) when a move is not allowed. No rules here.
import { classify } from "./actions.js";
import { api } from "./api.js";
import { clear, el, eventText, playerWords, plural, tokenKey } from "./util.js";

const LEARN_DELAY = 0.8; // seconds a bot waits: slow enough to follow
const SHOWN = 12; // legal moves listed (the rest counted)
const learnKey = (tableId) => `courtcards:learn:${tableId}`;

// -- the lobby: one "Learn to play" button per registered game ---------------------------------------
export function setupLearn(games) {
  const box = document.getElementById("learn-games");
  if (!box) return;
  for (const g of games) {
    const variant = g.lesson.preset ? `${g.lesson.preset}: ${(g.presets[g.lesson.preset] || {}).doc || ""}` : "the standard game";
    const title = `${plural(g.lesson.players, "player")}, ${playerWords(variant)}`; // the lesson's table
    const button = el("button", { type: "button", class: "learn-game", title, dataset: { game: g.name } }, `Learn to play ${g.title}`);
    button.addEventListener("click", () => start(g, button));
    box.append(button);
  }
}

async function start(g, button) {
  const error = document.getElementById("learn-error");
  error.textContent = "";
  button.disabled = true;
  // the easiest bot the game has, and as few of them as the game allows
  const bot = ["random", "greedy"].find((b) => g.bots.includes(b)) || g.bots[0];
  const { players, preset, seed } = g.lesson; // the same deal for every learner, as short as the game offers
  const seats = [{ type: "human" }, ...Array.from({ length: players - 1 }, () => ({ type: "bot", bot }))];
  try {
    const { table } = await api.createTable({ game: g.name, players, preset, seats, seed, bot_delay: LEARN_DELAY, rated: false });
    const name = localStorage.getItem("courtcards:name") || null;
    const res = await api.join(table.id, { seat: 0, name });
    localStorage.setItem(tokenKey(table.id), res.token);
    localStorage.setItem(learnKey(table.id), "1");
    location.href = `/table/${encodeURIComponent(table.id)}`;
  } catch (err) {
    error.textContent = `Could not start the lesson: ${playerWords(err.message)}`;
    button.disabled = false;
  }
}

// -- the table page: the panel beside the board -------------------------------------------------------
const lesson = { on: false, turns: 0, version: null, refusal: null };

export function learning(tableId) {
  lesson.on = localStorage.getItem(learnKey(tableId)) === "1";
  return lesson.on;
}

// What the engine said when a move (or a selection the page asked about) was not allowed.
export function learnRefusal(code, reason, reasonCode) {
  if (!lesson.on) return;
  lesson.refusal = { code, reason: playerWords(reason || ""), rule: reasonCode || null };
  const box = document.getElementById("learn-refusal");
  if (box) fillRefusal(box);
}

function fillRefusal(box) {
  const r = lesson.refusal;
  clear(box).hidden = !r;
  if (!r) return;
  box.append(el("strong", {}, "Not allowed: "), r.reason || r.code,
    r.rule ? el("span", { class: "muted" }, ` (rule: ${r.rule.replace(/_/g, " ")})`) : null);
}

function movesList(legal, hand, R, ctx) {
  const { selectable, buttons } = classify(legal, hand);
  const items = [];
  // card plays, grouped by their verb ("play", "discard", ...): the cards to select for each
  const byVerb = new Map();
  for (const m of selectable) {
    const verb = m.verb || "play";
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    byVerb.get(verb).push(m.cards.join(" "));
  }
  for (const [verb, plays] of byVerb) {
    const shown = plays.slice(0, SHOWN);
    const more = plays.length - shown.length;
    items.push(el("li", { dataset: { kind: "cards" } },
      el("strong", {}, `${verb[0].toUpperCase()}${verb.slice(1)}`), ` (${plural(plays.length, "way")}): select `,
      shown.flatMap((p, i) => [i ? ", " : "", el("code", {}, p)]), more > 0 ? ` and ${more} more` : "",
      " in your hand, then press the button."));
  }
  for (const text of buttons.slice(0, SHOWN)) {
    const label = R.actionLabel ? R.actionLabel(text, ctx) : text;
    items.push(el("li", { dataset: { kind: "button" } }, el("strong", {}, label[0].toUpperCase() + label.slice(1)), ` (the “${text}” move).`));
  }
  if (buttons.length > SHOWN) items.push(el("li", {}, `and ${buttons.length - SHOWN} more moves of that kind.`));
  return items;
}

// The panel for the latest state: called on every render of the table page.
export function renderLearn(msg, view, hand, events, R, ctx) {
  const box = document.getElementById("learn");
  if (!lesson.on || !box) return;
  box.hidden = false;
  const legal = msg.seat !== null && msg.seat !== undefined ? msg.legal || [] : [];
  const mine = legal.length > 0 && msg.status === "playing";
  if (msg.version !== lesson.version) {
    lesson.refusal = null; // the table moved on: an old refusal no longer applies
    if (mine) lesson.turns += 1;
    lesson.version = msg.version;
  }
  clear(box);
  box.dataset.turn = String(lesson.turns);
  box.dataset.version = String(msg.version);
  box.append(el("h2", {}, "Learn to play"));
  const last = events.length ? eventText(events[events.length - 1], ctx) : null;
  if (last) box.append(el("p", { class: "learn-last" }, el("span", { class: "muted" }, "Just now: "), last));
  if (msg.status === "finished") {
    box.append(el("p", { class: "learn-step" }, `The game is over, after ${plural(lesson.turns, "turn")} of yours. `,
      el("a", { href: `/rules/${encodeURIComponent(view.game)}`, target: "_blank" }, "Read the rules"),
      " for what you played by, or go back to the lobby and play a table of your own."));
    return;
  }
  if (msg.status === "open") {
    box.append(el("p", { class: "learn-step" }, "The table is being set; your first turn comes soon."));
    return;
  }
  if (!mine) {
    const movers = (msg.to_move || []).map((s) => ctx.name(s, { cap: true, you: false }));
    box.append(el("p", { class: "learn-step" }, movers.length ? `Waiting for ${movers.join(" and ")} to move. ` : "Waiting. ",
      "Watch the log: each move is written there. Your turn comes next round."));
    return;
  }
  box.append(el("p", { class: "learn-step" }, el("strong", {}, `Your turn ${lesson.turns}. `),
    R.headline ? R.headline(view, ctx) : "",
    ` The rules allow ${plural(legal.length, "move")} now:`));
  box.append(el("ul", { id: "learn-moves", class: "learn-moves" }, movesList(legal, hand, R, ctx)));
  box.append(el("p", { class: "muted" }, "Try any move, even one not listed: if the rules do not allow it, the reason appears here."));
  const refusal = el("p", { id: "learn-refusal", class: "learn-refusal", role: "status" });
  box.append(refusal);
  fillRefusal(refusal);
}
