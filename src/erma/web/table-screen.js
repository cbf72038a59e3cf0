// The table screen's glue: table.js draws it from the view; here are its handlers, the 记牌器's data and
// the tools beside 托管.

import { leaveText } from "./escape.js";
import { decorate } from "./extras.js";
import { t } from "./i18n.js";
import { act } from "./moves.js";
import { settings } from "./settings.js";
import { net } from "./socket.js";
import { play } from "./sound.js";
import { render, roomOf, rulesInfo, S } from "./state.js";
import { hintsEl, renderTable } from "./table.js";
import { app, btn, el, toast } from "./ui.js";

const tableUi = {
  act,
  toggle(index, limit) {
    if (S.selected.has(index)) S.selected.delete(index);
    else if (S.selected.size < limit) S.selected.add(index);
    play("select");
    render();
  },
  toggleRiichi() {
    S.riichi = !S.riichi;
    play("select");
    render();
  },
  setHover(tile) {
    // only the hint strip changes: re-rendering the hand under the pointer would fight the hover
    if (S.hover === tile) return;
    S.hover = tile;
    const hints = app.querySelector("[data-testid=hints]");
    if (hints && S.view) hints.replaceWith(hintsEl(S.view, { hover: tile }));
  },
  setAutoplay(on) {
    localStorage.setItem("erma.auto", on ? "1" : "0"); // chosen by the player (kept over a refresh)
    if (S.match) net.send({ type: "autoplay", match: S.match.id, on });
  },
  commitExchange(display) {
    const tiles = [...S.selected].sort((a, b) => a - b).map((i) => display[i]);
    S.selected = new Set();
    act(...tiles.map((x) => `select ${x}`), "exchange");
  },
};

/** The tiles in play and their copies, for the 记牌器 (from the rules page of the hand's rule set). */
function trackerInfo() {
  const info = S.rulesInfo[S.view?.rules];
  if (!info || info === "loading") {
    rulesInfo(S.view?.rules);
    return null;
  }
  return { kinds: info.kinds, copies: info.copies };
}

export function renderTableScreen() {
  const root = el("div", "tablewrap");
  if (!S.view) {
    root.appendChild(el("div", "loading", "…"));
    return root;
  }
  renderTable(root, {
    ...tableUi,
    view: S.view,
    prev: S.prev,
    players: S.match?.players,
    room: roomOf(S.view.room || S.match?.room),
    selected: S.selected,
    riichi: S.riichi,
    hover: S.hover,
    deadline: S.deadline,
    riichiAt: S.riichiAt,
    lastDiscarder: S.lastDiscarder,
    tracker: S.tracker ? trackerInfo() : null,
    tools: toolsEl,
    tsumogiri: settings.tsumogiri,
    onetap: settings.onetap,
  });
  decorate(root); // 第 k/n 局, the running scores, quick chat
  S.prev = null; // animate a change once
  return root;
}

/** Each long river of the table fitted to its box (style.css gives it what the screen has left): its tiles as
 * large as lets all of them show (not under 20 px), else it scrolls inside itself to its newest discard. After
 * every paint and turn of the screen. */
export function showNewest() {
  for (const r of app.querySelectorAll(".tablewrap .river")) {
    r.style.removeProperty("--river-fit");
    r.style.minHeight = "";
    const tiles = r.children.length;
    const first = r.firstElementChild?.getBoundingClientRect();
    if (first && r.scrollHeight > r.clientHeight + 1) {
      const fits = (w) => Math.ceil(tiles / Math.floor((r.clientWidth + 1) / (w + 1))) * (w * 4 / 3 + 1) <= r.clientHeight + 1;
      let w = Math.floor(first.width);
      while (w > 20 && !fits(w)) w--;
      r.style.setProperty("--river-fit", `${w}px`);
      const row = w * 4 / 3 + 1; // (still too long: whole rows in sight, the newest at the foot)
      if (!fits(w)) r.style.minHeight = `${Math.max(1, Math.floor((r.clientHeight + 1) / row)) * row - 1}px`;
    }
    r.scrollTop = r.scrollHeight;
  }
}
addEventListener("resize", showNewest);

/** The small buttons beside 托管: 记牌器, settings, keyboard help. */
function toolsEl() {
  const box = el("span", "tools");
  box.appendChild(btn(t("leave"), "ghost small leave", () => {
    if (S.view?.phase !== "end" && !confirm(leaveText(S.view, roomOf(S.view.room || S.match?.room), S.match?.beanRate))) return;
    net.send({ type: "leave", match: S.match.id });
    toast(t("leaving")); // at once: the server's answer (the match's end) may take a moment
  }, "leave"));
  const tr = btn(t("tracker"), `small tool${S.tracker ? " on" : ""}`, () => {
    S.tracker = !S.tracker;
    localStorage.setItem("erma.tracker", S.tracker ? "1" : "0");
    render();
  }, "tracker-toggle");
  tr.setAttribute("aria-pressed", String(S.tracker));
  box.appendChild(tr);
  box.appendChild(btn(t("settings"), "small tool", () => {
    S.settingsOpen = !S.settingsOpen;
    render();
  }, "settings-open"));
  box.lastChild.setAttribute("aria-label", t("settings"));
  box.appendChild(btn("?", "small tool", () => {
    S.help = !S.help;
    render();
  }, "help-open"));
  box.lastChild.setAttribute("aria-label", t("help_title"));
  return box;
}
