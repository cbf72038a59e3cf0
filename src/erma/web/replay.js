// The replay viewer (回放): the server re-plays a finished hand with the engine (GET /api/games/{id}/replay)
// and sends one seat view per step; this draws each step with the table's own renderer, words the step's
// events in the current language, and steps, plays (at a chosen speed) and jumps.

import { exchangeText, pick, playerName, t, tileName } from "./i18n.js";
import { renderTable } from "./table.js";
import { parseTiles } from "./tiles.js";
import { el } from "./ui.js";

/** The table of a stored hand at one step, read-only (a replay's, a review's): the players as the record names
 *  them (a bot's name in the current language; the table words an unnamed own seat). */
export function recordTable(players, me, view, { prev = null, room = null, oppHand = null, riichiAt = [null, null], lastDiscarder = null } = {}) {
  const names = [0, 1].map((s) => ({ name: players?.[s] ? playerName(players[s]) : s === me ? "" : t("opponent") }));
  const wrap = el("div", "replay-table");
  renderTable(wrap, {
    view: { ...view, players: names, hints: {} },
    prev,
    players: names,
    room,
    selected: new Set(),
    riichi: false,
    hover: null,
    deadline: 0,
    readonly: true,
    oppHand,
    riichiAt,
    lastDiscarder,
    act() {},
    toggle() {},
    toggleRiichi() {},
    setHover() {},
    setAutoplay() {},
    commitExchange() {},
  });
  return wrap;
}

/** Small inline icons (the symbol fonts of many systems lack ⏮ ⏭ ⏸). */
const ICONS = {
  first: "M3 3h2v10H3zM14 3v10L6 8z",
  prev: "M12 3v10L4 8z",
  play: "M4 3v10l9-5z",
  pause: "M4 3h3v10H4zM9 3h3v10H9z",
  next: "M4 3v10l8-5z",
  last: "M11 3h2v10h-2zM2 3v10l8-5z",
};

function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.appendChild(path);
  return svg;
}

function iconButton(name, label, onClick, testid) {
  const b = el("button", "btn icon-btn");
  b.type = "button";
  b.appendChild(icon(name));
  b.appendChild(el("span", "label", label));
  b.setAttribute("aria-label", label);
  if (testid) b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

const MELD_EVENTS = { chow: "ev_chow", pung: "ev_pung", kong: "ev_kong", ckong: "ev_kong", akong: "ev_kong", xkong: "ev_kong" };

/** One engine event as a sentence ("对手 打出 八筒"); "" for the events not worth a line. One's own events have
 * their own words (`ev_…_me`: "You discard", not "You discards"). */
export function describeEvent(e, me) {
  const mine = e.seat === me;
  const who = e.seat === undefined || e.seat === null ? "" : mine ? t("you") : t("opponent");
  const said = (key, args = {}) => (mine ? t(`${key}_me`, args) : t(key, { who, ...args }));
  const name = (x) => (x ? tileName(x) : "");
  switch (e.type) {
    case "deal":
      return t("ev_deal");
    case "draw":
      return e.tile ? said("ev_draw_tile", { t: name(e.tile) }) : said("ev_draw");
    case "discard":
      return said(e.riichi ? "ev_discard_riichi" : "ev_discard", { t: name(e.tile) });
    case "chow":
    case "pung":
    case "kong":
    case "ckong":
    case "akong":
    case "xkong":
      return said(MELD_EVENTS[e.type], { t: e.meld ? parseTiles(e.meld).map(name).join(" ") : name(e.tile) });
    case "win":
      return t(e.winner === me ? "ev_win_me" : "ev_win", { who: t("opponent"), t: name(e.tile) });
    case "pass":
      return said("ev_pass");
    case "exchange":
      return exchangeText(e.count, mine);
    case "cuo":
      return mine && e.kind ? t("ev_cuo_me", { t: name(e.kind) }) : t("ev_cuo_opp");
    case "triplet_accept":
      return said("ev_triplet_by", { t: name(e.kind) });
    case "haidi":
      return t("ev_haidi");
    case "haidi_pick":
      return said("ev_haidi_by", { t: name(e.tile) });
    case "exhausted":
      return t("ev_exhausted");
    case "escape":
      return t("ev_escape");
    case "flower":
      return said("ev_flower_by", { t: name(e.tile) });
    case "maidi":
    case "dingdi":
      return said(`ev_${e.type}_${e.choice ? "yes" : "no"}`);
    default:
      return "";
  }
}

/** Where each seat's 报听 discard lies in its river, and who discarded last, after `step`. */
function riverMarks(steps, step) {
  const riichiAt = [null, null];
  let last = null;
  for (let k = 1; k <= step; k++) {
    for (const e of steps[k].events) {
      if (e.type !== "discard") continue;
      last = e.seat;
      if (e.riichi && riichiAt[e.seat] === null) riichiAt[e.seat] = steps[k - 1].view.discards[e.seat].length;
    }
  }
  const said = steps[step]?.view?.riichi_at; // the server's word (exact after a claim of the 报听 discard)
  return { riichiAt: Array.isArray(said) ? [...said] : riichiAt, last };
}

/**
 * The viewer. R: {data (the endpoint's answer), step, timer, speed}; `ui.rerender()` draws again,
 * `ui.close()` leaves. Returns the section.
 */
export function renderReplay(R, ui) {
  const d = R.data;
  const steps = d.steps;
  const n = steps.length - 1;
  const cur = steps[R.step];
  const me = d.seat;
  const root = el("section", "replay");
  root.dataset.testid = "replay";
  root.dataset.step = String(R.step);
  const head = el("div", "replay-head");
  const roomName = d.room && (d.room.name_zh || d.room.name_en) ? pick(d.room) : t(`rules_${d.rules}`);
  head.appendChild(el("h2", "", t("replay_title", { room: roomName })));
  const count = el("span", "muted", t("step", { n: R.step, m: n }));
  count.dataset.testid = "replay-step";
  const right = el("span", "replay-right");
  right.appendChild(count);
  head.appendChild(right);
  root.appendChild(head);

  const marks = riverMarks(steps, R.step);
  const wrap = recordTable(d.players, me, cur.view, {
    prev: R.step > 0 && R.shown === R.step - 1 ? steps[R.step - 1].view : null,
    room: d.room,
    oppHand: cur.hands[1 - me],
    riichiAt: marks.riichiAt,
    lastDiscarder: marks.last,
  });
  R.shown = R.step;
  root.appendChild(wrap);

  const text = cur.events.map((e) => describeEvent(e, me)).filter(Boolean);
  const line = el("div", "replay-event", text.join(" · ") || "\u00a0");
  line.dataset.testid = "replay-event";
  line.setAttribute("aria-live", "polite");

  const go = (k) => {
    R.step = Math.max(0, Math.min(n, k));
    ui.rerender();
  };
  const stop = () => {
    clearInterval(R.timer);
    R.timer = null;
  };
  const slider = el("input", "slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(n);
  slider.value = String(R.step);
  slider.setAttribute("aria-label", t("step", { n: R.step, m: n }));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = el("div", "replay-controls");
  controls.append(line, slider);
  const bar = el("div", "row replay-bar");
  bar.appendChild(iconButton("first", t("first"), () => go(0), "replay-first"));
  bar.appendChild(iconButton("prev", t("prev"), () => go(R.step - 1), "replay-prev"));
  bar.appendChild(
    iconButton(R.timer ? "pause" : "play", R.timer ? t("pause") : t("play"), () => {
      if (R.timer) stop();
      else {
        if (R.step >= n) R.step = 0;
        R.timer = setInterval(() => {
          if (R.step >= n || !ui.active()) {
            stop();
            if (ui.active()) ui.rerender();
          } else go(R.step + 1);
        }, 700 / R.speed);
      }
      ui.rerender();
    }, "replay-play"),
  );
  bar.appendChild(iconButton("next", t("next"), () => go(R.step + 1), "replay-next"));
  bar.appendChild(iconButton("last", t("last"), () => go(n), "replay-last"));
  const speed = el("select", "speed");
  speed.dataset.testid = "replay-speed";
  speed.setAttribute("aria-label", t("speed"));
  for (const s of [0.5, 1, 2, 4]) {
    const o = el("option", "", `${s}×`);
    o.value = String(s);
    o.selected = s === R.speed;
    speed.appendChild(o);
  }
  speed.addEventListener("change", () => {
    R.speed = Number(speed.value);
    if (R.timer) {
      stop();
      bar.querySelector("[data-testid=replay-play]").click();
    }
  });
  const sp = el("label", "speed-box");
  sp.append(el("span", "", t("speed")), speed);
  bar.appendChild(sp);
  controls.appendChild(bar);
  root.appendChild(controls);
  const close = el("button", "btn ghost", t("close"));
  close.type = "button";
  close.dataset.testid = "replay-close";
  close.addEventListener("click", () => {
    stop();
    ui.close();
  });
  right.appendChild(close);
  return root;
}
