// Rendering the table from the seat's view (docs/protocol.md `view`). Only the server's legal actions become
// buttons and clickable tiles. Animations come from comparing the new view with the previous one.

import { playerName, t, tileName, windName } from "./i18n.js";
import { parseMelds, parseTiles, sortTiles, tileImg, tileRow } from "./tiles.js";
import { dragUp } from "./touch.js";

function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}

const KEYS = { "act-win": "H", "act-pung": "P", "act-chow": "C", "act-kong": "K", "act-riichi": "R", "act-pass": "X" };

function button(label, cls, onClick, testid) {
  const b = el("button", `btn ${cls}`, label);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  if (KEYS[testid]) b.setAttribute("aria-keyshortcuts", KEYS[testid]);
  b.addEventListener("click", onClick);
  return b;
}

/** My concealed tiles for display: sorted (温州: the 财神 first, as players keep them), the drawn tile apart. */
export function myTiles(view) {
  const all = parseTiles(view.hand);
  const sort = (tiles) => {
    const sorted = sortTiles(tiles);
    return view.caishen ? [...sorted.filter((x) => x === view.caishen), ...sorted.filter((x) => x !== view.caishen)] : sorted;
  };
  if (view.drawn && view.phase === "turn") {
    const i = all.lastIndexOf(view.drawn);
    if (i >= 0) {
      all.splice(i, 1);
      return { rest: sort(all), drawn: view.drawn };
    }
  }
  return { rest: sort(all), drawn: null };
}

function meldsEl(melds, fresh) {
  const box = el("div", "melds");
  parseMelds(melds).forEach((m, i) => {
    const g = el("span", `meld${m.concealed ? " concealed" : ""}${fresh && i === melds.length - 1 ? " pop" : ""}`);
    m.tiles.forEach((x, j) => {
      // a concealed kong shows its two outer tiles face down, like on a real table
      const hide = m.hidden || (m.concealed && (j === 0 || j === 3));
      g.appendChild(tileImg(hide ? null : x, "sm"));
    });
    box.appendChild(g);
  });
  return box;
}

/** A river: the 报听 discard (`riichiAt`) turned sideways, the last discard of the hand marked. */
function riverEl(tiles, fresh, last, who, riichiAt = null) {
  const box = el("div", `river ${who}`);
  box.dataset.testid = `river-${who}`;
  tiles.forEach((x, i) => {
    const isLast = i === tiles.length - 1;
    const cls = ["sm", isLast && fresh ? "drop" : "", isLast && last ? "last" : "", i === riichiAt ? "sideways" : ""];
    const img = tileImg(x, cls.filter(Boolean).join(" "));
    if (i === riichiAt) img.title = t("riichi_on");
    box.appendChild(img);
  });
  return box;
}

function seatBadges(view, seat, players, isMe) {
  const box = el("div", "who");
  const p = (players || [])[seat] || {};
  const name = el("span", "name", isMe ? (p.name ? `${p.name}${t("seat_you")}` : t("you")) : p.name ? playerName(p.name, p.bot) : t("opponent"));
  box.appendChild(el("span", "wind", windName(view.seat_winds?.[seat] ?? 0)));
  if (view.dealer === seat) box.appendChild(el("span", "badge dealer", t("dealer")));
  box.appendChild(name);
  if (p.bot) box.appendChild(el("span", "badge bot", "AI"));
  if (view.riichi?.[seat]) box.appendChild(el("span", "badge riichi", t("riichi_on")));
  if (view.stakes) {
    // 温州: the dealer's 买底 and the other seat's 顶底, once chosen
    const mine = view.dealer === seat ? view.stakes.maidi && "maidi" : view.stakes.dingdi && "dingdi";
    if (mine) box.appendChild(el("span", "badge stake-on", t(mine)));
  }
  if (view.actor === seat && view.phase !== "end") box.classList.add("acting");
  return box;
}

/** A touch screen has no hover: a tile is picked by a first tap (its hints show) and discarded by a second. */
const TOUCH = typeof matchMedia === "function" && matchMedia("(hover: none)").matches;

/** 温州's 财神 (the wild tile), shown big, with the flipped tile when they differ and the 白板 that stands in. */
function caishenEl(view) {
  const box = el("div", "caishen-box");
  box.dataset.testid = "caishen";
  const head = el("div", "cs-head");
  head.appendChild(el("span", "cs-label", t("caishen")));
  if (view.caishen) head.appendChild(tileImg(view.caishen, "sm glow"));
  else head.appendChild(el("span", "cs-unknown", "?"));
  box.appendChild(head);
  if (view.caishen) {
    const note = el("div", "cs-note");
    if (view.flipped && view.flipped !== view.caishen) {
      note.appendChild(el("span", "", t("flipped")));
      note.appendChild(tileImg(view.flipped, "xs"));
    }
    if (view.caishen !== "5z") {
      note.appendChild(tileImg("5z", "xs"));
      note.appendChild(el("span", "", t("white_as")));
      note.appendChild(tileImg(view.caishen, "xs"));
    }
    box.appendChild(note);
  }
  return box;
}

/** One wait: the tile, how many copies this seat has not seen, and what a win on it is worth. */
function waitEl(w) {
  const dead = w.unseen === 0;
  const none = w.points === null && w.points_self === null;
  const item = el("span", `wait${dead ? " dead" : ""}${none ? " nofan" : ""}`);
  item.dataset.tile = w.tile;
  item.appendChild(tileImg(w.tile, "xs"));
  item.appendChild(el("span", "count", t("unseen", { n: w.unseen })));
  let worth;
  if (none) worth = t("worth_none");
  else if (w.points === null) worth = t("worth_self_only", { n: w.points_self });
  else if (w.points_self === null || w.points_self === w.points) worth = t("worth", { n: w.points });
  else worth = t("worth_both", { n: w.points, m: w.points_self });
  // the worth in its parts (on a discard, " · ", self-drawn): a phone's small wait puts the second under the first
  const box = el("span", "worth");
  worth.split(" · ").forEach((part, i) => {
    if (i) box.appendChild(el("span", "sep", " · "));
    box.appendChild(el("span", `w${i + 1}`, part));
  });
  item.appendChild(box);
  item.title = none
    ? t("worth_none_tip")
    : t("worth_tip", { n: w.points ?? "—", m: w.points_self ?? "—" });
  return item;
}

/**
 * The hint strip, from the server's `view.hints` (only what this seat may know): between turns the waits
 * of a ready hand; during my turn, the waits a hovered (or picked) discard would leave, or else which
 * discards leave the hand ready.
 */
export function hintsEl(view, ui) {
  const box = el("div", "hints");
  box.dataset.testid = "hints";
  // waits that do not fit scroll sideways inside the strip: a mouse's wheel turns it (a touch screen swipes it)
  box.addEventListener("wheel", (e) => {
    if (box.scrollWidth <= box.clientWidth || Math.abs(e.deltaX) >= Math.abs(e.deltaY)) return;
    box.scrollLeft += e.deltaY;
    e.preventDefault();
  }, { passive: false });
  const hints = view.phase === "end" ? {} : view.hints || {};
  const after = hints.after_discard || {};
  const myTurn = view.phase === "turn" && (view.legal || []).length > 0;
  if (!view.hints) return box;
  let waits;
  if (myTurn && ui.hover) {
    box.dataset.mode = "after";
    box.appendChild(el("span", "label", t("after_discard")));
    box.appendChild(tileImg(ui.hover, "xs"));
    box.appendChild(el("span", "label", "→"));
    waits = after[ui.hover] || [];
  } else if ((hints.waits || []).length) {
    box.dataset.mode = "waits";
    box.appendChild(el("span", "label", t("waits")));
    waits = hints.waits;
  } else if (myTurn && Object.keys(after).length) {
    box.dataset.mode = "ready";
    box.appendChild(el("span", "label", t("ready_by")));
    box.appendChild(tileRow(sortTiles(Object.keys(after)), "xs"));
    return box;
  } else {
    return box;
  }
  if (!waits.length) {
    box.appendChild(el("span", "muted", t("no_waits")));
    return box;
  }
  for (const w of waits) box.appendChild(waitEl(w));
  return box;
}

/**
 * Render the table into `root`.
 * ui: {view, prev, players, room, selected:Set<index>, riichi:bool, hover, deadline, act(action), ...}
 */
export function renderTable(root, ui) {
  const view = ui.view;
  const prev = ui.prev;
  const me = view.seat;
  const opp = 1 - me;
  const legal = view.legal || [];
  const players = view.players || ui.players;
  root.innerHTML = "";
  const table = el("section", "table");
  table.dataset.testid = "table";
  table.dataset.phase = view.phase;

  // ---------------------------------------------------------------- the opponent
  const top = el("div", "seat opp");
  top.appendChild(seatBadges(view, opp, players, false));
  const oppHand = el("div", "hand hidden-hand");
  oppHand.dataset.testid = "opp-hand";
  oppHand.style.setProperty("--opp-slots", String(view.opponent_hand_count + 2));
  if (ui.oppHand) sortTiles(parseTiles(ui.oppHand)).forEach((x) => oppHand.appendChild(tileImg(x, "sm open")));
  else for (let i = 0; i < view.opponent_hand_count; i++) oppHand.appendChild(tileImg(null, "sm back"));
  const oppCount = el("span", "count-badge", String(view.opponent_hand_count));
  oppHand.appendChild(oppCount);
  top.appendChild(oppHand);
  const oppMeldsFresh = prev && (prev.melds?.[opp]?.length || 0) < (view.melds?.[opp]?.length || 0);
  top.appendChild(meldsEl(view.melds?.[opp] || [], oppMeldsFresh));
  if (view.flowers?.[opp]?.length) top.appendChild(tileRow(view.flowers[opp], "xs"));
  table.appendChild(top);

  // ---------------------------------------------------------------- the middle
  const mid = el("div", "center");
  const oppRiver = view.discards?.[opp] || [];
  const myRiver = view.discards?.[me] || [];
  const lastSeat = ui.lastDiscarder ?? (view.actor === me ? opp : me);
  const lastOpp = Boolean(view.last_discard) && lastSeat === opp && oppRiver.at(-1) === view.last_discard;
  const lastMe = Boolean(view.last_discard) && lastSeat === me && myRiver.at(-1) === view.last_discard;
  mid.appendChild(riverEl(oppRiver, prev && (prev.discards?.[opp]?.length || 0) < oppRiver.length, lastOpp, "opp", ui.riichiAt?.[opp]));
  const info = el("div", "info");
  const wall = el("div", "wallcount");
  wall.dataset.testid = "wall";
  wall.innerHTML = `<b>${view.wall}</b><small>${t("wall")}</small>`;
  info.appendChild(wall);
  if (view.reserve) {
    const r = el("div", "wallcount reserve");
    r.innerHTML = `<b>${view.reserve}</b><small>${t("reserve")}</small>`;
    info.appendChild(r);
  }
  const wenzhou = "caishen" in view;
  if (wenzhou) info.appendChild(caishenEl(view));
  if (!wenzhou && ((view.revealed || []).length || (view.bonus_kinds || []).length)) {
    const b = el("div", "bonus");
    b.appendChild(el("small", "", t("bonus")));
    b.appendChild(tileRow(view.bonus_kinds?.length ? view.bonus_kinds : view.revealed, "xs glow"));
    info.appendChild(b);
  }
  const round = el("div", "round");
  round.textContent = `${windName(view.prevalent_wind ?? 0)} · ${t("hand_no", { n: view.hand_no || 1 })}`;
  info.appendChild(round);
  if (wenzhou) {
    const stake = el("div", "stake");
    const bits = [t("base", { n: view.base })];
    if (view.streak) bits.push(t("streak", { n: view.streak }));
    if (ui.room) bits.push(t("rate_wz", { n: ui.room.bean_rate }));
    stake.textContent = bits.join(" · ");
    info.appendChild(stake);
  } else if (ui.room) {
    const cap = ui.room.fan_cap;
    const stake = el("div", "stake");
    stake.textContent = cap ? t("stake", { n: ui.room.bean_rate, m: cap * ui.room.bean_rate }) : t("stake_nocap", { n: ui.room.bean_rate });
    info.appendChild(stake);
  }
  mid.appendChild(info);
  const timer = el("div", "timer");
  timer.dataset.testid = "timer";
  timer.innerHTML = `<div class="bar"></div><span class="secs"></span>`;
  timer.hidden = !(legal.length && ui.deadline);
  mid.appendChild(timer);
  const turn = el("div", `turn${legal.length ? " mine" : ""}`);
  const waitingFor = { maidi: "waiting_maidi", dingdi: "waiting_dingdi" }[view.phase] || "waiting";
  turn.dataset.testid = "turn";
  turn.textContent = ui.readonly ? "" : legal.length ? t(`your_${view.phase === "turn" ? "turn" : "move"}`) : view.phase === "end" ? "" : t(waitingFor);
  mid.appendChild(turn);
  mid.appendChild(riverEl(myRiver, prev && (prev.discards?.[me]?.length || 0) < myRiver.length, lastMe, "me", ui.riichiAt?.[me]));
  table.appendChild(mid);

  // ---------------------------------------------------------------- me
  const bottom = el("div", "seat me");
  const prompt = el("div", "prompt");
  const actions = el("div", "actions");
  actions.dataset.testid = "actions";
  const { rest, drawn } = myTiles(view);
  const display = drawn ? [...rest, drawn] : rest;
  const discardable = new Set(legal.filter((a) => a.startsWith("discard ") && !a.endsWith("riichi")).map((a) => a.split(" ")[1]));
  const riichiable = new Set(legal.filter((a) => a.endsWith(" riichi")).map((a) => a.split(" ")[1]));
  const phase = view.phase;
  const mine = legal.length > 0;
  let hand = null; // my hand's element (below)

  // tile clicks: discard, or select (exchange / triplet)
  const onTile = (tile, index, img) => {
    if (img.dataset.dragged) return; // discarded by dragging it up (touch.js)
    if (TOUCH && !ui.onetap && phase === "turn" && mine && !img.classList.contains("picked") && (ui.riichi ? riichiable : discardable).has(tile)) {
      // no hover on a touch screen: the first tap picks the tile and shows what discarding it leaves
      hand.querySelectorAll(".tile.picked").forEach((x) => x.classList.remove("picked"));
      img.classList.add("picked");
      ui.setHover(tile);
      return;
    }
    if (phase === "exchange" && mine) ui.toggle(index, 99);
    else if (phase === "triplet" && mine) ui.toggle(index, 3);
    else if (ui.riichi && riichiable.has(tile)) ui.act(`discard ${tile} riichi`);
    else if (!ui.riichi && discardable.has(tile)) ui.act(`discard ${tile}`);
  };

  if (mine) {
    if (legal.includes("win")) {
      const label = phase === "turn" ? t("self_win") : t("win");
      actions.appendChild(button(label, "win", () => ui.act("win"), "act-win"));
    }
    for (const a of legal.filter((x) => /^(kong|ckong|akong|xkong)\b/.test(x))) {
      const b = button(t("kong"), "kong", () => ui.act(a), "act-kong");
      const tile = a.split(" ")[1] || view.last_discard;
      if (tile) b.appendChild(tileImg(tile, "xs"));
      actions.appendChild(b);
    }
    if (legal.includes("pung")) {
      const b = button(t("pung"), "pung", () => ui.act("pung"), "act-pung");
      if (view.last_discard) b.appendChild(tileImg(view.last_discard, "xs"));
      actions.appendChild(b);
    }
    for (const a of legal.filter((x) => x.startsWith("chow "))) {
      const low = a.split(" ")[1];
      const n = Number(low[0]);
      const b = button(t("chow"), "chow", () => ui.act(a), "act-chow");
      b.appendChild(tileRow([0, 1, 2].map((d) => `${n + d}${low[1]}`), "xs"));
      actions.appendChild(b);
    }
    if (ui.tsumogiri && phase === "turn" && drawn && discardable.has(drawn) && !ui.riichi) {
      const b = button(t("tsumogiri"), "tsumogiri", () => ui.act(`discard ${drawn}`), "act-tsumogiri");
      b.setAttribute("aria-keyshortcuts", "D");
      actions.appendChild(b);
    }
    if (riichiable.size && phase === "turn") {
      const b = button(t("riichi"), `riichi${ui.riichi ? " on" : ""}`, () => ui.toggleRiichi(), "act-riichi");
      actions.appendChild(b);
      if (ui.riichi) prompt.appendChild(el("div", "help", t("riichi_help")));
    }
    if (phase === "exchange") {
      prompt.appendChild(el("div", "help big", t("exchange_help")));
      const n = ui.selected.size;
      actions.appendChild(
        button(n ? t("exchange_go", { n }) : t("exchange_none"), "go", () => ui.commitExchange(display), "act-exchange"),
      );
    }
    if (phase === "triplet") {
      const help = el("div", "help big");
      help.appendChild(el("span", "", t("triplet_help")));
      if (view.offer) help.appendChild(tileRow([view.offer, view.offer, view.offer], "sm glow"));
      prompt.appendChild(help);
      const chosen = sortTiles([...ui.selected].map((i) => display[i]));
      const action = `accept ${chosen.join("")}`;
      const ok = chosen.length === 3 && legal.includes(action);
      const b = button(t("accept"), "go", () => ok && ui.act(action), "act-accept");
      b.disabled = !ok;
      actions.appendChild(b);
      actions.appendChild(button(t("decline"), "pass", () => ui.act("pass"), "act-pass"));
    }
    if (phase === "cuo") {
      const help = el("div", "help big", t("cuo_help"));
      prompt.appendChild(help);
      const grid = el("div", "pickgrid");
      grid.dataset.testid = "cuo-grid";
      for (const k of view.cuo_kinds || []) {
        const img = tileImg(k, "sm pick");
        img.addEventListener("click", () => ui.act(`cuo ${k}`));
        grid.appendChild(img);
      }
      prompt.appendChild(grid);
      actions.appendChild(button(t("cuo_none"), "pass", () => ui.act("pass"), "act-pass"));
    }
    if (phase === "haidi") {
      prompt.appendChild(el("div", "help big", t("haidi_help")));
      const grid = el("div", "pickgrid haidi");
      grid.dataset.testid = "haidi-grid";
      legal
        .filter((a) => a.startsWith("pick "))
        .forEach((a) => {
          const img = tileImg(null, "sm pick");
          img.addEventListener("click", () => ui.act(a));
          grid.appendChild(img);
        });
      prompt.appendChild(grid);
    }
    if (phase === "maidi" || phase === "dingdi") {
      const help = el("div", "help big stakes-help");
      help.dataset.testid = "stake-prompt";
      const text = phase === "maidi" ? t("maidi_help") : view.stakes?.maidi ? t("dingdi_help_bought") : t("dingdi_help");
      help.appendChild(el("span", "", text));
      prompt.appendChild(help);
      prompt.appendChild(el("div", "help", t(`${phase}_detail`, { n: view.base })));
      actions.appendChild(button(t(phase), "go", () => ui.act(phase), `act-${phase}`));
      actions.appendChild(button(t(`no_${phase}`), "pass", () => ui.act("pass"), "act-pass"));
    }
    if (legal.includes("pass") && !["triplet", "cuo", "maidi", "dingdi"].includes(phase)) {
      actions.appendChild(button(t("pass"), "pass", () => ui.act("pass"), "act-pass"));
    }
  }
  if (wenzhou && mine && phase === "turn" && !ui.riichi) {
    // 温州's discard rules (lone honours first, never the 财神) leave only some tiles: say why, in one line
    const held = new Set(display.filter((x) => x !== view.caishen));
    if ([...held].some((x) => !discardable.has(x))) {
      const why = el("div", "help why");
      why.dataset.testid = "discard-why";
      why.textContent = t("first_turns_wz");
      prompt.appendChild(why);
    }
  }
  bottom.appendChild(prompt);
  bottom.appendChild(actions);

  const row = el("div", "handrow");
  const myMeldsFresh = prev && (prev.melds?.[me]?.length || 0) < (view.melds?.[me]?.length || 0);
  row.appendChild(meldsEl(view.melds?.[me] || [], myMeldsFresh));
  const readyBy = new Set(Object.keys(view.hints?.after_discard || {}));
  hand = el("div", "hand mine");
  hand.dataset.testid = "my-hand";
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", t("my_hand"));
  // the hand fits the width: its tiles are as large as the width allows (17 in 温州)
  row.style.setProperty("--slots", String(display.length + (drawn ? 0.5 : 0)));
  // an upright phone shows the hand in two rows (style.css): the first holds `perRow`, the tiles sized for it
  const perRow = display.length <= 9 ? display.length : Math.ceil(display.length / 2);
  row.style.setProperty("--rowslots", String(perRow + 0.5));
  const meldTiles = parseMelds(view.melds?.[me] || []);
  row.style.setProperty("--meld-n", String(meldTiles.reduce((n, m) => n + m.tiles.length, 0)));
  row.style.setProperty("--meld-k", String(meldTiles.length));
  const drawnFresh = drawn && !(prev && prev.drawn === drawn && prev.phase === "turn" && prev.version < view.version && parseTiles(prev.hand).length === parseTiles(view.hand).length);
  display.forEach((tile, i) => {
    const isDrawn = drawn && i === display.length - 1;
    const can =
      mine &&
      ((phase === "exchange" || phase === "triplet") ||
        (ui.riichi ? riichiable.has(tile) : discardable.has(tile)));
    const cls = [
      isDrawn ? "drawn" : "",
      isDrawn && drawnFresh ? "slide" : "",
      can ? "can" : mine && phase === "turn" ? "dim" : "",
      ui.selected.has(i) ? "selected" : "",
      ui.riichi && riichiable.has(tile) ? "riichi-ok" : "",
      can && phase === "turn" && readyBy.has(tile) ? "ready" : "",
      tile === view.caishen ? "caishen" : "",
      TOUCH && can && ui.hover === tile ? "picked" : "",
    ];
    const img = tileImg(tile, cls.filter(Boolean).join(" "));
    img.dataset.index = String(i);
    img.setAttribute("role", "button");
    img.setAttribute("aria-label", tileName(tile) + (isDrawn ? ` (${t("drawn")})` : ""));
    img.tabIndex = can ? 0 : -1;
    if (!can) img.setAttribute("aria-disabled", "true");
    if (cls.includes("ready")) img.title = t("ready_tip");
    if (can) {
      img.addEventListener("click", () => onTile(tile, i, img));
      img.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          if (phase === "turn") ui.act(ui.riichi && riichiable.has(tile) ? `discard ${tile} riichi` : `discard ${tile}`);
          else onTile(tile, i, img);
        }
      });
      img.addEventListener("focus", () => phase === "turn" && ui.setHover(tile));
      if (phase === "turn" && !TOUCH) {
        img.addEventListener("mouseenter", () => ui.setHover(tile));
        img.addEventListener("mouseleave", () => ui.setHover(null));
      }
    }
    if (can && phase === "turn") {
      const discard = () => ui.act(ui.riichi && riichiable.has(tile) ? `discard ${tile} riichi` : `discard ${tile}`);
      dragUp(img, discard);
    }
    if (i === perRow && perRow < display.length) hand.appendChild(el("span", "rowbreak"));
    hand.appendChild(img);
  });
  row.appendChild(hand);
  if (view.flowers?.[me]?.length) row.appendChild(tileRow(view.flowers[me], "xs"));
  bottom.appendChild(row);

  const foot = el("div", "foot");
  foot.appendChild(seatBadges(view, me, players, true));
  foot.appendChild(hintsEl(view, ui));
  if (!ui.readonly) {
    const auto = button(t("autoplay"), `auto${view.autoplay ? " on" : ""}`, () => ui.setAutoplay(!view.autoplay), "autoplay");
    auto.setAttribute("aria-keyshortcuts", "A");
    foot.appendChild(auto);
    if (ui.tools) foot.appendChild(ui.tools());
  }
  bottom.appendChild(foot);
  table.appendChild(bottom);

  if (ui.tracker) table.appendChild(trackerEl(view, ui));
  if (view.autoplay && !ui.readonly) {
    const banner = button(t("autoplay_on"), "autoplay-banner", () => ui.setAutoplay(false), "autoplay-banner");
    table.appendChild(banner);
  }
  root.appendChild(table);
}

/** Update the timer bar (called every animation frame by the app). */
export function tickTimer(root, deadline, total) {
  const timer = root.querySelector(".timer");
  if (!timer || timer.hidden || !deadline) return null;
  const left = Math.max(0, deadline - performance.now());
  const frac = total ? left / total : 0;
  timer.querySelector(".bar").style.width = `${(frac * 100).toFixed(1)}%`;
  timer.classList.toggle("urgent", left < 5000);
  const secs = Math.ceil(left / 1000);
  timer.querySelector(".secs").textContent = String(secs);
  return secs;
}

/** 记牌器: how many copies of each kind this seat has not seen (its hand, both rivers, the melds shown, the
 * revealed tiles); `ui.tracker` = {kinds, copies} from the rules page. */
export function trackerEl(view, ui) {
  const seen = {};
  const add = (x) => (seen[x] = (seen[x] || 0) + 1);
  parseTiles(view.hand).forEach(add);
  (view.discards || []).flat().forEach(add);
  for (const list of view.melds || []) for (const m of parseMelds(list)) m.tiles.filter(Boolean).forEach(add);
  (view.revealed || []).forEach(add);
  if (view.flipped) add(view.flipped);
  const box = el("div", "tracker");
  box.dataset.testid = "tracker";
  box.setAttribute("aria-label", t("tracker_tip"));
  box.title = t("tracker_tip");
  box.appendChild(el("div", "tracker-title", t("tracker")));
  const grid = el("div", "tracker-grid");
  for (const k of ui.tracker.kinds) {
    const left = Math.max(0, ui.tracker.copies - (seen[k] || 0));
    const cell = el("span", `tk${left === 0 ? " none" : ""}`);
    cell.dataset.tile = k;
    cell.appendChild(tileImg(k, "xs"));
    cell.appendChild(el("b", "", String(left)));
    grid.appendChild(cell);
  }
  box.appendChild(grid);
  return box;
}
