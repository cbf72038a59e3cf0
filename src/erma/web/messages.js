// The server's messages (docs/protocol.md): what each one changes in the state and on the screen.

import { api, setToken } from "./api.js";
import { hideAway, showAway } from "./away.js";
import { startCountdown } from "./countdown.js";
import { onEvent, restoreMarks } from "./events.js";
import { errorText, t } from "./i18n.js";
import { answered, autoMove } from "./moves.js";
import { toLobby } from "./nav.js";
import { net, sendNext, showDbWait } from "./socket.js";
import { play } from "./sound.js";
import { render, rulesInfo, S } from "./state.js";
import { renderTop } from "./topbar.js";
import { bannersLeft, callout, toast } from "./ui.js";

export function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.account = msg.account;
      S.balance = msg.balance;
      renderTop();
      break;
    case "rooms":
      S.rooms = msg.rooms;
      break;
    case "queued":
      S.queued = msg;
      render();
      break;
    case "cancelled":
      S.queued = null;
      render();
      break;
    case "match":
      S.queued = null;
      S.match = { id: msg.match, seat: msg.seat, room: msg.room, players: msg.players || [], over: false };
      if (!msg.resumed) S.end = null;
      S.screen = "table";
      S.resumed = Boolean(msg.resumed);
      // ready for the first hand, with this seat's share of its seed (the server committed to its own first)
      if (!msg.resumed) sendNext(msg.match, 1);
      render();
      break;
    case "hand_start":
      if (S.match) S.match.hand = msg.hand_no; // (the next "next" confirms hand_no + 1)
      if (S.match && msg.bean_rate !== undefined) S.match.beanRate = msg.bean_rate; // (0: points only)
      S.end = null;
      S.done = { digest: null, through: -1 };
      S.pendingEnd = null;
      S.prev = null;
      S.mine = null;
      S.riichiAt = [null, null];
      S.lastDiscarder = null;
      S.countdown = null;
      rulesInfo(msg.rules);
      // the balance as the server counts it during a hand (the stake held), the same before and after a reload
      api.me().then((me) => {
        S.balance = me.balance;
        renderTop();
      }, () => {});
      S.selected = new Set();
      if (S.match) S.match.seat = msg.seat;
      S.screen = "table";
      play("start");
      callout(t("hand_no", { n: msg.hand_no }), "small");
      break;
    case "event":
      onEvent(msg.event);
      break;
    case "view":
    case "snapshot":
      if (!S.match) S.match = { id: msg.match, seat: msg.view.seat, room: msg.view.room, players: [], over: false };
      if (msg.view.hand_no) S.match.hand = msg.view.hand_no; // (after a reload: which hand "next" follows)
      if (msg.type === "snapshot" && S.resumed && msg.view.autoplay && localStorage.getItem("erma.auto") !== "1") {
        // the server turned auto-play on while this page was away (a refresh): the player is back
        net.send({ type: "autoplay", match: msg.match, on: false });
      }
      S.resumed = false;
      if (msg.type === "view" && S.view?.predicted && S.mine && msg.view.digest === S.view.digest && msg.view.decision <= S.mine.decision) break; // older than my move: keep showing the move
      if (msg.type === "snapshot" && S.riichiAt.every((x) => x === null)) restoreMarks(msg.view);
      if (Array.isArray(msg.view.riichi_at)) S.riichiAt = [...msg.view.riichi_at]; // the server's word: also after a claim of the 报听 discard
      S.prev = msg.type === "snapshot" ? null : S.view;
      S.view = msg.view;
      if (answered(S.view)) S.view.legal = []; // already answered: wait for the next decision
      if (S.prev && S.prev.phase !== S.view.phase) S.selected = new Set();
      if ((S.view.legal || []).length === 0) S.riichi = false;
      if (msg.view.deadline_ms !== undefined && (msg.view.legal || []).length) {
        S.deadline = performance.now() + msg.view.deadline_ms;
        S.deadlineTotal = Math.max(msg.view.deadline_ms, S.deadlineTotal && S.prev?.legal?.length ? S.deadlineTotal : msg.view.deadline_ms);
      } else S.deadline = 0;
      if (S.screen !== "settle" && S.screen !== "replay" && S.screen !== "review") S.screen = "table";
      if (msg.view.phase === "end" && msg.type === "snapshot" && S.end) S.screen = "settle";
      render();
      autoMove();
      break;
    case "hand_end":
      S.end = msg;
      startCountdown();
      S.balance = msg.balances?.[S.match?.seat ?? 0] ?? S.balance;
      showEnd(msg);
      break;
    case "db_wait":
      // the server's clocks stand still while it waits for its database: so does the countdown shown
      if (msg.waiting) S.dbWaitAt = S.dbWaitAt ?? performance.now();
      else if (S.dbWaitAt !== undefined && S.dbWaitAt !== null) {
        if (S.deadline) S.deadline += performance.now() - S.dbWaitAt;
        S.dbWaitAt = null;
      }
      showDbWait(msg.waiting);
      break;
    case "away":
      if (msg.seat !== S.match?.seat) showAway(msg);
      break;
    case "back":
      hideAway();
      break;
    case "match_end":
      hideAway();
      showDbWait(false);
      S.dbWaitAt = null;
      if (S.match) S.match.over = true;
      S.scores = msg.scores || null;
      S.countdown = null;
      if (S.screen === "settle" || S.screen === "table") {
        if (!S.end) S.screen = "settle";
        render();
      }
      break;
    case "error":
      if (msg.code === "bad_token") {
        net.close();
        forgetSession();
      } else if (msg.code === "stale") {
        // it answered a decision already taken (auto-play, while this waited to be sent) or a hand not over:
        // not applied; the stream says what is current
        S.done = { digest: null, through: -1 };
        if (S.match) net.send({ type: "resync", match: S.match.id, version: net.lastVersion(S.match.id) });
        break;
      } else if (msg.code === "not_shown" || msg.code === "not_your_decision") {
        S.done = { digest: null, through: -1 }; // not applied: the next view says what to do
        break;
      } else if (msg.code !== "no_such_match") toast(errorText(msg.code, msg.message));
      play("error");
      if (msg.code === "illegal_action") S.done = { digest: null, through: -1 }; // not applied: may act again
      if (msg.code === "illegal_action" && S.match) net.send({ type: "resync", match: S.match.id, version: net.lastVersion(S.match.id) });
      break;
    default:
      break;
  }
}

function showEnd(msg) {
  // let the win animation play, then the settlement
  clearTimeout(S.pendingEnd);
  S.pendingEnd = setTimeout(() => {
    if (S.end === msg) {
      S.screen = "settle";
      render();
    }
  }, 1300 + bannersLeft());
}

function forgetSession() {
  setToken("");
  S.account = null;
  S.balance = null;
  toLobby();
}

/** The server closed the socket because its session ended (4401): back to sign-in, saying why. */
export function signedOut() {
  forgetSession();
  toast(t("signed_out"), 6000);
}
