// The game socket (docs/protocol.md): hello with the session token and the last version seen of each
// match (kept in localStorage so a page refresh resumes), per-match action sequence numbers, reconnection
// with backoff (at once after a close with code 4409 "moved"), and an application ping.

const RESUME_KEY = "erma.resume"; // {match_id: last v}
const SEQ_KEY = "erma.seq"; // {match_id: last seq sent}
const CLOSE_MOVED = 4409; // the server lost this match to another process: reconnect at once
const SIGNED_OUT = 4401; // the close code of a socket whose session ended (docs/protocol.md)

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}

function save(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

export class Net {
  /** `onMessage(msg)` for every server message; `onStatus("open"|"closed"|"replaced"|"signed_out")`. */
  constructor(onMessage, onStatus) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.token = "";
    this.backoff = 500;
    this.stopped = false;
    this.pingTimer = null;
    this.queue = [];
  }

  connect(token) {
    this.token = token;
    this.stopped = false;
    this._open();
  }

  close() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  _open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      const resume = load(RESUME_KEY);
      ws.send(JSON.stringify({ type: "hello", token: this.token, resume }));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      this.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping", t: Date.now() }), 8000);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.match && typeof msg.v === "number") this.seen(msg.match, msg.v);
      if (msg.type === "replaced") this.stopped = true;
      if (msg.type === "match_end" && msg.match) this.forget(msg.match);
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (e.code === SIGNED_OUT) {
        // the session ended (log out, log out everywhere, password change, expiry): no reconnecting with it
        this.stopped = true;
        this.onStatus("signed_out");
        return;
      }
      if (this.stopped) {
        this.onStatus("replaced");
        return;
      }
      this.onStatus("closed");
      if (e.code === CLOSE_MOVED) this.backoff = 0; // the match moved to another process: back at once
      setTimeout(() => !this.stopped && this._open(), this.backoff);
      this.backoff = Math.min(Math.max(this.backoff * 2, 500), 8000);
    };
    ws.onerror = () => {}; // onclose follows and reconnects
  }

  /** Send a message (queued while reconnecting). */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (msg.type !== "ping") this.queue.push(msg);
  }

  /** Play an action in a match with the next sequence number; `answers`: the {hand, decision} it answers
   * (the server refuses it as "stale" once that decision was taken, by auto-play say, while this was queued). */
  act(match, action, answers = {}) {
    const seqs = load(SEQ_KEY);
    const seq = (seqs[match] || 0) + 1;
    seqs[match] = seq;
    save(SEQ_KEY, seqs);
    this.send({ type: "action", match, seq, action, ...answers });
    return seq;
  }

  seen(match, v) {
    const r = load(RESUME_KEY);
    if ((r[match] ?? -1) < v) save(RESUME_KEY, { [match]: v }); // one live match at a time
  }

  lastVersion(match) {
    return load(RESUME_KEY)[match] ?? -1;
  }

  forget(match) {
    const r = load(RESUME_KEY);
    delete r[match];
    save(RESUME_KEY, r);
    const s = load(SEQ_KEY);
    delete s[match];
    save(SEQ_KEY, s);
  }
}
