// The table page: play (with a seat token) or spectate, over the table's WebSocket.
import { classify, genericWhyNot, multisetKey } from "./actions.js";
import { api } from "./api.js";
import { backEl, cardEl, cardRow } from "./cards.js";
import { learning, learnRefusal, renderLearn } from "./learn.js";
import { loadRenderer, renderer } from "./renderers.js";
import { setupSignals, turnSignal } from "./signals.js";
import { clear, el, eventText, joinBase, ownerKey, playerWords, plural, seatNamer, seatNumber, toast, tokenKey } from "./util.js";
import { TableSocket } from "./ws.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const $ = (id) => document.getElementById(id);
const HINT_VERBS = { royal: "play a Royal", commit: "commit", give: "give", discard: "discard" };

const st = {
  token: localStorage.getItem(tokenKey(tableId)),
  msg: null,
  view: null,
  game: null,
  selection: [], // indices into the shown hand
  shownHand: [],
  sending: false,
  summary: null, // the latest end-of-hand summary shown
  checking: null, // the selection last sent to the server for its reason
  socket: null,
  logCount: 0,
  logN: -1, // the number of the last engine event shown
  events: [], // the engine events shown, kept so that names put in can follow the seats
  hint: null, // the last hint: { version, action, win_chance, forced } or { version, error }
  hinting: false,
  muted: [], // seats the table's creator muted in the chat
  owner: localStorage.getItem(ownerKey(tableId)), // this browser made the table: it may mute seats
};

function ctxFor(msg) {
  const me = msg.seat;
  return { me, seats: msg.seats, name: seatNamer(msg.seats, me), game: msg.view.game };
}

function addLog(lines) {
  const list = $("log");
  for (const line of lines) {
    list.appendChild(el("li", {}, line));
    st.logCount += 1;
  }
  while (list.children.length > 200) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

// -- players around the table ---------------------------------------------------------------
function renderPlayers(msg, R, ctx) {
  const view = msg.view;
  const box = clear($("players"));
  const n = view.num_players;
  let order = R.seatOrder ? [...R.seatOrder(view)] : [...Array(n).keys()];
  if (ctx.me !== null && ctx.me !== undefined) {
    const i = order.indexOf(ctx.me);
    order = order.slice(i + 1).concat(order.slice(0, i + 1));
  }
  const movers = new Set(msg.to_move || []);
  for (const seat of order) {
    const info = R.seatInfo(view, seat, ctx);
    const seatInfo = (msg.seats || [])[seat] || {};
    const classes = ["player"];
    if (movers.has(seat)) classes.push("to-move");
    if (seat === ctx.me) classes.push("me");
    if (info.passed) classes.push("passed");
    if (info.out) classes.push("out");
    if (info.owner) classes.push("owner");
    const badges = el("div", { class: "badges" });
    if (seatInfo.type === "bot") badges.append(el("span", { class: "badge bot" }, `bot · ${seatInfo.bot}`));
    if (seatInfo.stand_in) badges.append(el("span", { class: "badge standin", title: "the player is away; a bot plays for them" }, "bot standing in"));
    else if (seatInfo.type === "human" && seatInfo.taken && !seatInfo.connected) badges.append(el("span", { class: "badge away" }, "away"));
    else if (seatInfo.type === "human" && !seatInfo.taken) badges.append(el("span", { class: "badge free" }, "free seat"));
    for (const s of info.status || []) badges.append(el("span", { class: `badge status` }, s));
    const head = el("div", { class: "player-head" },
      movers.has(seat) ? el("span", { class: "turn-mark", "aria-label": "to move" }, "▶") : null,
      el("span", { class: "player-name" }, ctx.name(seat, { cap: true, you: false }) + (seat === ctx.me ? " (you)" : "")),
      info.role ? el("span", { class: `role ${info.roleClass || ""}` }, info.role) : null);
    const stats = el("div", { class: "stats" });
    if (info.cards !== null && info.cards !== undefined) {
      stats.append(el("span", { class: "count", title: "cards in hand" }, backEl("", true), el("b", {}, String(info.cards))));
    }
    for (const [label, value] of info.stats || []) stats.append(el("span", { class: "stat" }, `${label} `, el("b", {}, String(value))));
    const node = el("div", { class: classes.join(" "), dataset: { seat: String(seat) } }, head, stats, badges, info.extra || null);
    box.appendChild(node);
  }
}

// -- the hand and the actions ------------------------------------------------------------------
function currentLegal() {
  return st.msg && st.msg.seat !== null ? st.msg.legal || [] : [];
}

function renderHand(R) {
  const box = clear($("hand"));
  const view = st.view;
  if (!view || view.hand === undefined || st.msg.seat === null) {
    $("hand-area").hidden = true;
    return;
  }
  $("hand-area").hidden = false;
  const hand = R.sortHand ? R.sortHand(view.hand) : view.hand;
  const sameHand = hand.join(" ") === st.shownHand.join(" ");
  if (!sameHand) st.selection = [];
  st.shownHand = hand;
  $("hand-title").textContent = `Your hand (${plural(hand.length, "card")})`;
  hand.forEach((code, i) => {
    const node = cardEl(st.game, code, { button: true, selected: st.selection.includes(i) });
    node.dataset.index = String(i);
    node.addEventListener("click", () => toggle(i));
    box.appendChild(node);
  });
  if (!hand.length) box.appendChild(el("span", { class: "muted" }, "no cards"));
}

function toggle(i) {
  const at = st.selection.indexOf(i);
  if (at >= 0) st.selection.splice(at, 1);
  else st.selection.push(i);
  for (const node of $("hand").querySelectorAll(".card")) {
    const on = st.selection.includes(Number(node.dataset.index));
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }
  renderActions(renderer(st.game));
}

function send(text) {
  if (!st.socket || st.sending) return;
  if (st.socket.sendAction(text, st.msg.version)) {
    st.sending = true;
    st.selection = [];
    renderActions(renderer(st.game));
  } else {
    toast("Not connected: the action was not sent.", "error");
  }
}

function actionButton(text, label, primary = false) {
  return el("button", { type: "button", class: primary ? "primary" : "", dataset: { action: text }, onclick: () => send(text), disabled: st.sending }, label);
}

function renderActions(R) {
  const box = clear($("actions"));
  const why = $("why");
  why.textContent = "";
  why.className = "why";
  const legal = currentLegal();
  const ctx = ctxFor(st.msg);
  if (st.msg.seat === null || st.msg.seat === undefined) {
    box.appendChild(el("span", { class: "muted" }, "You are watching this table."));
    return;
  }
  if (!legal.length) {
    if (st.msg.status === "finished") return;
    box.appendChild(el("button", { type: "button", id: "play", class: "primary", disabled: true }, "Play"));
    if (st.selection.length) box.appendChild(el("button", { type: "button", onclick: clearSelection }, "Clear"));
    return;
  }
  const hand = st.shownHand;
  const { byKey, selectable, buttons } = classify(legal, hand);
  const selected = st.selection.map((i) => hand[i]);
  const matches = selected.length ? byKey.get(multisetKey(selected)) || [] : [];
  if (selectable.length) {
    if (matches.length) {
      matches.forEach((m, i) => {
        const label = `${m.verb ? m.verb[0].toUpperCase() + m.verb.slice(1) : "Play"} ${m.cards.join(" ")}`;
        const b = actionButton(m.text, label, true);
        if (i === 0) b.id = "play";
        box.appendChild(b);
      });
    } else {
      const verb = selectable[0].verb;
      box.appendChild(el("button", { type: "button", id: "play", class: "primary", disabled: true },
        verb ? verb[0].toUpperCase() + verb.slice(1) : "Play"));
      if (selected.length) {
        why.textContent = `Not a legal play: ${genericWhyNot(selected, selectable)}.`;
        // A quick reason from the legal list first; the engine's own reason replaces it when it arrives.
        st.checking = (verb ? `${verb} ` : "") + selected.join(" ");
        if (st.socket) st.socket.sendCheck(st.checking);
      } else {
        why.className = "why hint";
        const what = HINT_VERBS[verb] || verb || "play";
        const one = selectable.every((m) => m.cards.length === 1);
        why.textContent = selectable.length === 1 ? `Select ${selectable[0].cards.join(" ")} to ${what}.`
          : `Select ${one ? "a card" : "cards"} to ${what} (${plural(selectable.length, "legal choice")}).`;
      }
    }
    if (selected.length) box.appendChild(el("button", { type: "button", onclick: clearSelection }, "Clear"));
  } else if (selected.length) {
    // No card play is legal now (only moves like "pass"): the engine still says why these cards are not
    // (a card that does not beat the pile, say), as it does for a selection that matches no legal play.
    why.textContent = `Not a legal play: ${genericWhyNot(selected, selectable)}.`;
    st.checking = selected.join(" ");
    if (st.socket) st.socket.sendCheck(st.checking);
    box.appendChild(el("button", { type: "button", onclick: clearSelection }, "Clear"));
  }
  for (const text of buttons) {
    const label = R.actionLabel ? R.actionLabel(text, ctx) : text;
    box.appendChild(actionButton(text, label[0].toUpperCase() + label.slice(1), !selectable.length && buttons.length <= 2));
  }
  if (st.info && st.info.settings && st.info.settings.hints) box.appendChild(hintEl());
  if (selectable.length) {
    const list = el("details", { class: "suggestions" }, el("summary", {}, `Legal plays (${selectable.length})`),
      el("div", { class: "chips" }, selectable.map((m) => el("button", {
        type: "button", class: "chip", dataset: { action: m.text, cards: m.cards.join(" ") },
        onclick: () => selectCards(m.cards),
      }, m.text))));
    box.appendChild(list);
  }
}

// The Hint button: the server's search bot suggests a move from this seat's view.
function hintEl() {
  const shown = st.hint && st.hint.version === st.view.version ? st.hint : null;
  const text = !shown ? "" : shown.error ? shown.error
    : shown.forced ? `Only one move: ${shown.action}.`
    : `Hint: ${shown.action}` + (shown.win_chance == null ? "" : ` (estimated win chance ${Math.round(shown.win_chance * 100)}%)`);
  return el("span", { class: "hint-box" },
    el("button", { type: "button", id: "hint", onclick: askHint, disabled: st.hinting }, st.hinting ? "Thinking…" : "Hint"),
    el("span", { id: "hint-text", class: "muted", role: "status" }, text));
}

async function askHint() {
  const version = st.view.version;
  st.hinting = true;
  render();
  try {
    const res = await api.hint(tableId, st.token);
    st.hint = { version: res.version, action: res.action, win_chance: res.win_chance, forced: !!res.forced };
  } catch (err) {
    st.hint = { version, error: err.message };
  }
  st.hinting = false;
  render();
}

function clearSelection() {
  selectCards([]);
}

function selectCards(cards) {
  const used = new Set();
  st.selection = [];
  for (const c of cards) {
    const i = st.shownHand.findIndex((h, k) => h === c && !used.has(k));
    if (i >= 0) {
      used.add(i);
      st.selection.push(i);
    }
  }
  for (const node of $("hand").querySelectorAll(".card")) {
    const on = st.selection.includes(Number(node.dataset.index));
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  }
  renderActions(renderer(st.game));
}

// -- summaries and the end of the game --------------------------------------------------------
function tableEl(head, rows) {
  return el("table", { class: "standings" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, String(h))))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, String(c)))))));
}

function renderSummary(R, ctx) {
  const box = $("summary");
  const result = st.msg.result || st.view.result;
  if (result) {
    // drawn once: a redraw for a message that changes nothing here would replace the buttons under the pointer
    const key = JSON.stringify([result, ctx.me, (st.msg.seats || []).map((s) => s.name)]);
    if (box.dataset.key === key && box.querySelector(".game-over")) return;
    box.dataset.key = key;
    clear(box);
    const named = { ...ctx, name: (seat, o = {}) => ctx.name(seat, { ...o, you: false }) + (seat === ctx.me ? " (you)" : "") };
    const s = R.standings(st.view, result, named);
    const winner = result.winner;
    const title = winner === null || winner === undefined ? "Game over: a draw" : winner === ctx.me ? "Game over: you win!" : `Game over: ${ctx.name(winner)} wins`;
    box.append(el("div", { class: "game-over pop", role: "status" }, el("h2", {}, title), tableEl(s.head, s.rows),
      s.extra ? el("p", { class: "muted" }, s.extra) : null,
      el("p", {}, st.msg.seat !== null && st.msg.seat !== undefined
        ? el("button", { type: "button", id: "rematch", class: "primary", onclick: rematch }, "Rematch") : null, " ",
      el("a", { class: "button primary", href: `/replay/${encodeURIComponent(tableId)}` }, "Watch the replay"), " ",
      el("a", { class: "button", href: "/" }, "Back to the lobby"))));
    box.hidden = false;
    return;
  }
  delete box.dataset.key;
  clear(box);
  if (st.summary) {
    const s = st.summary;
    box.append(el("div", { class: "hand-over pop", role: "status" }, el("button", { type: "button", class: "close", "aria-label": "close", onclick: () => { st.summary = null; box.hidden = true; } }, "×"),
      el("h2", {}, s.title), tableEl(s.head, s.rows)));
    box.hidden = false;
    return;
  }
  box.hidden = true;
}

// A new game with the same people in the same seats and the same bots; the first click creates it,
// every other player's click takes their own seat in it.
async function rematch() {
  $("rematch").disabled = true;
  try {
    const res = await api.rematch(tableId, st.token);
    localStorage.setItem(tokenKey(res.table.id), res.token);
    location.href = `/table/${encodeURIComponent(res.table.id)}`;
  } catch (err) {
    toast(`No rematch: ${playerWords(err.message)}`, "error");
    $("rematch").disabled = false;
  }
}

// -- the whole page ----------------------------------------------------------------------------
function renderOpenSeats(msg) {
  const box = $("seats-open");
  const free = (msg.seats || []).filter((s) => s.type === "human" && !s.taken);
  if (msg.status !== "open" || !free.length) {
    box.hidden = true;
    return;
  }
  joinBase().then(({ base, note }) => {
    clear(box).hidden = false;
    box.append(el("strong", {}, `Waiting for ${plural(free.length, "player")}. Share a join link:`));
    if (note) box.append(el("p", { class: "muted link-note" }, note));
    for (const s of free) {
      const url = `${base}/join/${encodeURIComponent(tableId)}/${s.seat}`;
      const input = el("input", { type: "text", readonly: true, value: url, "aria-label": `join link for seat ${seatNumber(s.seat)}` });
      box.append(el("div", { class: "link-row" }, el("span", {}, `Seat ${seatNumber(s.seat)}: `), input,
        el("button", { type: "button", onclick: () => copy(url, input) }, "Copy"),
        msg.seat === null ? el("a", { class: "button", href: `/join/${encodeURIComponent(tableId)}/${s.seat}` }, "Take this seat") : null));
    }
  });
}

export async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied.");
  } catch {
    input.select();
    toast("Select and copy the link (Ctrl+C).");
  }
}

function animate(prev, view, R) {
  if (!prev) return;
  if (R.roundEnded(prev, view) && prev.pile && prev.pile.top && prev.pile.top.length) {
    const ghost = el("div", { class: "ghost sweep" }, cardRow(st.game, prev.pile.top, { small: false }));
    const center = $("center");
    center.appendChild(ghost);
    setTimeout(() => ghost.remove(), 800);
  }
  const pileTop = view.pile && view.pile.top ? view.pile.top.join(" ") : "";
  const prevTop = prev.pile && prev.pile.top ? prev.pile.top.join(" ") : "";
  if (pileTop && (pileTop !== prevTop || (view.pile.owner !== prev.pile.owner))) {
    for (const node of $("center").querySelectorAll(".pile .card")) node.classList.add("fly-in");
  }
  if (R.revealed && R.revealed(prev, view)) {
    for (const node of $("center").querySelectorAll(".reveal .card, .on-table .card")) node.classList.add("flip");
  }
}

function render() {
  const msg = st.msg;
  const view = msg.view;
  const R = renderer(view.game);
  const ctx = ctxFor(msg);
  const gameTitle = st.info ? st.info.title : R.title || view.game;
  turnSignal(msg.status === "playing" && (msg.legal || []).length > 0, gameTitle, `${gameTitle} · table ${tableId} · courtcards`);
  $("title").textContent = `${st.info ? st.info.title : view.game} · table ${tableId}`;
  $("rules-link").href = `/rules/${encodeURIComponent(view.game)}`;
  $("subtitle").textContent = R.subtitle(view, ctx);
  const role = msg.seat === null ? "spectating" : `seat ${seatNumber(msg.seat)}`;
  $("role").textContent = role;
  let head = msg.status === "open" ? "Waiting for every human seat to be taken." : R.headline(view, ctx);
  const mine = msg.seat !== null ? (msg.seats || [])[msg.seat] : null;
  if (mine && mine.stand_in) head += " (A bot stood in for you while you were away.)";
  $("headline").textContent = head;
  $("headline").classList.toggle("your-turn", (msg.legal || []).length > 0);
  renderOpenSeats(msg);
  renderMutes();
  // undo: a casual game where this seat is the one person (the others bots), while it goes on
  const humans = (msg.seats || []).filter((s) => s.type === "human");
  const rated = st.info && st.info.settings && st.info.settings.rated;
  $("undo").hidden = rated || msg.seat === null || humans.length !== 1 || humans[0].seat !== msg.seat || msg.status !== "playing";
  renderPlayers(msg, R, ctx);
  const center = clear($("center"));
  center.appendChild(R.center(view, ctx));
  renderSummary(R, ctx);
  renderHand(R);
  renderActions(R);
  renderLearn(msg, view, st.shownHand, st.events, R, ctx); // Learn to play: what this turn allows
}

function onState(msg) {
  const prev = st.view;
  const first = !st.msg;
  st.msg = msg;
  st.view = msg.view;
  st.game = msg.view.game;
  st.sending = false;
  const R = renderer(st.game);
  const ctx = ctxFor(msg);
  const restart = first || !prev || prev.version > msg.view.version;
  if (restart) clear($("log"));
  const engineLog = Array.isArray(msg.view.log) && msg.view.log.every((e) => e && typeof e.n === "number");
  if (engineLog) {
    // the engine words every event (view.log: a template and its data); the page only names the seats
    const after = restart ? -1 : st.logN;
    if (restart) st.events = [];
    st.events = st.events.concat(msg.view.log.filter((e) => e.n > after)).slice(-200);
    st.logN = msg.view.log.length ? msg.view.log[msg.view.log.length - 1].n : after;
    // names as the seats are now (a player who joins later is named in the earlier lines too)
    clear($("log"));
    addLog(st.events.map((e) => eventText(e, ctx)));
  } else if (restart) {
    addLog(R.initialLog(msg.view, ctx));
  } else if (prev.version !== msg.view.version || prev.phase !== msg.view.phase) {
    addLog(R.events(prev, msg.view, ctx));
  }
  if (!restart && R.handEnded && R.handEnded(prev, msg.view)) st.summary = R.handSummary(msg.view, ctx);
  render();
  if (!first) animate(prev, msg.view, R);
  updateTimer();
  document.body.dataset.version = String(msg.version);
  document.body.dataset.status = msg.status;
}

function updateTimer() {
  const box = $("timer");
  const deadline = st.msg && st.msg.deadline;
  if (!deadline || st.msg.status === "finished") {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  box.hidden = false;
  box.textContent = `⏱ ${left} s`;
  box.classList.toggle("urgent", left <= 5);
}

function onCheck(msg) {
  st.lastCheck = msg;
  if (msg.legal || !msg.reason || msg.action !== st.checking || !st.selection.length) return;
  learnRefusal(msg.code, msg.reason, msg.reason_code);
  const why = $("why");
  if (why.textContent.startsWith("Not a legal play")) why.textContent = `Not a legal play: ${playerWords(msg.reason)}.`;
}

// The server's refusals, in the page's words (the message after "...: " is the engine's reason).
const REFUSALS = {
  stale_version: "The table moved on before your move arrived: look again and choose.",
  not_your_turn: "It is not your turn.",
  game_over: "The game is over.",
  spectator: "You are watching: take a free seat to play.",
  server_error: "The server could not save your move: try again.",
};

function refusalReason(msg) {
  return REFUSALS[msg.code] || playerWords(String(msg.message || "").replace(/^[^:]*'[^']*'[^:]*:\s*/, ""));
}

function refusalText(msg) {
  return REFUSALS[msg.code] || `That move is not allowed: ${refusalReason(msg)}.`;
}

// -- chat: players with players, spectators with spectators; every line is text (never HTML) ---------
const chatSeen = new Set(); // a reconnection is sent the channel's last lines again: each is shown once
function onChat(msg) {
  const key = `${msg.at}|${msg.seat}|${msg.text}`;
  if (chatSeen.has(key)) return;
  chatSeen.add(key);
  const who = msg.seat === null || msg.seat === undefined ? "Spectator" : msg.name;
  const me = st.msg && msg.seat !== null && msg.seat === st.msg.seat;
  const list = $("chat-log");
  list.append(el("li", { class: me ? "mine" : "", dataset: { seat: msg.seat === null ? "" : String(msg.seat) } },
    el("span", { class: "who" }, `${who}${me ? " (you)" : ""}:`), el("span", { class: "text" }, msg.text)));
  while (list.children.length > 100) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

function onMuted(msg) {
  st.muted = msg.seats || [];
  renderMutes();
}

function renderMutes() {
  const box = $("chat-mutes");
  const msg = st.msg;
  $("chat-title").textContent = msg && msg.seat === null ? "Spectators' chat" : "Players' chat";
  const mutedMe = msg && msg.seat !== null && st.muted.includes(msg.seat);
  $("chat-input").disabled = !!mutedMe;
  $("chat-input").placeholder = mutedMe ? "The table's creator muted your chat." : "Say something…";
  if (!st.owner || !msg) {
    box.hidden = true;
    return;
  }
  clear(box).hidden = false;
  const name = seatNamer(msg.seats, msg.seat);
  for (const s of msg.seats || []) {
    if (s.type !== "human" || s.seat === msg.seat) continue;
    const muted = st.muted.includes(s.seat);
    box.append(el("button", { type: "button", class: "mute", dataset: { seat: String(s.seat) },
      onclick: () => st.socket.sendMute(s.seat, !muted, st.owner) }, `${muted ? "Unmute" : "Mute"} ${name(s.seat, { you: false })}`));
  }
}

function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (st.socket && st.socket.sendChat(text)) input.value = "";
}

function onError(msg) {
  if ((msg.code && msg.code.startsWith("chat_")) || ["muted", "not_owner", "undo_refused"].includes(msg.code)) {
    toast(playerWords(msg.message), "error");
    return;
  }
  st.sending = false;
  toast(refusalText(msg), "error");
  learnRefusal(msg.code, refusalReason(msg), msg.reason_code);
  if (st.msg) renderActions(renderer(st.game));
}

async function main() {
  if (!tableId) return;
  if (learning(tableId)) $("learn").hidden = false;
  try {
    const data = await api.table(tableId);
    st.info = data.table;
    await loadRenderer(st.info.game); // the game's own renderer, or the generic one
  } catch (err) {
    $("headline").textContent = err.status === 404 ? `No table '${tableId}'.` : `Could not load the table: ${err.message}`;
    return;
  }
  const connect = () => {
    st.socket = new TableSocket(tableId, st.token, {
      onState,
      onError,
      onCheck,
      onChat,
      onMuted,
      urgent: () => st.sending || currentLegal().length > 0,
      onStatus: (text, kind) => {
        const c = $("conn");
        c.textContent = text;
        c.className = `conn ${kind}`;
      },
      onFatal: (code) => {
        if (code === 4401) {
          toast("Your seat token is not valid here any more: watching as a spectator.", "error");
          localStorage.removeItem(tokenKey(tableId));
          st.token = null;
          st.msg = null;
          connect();
        } else {
          $("headline").textContent = "This table does not exist.";
        }
      },
    });
    st.socket.connect();
  };
  connect();
  $("chat-form").addEventListener("submit", sendChat);
  $("undo").addEventListener("click", () => st.socket && st.socket.send({ type: "undo" }));
  setupSignals($("turn-sound"), $("turn-notify"));
  window.courtcards = { state: st };  // for debugging and the browser tests
  setInterval(updateTimer, 250);
  window.addEventListener("online", () => st.socket && st.socket.attempt && st.socket.connect());
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && st.selection.length) clearSelection();
  });
}

main();
