// The client's state (S) and what reads it alone: render (the router's paint, set by app.js), the rooms, the
// seats' names, the rules pages fetched once per preset.

import { api } from "./api.js";
import { playerName, t } from "./i18n.js";

export const S = {
  account: null,
  balance: null,
  history: [],
  games: [],
  rooms: [],
  screen: "lobby",
  queued: null,
  match: null, // {id, seat, room, players, over}
  view: null,
  prev: null,
  selected: new Set(),
  riichi: false,
  hover: null,
  deadline: 0,
  deadlineTotal: 0,
  end: null, // the last hand_end message
  replay: null, // {record, step, timer}
  review: null, // review.js loadReview()'s object, or {loading: true, back}
  pendingEnd: null,
  lastSecs: null,
  done: { digest: null, through: -1 }, // the decisions of this hand already acted on (view.decision)
  mine: null, // {decision, at}: my last move, shown before the server confirmed it
  calledOut: null, // {kind, at}: my claim's word, shown at the tap (its event does not show it again)
  riichiAt: [null, null], // the river index of each seat's 报听 discard (shown sideways)
  lastDiscarder: null,
  autoNoticed: null, // the hand (its digest) whose first 托管 move was announced
  countdown: null, // {left, at, total}: the settlement's countdown to the next hand (ms), paused in a replay
  scores: null, // match_end's final scores
  rulesInfo: {}, // GET /api/rules/{name}, by name
  rulesPage: null, // the preset shown on the rules page
  tracker: localStorage.getItem("erma.tracker") === "1",
  help: false,
  settingsOpen: false,
};

let painter = () => {};
let held = false; // a tile of the hand is pressed (touch.js): a render would replace it under the finger
let due = false; // a render was asked for meanwhile
let holdTimer = 0;

/** Draw the current screen again (router.js's paint, given by app.js to setPainter); while a tile of the hand
 * is pressed, once the press ends (a re-render, e.g. the rules page arriving, replaced the tile being dragged
 * and the drag or the tap was lost). */
export function render() {
  if (held) due = true;
  else painter();
}

/** A tile of the hand is pressed (pointerdown): renders wait until releaseRender (at most 8 s). */
export function holdRender() {
  held = true;
  clearTimeout(holdTimer);
  holdTimer = setTimeout(releaseRender, 8000);
}

/** The press ended: the render asked for meanwhile, now or after `ms` (the tap's click still to come). */
export function releaseRender(ms = 0) {
  clearTimeout(holdTimer);
  if (!held) return;
  const go = () => {
    held = false;
    if (due) {
      due = false;
      painter();
    }
  };
  if (ms) holdTimer = setTimeout(go, ms);
  else go();
}

export function setPainter(paint) {
  painter = paint;
}

/** The rules page of preset `name` (GET /api/rules/{name}), fetched once; null until it has come. */
export async function rulesInfo(name) {
  if (!name) return null;
  if (!S.rulesInfo[name]) {
    S.rulesInfo[name] = "loading";
    try {
      S.rulesInfo[name] = await api.rules(name);
    } catch {
      delete S.rulesInfo[name];
      return null;
    }
    if (S.screen === "table" || S.screen === "rules") render();
  }
  return S.rulesInfo[name] === "loading" ? null : S.rulesInfo[name];
}

export function roomOf(id) {
  return S.rooms.find((r) => r.id === id) || null;
}

export function nameOf(i) {
  const me = S.match?.seat ?? 0;
  const p = (S.view?.players || S.match?.players || [])[i];
  if (i === me) return p?.name ? p.name + t("seat_you") : t("you"); // (a record without names: "You", not "You (you)")
  return p?.name ? playerName(p.name, p.bot) : t("opponent");
}
