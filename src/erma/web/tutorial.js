// 新手教程: a guided first hand. The server deals a tutorial room's fixed wall against the greedy bot
// (erma.server.tutorial); GET /api/tutorial/{name} gives the moves that play it to a win (moves[d] answers
// the view whose `decision` is d). This module shows a short prompt over the table and lights what to press;
// it never plays for the person. A player who strays gets prompts from the legal actions alone. Skippable; the
// lobby offers it once to a first-time guest ("erma.tutorial" in localStorage: "done").

import { call } from "./api.js";
import { getLang } from "./i18n.js";
import { toLobby } from "./nav.js";
import { net } from "./socket.js";
import { render, S } from "./state.js";
import { app, btn, el } from "./ui.js";

const KEY = "erma.tutorial";
export const TUTORIALS = ["cuopai789", "wenzhou2p"];

const W = {
  zh: {
    offer_title: "第一次玩？来一手新手教程",
    offer_text: "和机器人打一手固定的牌，每一步都告诉你按哪里：出牌、吃碰、和牌，还有这种玩法的特别阶段。随时可以跳过。",
    offer_cuopai789: "搓牌教程",
    offer_wenzhou2p: "温州教程",
    skip: "跳过教程",
    done: "完成教程",
    wait: "对手正在出牌……看看它打了什么。",
    exchange: "换牌：点亮着的 {n} 张牌（它们会被放回去换新牌），再按「换牌」。",
    exchange_none: "换牌：这手不用换，直接按下面的按钮。",
    cuo: "搓牌！这次可以从没出现的牌里挑一张来摸：点亮着的那张。",
    cuo_pass: "搓牌的机会：这次不需要，按「不搓」照常摸牌。",
    triplet: "系统送来一副刻子：点亮着的三张交出去，再按「接受」。",
    triplet_pass: "系统送来一副刻子：这次不要，按「不要」。",
    maidi: "买底：赢了多赢一底，输了也多输。这次按亮着的按钮。",
    dingdi: "顶底：双方都多一底。这次按亮着的按钮。",
    discard: "轮到你出牌：点亮着的牌打出去（手机上点一下抬起，再点一下打出）。",
    riichi: "你听牌了！按亮着的「听」报听，再点亮着的牌打出：之后手牌锁住自动打。",
    riichi_tile: "报听：点亮着的牌打出。",
    chow: "对手打的牌你能吃：按亮着的「吃」。",
    pung: "对手打的牌你能碰：按亮着的「碰」。",
    kong: "可以杠：按亮着的「杠」。",
    pass: "这张不要：按「过」。",
    win: "你和了！按亮着的「和」。",
    haidi: "海底捞月：从备用牌里盲摸一张，点任意一张。",
    stray: "你走了自己的路，很好！照提示按亮着的按钮，或者出一张不要的牌。",
    end_win: "教程完成：你和了！下面就是这手牌怎么算分的。",
    end: "教程完成！下面是这手牌的结算。",
  },
  en: {
    offer_title: "New here? Play a guided first hand",
    offer_text: "One fixed hand against the bot, with a prompt at every step: discard, claim, win, and this game's special phases. Skip it any time.",
    offer_cuopai789: "Cuopai tutorial",
    offer_wenzhou2p: "Wenzhou tutorial",
    skip: "Skip tutorial",
    done: "Finish tutorial",
    wait: "The bot is playing… watch what it discards.",
    exchange: "Start exchange: tap the {n} lit tiles (they go back for new ones), then press the exchange button.",
    exchange_none: "Start exchange: keep this hand, press the button below.",
    cuo: "Cuopai! This time you may choose your draw from the tiles not yet seen: tap the lit one.",
    cuo_pass: "A cuopai chance (choose your draw): not needed now, press the lit button to draw as usual.",
    triplet: "A triplet is offered: tap the three lit tiles to give, then Accept.",
    triplet_pass: "A triplet is offered: not this time, press Decline.",
    maidi: "Buy the base: win one base more, lose one more too. Press the lit button.",
    dingdi: "Top the base: one base more both ways. Press the lit button.",
    discard: "Your turn: tap the lit tile to discard it (on a phone: tap to raise, tap again to discard).",
    riichi: "You are ready! Press the lit Ready button, then tap the lit tile: the hand locks and plays itself.",
    riichi_tile: "Declaring ready: tap the lit tile.",
    chow: "You can chow the bot's discard: press the lit Chow.",
    pung: "You can pung the bot's discard: press the lit Pung.",
    kong: "You can kong: press the lit Kong.",
    pass: "Not this one: press Pass.",
    win: "That tile wins! Press the lit Win.",
    haidi: "Last-tile pick (haidi): pick one reserve tile blind, tap any.",
    stray: "Your own way, fine! Follow the lit buttons, or discard a tile you do not need.",
    end_win: "Tutorial done: you won! Below is how the hand is scored.",
    end: "Tutorial done! Below is the hand's settlement.",
  },
};

function w(key, args = {}) {
  const s = (W[getLang()] || W.zh)[key] ?? W.zh[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => String(args[k] ?? ""));
}

let guide = null; // {preset, room, moves}

/** Is a tutorial hand being played (or its settlement shown)? */
export function inTutorial() {
  return Boolean(guide && S.match && S.match.room === guide.room);
}

function finish() {
  localStorage.setItem(KEY, "done");
  const match = S.match;
  guide = null;
  hideBox();
  if (match && !match.over) net.send({ type: "leave", match: match.id });
  S.match = null;
  toLobby();
}

/** Start preset's tutorial: fetch its moves, sit at its table. */
export async function startTutorial(preset) {
  const info = await call("GET", `/api/tutorial/${encodeURIComponent(preset)}`);
  guide = { preset, room: info.room, moves: info.moves };
  net.send({ type: "queue", room: info.room, opponent: "bot" });
}

/** The lobby's offer to a first-time guest (null once done or skipped, or for anyone else). */
export function tutorialOffer() {
  if (!S.account || !S.account.guest || localStorage.getItem(KEY) || S.games.length) return null;
  const card = el("div", "card tutorial-offer");
  card.dataset.testid = "tutorial-offer";
  card.appendChild(el("h2", "", w("offer_title")));
  card.appendChild(el("p", "", w("offer_text")));
  const row = el("div", "row");
  for (const p of TUTORIALS) row.appendChild(btn(w(`offer_${p}`), "go", () => startTutorial(p), `tutorial-${p}`));
  row.appendChild(btn(w("skip"), "ghost", () => {
    localStorage.setItem(KEY, "done");
    render();
  }, "tutorial-skip"));
  card.appendChild(row);
  return card;
}

/** A button that starts preset's tutorial (the rules pages of the taught presets). */
export function tutorialButton(preset) {
  if (!TUTORIALS.includes(preset) || !S.account) return null;
  return btn(w(`offer_${preset}`), "small go", () => startTutorial(preset), "tutorial-start");
}

// ------------------------------------------------------------------ the prompt over the table

function box() {
  let b = document.getElementById("tutorial");
  if (!b) {
    b = el("div", "tutorial-box");
    b.id = "tutorial";
    b.dataset.testid = "tutorial";
    b.setAttribute("role", "status");
    document.body.appendChild(b);
  }
  return b;
}

function hideBox() {
  document.getElementById("tutorial")?.remove();
  app.style.paddingTop = "";
}

function show(text, step, end = false) {
  const b = box();
  b.dataset.step = step;
  b.replaceChildren(el("span", "tut-text", text));
  b.appendChild(end ? btn(w("done"), "small go", finish, "tutorial-done") : btn(w("skip"), "small ghost", finish, "tutorial-skip"));
  // at the hand's end the prompt sits above the settlement rather than over its headline (比赛结束)
  const top = app.getBoundingClientRect().top + window.scrollY;
  app.style.paddingTop = end ? `${Math.max(0, b.getBoundingClientRect().bottom + 8 - top)}px` : "";
}

function light(nodes) {
  for (const n of nodes) if (n) n.classList.add("tut-target");
}

const q = (sel) => app.querySelector(sel);
const handTiles = (tile) => [...app.querySelectorAll(`[data-testid=my-hand] img[data-tile="${tile}"]`)];

/** What to say and light for the current view. */
function prompt() {
  const v = S.view;
  if (S.screen === "settle") {
    const won = S.end?.result?.winner === S.match?.seat;
    show(w(won ? "end_win" : "end"), "end", true);
    return;
  }
  if (S.screen !== "table" || !v) return;
  const legal = v.legal || [];
  if (!legal.length || v.predicted) {
    show(w("wait"), "wait");
    return;
  }
  const d = v.decision ?? 0;
  const want = guide.moves[d];
  const phase = v.phase;
  if (legal.includes("win") && (want === "win" || !legal.includes(want))) {
    show(w("win"), "win");
    light([q("[data-testid=act-win]")]);
    return;
  }
  if (phase === "exchange") {
    const picks = [];
    for (let i = d; guide.moves[i]?.startsWith("select "); i++) picks.push(guide.moves[i].split(" ")[1]);
    show(picks.length ? w("exchange", { n: picks.length }) : w("exchange_none"), "exchange");
    const tiles = [...app.querySelectorAll("[data-testid=my-hand] img")];
    const used = new Set();
    for (const p of picks) {
      const i = tiles.findIndex((img, k) => !used.has(k) && img.dataset.tile === p);
      if (i >= 0) used.add(i);
    }
    const chosen = [...S.selected];
    const done = picks.length === chosen.length && chosen.every((k) => used.has(k));
    light(done || !picks.length ? [q("[data-testid=act-exchange]")] : [...used].filter((k) => !S.selected.has(k)).map((k) => tiles[k]));
    return;
  }
  if (!want || (!legal.includes(want) && !(phase === "triplet" && want.startsWith("accept")))) {
    show(w("stray"), "stray");
    return;
  }
  const [kind, arg, flag] = want.split(" ");
  if (phase === "maidi" || phase === "dingdi") {
    show(w(phase), phase);
    light([q(kind === "pass" ? "[data-testid=act-pass]" : `[data-testid=act-${phase}]`)]);
  } else if (phase === "cuo") {
    show(w(kind === "pass" ? "cuo_pass" : "cuo"), "cuo");
    light([kind === "pass" ? q("[data-testid=act-pass]") : q(`[data-testid=cuo-grid] img[data-tile="${arg}"]`)]);
  } else if (phase === "triplet") {
    show(w(kind === "pass" ? "triplet_pass" : "triplet"), "triplet");
    light([q(kind === "pass" ? "[data-testid=act-pass]" : "[data-testid=act-accept]")]);
  } else if (phase === "haidi") {
    show(w("haidi"), "haidi");
  } else if (kind === "discard" && flag === "riichi") {
    show(w(S.riichi ? "riichi_tile" : "riichi"), "riichi");
    light(S.riichi ? handTiles(arg).slice(-1) : [q("[data-testid=act-riichi]")]);
  } else if (kind === "discard") {
    show(w("discard"), "discard");
    light(handTiles(arg).slice(-1));
  } else if (kind === "chow") {
    show(w("chow"), "chow");
    const i = legal.filter((a) => a.startsWith("chow ")).indexOf(want);
    light([app.querySelectorAll("[data-testid=act-chow]")[i]]);
  } else if (["pung", "kong", "ckong", "akong", "xkong"].includes(kind)) {
    show(w(kind === "pung" ? "pung" : "kong"), kind);
    light([q(kind === "pung" ? "[data-testid=act-pung]" : "[data-testid=act-kong]")]);
  } else if (kind === "pass") {
    show(w("pass"), "pass");
    light([q("[data-testid=act-pass]")]);
  } else show(w("stray"), "stray");
}

/** After every paint: the prompt while a tutorial hand is on, nothing otherwise. */
function decorate() {
  if (!inTutorial() || !["table", "settle"].includes(S.screen)) {
    if (!guide || !S.match) hideBox();
    return;
  }
  prompt();
}

new MutationObserver(decorate).observe(app, { childList: true });
