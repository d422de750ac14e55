// Legal actions split into card selections (the cards come from the hand) and buttons.

export function multisetKey(cards) {
  return [...cards].sort().join(" ");
}

function countOf(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

// Returns {byKey: Map(key -> [{text, verb, cards}]), selectable: [...], buttons: [text]}.
// A legal text is a selection when it is some words followed by one or more cards all held in `hand`.
export function classify(legal, hand) {
  const held = countOf(hand || []);
  const byKey = new Map();
  const selectable = [];
  const buttons = [];
  for (const text of legal || []) {
    const tokens = text.split(/\s+/);
    let i = 0;
    while (i < tokens.length && !held.has(tokens[i])) i += 1;
    const words = tokens.slice(0, i);
    const cards = tokens.slice(i);
    let ok = cards.length > 0 && words.every((w) => !held.has(w));
    if (ok) {
      const need = countOf(cards);
      for (const [c, n] of need) if ((held.get(c) || 0) < n) ok = false;
    }
    if (!ok) {
      buttons.push(text);
      continue;
    }
    const entry = { text, verb: words.join(" "), cards };
    selectable.push(entry);
    const key = multisetKey(cards);
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(entry);
  }
  return { byKey, selectable, buttons };
}

// A generic reason why a selection is not one of the legal selections.
export function genericWhyNot(selection, selectable) {
  if (!selectable.length) return "no card play is possible now";
  const sizes = [...new Set(selectable.map((e) => e.cards.length))].sort((a, b) => a - b);
  if (!sizes.includes(selection.length)) {
    const verb = selectable[0].verb || "play";
    if (sizes.length === 1) return `${verb} exactly ${sizes[0]} card${sizes[0] === 1 ? "" : "s"}`;
  }
  return "not one of your legal plays";
}
