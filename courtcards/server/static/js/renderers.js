// The renderer of a game: its own browser module (from the game's package, served at the URL the games
// listing gives as `browser_module`) over the generic renderer, which draws any game from its view.
// loadRenderer(game) must have finished before renderer(game) gives the game's own renderer.
import { api } from "./api.js";
import { setCardFaces } from "./cards.js";
import { genericRenderer } from "./generic.js";

const loaded = new Map(); // game -> its renderer
let listing = null; // a promise of Map(game -> its entry in GET /api/games)

export function gameInfos() {
  if (!listing) {
    listing = api.games().then(({ games }) => new Map(games.map((g) => [g.name, g]))).catch(() => {
      listing = null; // asked again next time
      return new Map();
    });
  }
  return listing;
}

export async function loadRenderer(game) {
  if (loaded.has(game)) return loaded.get(game);
  const info = (await gameInfos()).get(game) || null;
  let own = {};
  if (info && info.browser_module) {
    try {
      own = (await import(info.browser_module)).default || {};
    } catch (err) {
      console.warn(`the renderer of ${game} did not load (${err}); the generic renderer draws it`);
    }
  }
  setCardFaces(game, own.cardFace);
  const R = { ...genericRenderer(game, info), ...own };
  loaded.set(game, R);
  return R;
}

export function renderer(game) {
  return loaded.get(game) || genericRenderer(game, null);
}
