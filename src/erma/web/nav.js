// Going from screen to screen: the lobby, a hand's replay and review (loaded first), a rules page. A rules
// page, a replay and a review are a step in the browser's history: the phone's back button closes them (as
// their own buttons do) instead of leaving the game.

import { refreshMe } from "./account.js";
import { api } from "./api.js";
import { errorText } from "./i18n.js";
import { loadReview } from "./review.js";
import { render, rulesInfo, S } from "./state.js";
import { toast } from "./ui.js";

const OVERLAY = { rules: () => toLobby(), replay: () => closeReplay(), review: () => closeReview() };

/** A history step for the screen opened (one, however many screens are opened from it). */
function pushStep() {
  if (!history.state?.erma) history.pushState({ erma: true }, "");
}

/** Closed by its own button: drop the history step, so that the next back does not land on nothing. */
function dropStep() {
  if (!history.state?.erma) return;
  history.replaceState(null, ""); // (once: the back below is asynchronous)
  history.back();
}

window.addEventListener("popstate", () => OVERLAY[S.screen]?.());

export function toLobby() {
  dropStep();
  S.screen = "lobby";
  S.view = null;
  S.end = null;
  if (S.match?.over) S.match = null;
  render();
  refreshMe().then(() => S.screen === "lobby" && render());
}

export async function openReplay(id) {
  try {
    const data = await api.replay(id); // the hand re-played by the server's engine, one seat view per step
    S.replay = { data, step: 0, timer: null, speed: 1, back: S.screen, shown: null };
    S.screen = "replay";
    pushStep();
    render();
  } catch (err) {
    toast(errorText(err.code, err.message));
  }
}

export function closeReplay() {
  dropStep();
  const back = S.replay?.back;
  S.replay = null;
  if (back === "result" && S.result) {
    S.screen = "result";
    render();
  } else if (back === "settle" && S.end) {
    S.screen = "settle";
    render();
  } else toLobby();
}

export async function openReview(id) {
  const back = S.screen;
  const mine = { loading: true, back };
  S.review = mine;
  S.screen = "review";
  pushStep();
  render();
  try {
    const data = await loadReview(id);
    if (S.review !== mine) return; // closed meanwhile
    S.review = { ...data, back };
    render();
  } catch (err) {
    if (S.review !== mine) return;
    toast(errorText(err.code, err.message));
    closeReview();
  }
}

export function closeReview() {
  dropStep();
  const back = S.review?.back;
  S.review = null;
  if (back === "result" && S.result) {
    S.screen = "result";
    render();
  } else if (back === "settle" && S.end) {
    S.screen = "settle";
    render();
  } else toLobby();
}

export async function openRules(name) {
  S.rulesPage = name;
  S.screen = "rules";
  pushStep();
  render();
  await rulesInfo(name);
  render();
}
