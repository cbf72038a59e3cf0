// The screen for the state: lobby, table, settlement, replay, review or rules page, with the table's
// overlays (help, settings).

import { countdownEl } from "./countdown.js";
import { extraScreen } from "./extras.js";
import { helpEl } from "./keys.js";
import { renderLobby } from "./lobby.js";
import { closeReplay, closeReview, toLobby } from "./nav.js";
import { renderReplay } from "./replay.js";
import { renderReview, renderReviewLoading } from "./review.js";
import { renderRules } from "./rules.js";
import { settingsEl } from "./settings.js";
import { renderSettle } from "./settle.js";
import { render, S } from "./state.js";
import { renderTableScreen, showNewest } from "./table-screen.js";
import { renderTop } from "./topbar.js";
import { app } from "./ui.js";

function replayScreen() {
  const root = renderReplay(S.replay, {
    rerender: render,
    close: closeReplay,
    active: () => S.screen === "replay" && Boolean(S.replay),
  });
  if (S.replay.back === "settle" && S.end) root.prepend(countdownEl());
  return root;
}

function reviewScreen() {
  const ui = { rerender: render, close: closeReview };
  const root = S.review.loading ? renderReviewLoading(ui) : renderReview(S.review, ui);
  if (S.review.back === "settle" && S.end) root.prepend(countdownEl());
  return root;
}

/** Draw the screen of the current state (state.js's render). */
export function paint() {
  renderTop();
  let screen;
  if (S.screen === "table" && S.match) screen = renderTableScreen();
  else if (S.screen === "settle" && (S.end || S.match?.over)) screen = renderSettle();
  else if (S.screen === "replay" && S.replay) screen = replayScreen();
  else if (S.screen === "review" && S.review) screen = reviewScreen();
  else if (S.screen === "rules" && S.rulesPage) screen = renderRules(S.rulesPage, S.rulesInfo[S.rulesPage], { back: toLobby, rooms: S.rooms });
  else screen = extraScreen() || renderLobby(); // (the friend, join and result screens, else the lobby)
  document.body.dataset.screen = S.screen;
  if (S.screen !== "table") document.getElementById("notice").hidden = true; // (a move's notice is the table's)
  const overlays = [];
  if (S.help && S.screen === "table") overlays.push(helpEl());
  if (S.settingsOpen && S.screen === "table") overlays.push(settingsEl());
  app.replaceChildren(screen, ...overlays);
  showNewest();
}
