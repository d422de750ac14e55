// A table's WebSocket that reconnects by itself (exponential backoff) and pings to stay alive.

// A socket with nothing to do now (not its seat's turn, no action waiting for its answer) spreads its
// first retry over this many more milliseconds: when a server process dies, every socket it held
// reconnects to the survivor at once, and the players to move are served first (docs/server.md).
export const SPREAD_MS = 4000;

export class TableSocket {
  constructor(tableId, token, { onState, onError, onCheck, onStatus, onFatal, onChat, onMuted, urgent } = {}) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = { onState, onError, onCheck, onStatus, onFatal, onChat, onMuted };
    this.urgent = urgent || (() => true); // whether this socket has something to do now
    this.delay = null; // the last retry's delay (ms)
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${query}`;
  }

  status(text, kind) {
    if (this.handlers.onStatus) this.handlers.onStatus(text, kind);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.status(this.attempt ? "reconnecting…" : "connecting…", "warn");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.status("connected", "ok");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "state" && this.handlers.onState) this.handlers.onState(msg);
      else if (msg.type === "error" && this.handlers.onError) this.handlers.onError(msg);
      else if (msg.type === "check" && this.handlers.onCheck) this.handlers.onCheck(msg);
      else if (msg.type === "chat" && this.handlers.onChat) this.handlers.onChat(msg);
      else if (msg.type === "muted" && this.handlers.onMuted) this.handlers.onMuted(msg);
    };
    ws.onclose = (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      if (event.code === 4401 || event.code === 4404) {
        if (this.handlers.onFatal) this.handlers.onFatal(event.code);
        return;
      }
      if (this.closed) return;
      this.attempt += 1;
      let delay = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
      if (this.attempt === 1 && !this.urgent()) delay += Math.random() * SPREAD_MS;
      this.delay = delay;
      this.status(`disconnected — retrying in ${Math.ceil(delay / 1000)} s`, "bad");
      this.retryTimer = setTimeout(() => this.connect(), delay);
    };
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  // Ask the server why an action would be refused (the engine's own reason), without making it.
  sendCheck(action) {
    return this.send({ type: "check", action });
  }

  sendChat(text) {
    return this.send({ type: "chat", text });
  }

  sendMute(seat, muted, owner) {
    return this.send({ type: "mute", seat, muted, owner });
  }

  sendAction(action, version) {
    return this.send({ type: "action", action, version });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
