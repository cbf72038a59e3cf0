// The settlement's countdown to the next hand, and the next hand itself.

import { t } from "./i18n.js";
import { net, sendNext } from "./socket.js";
import { render, roomOf, S } from "./state.js";
import { el } from "./ui.js";

/** The settlement's countdown to the next hand: the server ends a match whose player does not confirm within
 * the rule set's `next_hand_timeout_s`; the client confirms for the player a few seconds before (unless the
 * hand ended in 托管). It pauses while the player watches a replay or reviews both hands. */
export function startCountdown() {
  if (S.match?.over) return;
  const info = S.rulesInfo[S.view?.rules];
  const room = roomOf(S.end?.room || S.match?.room);
  const preset = info && info !== "loading" ? info.next_hand_timeout_s : 15;
  const limit = (room?.options?.next_hand_timeout_s ?? preset) * 1000; // the room's rule set decides
  const total = Math.max(3000, limit - 3000);
  S.countdown = { left: total, total, at: performance.now(), auto: !S.view?.autoplay };
}

function countdownPaused() {
  return S.screen === "replay" || S.screen === "review" || Boolean(document.querySelector("details.hands[open]"));
}

export function tickCountdown() {
  const c = S.countdown;
  if (!c) return;
  const now = performance.now();
  const stopped = countdownPaused();
  if (!stopped) c.left -= now - c.at;
  c.at = now;
  if (stopped !== Boolean(c.reviewing) && S.match && !S.match.over) {
    c.reviewing = stopped; // the server's clock to the next hand stands still too (docs/protocol.md: review)
    net.send({ type: "review", match: S.match.id, on: stopped });
  }
  if (c.left <= 0) {
    S.countdown = null;
    if (c.auto && S.match && !S.match.over && S.screen === "settle") nextHand();
    return;
  }
  const box = document.querySelector("[data-testid=countdown]");
  if (box) paintCountdown(box, c);
}

/** Show the countdown's state in ``box`` (without advancing it). */
function paintCountdown(box, c) {
  const paused = countdownPaused();
  box.classList.toggle("paused", paused);
  box.dataset.left = String(Math.ceil(c.left / 1000));
  box.dataset.paused = paused ? "1" : "0";
  box.querySelector(".cd-text").textContent = paused ? t("next_paused") : t("next_in", { n: Math.ceil(c.left / 1000) });
  box.querySelector(".cd-bar").style.width = `${((c.left / c.total) * 100).toFixed(1)}%`;
}

export function countdownEl() {
  const box = el("div", "countdown");
  box.dataset.testid = "countdown";
  box.setAttribute("role", "timer");
  const bar = el("div", "cd-track");
  bar.appendChild(el("div", "cd-bar"));
  box.append(el("span", "cd-text", ""), bar);
  box.hidden = !S.countdown;
  if (S.countdown) paintCountdown(box, S.countdown); // a re-rendered screen shows the count at once, not a frame later
  requestAnimationFrame(tickCountdown);
  return box;
}

export function nextHand() {
  sendNext(S.match.id, S.match.hand === undefined ? undefined : S.match.hand + 1);
  S.screen = "table";
  S.end = null;
  S.view = null;
  S.countdown = null;
  render();
}
