// The keyboard (docs/web.md lists the keys) and its help overlay.

import { t } from "./i18n.js";
import { act } from "./moves.js";
import { render, S } from "./state.js";
import { btn, el } from "./ui.js";

/** A touch screen's help: taps and drags, not keys (a phone has no keyboard). */
const HELP_TOUCH = ["touch_tap", "touch_drag", "touch_calls", "touch_auto", "touch_tracker", "touch_settings"];
const TOUCH = typeof matchMedia === "function" && matchMedia("(hover: none)").matches;
const HELP_KEYS = ["key_arrows", "key_enter", "key_tsumogiri", "key_win", "key_pung", "key_chow", "key_kong", "key_riichi", "key_pass", "key_auto", "key_help"];

export function helpEl() {
  const box = el("div", "help-overlay");
  box.dataset.testid = "help";
  box.setAttribute("role", "dialog");
  const title = TOUCH ? t("help_touch_title") : t("help_title");
  box.setAttribute("aria-label", title);
  box.appendChild(el("h2", "", title));
  const list = el("ul");
  for (const k of TOUCH ? HELP_TOUCH : HELP_KEYS) list.appendChild(el("li", "", t(k)));
  box.appendChild(list);
  box.appendChild(btn(t("close"), "ghost", () => {
    S.help = false;
    render();
  }));
  return box;
}

function focusHandTile(delta) {
  const tiles = [...document.querySelectorAll("[data-testid=my-hand] .tile[tabindex='0']")];
  if (!tiles.length) return;
  const i = tiles.indexOf(document.activeElement);
  const next = i < 0 ? (delta > 0 ? 0 : tiles.length - 1) : (i + delta + tiles.length) % tiles.length;
  tiles[next].focus();
}

/** The keys of every screen: help, the replay's and review's steps, the next hand, the table's actions. */
export function bindKeys() {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target?.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (e.key === "?") {
      S.help = !S.help;
      render();
      return;
    }
    if (S.screen === "replay" && S.replay) {
      const go = { ArrowRight: "replay-next", ArrowLeft: "replay-prev", " ": "replay-play", Home: "replay-first", End: "replay-last" }[e.key];
      if (go) {
        e.preventDefault();
        document.querySelector(`[data-testid=${go}]`)?.click();
      }
      return;
    }
    if (S.screen === "review" && S.review) {
      const go = { ArrowRight: "review-next", ArrowLeft: "review-prev" }[e.key];
      if (go) {
        e.preventDefault();
        document.querySelector(`[data-testid=${go}]`)?.click();
      }
      return;
    }
    if (S.screen === "settle" && e.key === "Enter" && !S.match?.over && document.activeElement === document.body) {
      document.querySelector("[data-testid=next-hand]")?.click();
      return;
    }
    if (S.screen !== "table" || !S.view) return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      focusHandTile(e.key === "ArrowRight" ? 1 : -1);
      return;
    }
    if (e.key === "Escape" && S.help) {
      S.help = false;
      render();
      return;
    }
    const key = e.key.toLowerCase();
    const click = (id) => {
      const b = document.querySelector(`[data-testid=${id}]`);
      if (b && !b.disabled) {
        e.preventDefault();
        b.click();
        return true;
      }
      return false;
    };
    if (key === "h") click("act-win");
    else if (key === "p") click("act-pung");
    else if (key === "c") click("act-chow");
    else if (key === "k") click("act-kong");
    else if (key === "r") click("act-riichi");
    else if (key === "x" || e.key === "Escape") click("act-pass") || click("act-exchange");
    else if (key === "a") click("autoplay");
    else if (key === "d") {
      const drawn = S.view.drawn;
      if (drawn && (S.view.legal || []).includes(`discard ${drawn}`)) act(`discard ${drawn}`);
    }
  });
}
