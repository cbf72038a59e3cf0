// My moves: an action sent once per decision, shown at once as the engine will show it (predict), and the
// settings that answer for the player.

import { t } from "./i18n.js";
import { play } from "./sound.js";
import { settings } from "./settings.js";
import { net } from "./socket.js";
import { render, S } from "./state.js";
import { parseTiles, toMpsz } from "./tiles.js";
import { callout } from "./ui.js";

/** Was this view's decision already answered? (a client acts at most once per decision: double clicks,
 * a view sent again for the same decision.) */
export function answered(view) {
  return Boolean(view) && view.decision !== undefined && view.digest === S.done.digest && view.decision <= S.done.through;
}

/** Play `actions` (one decision; the start exchange sends its selections and the commit together). */
export function act(...actions) {
  if (!S.match || !S.view || !(S.view.legal || []).length || answered(S.view)) return;
  if (S.view.decision !== undefined) S.done = { digest: S.view.digest, through: S.view.decision + actions.length - 1 };
  S.riichi = false;
  S.hover = null;
  const kind = actions[0].split(" ")[0];
  if (kind === "discard") play("discard");
  // each names the decision it answers (the i-th of several sent together: the view's decision + i)
  const v = S.view;
  actions.forEach((a, i) =>
    net.act(S.match.id, a, v.decision === undefined ? {} : { hand: v.hand_no, decision: v.decision + i }),
  );
  // the player's own move shows at once (the server's uniform pause after a discard only delays what comes
  // after it); the server's events and next view replace this guess (an illegal action resyncs)
  S.prev = S.view;
  S.view = predict(S.view, actions[0]);
  S.mine = { decision: S.view.decision, at: performance.now() };
  if (["chow", "pung", "kong"].includes(kind)) {
    callout(t(kind) + "!", "me");
    S.calledOut = { kind, at: performance.now() };
  }
  render();
}

/** The view right after my own `action`, as the engine will show it: a discard leaves the hand for the river
 * (the drawn tile joins the rest), a claim turns into a meld; in every case the buttons lock until the
 * server's next view. */
export function predict(view, action) {
  const [kind, arg, flag] = action.split(" ");
  const next = { ...view, legal: [], predicted: true };
  const me = view.seat;
  if (kind === "discard" && arg) {
    const hand = parseTiles(view.hand);
    const i = hand.lastIndexOf(arg);
    if (i < 0) return next;
    hand.splice(i, 1);
    next.hand = toMpsz(hand);
    next.drawn = null;
    next.discards = view.discards.map((d, s) => (s === me ? [...d, arg] : d));
    next.last_discard = arg;
    next.actor = 1 - me;
    next.phase = "claim";
    next.hints = {};
    if (flag === "riichi") {
      next.riichi = view.riichi.map((r, s) => (s === me ? true : r));
      S.riichiAt[me] = view.discards[me].length;
    }
  }
  return next;
}

/** The remembered settings that answer for the player: auto-win, no calls (不吃碰). */
export function autoMove() {
  const v = S.view;
  if (!v || answered(v) || !(v.legal || []).length || v.predicted) return;
  let a = null;
  if (settings.autowin && v.legal.includes("win")) a = "win";
  else if (settings.nocall && v.phase === "claim" && v.legal.includes("pass") && !v.legal.includes("win")) a = "pass";
  if (a) setTimeout(() => S.view === v && act(a), 0);
}
