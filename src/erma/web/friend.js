// 好友房 (friend tables, docs/protocol.md): the lobby's friend card (the 好友房 button and the join-by-number
// box), the form that opens a table, the invite (link, copy, share, 房间号, cancel) and the join page a
// friend meets at /join/<code> (the table's card and 加入 / Join, or 不存在 / 已过期 / 已满).

import { signedIn } from "./account.js";
import { api, call } from "./api.js";
import { errorText, pick, t } from "./i18n.js";
import { toLobby } from "./nav.js";
import { net } from "./socket.js";
import { unlock } from "./sound.js";
import { render, S } from "./state.js";
import { btn, el, toast } from "./ui.js";

/** The presets a friend table can be opened with (RULES.md), and any other the rooms name. */
const PRESETS = ["cuopai789", "classic64", "wushuang128", "wenzhou2p"];
const HANDS = [4, 8, 16];
const JOIN_KEY = "erma.join"; // the code of the /join/<code> page, kept over a reload (sessionStorage)

// A page opened at /join/<code>: remember the code and show the page at "/" (relative addresses — tiles,
// styles — resolve from the root again; a reload shows the same card from sessionStorage).
const JOIN_PATH = /^\/join\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
if (JOIN_PATH) {
  sessionStorage.setItem(JOIN_KEY, JOIN_PATH[1]);
  history.replaceState(null, "", "/");
}

/** On start: a /join/<code> page shows the friend table's card (GET /api/friend/<code>). */
export function startJoin() {
  const code = sessionStorage.getItem(JOIN_KEY);
  if (!code) return false;
  lookUp({ code });
  return true;
}

/** Look a table up by `code` or `number` and show its card (or why it cannot be joined). */
async function lookUp(key) {
  S.join = { ...key, state: "loading" };
  S.screen = "join";
  render();
  let info;
  try {
    const path = key.code ? `/api/friend/${encodeURIComponent(key.code)}` : `/api/friend?number=${encodeURIComponent(key.number)}`;
    info = await call("GET", path);
  } catch (err) {
    info = { state: err.code === "friend_rate" ? "rate" : err.status === 404 ? "not_found" : "error", message: err.message };
  }
  if (S.join?.code !== key.code || S.join?.number !== key.number) return; // another look-up meanwhile
  S.join = { ...key, ...info, code: info.code || key.code, state: info.state || "error" };
  if (S.join.state !== "open") sessionStorage.removeItem(JOIN_KEY);
  render();
}

/** The stakes of a table as a line: points only, or beans at its room's rate. */
function stakesText(info) {
  if (info.stakes !== "beans") return t("stakes_points_short");
  const rate = info.bean_rate ?? S.rooms.find((r) => r.id === info.room)?.bean_rate;
  if (rate === undefined) return t("stakes_beans_short");
  return `${t("stakes_beans_short")} · ${info.rules === "wenzhou2p" ? t("rate_wz", { n: rate }) : t("rate", { n: rate })}`;
}

/** The daily cap on beans between two accounts as a note (null: the server did not say, or 0: no cap). */
function capNoteEl(n) {
  if (!n) return null;
  const cap = el("p", "cap-note");
  cap.dataset.testid = "pair-cap";
  cap.textContent = t("friend_cap_note", { n });
  return cap;
}

/** The table's facts (rules, hands, stakes, host) as a small definition list. */
function factsEl(info) {
  const dl = el("dl", "friend-facts");
  dl.dataset.testid = "friend-facts";
  const add = (k, v) => dl.append(el("dt", "", k), el("dd", "", v));
  if (info.rules) add(t("friend_rules"), t(`rules_${info.rules}`));
  if (info.hands) add(t("friend_hands"), t("friend_hands_n", { n: info.hands }));
  add(t("friend_stakes"), stakesText(info));
  if (info.host) add(t("join_host"), info.host);
  return dl;
}

// ------------------------------------------------------------------------------------------ the lobby's card

/** The lobby's 好友房 card: open a table, or join one by its 6-digit number. */
export function friendCardEl() {
  const card = el("div", "card friend-card");
  card.dataset.testid = "friend-card";
  const open = btn(t("friend_room"), "go", () => {
    unlock();
    S.friendForm = true;
    S.screen = "friend";
    render();
  }, "friend-open");
  open.disabled = Boolean(S.queued);
  const head = el("div", "friend-head");
  head.append(open, el("span", "muted", t("friend_lead")));
  card.appendChild(head);
  const form = el("form", "join-number");
  const input = el("input");
  Object.assign(input, { name: "number", inputMode: "numeric", autocomplete: "off", maxLength: 6, placeholder: t("join_number_ph") });
  input.pattern = "[0-9]{6}";
  input.dataset.testid = "join-number";
  input.setAttribute("aria-label", t("join_by_number"));
  const go = btn(t("join_go"), "", () => form.requestSubmit(), "join-number-go");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const number = input.value.replace(/\D/g, "");
    if (number.length !== 6) return toast(t("join_number_bad"));
    lookUp({ number });
  });
  form.append(el("label", "", t("join_by_number")), input, go);
  card.appendChild(form);
  return card;
}

// ------------------------------------------------------------------------------------------ the form, the invite

/** The friend screen: the form (no table yet) or the invite of the waiting table (S.friend). */
export function renderFriend() {
  const root = el("section", "friend card");
  root.dataset.testid = "friend";
  if (S.friend && !S.match) root.appendChild(inviteEl(S.friend));
  else root.appendChild(formEl());
  return root;
}

function choice(name, options, value) {
  const box = el("div", "choices");
  box.setAttribute("role", "radiogroup");
  for (const [v, label] of options) {
    const lab = el("label", "choice");
    const input = el("input");
    Object.assign(input, { type: "radio", name, value: String(v), checked: String(v) === String(value) });
    input.dataset.testid = `${name}-${v}`;
    lab.append(input, el("span", "", label));
    box.appendChild(lab);
  }
  return box;
}

function formEl() {
  const f = S.friendDraft || (S.friendDraft = { rules: S.rooms[0]?.rules || PRESETS[0], hands: 8, stakes: "points", room: "" });
  const form = el("form", "friend-form");
  form.dataset.testid = "friend-form";
  form.appendChild(el("h2", "", t("friend_room")));
  form.appendChild(el("p", "muted", t("friend_lead")));
  const presets = [...new Set([...PRESETS, ...S.rooms.map((r) => r.rules)])];
  const rules = el("select");
  rules.name = "rules";
  rules.dataset.testid = "friend-rules";
  for (const p of presets) {
    const o = el("option", "", t(`rules_${p}`));
    o.value = p;
    o.selected = p === f.rules;
    rules.appendChild(o);
  }
  const field = (label, input) => {
    const l = el("label", "field");
    l.append(el("span", "field-name", label), input);
    return l;
  };
  form.appendChild(field(t("friend_rules"), rules));
  form.appendChild(field(t("friend_hands"), choice("hands", HANDS.map((n) => [n, t("friend_hands_n", { n })]), f.hands)));
  form.appendChild(field(t("friend_stakes"), choice("stakes", [["points", t("stakes_points")], ["beans", t("stakes_beans")]], f.stakes)));
  const bean = el("div", "bean-stakes");
  const rooms = S.rooms.filter((r) => r.rules === f.rules);
  if (f.stakes === "beans") {
    const sel = el("select");
    sel.name = "room";
    sel.dataset.testid = "friend-room";
    for (const r of rooms) {
      const o = el("option", "", `${pick(r)} · ${r.rules === "wenzhou2p" ? t("rate_wz", { n: r.bean_rate }) : t("rate", { n: r.bean_rate })}`);
      o.value = r.id;
      o.selected = r.id === f.room;
      sel.appendChild(o);
    }
    if (rooms.length) bean.appendChild(field(t("friend_bean_room"), sel));
    else bean.appendChild(el("p", "muted", t("friend_no_bean_room")));
    if (rooms.length) bean.appendChild(el("p", "muted small", t("friend_rated"))); // (as every room is)
  }
  // the daily pair cap (the server's `friend_pair_cap`, GET /api/rooms) is said whichever stakes are chosen
  const cap = capNoteEl(S.friendPairCap);
  if (cap) bean.appendChild(cap);
  form.appendChild(bean);
  form.addEventListener("change", () => {
    const data = new FormData(form);
    const next = { rules: data.get("rules"), hands: Number(data.get("hands")), stakes: data.get("stakes"), room: data.get("room") || "" };
    if (next.rules !== f.rules) next.room = "";
    S.friendDraft = next;
    render();
  });
  const row = el("div", "row");
  const create = btn(S.friendPending ? t("friend_creating") : t("friend_create"), "go", () => form.requestSubmit(), "friend-create");
  create.disabled = Boolean(S.friendPending) || (f.stakes === "beans" && !rooms.length);
  row.append(create, btn(t("cancel"), "ghost", () => closeForm(), "friend-back"));
  form.appendChild(row);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const msg = { type: "friend_create", rules: f.rules, hands: f.hands, stakes: f.stakes };
    if (f.stakes === "beans") msg.room = f.room || rooms[0]?.id;
    S.friendPending = true;
    net.send(msg);
    render();
  });
  return form;
}

function closeForm() {
  S.friendForm = false;
  S.friendPending = false;
  toLobby();
}

/** The invite: the /join/<code> link (copy, share), the 6-digit 房间号, the table's facts, cancel. */
function inviteEl(f) {
  const box = el("div", "invite");
  box.dataset.testid = "invite";
  box.appendChild(el("h2", "", t("invite_title")));
  const url = new URL(f.url || `/join/${f.code}`, location.origin).href;
  const num = el("div", "room-number");
  num.append(el("span", "muted", t("invite_number")), el("b", "", f.number || "——"));
  num.lastChild.dataset.testid = "invite-number";
  box.appendChild(num);
  const link = el("input", "invite-link");
  Object.assign(link, { readOnly: true, value: url });
  link.dataset.testid = "invite-link";
  link.setAttribute("aria-label", t("invite_link"));
  link.addEventListener("focus", () => link.select());
  box.appendChild(link);
  const row = el("div", "row invite-actions");
  row.appendChild(btn(t("copy"), "go", () => copy(url, link), "invite-copy"));
  if (typeof navigator.share === "function") {
    const text = t("share_text", { rules: t(`rules_${f.rules}`), n: f.hands, num: f.number });
    row.appendChild(btn(t("share"), "", () => navigator.share({ title: t("title"), text, url }).catch(() => {}), "invite-share"));
  }
  box.appendChild(row);
  box.appendChild(factsEl({ ...f, host: null }));
  const wait = el("div", "invite-wait");
  wait.append(el("div", "spinner"), el("span", "", t("invite_wait")));
  box.appendChild(wait);
  if (f.expires_at) {
    const mins = Math.max(1, Math.round((f.expires_at * 1000 - Date.now()) / 60000));
    box.appendChild(el("p", "muted small", t("invite_expires", { m: mins })));
  }
  box.appendChild(btn(t("friend_cancel"), "ghost", () => {
    net.send({ type: "friend_cancel" });
    S.friendCancelling = true;
  }, "friend-cancel"));
  return box;
}

async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("copied"));
  } catch {
    input.focus();
    input.select();
    toast(t("copy_failed"));
  }
}

// ------------------------------------------------------------------------------------------ the join page

const JOIN_STATES = { not_found: "join_not_found", expired: "join_expired", full: "join_full", rate: "join_rate", error: "join_error" };

/** /join/<code> (or a number typed in the lobby): the table's card and the two presses to a dealt hand —
 * enter as guest (or log in), then 加入 / Join — or a page saying why it cannot be joined. */
export function renderJoin() {
  const j = S.join || { state: "not_found" };
  const root = el("section", "join card");
  root.dataset.testid = "join";
  root.dataset.state = j.state;
  if (j.state === "loading") {
    root.append(el("div", "spinner"), el("p", "muted", t("join_loading")));
    return root;
  }
  if (j.state !== "open") {
    const key = JOIN_STATES[j.state] || "join_error";
    root.classList.add("refused");
    root.appendChild(el("h2", "", t(key)));
    root.appendChild(el("p", "muted", t(`${key}_help`)));
    root.appendChild(btn(t("back_lobby"), "go", leaveJoin, "join-lobby"));
    return root;
  }
  root.appendChild(el("h2", "", t("join_title")));
  root.appendChild(factsEl(j));
  const cap = j.stakes === "beans" ? capNoteEl(j.pair_cap) : null; // a bean table: the daily cap between two
  if (cap) root.appendChild(cap);
  if (!S.account) {
    root.appendChild(btn(t("join_as_guest"), "go huge", async () => {
      unlock();
      try {
        await signedIn(await api.guest());
      } catch (err) {
        toast(errorText(err.code, err.message));
      }
    }, "join-guest"));
    root.appendChild(loginEl());
  } else {
    const go = btn(j.joining ? t("join_joining") : t("join_go"), "go huge", () => {
      unlock();
      S.join.joining = true;
      net.send(j.code ? { type: "friend_join", code: j.code } : { type: "friend_join", number: j.number });
      render();
    }, "join-go");
    go.disabled = Boolean(j.joining);
    root.appendChild(go);
    root.appendChild(el("p", "muted small", t("join_as", { name: S.account.name })));
  }
  root.appendChild(btn(t("back_lobby"), "ghost", leaveJoin, "join-lobby"));
  return root;
}

function loginEl() {
  const box = el("details", "join-login");
  box.appendChild(el("summary", "", t("join_login")));
  const form = el("form", "loginform");
  const name = el("input");
  Object.assign(name, { name: "name", autocomplete: "username", placeholder: t("name"), required: true, maxLength: 32 });
  const pw = el("input");
  Object.assign(pw, { name: "password", type: "password", autocomplete: "current-password", placeholder: t("password"), required: true });
  form.append(name, pw, btn(t("login"), "", () => form.requestSubmit(), "join-login"));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await signedIn(await api.login(name.value.trim(), pw.value));
    } catch (err) {
      toast(errorText(err.code, err.message));
    }
  });
  box.appendChild(form);
  return box;
}

function leaveJoin() {
  S.join = null;
  sessionStorage.removeItem(JOIN_KEY);
  toLobby();
}

// ------------------------------------------------------------------------------------------ the socket's part

const REFUSALS = { friend_not_found: "not_found", friend_expired: "expired", friend_full: "full" };

/** The friend messages (friend, friend_closed) and the refusals of a create or join; true when handled. */
export function onFriendMessage(msg) {
  if (msg.type === "friend") {
    S.friend = msg;
    S.friendPending = false;
    if (S.join && msg.seat !== msg.host) return true; // the joiner: the match message follows at once
    if (!S.match || S.match.over) {
      S.friendForm = false;
      S.screen = "friend";
      render();
    }
    return true;
  }
  if (msg.type === "friend_closed") {
    const mine = S.friendCancelling;
    S.friend = null;
    S.friendGone = true; // (a rematch can no longer be asked for)
    S.friendCancelling = false;
    if (S.screen === "friend") toLobby();
    else if (S.screen === "result") render();
    toast(msg.reason === "expired" ? t("friend_expired_toast") : mine ? t("friend_cancelled") : t("friend_closed"));
    return true;
  }
  if (msg.type === "error" && msg.code in REFUSALS && S.screen === "join" && S.join) {
    S.join = { ...S.join, state: REFUSALS[msg.code], joining: false };
    sessionStorage.removeItem(JOIN_KEY);
    render();
    return true;
  }
  if (msg.type === "error" && (S.friendPending || S.join?.joining)) {
    // a create or join refused (pair cap, beans, already seated…): say why, let the player try again
    S.friendPending = false;
    if (S.join) S.join.joining = false;
    toast(errorText(msg.code, msg.message), 5000);
    render();
    return true;
  }
  if (msg.type === "match") {
    // seated: the join page and the invite are done (the table's settings stay in S.friend for the rematch)
    S.join = null;
    S.friendForm = false;
    S.friendGone = false;
    if (S.queued) S.friend = null; // a matched table, not the friend one
    sessionStorage.removeItem(JOIN_KEY);
  }
  return false;
}
