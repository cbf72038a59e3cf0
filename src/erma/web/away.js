// The opponent's reconnect grace (an `away` message, docs/protocol.md): a small notice beside the status line
// with the time left ("opponent away — 0:25"), then "auto-play" once the grace is over; gone when it is `back`.

import { t } from "./i18n.js";
import { $ } from "./ui.js";

let until = 0;
let timer = null;

function tick() {
  const el = $("#away");
  if (!el) return;
  const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  el.textContent = left > 0 ? t("opponent_away", { time }) : t("opponent_away_auto");
  el.hidden = false;
  if (left === 0 && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

/** The opponent's socket closed: its grace ends `deadline_ms` after this message came. */
export function showAway(msg) {
  until = performance.now() + (msg.deadline_ms ?? 0);
  if (timer !== null) clearInterval(timer);
  timer = setInterval(tick, 250);
  tick();
}

/** The opponent is back (or the match is over): no notice. */
export function hideAway() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  const el = $("#away");
  if (el) el.hidden = true;
}
