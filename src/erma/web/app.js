// The app's entry (index.html loads it): wires the modules together, runs the clock, and starts in the lobby.
// The screens: lobby.js, table-screen.js (table.js draws the table), settle.js, replay.js, review.js, rules.js;
// router.js picks one for the state (state.js); messages.js and events.js answer the socket (socket.js).

import { refreshMe } from "./account.js";
import { api, token } from "./api.js";
import { tickCountdown } from "./countdown.js";
import { keys as i18nKeys } from "./i18n.js";
import { bindKeys } from "./keys.js";
import { receive } from "./extras.js";
import { startJoin } from "./friend.js";
import { signedOut } from "./messages.js";
import { act } from "./moves.js";
import { openRules } from "./nav.js";
import { paint } from "./router.js";
import { applySpeed, settings } from "./settings.js";
import { net, onServerMessage, onSignedOut } from "./socket.js";
import { play } from "./sound.js";
import { render, S, setPainter } from "./state.js";
import { myTiles, tickTimer } from "./table.js";
import { bindTopBar } from "./topbar.js";
import { app } from "./ui.js";
import { phone, registerWorker, watchTable } from "./pwa.js";

setPainter(paint);
onServerMessage(receive); // (extras.js: 好友房, the match log, chat; then messages.js)
onSignedOut(signedOut);
applySpeed();
bindTopBar();
bindKeys();

/** Every frame: the turn timer's last seconds tick, the settlement's countdown runs. */
function frame() {
  if (S.countdown) tickCountdown();
  if (S.screen === "table" && S.deadline) {
    const secs = tickTimer(app, S.deadline, S.deadlineTotal);
    if (secs !== null && secs !== S.lastSecs) {
      if (secs <= 3 && secs > 0) play("tick");
      S.lastSecs = secs;
    }
  }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

async function start() {
  try {
    const listed = await api.rooms();
    S.rooms = listed.rooms;
    S.friendPairCap = listed.friend_pair_cap; // the server's daily cap between two accounts (the 好友房 form)
  } catch {
    S.rooms = [];
    S.offline = true; // the lobby says it cannot reach the server (pwa.js)
  }
  if (token()) {
    await refreshMe();
    if (S.account) net.connect(token());
  }
  render();
  startJoin(); // a /join/<code> page: the friend table's card
}

window.erma = { state: S, render, act, myTiles, settings, i18nKeys, openRules, send: (m) => net.send(m) };
start();
// the installed app: the service worker, the screen awake during a hand, the vibrations (pwa.js)
window.erma.phone = phone;
registerWorker();
watchTable();
