// The installed app (issue 36): the service worker (sw.js: the client's static files, for a quick start and
// an offline lobby that says it cannot reach the server), the screen kept awake during a hand (Wake Lock API,
// where the browser has it), a short vibration on your turn and on a claim offer (the "vibrate" setting).

import { t } from "./i18n.js";
import { settings } from "./settings.js";
import { S } from "./state.js";
import { btn, el } from "./ui.js";

/** What this page did, for the tests and the curious: {worker, wakeLock, vibrations}. */
export const phone = { worker: "none", wakeLock: "none", vibrations: 0 };

export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(
    () => (phone.worker = "registered"),
    () => (phone.worker = "failed"),
  );
}

let lock = null;
let asking = false;

/** Hold the screen awake while a hand is on (the table, not its end), let it go otherwise. */
async function keepAwake(want) {
  if (!("wakeLock" in navigator)) return;
  if (want && !lock && !asking && document.visibilityState === "visible") {
    asking = true;
    try {
      lock = await navigator.wakeLock.request("screen");
      phone.wakeLock = "held";
      lock.addEventListener("release", () => {
        lock = null;
        phone.wakeLock = "released";
      });
    } catch {
      phone.wakeLock = "refused"; // (no user gesture yet, a low battery, a policy)
    } finally {
      asking = false;
    }
  } else if (!want && lock) {
    const held = lock;
    lock = null;
    held.release().catch(() => {});
  }
}

let lastAsked = null;

/** A short buzz when a decision of mine arrives: one pulse for my turn, two for a claim offer. */
function buzz(view) {
  const legal = view.legal || [];
  if (!legal.length) return;
  const key = `${view.digest}:${view.decision}`;
  if (key === lastAsked) return;
  lastAsked = key;
  if (!settings.vibrate || typeof navigator.vibrate !== "function") return;
  // before the page's first tap (a reload mid-hand) the browser refuses, and says so in the console: wait
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    if (navigator.vibrate(view.phase === "turn" ? 30 : [40, 60, 40])) phone.vibrations += 1;
  } catch {
    // (a browser may refuse before the first tap)
  }
}

/** Watch the state four times a second (cheap: no rendering). */
export function watchTable() {
  setInterval(() => {
    const inHand = S.screen === "table" && Boolean(S.view) && S.view.phase !== "end";
    keepAwake(inHand);
    if (inHand && !S.view.predicted) buzz(S.view);
  }, 250);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") lock = null; // the browser let it go while hidden
  });
}

/** The lobby's line when the server cannot be reached (offline, or the server down), with a way to retry. */
export function offlineEl() {
  const box = el("div", "card offline");
  box.dataset.testid = "offline";
  box.setAttribute("role", "alert");
  box.appendChild(el("b", "", t("offline")));
  box.appendChild(el("p", "muted", t("offline_detail")));
  box.appendChild(btn(t("retry"), "go", () => location.reload(), "retry"));
  return box;
}
