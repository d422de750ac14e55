// Small DOM helpers shared by every page.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || word + "s"}`;
}

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

// Players count seats from 1; the API, the links and the engine number them from 0.
export function seatNumber(seat) {
  return Number(seat) + 1;
}

// Names for seats, from the table's seat infos (as in TableInfo / state messages).
export function seatNamer(seats, mySeat) {
  return (seat, { cap = false, you = true } = {}) => {
    if (seat === null || seat === undefined) return cap ? "Nobody" : "nobody";
    if (you && mySeat !== null && mySeat !== undefined && seat === mySeat) return cap ? "You" : "you";
    const info = (seats || [])[seat];
    if (info && info.name) return info.name;
    if (info && info.type === "bot") return `Bot ${seatNumber(seat)}`;
    return `Seat ${seatNumber(seat)}`;
  };
}

// -- events as data (courtcards/core/events.py) ------------------------------------------------
// An event of view.log has its template (the engine's sentence with each seat as a placeholder, a path into
// its data: "{seat}", "{finish.0}", "{steps.2.seat}") and its data (seats as ints from 0). The page names the
// seats its own way and reads no prose: fill and resolve are core/events.py's, to the letter.
const SENTENCE_END = [". ", "! ", "? "];

function isDigits(key) {
  if (!key.length) return false;
  for (const c of key) if (c < "0" || c > "9") return false;
  return true;
}

// a placeholder's path: letters, digits, "_" and ".", not beginning with a digit (Python's
// key.replace(".", "_").isidentifier(), for the ASCII names templates use)
function isPath(key) {
  if (!key.length || (key[0] >= "0" && key[0] <= "9")) return false;
  for (const c of key) {
    const word = (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_" || c === ".";
    if (!word) return false;
  }
  return true;
}

// The value at a path of the data (keys of objects, indexes of lists); undefined if there is none.
export function resolve(data, path) {
  let value = data;
  for (const key of path.split(".")) {
    if (Array.isArray(value)) {
      if (!isDigits(key) || Number(key) >= value.length) return undefined;
      value = value[Number(key)];
    } else if (value !== null && typeof value === "object") {
      if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
      value = value[key];
    } else {
      return undefined;
    }
  }
  return value;
}

// The sentence of an event with each seat named by name(seat, capital) (capital: the name begins a
// sentence). A placeholder whose path holds no seat stays as written.
export function fill(template, data, name) {
  if (!template.includes("{")) return template;
  const parts = template.split("{");
  const out = [parts[0]];
  for (let k = 1; k < parts.length; k += 1) {
    const part = parts[k];
    const close = part.indexOf("}");
    const key = close >= 0 ? part.slice(0, close) : part.slice(0, -1);
    const value = close > 0 ? resolve(data, key) : undefined;
    if (Number.isInteger(value) && isPath(key)) {
      const before = out[out.length - 1];
      out.push(name(value, (k === 1 && !before) || SENTENCE_END.some((end) => before.endsWith(end))));
      out.push(part.slice(close + 1));
    } else {
      out.push("{", part);
    }
  }
  return out.join("");
}

// A seat as the page names it in an event: the player's name, "(you)" after the viewer's own.
function eventName(ctx) {
  return (seat, cap) => ctx.name(seat, { cap, you: false }) + (seat === ctx.me ? " (you)" : "");
}

// The fallback for a bare sentence (an event with no template, or a "note" worded without data): each
// "seat N" of the text becomes that seat's name. The one place the page reads seats out of prose.
export function namesInText(text, ctx) {
  const name = eventName(ctx);
  return String(text || "").replace(/\b[Ss]eat (\d+)\b/g, (m, d, offset) => name(Number(d), offset === 0));
}

// One event of view.log in the page's words: its template filled with the seats' names.
export function eventText(entry, ctx) {
  const { template, data } = entry || {};
  const bare = typeof template !== "string" || data === null || typeof data !== "object" || Array.isArray(data)
    || (entry.kind === "note" && !Object.keys(data).length);
  return bare ? namesInText(entry && entry.text, ctx) : fill(template, data, eventName(ctx));
}

export function toast(message, kind = "info") {
  let box = document.getElementById("toasts");
  if (!box) {
    box = el("div", { id: "toasts", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  const item = el("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, message);
  box.appendChild(item);
  setTimeout(() => item.classList.add("fade"), 3500);
  setTimeout(() => item.remove(), 4200);
}

export function tokenKey(tableId) {
  return `courtcards:${tableId}`;
}

// The creator's key of a table made in this browser (it mutes seats in the table's chat).
export function ownerKey(tableId) {
  return `courtcards:owner:${tableId}`;
}

// Every seat token this browser keeps: [{ table, token }] (a guest's games, found again from the lobby).
export function keptSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    const m = /^courtcards:([a-z0-9]{1,16})$/.exec(key || "");
    if (m && m[1] !== "name") out.push({ table: m[1], token: localStorage.getItem(key) });
  }
  return out;
}

// Engine reasons are written for the terminal and cite the project's rulings (RK-6, RY-4): the page shows
// them in its own words, without ruling ids or typing instructions. Wording only; no rules here.
const RULING_GROUP = /\s*\((?:[A-Z]{2}-\d+[a-z]?(?:[,;]\s*)?)+\)/g; // " (RK-6)", " (RY-4, RY-5)"
const RULING_IN = /\b[A-Z]{2}-\d+[a-z]?(?:[,;]\s*|(?=\)))/g; // "(RK-14; 3-5 players)" -> "(3-5 players)"
const TYPING = [
  /\s*\([^()]*'[^']*'[^()]*\)/g, // "(to discard write 'discard 3C 9S')", "(actions: a card like '7H', ...)"
  /,?\s*(?:like|for example|e\.g\.|such as|write|type)\s+'[^']*'/gi, // ", like 'discard 3C 9S'"
];

export function playerWords(text) {
  let out = String(text || "").replace(RULING_GROUP, "").replace(RULING_IN, "");
  // "1 card(s)" -> "1 card", "2 card(s)" -> "2 cards", "card(s)" -> "cards"
  out = out.replace(/\b(\d+) (\w+)\(s\)/g, (m, n, word) => (n === "1" ? `1 ${word}` : `${n} ${word}s`))
    .replace(/\b(\w+)\(s\)/g, "$1s");
  for (const re of TYPING) out = out.replace(re, "");
  return out.replace(/\(\s*\)/g, "").replace(/\s+([.,;:])/g, "$1").replace(/\s{2,}/g, " ").trim();
}

// Join links: from the address this page was opened at, unless that only works on this computer
// (127.0.0.1, localhost): then from this computer's network address, if the server listens there.
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0"]);
let joinBaseAnswer = null;

export function joinBase() {
  if (!joinBaseAnswer) joinBaseAnswer = findJoinBase();
  return joinBaseAnswer;
}

async function findJoinBase() {
  if (!LOCAL_HOSTS.has(location.hostname)) return { base: location.origin, note: "" };
  try {
    const response = await fetch("/api/addresses");
    const data = response.ok ? await response.json() : {};
    if (data.lan && data.lan.length) {
      return { base: data.lan[0], note: `The links use ${data.lan[0]}, this computer's address on your network.` };
    }
  } catch {
    // no answer: keep this page's address
  }
  return {
    base: location.origin,
    note: "These links work only on this computer. To play with friends on your network, start the server "
      + "with: courtcards serve --host 0.0.0.0",
  };
}
