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

// Names for seats, from the table's seat infos (as in TableInfo / state messages).
export function seatNamer(seats, mySeat) {
  return (seat, { cap = false, you = true } = {}) => {
    if (seat === null || seat === undefined) return cap ? "Nobody" : "nobody";
    if (you && mySeat !== null && mySeat !== undefined && seat === mySeat) return cap ? "You" : "you";
    const info = (seats || [])[seat];
    if (info && info.name) return info.name;
    if (info && info.type === "bot") return `Bot ${seat}`;
    return `Seat ${seat}`;
  };
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

export const GAME_ORDER = ["rank", "kqp", "royale", "royals"];

export function tokenKey(tableId) {
  return `courtcards:${tableId}`;
}
