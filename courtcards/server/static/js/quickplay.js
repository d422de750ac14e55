// Quick play: wait in the queue of a game and player count until seated (with people, or bots after the wait).
import { api } from "./api.js";
import { el, playerWords, plural, tokenKey } from "./util.js";

const $ = (id) => document.getElementById(id);
const TICKET = "courtcards:quickplay"; // the waiting ticket, kept while this tab waits
const POLL_MS = 1000;

let games = [];
let ticket = null;
let timer = null;

function game() {
  return games.find((g) => g.name === $("quick-game").value);
}

function selectGame() {
  const g = game();
  if (!g) return;
  $("quick-players").min = g.min_players;
  $("quick-players").max = g.max_players;
  $("quick-players").value = g.default_players;
}

function waiting(on) {
  $("quick-start").disabled = on;
  $("quick-stop").hidden = !on;
  for (const id of ["quick-game", "quick-players", "quick-wait"]) $(id).disabled = on;
  document.body.dataset.quickplay = on ? "waiting" : "";
}

function stopPolling() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

// What the server said about the ticket: wait on, or go to the table.
function show(answer) {
  if (answer.status === "seated") {
    stopPolling();
    sessionStorage.removeItem(TICKET);
    localStorage.setItem(tokenKey(answer.table.id), answer.token);
    $("quick-status").textContent = `Seated at table ${answer.table.id}.`;
    document.body.dataset.quickplay = "seated";
    location.href = `/table/${encodeURIComponent(answer.table.id)}`;
    return;
  }
  if (answer.status === "failed") {
    stopPolling();
    sessionStorage.removeItem(TICKET);
    ticket = null;
    waiting(false);
    $("quick-error").textContent = playerWords(answer.error || "no table could be made");
    return;
  }
  const left = Math.ceil(answer.wait_left);
  $("quick-status").textContent = `Waiting for players: ${answer.waiting} of ${answer.players} here · bots fill the free seats in ${plural(left, "second")}.`;
  timer = setTimeout(poll, POLL_MS);
}

async function poll() {
  timer = null;
  if (!ticket) return;
  try {
    show(await api.quickTicket(ticket));
  } catch (err) {
    sessionStorage.removeItem(TICKET);
    ticket = null;
    waiting(false);
    $("quick-status").textContent = "";
    $("quick-error").textContent = `Quick play stopped: ${playerWords(err.message)}.`;
  }
}

async function start(event) {
  event.preventDefault();
  $("quick-error").textContent = "";
  const g = game();
  const name = $("name").value.trim();
  if (name) localStorage.setItem("courtcards:name", name);
  const body = {
    game: g.name,
    players: Number($("quick-players").value),
    wait: Number($("quick-wait").value),
    name: name || null,
  };
  waiting(true);
  try {
    const answer = await api.quickPlay(body);
    ticket = answer.ticket;
    sessionStorage.setItem(TICKET, ticket);
    show(answer);
  } catch (err) {
    waiting(false);
    $("quick-error").textContent = `Could not start quick play: ${playerWords(err.message)}.`;
  }
}

async function stop() {
  stopPolling();
  const t = ticket;
  ticket = null;
  sessionStorage.removeItem(TICKET);
  if (t) {
    try {
      await api.quickLeave(t);
    } catch (err) {
      if (err.code === "already_seated") {
        ticket = t;
        poll(); // seated meanwhile: go to the table
        return;
      }
    }
  }
  waiting(false);
  $("quick-status").textContent = "Stopped waiting.";
}

export function setupQuickPlay(gameList) {
  games = gameList;
  for (const g of games) $("quick-game").append(el("option", { value: g.name }, g.title));
  $("quick-game").addEventListener("change", selectGame);
  $("quick-form").addEventListener("submit", start);
  $("quick-stop").addEventListener("click", stop);
  selectGame();
  // a reload while waiting keeps the place in the queue
  ticket = sessionStorage.getItem(TICKET);
  if (ticket) {
    waiting(true);
    poll();
  }
}
