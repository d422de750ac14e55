// The lobby's "My games": the account (sign up, sign in, sign out) and the player's games — an account's
// from the server, a guest's from the seat tokens this browser kept — your move first, then waiting,
// in progress and finished (replay, rematch). Closing the tab loses nothing: the tokens stay in localStorage.
import { api } from "./api.js";
import { clear, el, keptSeats, playerWords, plural, seatNumber, toast, tokenKey } from "./util.js";

const $ = (id) => document.getElementById(id);
const me = { account: null, mode: "in" };

function renderAccount() {
  const box = clear($("account"));
  if (me.account) {
    box.append(el("span", { id: "signed-in" }, "Signed in as ",
      el("a", { href: `/players/${encodeURIComponent(me.account.username)}` }, el("strong", {}, me.account.username))),
      el("a", { class: "button", href: "/leaderboard" }, "Leaderboards"),
      el("button", { type: "button", id: "sign-out", onclick: signOut }, "Sign out"));
  } else {
    box.append(el("span", { class: "muted" }, "Playing as a guest."),
      el("button", { type: "button", id: "show-sign-in", onclick: () => showForm("in") }, "Sign in"),
      el("button", { type: "button", id: "show-sign-up", onclick: () => showForm("up") }, "Create account"));
  }
}

function showForm(mode) {
  me.mode = mode;
  $("account-form").hidden = false;
  $("acct-submit").textContent = mode === "up" ? "Create account" : "Sign in";
  $("acct-pass").autocomplete = mode === "up" ? "new-password" : "current-password";
  $("account-error").textContent = "";
  $("acct-user").focus();
}

async function submitAccount(event) {
  event.preventDefault();
  const user = $("acct-user").value.trim();
  const pass = $("acct-pass").value;
  $("acct-submit").disabled = true;
  try {
    const s = me.mode === "up" ? await api.signUp(user, pass) : await api.signIn(user, pass);
    me.account = s.account;
    $("account-form").hidden = true;
    $("acct-pass").value = "";
    toast(me.mode === "up" ? `Account ${s.account.username} created.` : `Signed in as ${s.account.username}.`);
  } catch (err) {
    $("account-error").textContent = playerWords(err.message);
  } finally {
    $("acct-submit").disabled = false;
  }
  renderAccount();
  refreshMyGames();
}

async function signOut() {
  try {
    await api.signOut();
  } catch (err) {
    toast(`Could not sign out: ${err.message}`, "error");
  }
  me.account = null;
  renderAccount();
  refreshMyGames();
}

// A token for the account's seat when this browser has none (signed in elsewhere): then act as today.
async function tokenFor(game) {
  const kept = localStorage.getItem(tokenKey(game.table.id));
  if (kept) return kept;
  const res = await api.seatToken(game.table.id);
  localStorage.setItem(tokenKey(game.table.id), res.token);
  return res.token;
}

async function resume(game) {
  try {
    await tokenFor(game);
    location.href = `/table/${encodeURIComponent(game.table.id)}`;
  } catch (err) {
    toast(`Could not open the game: ${playerWords(err.message)}`, "error");
  }
}

async function rematch(game) {
  try {
    const res = await api.rematch(game.table.id, await tokenFor(game));
    localStorage.setItem(tokenKey(res.table.id), res.token);
    location.href = `/table/${encodeURIComponent(res.table.id)}`;
  } catch (err) {
    toast(`No rematch: ${playerWords(err.message)}`, "error");
  }
}

async function claim(game, button) {
  button.disabled = true;
  try {
    await api.claim(game.table.id, localStorage.getItem(tokenKey(game.table.id)));
    toast("The game is in your account now.");
    refreshMyGames();
  } catch (err) {
    toast(`Could not add the game: ${playerWords(err.message)}`, "error");
    button.disabled = false;
  }
}

function gameRow(game, mine) {
  const t = game.table;
  const id = encodeURIComponent(t.id);
  const actions = el("div", { class: "row-actions" });
  if (t.status === "finished") {
    actions.append(el("a", { class: "button primary", href: `/replay/${id}` }, "Replay"),
      el("button", { type: "button", class: "rematch", onclick: () => rematch(game) }, "Rematch"));
  } else {
    actions.append(el("button", { type: "button", class: "primary resume", onclick: () => resume(game) },
      t.status === "open" ? "Open" : "Resume"));
  }
  if (me.account && !mine) {
    const b = el("button", { type: "button", class: "claim" }, "Add to my account");
    b.addEventListener("click", () => claim(game, b));
    actions.append(b);
  }
  const others = t.seats.filter((s) => s.seat !== game.seat)
    .map((s) => (s.type === "bot" ? `bot (${s.bot})` : s.name || (s.taken ? "player" : "free"))).join(", ");
  return el("div", { class: "table-row my-game", dataset: { table: t.id, status: t.status, yourMove: game.your_move ? "1" : "0" } },
    el("div", {}, el("strong", {}, t.title), ` · seat ${seatNumber(game.seat)}`,
      game.your_move ? el("span", { class: "your-move-tag" }, "your move") : null,
      el("div", { class: "muted" }, `${plural(t.players, "player")} · with ${others || "nobody yet"}`)),
    actions);
}

const GROUPS = [
  ["your-move", "Your move", (g) => g.your_move],
  ["open", "Waiting for players", (g) => !g.your_move && g.table.status === "open"],
  ["playing", "In progress", (g) => !g.your_move && g.table.status === "playing"],
  ["finished", "Finished", (g) => g.table.status === "finished"],
];

export async function refreshMyGames() {
  const list = $("my-games");
  let account = [];
  let guest = [];
  try {
    if (me.account) account = (await api.myGames()).games;
    const kept = keptSeats();
    if (kept.length) guest = (await api.guestGames(kept.slice(0, 200))).games;
  } catch (err) {
    clear(list).append(el("p", { class: "error" }, `Could not load your games: ${err.message}`));
    return;
  }
  const seen = new Set(account.map((g) => `${g.table.id}/${g.seat}`));
  const games = [...account.map((g) => [g, true]), ...guest.filter((g) => !seen.has(`${g.table.id}/${g.seat}`)).map((g) => [g, false])];
  clear(list);
  if (!games.length) {
    list.append(el("p", { class: "muted" }, me.account ? "No games yet: create a table below."
      : "Your games appear here (kept in this browser; create an account to keep them anywhere)."));
    return;
  }
  for (const [key, title, test] of GROUPS) {
    const rows = games.filter(([g]) => test(g));
    if (!rows.length) continue;
    list.append(el("h3", { class: "my-group", dataset: { group: key } }, title));
    for (const [g, mine] of rows) list.append(gameRow(g, mine));
  }
}

export async function setupMyGames() {
  try {
    me.account = (await api.session()).account;
  } catch {
    me.account = null;
  }
  renderAccount();
  $("account-form").addEventListener("submit", submitAccount);
  $("acct-cancel").addEventListener("click", () => { $("account-form").hidden = true; });
  await refreshMyGames();
  setInterval(refreshMyGames, 10000);
}
