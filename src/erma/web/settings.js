// The player's settings (remembered in localStorage "erma.settings"): auto-win, no calls, tsumogiri, one-tap
// discard, vibration, the animations' speed; and their panel.

import { t } from "./i18n.js";
import { render, S } from "./state.js";
import { btn, el } from "./ui.js";

const SETTINGS_KEY = "erma.settings";
/** Vibration (on your turn, on a claim offer: pwa.js) is on by default only where the browser has it. */
export const CAN_VIBRATE = typeof navigator !== "undefined" && typeof navigator.vibrate === "function";
const DEFAULTS = { autowin: false, nocall: false, tsumogiri: false, onetap: false, vibrate: CAN_VIBRATE, speed: "normal" };
export const settings = { ...DEFAULTS, ...loadSettings() };

function loadSettings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function saveSettings() {
  localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  applySpeed();
}

/** Animation speed: a factor on every animation's duration (CSS var --anim). */
export function applySpeed() {
  const f = { slow: 1.6, normal: 1, fast: 0.5 }[settings.speed] ?? 1;
  document.documentElement.style.setProperty("--anim", String(f));
}

export function settingsEl() {
  const box = el("div", "settings-panel");
  box.dataset.testid = "settings";
  box.setAttribute("role", "dialog");
  box.appendChild(el("h2", "", t("settings")));
  for (const key of ["autowin", "nocall", "tsumogiri", "onetap", "vibrate"]) {
    const label = el("label", "set-row");
    const input = el("input");
    input.type = "checkbox";
    input.checked = Boolean(settings[key]) && (key !== "vibrate" || CAN_VIBRATE);
    if (key === "vibrate" && !CAN_VIBRATE) {
      input.disabled = true;
      label.title = t("set_vibrate_none");
    }
    input.dataset.setting = key;
    input.addEventListener("change", () => {
      settings[key] = input.checked;
      saveSettings();
      render();
    });
    label.append(input, el("span", "", t(`set_${key}`) + (key === "vibrate" && !CAN_VIBRATE ? ` (${t("set_vibrate_none")})` : "")));
    box.appendChild(label);
  }
  const speed = el("label", "set-row");
  const sel = el("select");
  sel.dataset.setting = "speed";
  for (const v of ["slow", "normal", "fast"]) {
    const o = el("option", "", t(`speed_${v}`));
    o.value = v;
    o.selected = settings.speed === v;
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => {
    settings.speed = sel.value;
    saveSettings();
  });
  speed.append(el("span", "", t("set_speed")), sel);
  box.appendChild(speed);
  box.appendChild(btn(t("close"), "ghost", () => {
    S.settingsOpen = false;
    render();
  }, "settings-close"));
  return box;
}
