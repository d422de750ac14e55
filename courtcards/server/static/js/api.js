// The game server's HTTP API (see notes: SERVER_API.md).

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
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
  hint: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/hint`, { token }),
  rematch: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, { token }),
  replay: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay`),
  replayStep: (id, step) => request("GET", `/api/tables/${encodeURIComponent(id)}/replay/${step}`),
};
