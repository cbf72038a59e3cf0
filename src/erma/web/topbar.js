// The top bar: the beans, the language and sound switches.

import { getLang, setLang, t } from "./i18n.js";
import { isMuted, setMuted, unlock } from "./sound.js";
import { render, S } from "./state.js";
import { $ } from "./ui.js";

export function renderTop() {
  $("#lang").textContent = t("lang");
  $("#lang").dataset.testid = "lang";
  $("#mute").textContent = isMuted() ? `♪ ${t("sound")}` : `♪ ${t("mute")}`;
  $("#mute").classList.toggle("off", isMuted());
  $("#mute").dataset.testid = "mute";
  const beans = $("#beans");
  if (S.balance !== null && S.balance !== undefined) {
    beans.hidden = false;
    beans.innerHTML = `<i class="bean"></i>${S.balance}`;
    beans.title = t("beans");
  } else beans.hidden = true;
  document.title = t("title");
}

/** The switches' handlers; a first touch anywhere unlocks the sound. */
export function bindTopBar() {
  $("#lang").addEventListener("click", () => {
    setLang(getLang() === "zh" ? "en" : "zh");
    render();
  });
  $("#mute").addEventListener("click", () => {
    setMuted(!isMuted());
    unlock();
    renderTop();
  });
  document.addEventListener("pointerdown", () => unlock(), { capture: true });
}
