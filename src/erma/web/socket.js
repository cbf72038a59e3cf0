// The game socket (net.js) of this page, its status line, and the seed share sent with each "next".

import { t } from "./i18n.js";
import { Net } from "./net.js";
import { $ } from "./ui.js";

let handler = null;
let signedOutHandler = () => {};

const STATUS_TEXT = { replaced: "replaced", signed_out: "signed_out" };

/** The socket; every server message goes to the handler given to onServerMessage (messages.js's, by app.js). */
export const net = new Net((msg) => handler(msg), (status) => {
  const s = $("#status");
  if (status === "open") s.hidden = true;
  else {
    s.hidden = false;
    s.textContent = t(STATUS_TEXT[status] || "reconnecting");
  }
  if (status === "signed_out") signedOutHandler();
});

/** The table waits for the server's database (a `db_wait` message) or has it back: say so in the status line. */
export function showDbWait(waiting) {
  const s = $("#status");
  if (waiting) {
    s.hidden = false;
    s.textContent = t("db_wait");
  } else if (s.textContent === t("db_wait")) s.hidden = true;
}

export function onServerMessage(onMessage) {
  handler = onMessage;
}

/** What to do when the server closes the socket because its session ended (close code 4401). */
export function onSignedOut(fn) {
  signedOutHandler = fn;
}

/** 32 random bytes as 64 hex digits: this seat's share of the next hand's seed (docs/protocol.md). */
function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Ready for hand `hand` of `match` (the one after the last hand_end; undefined: not known, e.g. after a
 * reload), with this seat's share of its seed (the server committed to its own). */
export function sendNext(match, hand) {
  net.send({ type: "next", match, entropy: entropy(), hand });
}
