// Quick chat (快捷语, docs/protocol.md `chat`): preset phrases and a few faces, no free text. A small button
// beside 托管 opens them; what a seat says shows as a bubble by its name; 屏蔽 / Mute silences the opponent
// for the rest of the match; too fast (`chat_rate`, one per 3 s) is said gently. Only against a person.

import { t } from "./i18n.js";
import { net } from "./socket.js";
import { render, S } from "./state.js";
import { $, btn, el, toast } from "./ui.js";

export const PHRASES = ["hurry", "well_played", "again", "thanks", "oops"];
export const FACES = { smile: "😊", cry: "😢", angry: "😠", thumbs: "👍" };

/** This match's chat state: the panel open, the opponent muted (reset when a new match starts). */
function chat() {
  const id = S.match?.id ?? null;
  if (!S.chat || S.chat.match !== id) S.chat = { match: id, open: false, muted: false };
  return S.chat;
}

/** Chat is for a table with a person across it (bots never chat). */
export function chatAllowed() {
  if (!S.match) return false;
  const opp = (S.view?.players || S.match.players || [])[1 - (S.match.seat ?? 0)];
  return Boolean(opp) && !opp.bot;
}

/** What a phrase id says (a face is its picture). */
export function phraseText(id) {
  return FACES[id] ?? t(`chat_${id}`);
}

/** The chat button and, when open, the panel of phrases, faces and the mute toggle. */
export function chatEl() {
  const c = chat();
  const box = el("span", "chat");
  box.dataset.testid = "chat";
  const open = btn(c.muted ? "💬🔇" : "💬", `small tool chat-open${c.open ? " on" : ""}`, () => {
    c.open = !c.open;
    render();
  }, "chat-open");
  open.setAttribute("aria-label", t("chat"));
  open.setAttribute("aria-expanded", String(c.open));
  box.appendChild(open);
  if (!c.open) return box;
  const panel = el("div", "chat-panel");
  panel.dataset.testid = "chat-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", t("chat"));
  const phrases = el("div", "chat-phrases");
  for (const id of PHRASES) phrases.appendChild(btn(t(`chat_${id}`), "chat-phrase", () => say(id), `chat-${id}`));
  panel.appendChild(phrases);
  const faces = el("div", "chat-faces");
  for (const [id, face] of Object.entries(FACES)) {
    const b = btn(face, "chat-face", () => say(id), `chat-${id}`);
    b.setAttribute("aria-label", t(`chat_${id}`));
    faces.appendChild(b);
  }
  panel.appendChild(faces);
  const mute = btn(c.muted ? t("chat_unmute") : t("chat_mute"), `ghost small chat-mute${c.muted ? " on" : ""}`, () => {
    c.muted = !c.muted;
    toast(c.muted ? t("chat_muted") : t("chat_unmuted"));
    render();
  }, "chat-mute");
  mute.setAttribute("aria-pressed", String(c.muted));
  const row = el("div", "row chat-row");
  row.append(mute, btn(t("close"), "ghost small", () => {
    c.open = false;
    render();
  }, "chat-close"));
  panel.appendChild(row);
  box.appendChild(panel);
  return box;
}

function say(id) {
  chat().open = false;
  net.send({ type: "chat", phrase: id });
  render();
}

/** The server's `chat` (to both seats): a bubble by the speaker's name, unless it is the muted opponent. */
export function onChat(msg) {
  const c = chat();
  const me = S.match?.seat ?? 0;
  if (msg.seat !== me && c.muted) return;
  if (!(msg.phrase in FACES) && !PHRASES.includes(msg.phrase)) return; // an id this client does not know
  bubble(msg.seat === me ? "me" : "opp", msg.phrase);
}

/** A speech bubble by a seat's name (or at the top or bottom of a screen without seats). */
function bubble(who, phrase) {
  const fx = $("#fx");
  if (!fx) return;
  fx.querySelectorAll(`.chat-bubble.${who}`).forEach((b) => b.remove());
  const b = el("div", `chat-bubble ${who}${phrase in FACES ? " face" : ""}`, phraseText(phrase));
  b.dataset.testid = `bubble-${who}`;
  b.dataset.phrase = phrase;
  const anchor = document.querySelector(`#app .seat.${who} .who`);
  const r = anchor?.getBoundingClientRect();
  if (r && r.width) {
    b.style.left = `${Math.max(8, Math.min(window.innerWidth - 160, r.left))}px`;
    if (who === "opp") b.style.top = `${r.bottom + 6}px`;
    else b.style.top = `${Math.max(8, r.top - 52)}px`;
  } else b.classList.add("loose");
  fx.appendChild(b);
  setTimeout(() => b.remove(), 3200);
}

/** `chat_rate`: said gently (a short toast, no error sound). */
export function onChatRate() {
  toast(t("err_chat_rate"), 1800);
}
