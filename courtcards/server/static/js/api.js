// The game server's HTTP API (see notes: SERVER_API.md).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The signed-in session's CSRF token (from GET /api/session): sent with every request that changes something.
let csrf = null;
export function setCsrf(token) {
  csrf = token || null;
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (csrf && method !== "GET") init.headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code || "http_" + response.status, err.message || response.statusText);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  defaults: (game, players) => request("GET", `/api/games/${encodeURIComponent(game)}/defaults?players=${players}`),
  tables: (status = "all") => request("GET", `/api/tables?status=${status}`),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request("POST", "/api/tables", body),
  join: (id, body) => request("POST", `/api/tables/${encodeURIComponent(id)}/join`, body),
  quickPlay: (body) => request("POST", "/api/quickplay", body),
  quickTicket: (ticket) => request("POST", "/api/quickplay/ticket", { ticket }),
  quickLeave: (ticket) => request("POST", "/api/quickplay/leave", { ticket }),
  hint: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/hint`, { token }),
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token }),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  replayStep: (id, step) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay/${step}`),
  // accounts (optional) and "my games"
  session: async () => {
    const s = await request("GET", "/api/session");
    setCsrf(s.csrf);
    return s;
  },
  signUp: async (username, password) => {
    const s = await request("POST", "/api/accounts", { username, password });
    setCsrf(s.csrf);
    return s;
  },
  signIn: async (username, password) => {
    const s = await request("POST", "/api/session", { username, password });
    setCsrf(s.csrf);
    return s;
  },
  signOut: async () => {
    const s = await request("DELETE", "/api/session");
    setCsrf(null);
    return s;
  },
  myGames: () => request("GET", "/api/account/games"),
  guestGames: (seats) => request("POST", "/api/tables/mine", { seats }),
  claim: (table, token) => request("POST", "/api/account/claim", { table, token }),
  seatToken: (id) => request("POST", `/api/account/games/${encodeURIComponent(id)}/token`),
};
