// Cards drawn as SVG. How a game's card looks is the game's own: its browser module (in the game's
// package) may give a face function (its renderer's `cardFace(code, game)`, registered with setCardFaces
// when the module loads). A game without one gets French faces for codes that read as rank then suit
// (AS, 7H, 10D, KC, 3H) and a plain face with the code's text for anything else.

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const FRENCH_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
// A game whose cards have tiers gives the engine's table, rank -> tier (e.g. its view's `tiers`).
const TIERS = {};
// game -> its face function (code, game) -> face, from the game's browser module
const FACES = {};
const FRENCH = /^(10|[2-9]|1[1-3]?|[AJQKT])([CDHS])$/;

export function setTiers(game, tiers) {
  TIERS[game] = tiers || {};
}

export function setCardFaces(game, face) {
  if (typeof face === "function") FACES[game] = face;
  else delete FACES[game];
}

// Whether a code reads as a French card (rank then suit): the default faces draw it with its suit.
export function isFrenchCard(code) {
  return FRENCH.test(String(code));
}

function plainFace(code) {
  return { corner: code, center: code, ink: "#333", bg: "#fff", name: String(code) };
}

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function frenchFace(code, game) {
  const suit = code.slice(-1);
  const rank = code.slice(0, -1);
  const red = suit === "D" || suit === "H";
  const face = { corner: rank, suit: SUITS[suit] || "?", center: SUITS[suit] || "?", ink: red ? "#c0162c" : "#1b1b1b",
    bg: "#fff", name: `${FRENCH_NAMES[rank] || rank} of ${SUIT_NAMES[suit] || suit}` };
  if (rank === "J" || rank === "Q" || rank === "K") {
    face.center = rank;
    face.bg = red ? "#fff0f0" : "#f0f2f7";
  }
  const tier = (TIERS[game] || {})[rank];
  if (tier) {
    face.tier = tier;
    face.sub = tier.toUpperCase();
  }
  return face;
}

export function cardFace(game, code) {
  const own = FACES[game];
  if (own) return own(code, game);
  return isFrenchCard(code) ? frenchFace(code, game) : plainFace(String(code));
}

export function cardName(game, code) {
  return cardFace(game, code).name;
}

const TIER_COLORS = { low: "#1f8a4c", middle: "#b7791f", high: "#8a2be2" };

// An SVG card (string). The box is 64x90; CSS sets the size.
export function cardSVG(game, code) {
  const f = cardFace(game, code);
  const long = f.center.length > 1;
  const centerSize = long ? 30 : 38;
  const corner = f.suit ? `${esc(f.corner)}` : esc(f.corner);
  const suitLine = f.suit ? `<text x="7" y="33" font-size="13" fill="${f.ink}">${f.suit}</text>` : "";
  const sub = f.sub
    ? `<text x="32" y="76" font-size="9" text-anchor="middle" fill="${f.tier ? TIER_COLORS[f.tier] : f.ink}" font-weight="700" letter-spacing="0.5">${esc(f.sub)}</text>`
    : "";
  const band = f.tier ? `<rect x="3" y="84" width="58" height="3" rx="1.5" fill="${TIER_COLORS[f.tier]}"/>` : "";
  return `<svg class="card-svg" viewBox="0 0 64 90" role="img" aria-label="${esc(f.name)}" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="62" height="88" rx="6" fill="${f.bg}" stroke="#2b2b2b" stroke-width="1.2"/>` +
    `<text x="6" y="19" font-size="17" font-weight="700" fill="${f.ink}" font-family="system-ui, sans-serif">${corner}</text>` +
    suitLine +
    `<text x="32" y="${long ? 58 : 60}" font-size="${centerSize}" font-weight="700" text-anchor="middle" fill="${f.ink}" font-family="system-ui, sans-serif">${esc(f.center)}</text>` +
    sub + band + `</svg>`;
}

export function backSVG(label = "") {
  return `<svg class="card-svg" viewBox="0 0 64 90" role="img" aria-label="face-down card" xmlns="http://www.w3.org/2000/svg">` +
    `<rect x="1" y="1" width="62" height="88" rx="6" fill="#234e8c" stroke="#10264a" stroke-width="1.2"/>` +
    `<rect x="6" y="6" width="52" height="78" rx="4" fill="none" stroke="#9fb9e6" stroke-width="1.5" stroke-dasharray="3 2"/>` +
    `<text x="32" y="54" font-size="22" text-anchor="middle" fill="#dbe6fb" font-family="system-ui, sans-serif">${esc(label || "♛")}</text>` +
    `</svg>`;
}

// A card element: <span class="card"> (or a <button> when interactive).
export function cardEl(game, code, { button = false, small = false, selected = false } = {}) {
  const node = document.createElement(button ? "button" : "span");
  node.className = "card" + (small ? " small" : "") + (selected ? " selected" : "");
  node.dataset.code = code;
  node.innerHTML = cardSVG(game, code);
  if (button) {
    node.type = "button";
    node.setAttribute("aria-pressed", selected ? "true" : "false");
    node.title = cardName(game, code);
  }
  return node;
}

export function backEl(label = "", small = true) {
  const node = document.createElement("span");
  node.className = "card back" + (small ? " small" : "");
  node.innerHTML = backSVG(label);
  return node;
}

export function cardRow(game, codes, { small = true, empty = "—" } = {}) {
  const row = document.createElement("span");
  row.className = "card-row";
  if (!codes || !codes.length) {
    row.textContent = empty;
    row.classList.add("empty");
    return row;
  }
  for (const c of codes) row.appendChild(cardEl(game, c, { small }));
  return row;
}

export { esc };
