// Small pieces of the page: elements and buttons, the toast, the notice line, callouts, banners, confetti.

import { tileRow } from "./tiles.js";

export const $ = (sel) => document.querySelector(sel);
export const app = $("#app");

export function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== "") e.textContent = text;
  return e;
}

export function btn(label, cls, onClick, testid) {
  const b = el("button", `btn ${cls}`, label);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

export function toast(text, ms = 2600) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), ms);
}

/** A short line under the top bar that never covers the wall count, timer or turn text. */
export function notice(text) {
  const box = $("#notice");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => (box.hidden = true), 3000);
}

let bannerFree = 0; // when the staged banners will have been shown (performance.now())

/** A big floating word over the table ("碰!", "胡了!"), or a staged banner for random events. Banners
 * queue so that two events in a row (海底捞月 then 流局) are each seen. */
export function callout(text, cls = "", tiles = null) {
  const banner = cls.includes("banner");
  const now = performance.now();
  const delay = banner ? Math.max(0, bannerFree - now) : 0;
  if (banner) bannerFree = now + delay + 1900;
  setTimeout(() => {
    const box = el("div", `callout ${cls}`);
    box.appendChild(el("span", "word", text));
    if (tiles) box.appendChild(tileRow(tiles, "sm"));
    $("#fx").appendChild(box);
    setTimeout(() => box.remove(), banner ? 2000 : 1400);
  }, delay);
}

/** Milliseconds until the staged banners have been shown. */
export function bannersLeft() {
  return Math.max(0, bannerFree - performance.now());
}

export function confetti() {
  const fx = $("#fx");
  const colors = ["#e8b431", "#c1272d", "#157347", "#1f5fa8", "#fff"];
  for (let i = 0; i < 60; i++) {
    const p = el("i", "confetti");
    p.style.left = `${Math.random() * 100}%`;
    p.style.background = colors[i % colors.length];
    p.style.animationDelay = `${Math.random() * 0.5}s`;
    p.style.animationDuration = `${1.4 + Math.random()}s`;
    fx.appendChild(p);
    setTimeout(() => p.remove(), 3200);
  }
}
