// The lobby: create a table (game, variant, options, seats), share join links, list tables.
import { api } from "./api.js";
import { setupMyGames } from "./mygames.js";
import { setupLearn } from "./learn.js";
import { setupQuickPlay } from "./quickplay.js";
import { clear, el, joinBase, ownerKey, playerWords, plural, seatNumber, toast, tokenKey } from "./util.js";

const $ = (id) => document.getElementById(id);
const lobby = { games: [], game: null, defaults: {}, status: "open" };

function currentGame() {
  return lobby.games.find((g) => g.name === $("game").value);
}

function showValue(o, value) {
  if (o.kind === "bool") return value ? "on" : "off";
  return value === null || value === undefined ? "none" : String(value);
}

function setInput(input, o, value) {
  if (o.kind === "bool") input.checked = !!value;
  else input.value = value === null || value === undefined ? "" : String(value);
}

function optionInput(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.kind === "bool") {
    input = el("input", { id, type: "checkbox", dataset: { option: o.name, kind: "bool" } });
  } else if (o.kind === "choice" && o.choices && o.choices.length) {
    input = el("select", { id, dataset: { option: o.name, kind: "choice" } },
      o.choices.map((c) => el("option", { value: String(c) }, String(c))));
  } else {
    input = el("input", {
      id, type: o.kind === "int" ? "number" : "text", dataset: { option: o.name, kind: o.kind },
      min: o.minimum ?? null, max: o.maximum ?? null, placeholder: o.optional ? "none" : null,
    });
  }
  // What the person typed or chose is theirs: later default changes (players, preset) leave it alone.
  for (const type of ["input", "change"]) input.addEventListener(type, () => { input.dataset.touched = "1"; });
  const label = el("label", { for: id }, o.name.replace(/_/g, " "));
  return el("div", { class: `field option ${o.kind === "bool" ? "check" : ""}` },
    o.kind === "bool" ? el("span", {}, input, " ", label) : [label, input],
    el("p", { class: "muted doc", id: `doc-${o.name}` }));
}

function readOption(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  const raw = input.value.trim();
  if (raw === "") return null;
  if (kind === "int") return Number(raw);
  return raw;
}

function buildOptions() {
  const g = currentGame();
  const box = clear($("options"));
  box.append(el("legend", {}, "Options"));
  for (const o of g.options) box.append(optionInput(o));
}

// New defaults for the player count and preset: untouched fields follow them, typed ones keep their value.
let defaultsAsked = 0;
let defaultsPending = Promise.resolve();
function updateDefaults() {
  defaultsPending = loadDefaults();
  return defaultsPending;
}

// Until the defaults of the game, player count and preset chosen now have come: a table created sooner
// would compare its options with another choice's defaults.
async function defaultsSettled() {
  let pending;
  do {
    pending = defaultsPending;
    await pending;
  } while (pending !== defaultsPending);
}

async function loadDefaults() {
  const g = currentGame();
  const players = Number($("players").value) || g.default_players;
  const preset = $("preset").value;
  const asked = ++defaultsAsked;
  let defaults = {};
  try {
    defaults = (await api.defaults(g.name, players)).options || {};
  } catch {
    for (const o of g.options) defaults[o.name] = o.default;
  }
  if (asked !== defaultsAsked || g !== currentGame()) return; // a newer change answered first
  const presetValues = preset ? (g.presets[preset] || {}).values || {} : {};
  lobby.defaults = { ...defaults, ...presetValues };
  for (const o of g.options) {
    const value = lobby.defaults[o.name] ?? o.default;
    const input = $(`opt-${o.name}`);
    if (input && !input.dataset.touched) setInput(input, o, value);
    const doc = $(`doc-${o.name}`);
    if (doc) doc.textContent = `${playerWords(o.doc || "")} (default: ${showValue(o, value)})`;
  }
}

// The bots as levels: easy = random, medium = greedy, hard = the search bot (ismcts).
const LEVELS = { random: "easy", greedy: "medium", ismcts: "hard" };
function botLabel(kind) {
  return LEVELS[kind] ? `Bot: ${LEVELS[kind]} (${kind})` : `Bot: ${kind}`;
}

function renderSeats() {
  const g = currentGame();
  const players = Math.max(g.min_players, Math.min(g.max_players, Number($("players").value) || g.default_players));
  const box = $("seats");
  if (!box.querySelector("legend")) box.append(el("legend", {}, "Seats"));
  const rows = [...box.querySelectorAll(".seat-row")];
  // Rows past the player count are hidden, not dropped: their choices come back with the count.
  rows.forEach((row, s) => { row.hidden = s >= players; });
  // the medium bot where the game has one, else the easy one (the search bot is slow for a default)
  const bot = ["greedy", "random"].find((b) => g.bots.includes(b)) || g.bots[0];
  for (let s = rows.length; s < players; s += 1) {
    const select = el("select", { id: `seat-${s}`, "aria-label": `seat ${seatNumber(s)}` },
      el("option", { value: "human" }, "Human"),
      g.bots.map((b) => el("option", { value: `bot:${b}` }, botLabel(b))));
    select.value = s === 0 ? "human" : `bot:${bot}`;
    box.append(el("div", { class: "seat-row" }, el("label", { for: `seat-${s}` }, `Seat ${seatNumber(s)}`), select));
  }
}

async function selectGame() {
  const g = currentGame();
  $("game-doc").textContent = g.min_players === g.max_players ? `${plural(g.min_players, "player")}. `
    : `${g.min_players}-${g.max_players} players. `;
  $("game-doc").append(el("a", { href: `/rules/${encodeURIComponent(g.name)}`, target: "_blank" }, `Rules of ${g.title}`));
  $("players").min = g.min_players;
  $("players").max = g.max_players;
  $("players").value = g.default_players;
  const preset = clear($("preset"));
  preset.append(el("option", { value: "" }, "standard (defaults)"));
  for (const [name, p] of Object.entries(g.presets || {})) {
    if (name === "standard") continue;
    const doc = playerWords(p.doc || "");
    preset.append(el("option", { value: name, title: doc }, `${name}${doc ? " — " + doc : ""}`));
  }
  clear($("seats"));
  renderSeats();
  buildOptions();
  await updateDefaults();
}

function tableBody() {
  const g = currentGame();
  const players = Number($("players").value);
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const value = readOption(input);
    const def = lobby.defaults[input.dataset.option];
    if (value !== def && !(value === null && (def === null || def === undefined))) options[input.dataset.option] = value;
  }
  const seats = [...$("seats").querySelectorAll(".seat-row:not([hidden]) select")].map((s) =>
    s.value === "human" ? { type: "human" } : { type: "bot", bot: s.value.slice(4) });
  const num = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  return {
    game: g.name, players, options, preset: $("preset").value || null, seats,
    seed: num("seed"), bot_delay: num("bot_delay") ?? 0.6, absent_timeout: num("absent_timeout") ?? 60,
    move_time_limit: num("move_time_limit"), rated: $("rated").checked,
    // unticked: the server's default (unlisted when a seat is human)
    private: $("public").checked ? false : null,
  };
}

async function sit(table, seat) {
  const name = $("name").value.trim();
  localStorage.setItem("courtcards:name", name);
  try {
    const res = await api.join(table.id, { seat, name: name || null });
    localStorage.setItem(tokenKey(table.id), res.token);
    location.href = `/table/${encodeURIComponent(table.id)}`;
  } catch (err) {
    toast(`Could not join: ${playerWords(err.message)}.`, "error");
  }
}

async function showCreated(table) {
  const box = clear($("created"));
  box.hidden = false;
  box.append(el("h3", {}, `Table ${table.id} created: ${table.title}, ${plural(table.players, "player")}`));
  const humans = table.seats.filter((s) => s.type === "human");
  const { base, note } = await joinBase();
  if (humans.length) box.append(el("p", {}, "Join links, one per human seat (send them to the players):"));
  if (humans.length && note) box.append(el("p", { class: "muted link-note" }, note));
  for (const s of humans) {
    const url = `${base}/join/${encodeURIComponent(table.id)}/${s.seat}`;
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": `join link for seat ${seatNumber(s.seat)}` });
    box.append(el("div", { class: "link-row", dataset: { seat: String(s.seat) } }, el("span", {}, `Seat ${seatNumber(s.seat)}`), input,
      el("button", { type: "button", onclick: () => copy(url, input) }, "Copy"),
      el("button", { type: "button", class: "primary sit", dataset: { seat: String(s.seat) }, onclick: () => sit(table, s.seat) }, `Play seat ${seatNumber(s.seat)} here`)));
  }
  box.append(el("p", {}, el("a", { class: "button", href: `/table/${encodeURIComponent(table.id)}` }, "Watch the table")));
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied.");
  } catch {
    input.select();
    toast("Select and copy the link (Ctrl+C).");
  }
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  $("create").disabled = true;
  try {
    await defaultsSettled();
    const { table, owner_key: owner } = await api.createTable(tableBody());
    if (owner) localStorage.setItem(ownerKey(table.id), owner);
    await showCreated(table);
    refreshTables();
  } catch (err) {
    $("create-error").textContent = `Could not create the table: ${playerWords(err.message)}`;
  } finally {
    $("create").disabled = false;
  }
}

function tableRow(t) {
  const humans = t.seats.filter((s) => s.type === "human");
  const free = humans.filter((s) => !s.taken);
  const who = t.seats.map((s) => (s.type === "bot" ? `bot (${s.bot})` : s.name || (s.taken ? "player" : "free"))).join(", ");
  const actions = el("div", { class: "row-actions" });
  const id = encodeURIComponent(t.id);
  if (t.status === "open" && free.length) actions.append(el("a", { class: "button primary", href: `/join/${id}/${free[0].seat}` }, "Join"));
  if (t.status !== "finished") actions.append(el("a", { class: "button", href: `/table/${id}` }, t.status === "open" ? "Open" : "Watch"));
  if (t.status === "finished") {
    actions.append(el("a", { class: "button primary", href: `/replay/${id}` }, "Replay"));
    actions.append(el("a", { class: "button", href: `/table/${id}` }, "Final table"));
  }
  const seated = t.seats.filter((s) => s.taken).length;
  let line = `${plural(t.players, "player")} · ${t.settings && t.settings.rated ? "rated" : "casual"} · ${who}`;
  if (t.status === "open") line += ` · ${seated}/${t.players} seated · ${plural(free.length, "free seat")}`;
  if (t.status === "finished" && t.result && t.result.winner !== null && t.result.winner !== undefined) {
    const w = t.seats[t.result.winner];
    line += ` · winner: ${w.name || (w.type === "bot" ? `bot ${seatNumber(w.seat)}` : `seat ${seatNumber(w.seat)}`)}`;
  }
  return el("div", { class: "table-row", dataset: { table: t.id, status: t.status } },
    el("div", {}, el("strong", {}, `${t.title}`), ` · table ${t.id}`, el("div", { class: "muted" }, line)), actions);
}

async function refreshTables() {
  const list = $("table-list");
  try {
    const { tables } = await api.tables(lobby.status);
    clear(list);
    if (!tables.length) list.append(el("p", { class: "muted" }, "No tables here yet."));
    const sorted = [...tables].sort((a, b) => String(b.created).localeCompare(String(a.created)));
    for (const t of sorted.slice(0, 50)) list.append(tableRow(t));
  } catch (err) {
    clear(list).append(el("p", { class: "error" }, `Could not load the tables: ${err.message}`));
  }
}

async function main() {
  $("name").value = localStorage.getItem("courtcards:name") || "";
  try {
    const { games } = await api.games();
    lobby.games = games; // in the server's order
  } catch (err) {
    $("create-error").textContent = `Could not load the games: ${err.message}`;
    return;
  }
  for (const g of lobby.games) $("game").append(el("option", { value: g.name }, g.title));
  $("game").addEventListener("change", selectGame);
  $("players").addEventListener("input", () => {
    renderSeats();
    updateDefaults();
  });
  $("preset").addEventListener("change", updateDefaults);
  $("create-form").addEventListener("submit", create);
  for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
    tab.addEventListener("click", () => {
      lobby.status = tab.dataset.status;
      for (const t of document.querySelectorAll(".tabs [role=tab]")) t.setAttribute("aria-selected", t === tab ? "true" : "false");
      refreshTables();
    });
  }
  await selectGame();
  await setupMyGames();
  setupQuickPlay(lobby.games);
  setupLearn(lobby.games);
  document.body.dataset.ready = "1";
  refreshTables();
  setInterval(refreshTables, 5000);
}

main();
