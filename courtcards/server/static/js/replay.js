// The replay viewer: step through a finished game, every card shown (the game is over).
import { api } from "./api.js";
import { cardRow } from "./cards.js";
import { loadRenderer, renderer } from "./renderers.js";
import { clear, el, plural, seatNamer } from "./util.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
const rp = { info: null, replay: null, step: 0, steps: 0, cache: new Map(), timer: null, token: 0 };

async function fetchStep(step) {
  if (!rp.cache.has(step)) rp.cache.set(step, api.replayStep(tableId, step));
  try {
    return await rp.cache.get(step);
  } catch (err) {
    rp.cache.delete(step);
    throw err;
  }
}

function ctx() {
  return { me: null, seats: rp.info.seats, name: seatNamer(rp.info.seats, null), game: rp.replay.game };
}

function renderPlayers(view, R, c, places) {
  const box = clear($("players"));
  const order = R.seatOrder ? R.seatOrder(view) : [...Array(view.num_players).keys()];
  const movers = new Set(view.to_move || []);
  for (const seat of order) {
    const info = R.seatInfo(view, seat, c);
    const hand = places[`hand:${seat}`] || [];
    box.append(el("div", { class: `player ${movers.has(seat) ? "to-move" : ""} ${info.passed ? "passed" : ""} ${info.out ? "out" : ""}`, dataset: { seat: String(seat) } },
      el("div", { class: "player-head" }, movers.has(seat) ? el("span", { class: "turn-mark" }, "▶") : null,
        el("span", { class: "player-name" }, c.name(seat, { cap: true })),
        info.role ? el("span", { class: `role ${info.roleClass || ""}` }, info.role) : null),
      el("div", { class: "stats" }, (info.stats || []).map(([k, v]) => el("span", { class: "stat" }, `${k} `, el("b", {}, String(v)))),
        el("span", { class: "stat" }, "cards ", el("b", {}, String(hand.length)))),
      el("div", { class: "badges" }, (info.status || []).map((s) => el("span", { class: "badge status" }, s))),
      info.extra || null,
      el("div", { class: "open-hand" }, cardRow(rp.replay.game, hand, { empty: "no cards" }))));
  }
}

function renderPlaces(places, view) {
  const box = clear($("hands"));
  const others = Object.entries(places).filter(([k, v]) => !k.startsWith("hand:") && v.length);
  if (!others.length) return;
  const details = el("details", {}, el("summary", {}, "Other places (draw pile, decks, discards…)"));
  for (const [k, v] of others) details.append(el("div", { class: "place" }, el("strong", {}, `${k} (${v.length}): `), cardRow(view.game, v)));
  box.append(details);
}

async function show(step) {
  step = Math.max(0, Math.min(rp.steps, step));
  const token = ++rp.token;
  let data;
  try {
    data = await fetchStep(step);
  } catch (err) {
    $("step-label").textContent = `Could not load step ${step}: ${err.message}`;
    return;
  }
  if (token !== rp.token) return;
  rp.step = step;
  const view = data.view;
  const R = renderer(rp.replay.game);
  const c = ctx();
  $("slider").value = String(step);
  const act = data.action;
  $("step-label").textContent = act
    ? `Step ${step} of ${rp.steps}: ${c.name(act[0], { cap: true })} — ${act[1]}`
    : `Step 0 of ${rp.steps}: the deal`;
  $("subtitle").textContent = R.subtitle(view, c);
  renderPlayers(view, R, c, data.places || {});
  clear($("center")).append(R.center(view, c));
  renderPlaces(data.places || {}, view);
  const summary = clear($("summary"));
  summary.hidden = true;
  if (view.result) {
    const s = R.standings(view, view.result, c);
    summary.hidden = false;
    summary.append(el("div", { class: "game-over" }, el("h2", {}, "Final standings"),
      el("table", { class: "standings" }, el("thead", {}, el("tr", {}, s.head.map((h) => el("th", {}, h)))),
        el("tbody", {}, s.rows.map((r) => el("tr", {}, r.map((x) => el("td", {}, String(x)))))))));
  }
  for (const li of $("log").children) li.classList.toggle("current", Number(li.dataset.step) === step);
  const current = $("log").querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  document.body.dataset.step = String(step);
  fetchStep(Math.min(rp.steps, step + 1)).catch(() => {});
}

function togglePlay() {
  if (rp.timer) {
    clearInterval(rp.timer);
    rp.timer = null;
    $("playpause").textContent = "▶ Play";
    return;
  }
  $("playpause").textContent = "⏸ Pause";
  rp.timer = setInterval(() => {
    if (rp.step >= rp.steps) togglePlay();
    else show(rp.step + 1);
  }, 700);
}

async function main() {
  try {
    rp.info = (await api.table(tableId)).table;
    rp.replay = await api.replay(tableId);
    await loadRenderer(rp.replay.game);
  } catch (err) {
    $("step-label").textContent = err.code === "game_not_over"
      ? "This game is not over yet: its replay opens when it ends." : `Could not load the replay: ${err.message}`;
    return;
  }
  rp.steps = rp.replay.actions.length;
  $("title").textContent = `Replay · ${rp.info.title} · table ${tableId}`;
  $("slider").max = String(rp.steps);
  const c = ctx();
  const log = $("log");
  log.append(el("li", { dataset: { step: "0" } }, el("button", { type: "button", class: "linkish", onclick: () => show(0) }, "0. the deal")));
  rp.replay.actions.forEach(([seat, text], i) => {
    log.append(el("li", { dataset: { step: String(i + 1) } },
      el("button", { type: "button", class: "linkish", onclick: () => show(i + 1) }, `${i + 1}. ${c.name(seat)}: ${text}`)));
  });
  for (const m of rp.replay.marks || []) $("marks").append(el("option", { value: String(m.step) }, `${m.label} (step ${m.step})`));
  $("marks").addEventListener("change", () => {
    if ($("marks").value !== "") show(Number($("marks").value));
  });
  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(rp.step - 1));
  $("forward").addEventListener("click", () => show(rp.step + 1));
  $("last").addEventListener("click", () => show(rp.steps));
  $("playpause").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") show(rp.step + 1);
    if (e.key === "ArrowLeft") show(rp.step - 1);
  });
  $("subtitle").textContent = `${plural(rp.steps, "action")}`;
  await show(0);
}

main();
