// The app: lobby, table, settlement, replay and review screens, wired to the REST API (api.js) and the socket (net.js).

import { api, setToken, token } from "./api.js";
import { errorText, getLang, keys as i18nKeys, pick, playerName, setLang, t } from "./i18n.js";
import { Net } from "./net.js";
import { isMuted, play, setMuted, unlock } from "./sound.js";
import { renderReplay } from "./replay.js";
import { loadReview, renderReview, renderReviewLoading } from "./review.js";
import { renderRules } from "./rules.js";
import { hintsEl, myTiles, renderTable, tickTimer } from "./table.js";
import { parseHand, parseTiles, sortTiles, tileImg, tileRow, toMpsz } from "./tiles.js";

const $ = (sel) => document.querySelector(sel);
const app = $("#app");

const S = {
  account: null,
  balance: null,
  history: [],
  games: [],
  rooms: [],
  screen: "lobby",
  queued: null,
  match: null, // {id, seat, room, players, over}
  view: null,
  prev: null,
  selected: new Set(),
  riichi: false,
  hover: null,
  deadline: 0,
  deadlineTotal: 0,
  end: null, // the last hand_end message
  replay: null, // {record, step, timer}
  review: null, // review.js loadReview()'s object, or {loading: true, back}
  pendingEnd: null,
  lastSecs: null,
  done: { digest: null, through: -1 }, // the decisions of this hand already acted on (view.decision)
  mine: null, // {decision, at}: my last move, shown before the server confirmed it
  riichiAt: [null, null], // the river index of each seat's 报听 discard (shown sideways)
  lastDiscarder: null,
  countdown: null, // {left, at, total}: the settlement's countdown to the next hand (ms), paused in a replay
  scores: null, // match_end's final scores
  rulesInfo: {}, // GET /api/rules/{name}, by name
  rulesPage: null, // the preset shown on the rules page
  tracker: localStorage.getItem("erma.tracker") === "1",
  help: false,
  settingsOpen: false,
};

// ------------------------------------------------------------------------------- settings

const SETTINGS_KEY = "erma.settings";
const DEFAULTS = { autowin: false, nocall: false, tsumogiri: false, speed: "normal" };
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
function applySpeed() {
  const f = { slow: 1.6, normal: 1, fast: 0.5 }[settings.speed] ?? 1;
  document.documentElement.style.setProperty("--anim", String(f));
}
applySpeed();

async function rulesInfo(name) {
  if (!name) return null;
  if (!S.rulesInfo[name]) {
    S.rulesInfo[name] = "loading";
    try {
      S.rulesInfo[name] = await api.rules(name);
    } catch {
      delete S.rulesInfo[name];
      return null;
    }
    if (S.screen === "table" || S.screen === "rules") render();
  }
  return S.rulesInfo[name] === "loading" ? null : S.rulesInfo[name];
}


function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== "") e.textContent = text;
  return e;
}

function btn(label, cls, onClick, testid) {
  const b = el("button", `btn ${cls}`, label);
  b.type = "button";
  if (testid) b.dataset.testid = testid;
  b.addEventListener("click", onClick);
  return b;
}

function toast(text, ms = 2600) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), ms);
}

/** A big floating word over the table ("碰!", "胡了!"), or a staged banner for random events. Banners
 * queue so that two events in a row (海底捞月 then 流局) are each seen. */
let bannerFree = 0;
function callout(text, cls = "", tiles = null) {
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
function bannersLeft() {
  return Math.max(0, bannerFree - performance.now());
}

function confetti() {
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

// --------------------------------------------------------------------------------- top bar

function renderTop() {
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

// -------------------------------------------------------------------------------- the socket

const net = new Net(onMessage, (status) => {
  const s = $("#status");
  if (status === "open") s.hidden = true;
  else {
    s.hidden = false;
    s.textContent = status === "replaced" ? t("replaced") : t("reconnecting");
  }
});

/** Was this view's decision already answered? (a client acts at most once per decision: double clicks,
 * a view sent again for the same decision.) */
function answered(view) {
  return Boolean(view) && view.decision !== undefined && view.digest === S.done.digest && view.decision <= S.done.through;
}

/** Play `actions` (one decision; the start exchange sends its selections and the commit together). */
function act(...actions) {
  if (!S.match || !S.view || !(S.view.legal || []).length || answered(S.view)) return;
  if (S.view.decision !== undefined) S.done = { digest: S.view.digest, through: S.view.decision + actions.length - 1 };
  S.riichi = false;
  S.hover = null;
  const kind = actions[0].split(" ")[0];
  if (kind === "discard") play("discard");
  for (const a of actions) net.act(S.match.id, a);
  // the player's own move shows at once (the server's uniform pause after a discard only delays what comes
  // after it); the server's events and next view replace this guess (an illegal action resyncs)
  S.prev = S.view;
  S.view = predict(S.view, actions[0]);
  S.mine = { decision: S.view.decision, at: performance.now() };
  if (["chow", "pung", "kong"].includes(kind)) callout(t(kind) + "!", "me");
  render();
}

/** The view right after my own `action`, as the engine will show it: a discard leaves the hand for the river
 * (the drawn tile joins the rest), a claim turns into a meld; in every case the buttons lock until the
 * server's next view. */
export function predict(view, action) {
  const [kind, arg, flag] = action.split(" ");
  const next = { ...view, legal: [], predicted: true };
  const me = view.seat;
  if (kind === "discard" && arg) {
    const hand = parseTiles(view.hand);
    const i = hand.lastIndexOf(arg);
    if (i < 0) return next;
    hand.splice(i, 1);
    next.hand = toMpsz(hand);
    next.drawn = null;
    next.discards = view.discards.map((d, s) => (s === me ? [...d, arg] : d));
    next.last_discard = arg;
    next.actor = 1 - me;
    next.phase = "claim";
    next.hints = {};
    if (flag === "riichi") {
      next.riichi = view.riichi.map((r, s) => (s === me ? true : r));
      S.riichiAt[me] = view.discards[me].length;
    }
  }
  return next;
}

function roomOf(id) {
  return S.rooms.find((r) => r.id === id) || null;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      S.account = msg.account;
      S.balance = msg.balance;
      renderTop();
      break;
    case "rooms":
      S.rooms = msg.rooms;
      break;
    case "queued":
      S.queued = msg;
      render();
      break;
    case "cancelled":
      S.queued = null;
      render();
      break;
    case "match":
      S.queued = null;
      S.match = { id: msg.match, seat: msg.seat, room: msg.room, players: msg.players || [], over: false };
      if (!msg.resumed) S.end = null;
      S.screen = "table";
      S.resumed = Boolean(msg.resumed);
      // ready for the first hand, with this seat's share of its seed (the server committed to its own first)
      if (!msg.resumed) net.send({ type: "next", match: msg.match, entropy: entropy() });
      render();
      break;
    case "hand_start":
      S.end = null;
      S.done = { digest: null, through: -1 };
      S.pendingEnd = null;
      S.prev = null;
      S.mine = null;
      S.riichiAt = [null, null];
      S.lastDiscarder = null;
      S.countdown = null;
      rulesInfo(msg.rules);
      // the balance as the server counts it during a hand (the stake held), the same before and after a reload
      api.me().then((me) => {
        S.balance = me.balance;
        renderTop();
      }, () => {});
      S.selected = new Set();
      if (S.match) S.match.seat = msg.seat;
      S.screen = "table";
      play("start");
      callout(t("hand_no", { n: msg.hand_no }), "small");
      break;
    case "event":
      onEvent(msg.event);
      break;
    case "view":
    case "snapshot":
      if (!S.match) S.match = { id: msg.match, seat: msg.view.seat, room: msg.view.room, players: [], over: false };
      if (msg.type === "snapshot" && S.resumed && msg.view.autoplay && localStorage.getItem("erma.auto") !== "1") {
        // the server turned auto-play on while this page was away (a refresh): the player is back
        net.send({ type: "autoplay", match: msg.match, on: false });
      }
      S.resumed = false;
      if (msg.type === "view" && S.view?.predicted && S.mine && msg.view.digest === S.view.digest && msg.view.decision <= S.mine.decision) break; // older than my move: keep showing the move
      if (msg.type === "snapshot" && S.riichiAt.every((x) => x === null)) restoreMarks(msg.view);
      S.prev = msg.type === "snapshot" ? null : S.view;
      S.view = msg.view;
      if (answered(S.view)) S.view.legal = []; // already answered: wait for the next decision
      if (S.prev && S.prev.phase !== S.view.phase) S.selected = new Set();
      if ((S.view.legal || []).length === 0) S.riichi = false;
      if (msg.view.deadline_ms !== undefined && (msg.view.legal || []).length) {
        S.deadline = performance.now() + msg.view.deadline_ms;
        S.deadlineTotal = Math.max(msg.view.deadline_ms, S.deadlineTotal && S.prev?.legal?.length ? S.deadlineTotal : msg.view.deadline_ms);
      } else S.deadline = 0;
      if (S.screen !== "settle" && S.screen !== "replay" && S.screen !== "review") S.screen = "table";
      if (msg.view.phase === "end" && msg.type === "snapshot" && S.end) S.screen = "settle";
      render();
      autoMove();
      break;
    case "hand_end":
      S.end = msg;
      startCountdown();
      S.balance = msg.balances?.[S.match?.seat ?? 0] ?? S.balance;
      showEnd(msg);
      break;
    case "match_end":
      if (S.match) S.match.over = true;
      S.scores = msg.scores || null;
      S.countdown = null;
      if (S.screen === "settle" || S.screen === "table") {
        if (!S.end) S.screen = "settle";
        render();
      }
      break;
    case "error":
      if (msg.code === "bad_token") {
        setToken("");
        net.close();
        S.account = null;
        toLobby();
      } else if (msg.code === "not_shown" || msg.code === "not_your_decision") {
        S.done = { digest: null, through: -1 }; // not applied: the next view says what to do
        break;
      } else if (msg.code !== "no_such_match") toast(errorText(msg.code, msg.message));
      play("error");
      if (msg.code === "illegal_action") S.done = { digest: null, through: -1 }; // not applied: may act again
      if (msg.code === "illegal_action" && S.match) net.send({ type: "resync", match: S.match.id, version: net.lastVersion(S.match.id) });
      break;
    default:
      break;
  }
}

const ACTS = new Set(["discard", "chow", "pung", "kong", "akong", "xkong", "ckong", "win", "exchange", "cuo", "maidi", "dingdi"]);

/** A short line under the top bar that never covers the wall count, timer or turn text. */
function notice(text) {
  const box = $("#notice");
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => (box.hidden = true), 3000);
}

/** The river marks (报听 discards, the last discarder) come from events; kept per hand in sessionStorage so a
 * page refresh, which resumes after the last event seen, still shows them. */
function rememberMarks() {
  if (S.view?.digest) sessionStorage.setItem("erma.marks", JSON.stringify({ digest: S.view.digest, riichiAt: S.riichiAt, last: S.lastDiscarder }));
}

function restoreMarks(view) {
  try {
    const m = JSON.parse(sessionStorage.getItem("erma.marks") || "null");
    if (m && m.digest === view.digest) {
      S.riichiAt = m.riichiAt;
      S.lastDiscarder = m.last;
    }
  } catch {
    /* nothing kept */
  }
}

function onEvent(e) {
  const me = S.match?.seat ?? 0;
  const mine = e.seat === me;
  const word = (k) => t(k) + "!";
  if (mine && S.view && ACTS.has(e.type) && (S.view.legal || []).length && !answered(S.view) && !S.view.predicted) {
    // a move of mine I did not make: the clock ran out, or 托管 played it
    notice(S.view.autoplay ? t("auto_moved") : t("timeout_moved"));
  }
  switch (e.type) {
    case "draw":
      if (mine) play("draw");
      break;
    case "discard":
      S.lastDiscarder = e.seat;
      if (!mine) play("discard");
      if (e.riichi && S.view && S.riichiAt[e.seat] === null) S.riichiAt[e.seat] = (S.view.discards?.[e.seat]?.length ?? 1) - (mine && S.view.predicted ? 1 : 0);
      rememberMarks();
      if (e.riichi) {
        play("riichi");
        callout(word("riichi"), mine ? "me" : "opp");
      }
      break;
    case "chow":
    case "pung":
    case "kong":
    case "akong":
    case "xkong":
    case "ckong": {
      const k = e.type === "chow" || e.type === "pung" ? e.type : "kong";
      play(k);
      callout(word(k), mine ? "me" : "opp", e.meld ? parseTiles(e.meld) : null);
      break;
    }
    case "exchange":
      play("exchange");
      callout(mine ? t("ev_exchange_me", { n: e.count }) : t("ev_exchange_opp", { n: e.count }), "banner exchange");
      break;
    case "cuo":
      play("cuo");
      callout(mine && e.kind ? t("ev_cuo_me", { t: "" }) : t("ev_cuo_opp"), "banner cuo", mine && e.kind ? [e.kind] : null);
      break;
    case "triplet_offer":
      play("triplet");
      break;
    case "triplet_accept":
      play("triplet");
      callout(t("ev_triplet_me", { t: "" }), "banner triplet", e.kind ? [e.kind, e.kind, e.kind] : null);
      break;
    case "haidi":
      play("haidi");
      callout(t("ev_haidi"), "banner haidi");
      break;
    case "haidi_pick":
      callout(t("ev_haidi_pick", { t: "" }), "banner haidi", [e.tile]);
      break;
    case "win": {
      const won = e.winner === me;
      play(won ? "win" : "lose");
      callout(e.how === "self" || e.how === "haidi" ? word("self_win") : word("win"), `big ${won ? "me" : "opp"}`, [e.tile]);
      if (won) confetti();
      break;
    }
    case "maidi":
    case "dingdi":
      if (e.choice) {
        play("riichi");
        callout(word(e.type), mine ? "me" : "opp");
      }
      break;
    case "deal":
      if (e.caishen) {
        play("haidi");
        callout(t("ev_caishen"), "banner caishen", [e.caishen]);
      }
      break;
    case "exhausted":
      play("draw_game");
      callout(t("ev_exhausted"), "banner");
      break;
    case "escape":
      callout(t("ev_escape"), "banner");
      break;
    case "timeout":
      if (mine) toast(t("ev_timeout"));
      break;
    case "flower":
      play("draw");
      break;
    default:
      break;
  }
}

function showEnd(msg) {
  // let the win animation play, then the settlement
  clearTimeout(S.pendingEnd);
  S.pendingEnd = setTimeout(() => {
    if (S.end === msg) {
      S.screen = "settle";
      render();
    }
  }, 1300 + bannersLeft());
}

// ------------------------------------------------------------------------------------ lobby

async function refreshMe() {
  if (!token()) return;
  try {
    const me = await api.me();
    S.account = me.account;
    S.balance = me.balance;
    S.history = me.history || [];
  } catch (err) {
    if (err.status === 401) {
      setToken("");
      S.account = null;
    }
  }
  try {
    S.games = (await api.games()).games || [];
  } catch {
    S.games = [];
  }
}

async function signedIn(res) {
  setToken(res.token);
  S.account = res.account;
  S.balance = res.balance;
  net.connect(res.token);
  await refreshMe();
  render();
}

function toLobby() {
  S.screen = "lobby";
  S.view = null;
  S.end = null;
  if (S.match?.over) S.match = null;
  render();
  refreshMe().then(() => S.screen === "lobby" && render());
}

function renderLobby() {
  const root = el("section", "lobby");
  root.dataset.testid = "lobby";
  const hero = el("div", S.account ? "hero compact" : "hero");
  if (S.account) root.classList.add("signed");
  hero.appendChild(tileRow(["1m", "5p", "9s", "7z", "6z"], "hero-tile"));
  hero.appendChild(el("h1", "", t("title")));
  hero.appendChild(el("p", "tagline", t("tagline")));
  root.appendChild(hero);

  if (!S.account) {
    const card = el("div", "card login");
    card.appendChild(btn(t("guest"), "go huge", async () => signedIn(await api.guest()), "guest"));
    const form = el("form", "loginform");
    form.innerHTML = `<input name="name" autocomplete="username" placeholder="${t("name")}" required maxlength="32">
      <input name="password" type="password" autocomplete="current-password" placeholder="${t("password")}" required>`;
    const submit = async (kind) => {
      const name = form.elements.name.value.trim();
      const password = form.elements.password.value;
      if (!name || !password) return;
      try {
        signedIn(kind === "login" ? await api.login(name, password) : await api.register(name, password));
      } catch (err) {
        toast(errorText(err.code, err.message));
      }
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      submit("login");
    });
    const row = el("div", "row");
    row.appendChild(btn(t("login"), "", () => submit("login"), "login"));
    row.appendChild(btn(t("register"), "ghost", () => submit("register"), "register"));
    form.appendChild(row);
    card.appendChild(form);
    root.appendChild(card);
    return root;
  }

  const acct = el("div", "card account");
  acct.dataset.testid = "account";
  acct.appendChild(el("div", "acct-name", S.account.name + (S.account.guest ? ` · ${t("guest_badge")}` : "")));
  const bal = el("div", "balance");
  bal.innerHTML = `<i class="bean big"></i><b data-testid="balance">${S.balance ?? "…"}</b><small>${t("beans")}</small>`;
  acct.appendChild(bal);
  const row = el("div", "row");
  row.appendChild(
    btn(t("relief"), "ghost", async () => {
      try {
        const r = await api.relief();
        S.balance = r.balance;
        toast(r.granted ? t("relief_ok", { n: r.granted }) : t("relief_no"));
        render();
      } catch (err) {
        toast(errorText(err.code, err.message));
      }
    }, "relief"),
  );
  row.appendChild(
    btn(t("logout"), "ghost", () => {
      setToken("");
      net.close();
      S.account = null;
      S.balance = null;
      render();
    }),
  );
  acct.appendChild(row);

  if (S.queued) {
    const q = el("div", "card queued");
    q.dataset.testid = "queued";
    q.appendChild(el("div", "spinner"));
    q.appendChild(el("span", "", t("queued", { n: S.queued.bot_after_s ?? "?" })));
    q.appendChild(btn(t("cancel"), "ghost", () => net.send({ type: "cancel" })));
    root.appendChild(q);
  }

  const rooms = el("div", "card rooms");
  const head = el("div", "rooms-head");
  head.appendChild(el("h2", "", t("rooms")));
  // 人机对战: the bot's level (1 novice … 5 expert; "auto": the level nearest the player's rating)
  const level = document.createElement("select");
  level.className = "bot-level";
  level.dataset.testid = "bot-level";
  level.setAttribute("aria-label", t("bot_level"));
  for (const v of ["", "1", "2", "3", "4", "5"]) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v ? t(`bot_level_${v}`) : t("bot_level_auto");
    level.appendChild(o);
  }
  level.value = localStorage.getItem("erma.botLevel") || "";
  level.addEventListener("change", () => localStorage.setItem("erma.botLevel", level.value));
  const label = el("label", "bot-level-label", t("bot_level"));
  label.appendChild(level);
  head.appendChild(label);
  rooms.appendChild(head);
  const byRules = {};
  for (const r of S.rooms) (byRules[r.rules] ||= []).push(r);
  const grid = el("div", "rooms-grid");
  rooms.appendChild(grid);
  for (const [rules, list] of Object.entries(byRules)) {
    const group = el("div", "rulegroup");
    const h = el("h3", "");
    h.appendChild(el("span", "", t(`rules_${rules}`)));
    const link = btn(t("rules_page"), "ghost small rules-link", () => openRules(rules), "rules-link");
    link.dataset.rules = rules;
    h.appendChild(link);
    group.appendChild(h);
    for (const r of list) {
      const card = el("div", `room tier-${r.tier}`);
      card.dataset.room = r.id;
      card.appendChild(el("div", "room-name", pick(r)));
      const meta = el("div", "room-meta");
      const tier = t(`tier_${r.tier}`);
      meta.textContent = [tier.startsWith("tier_") ? "" : tier, t("entry", { n: r.entry_min }), ...(r.rules === "wenzhou2p" ? [t("rate_wz", { n: r.bean_rate })] : [t("rate", { n: r.bean_rate }), r.fan_cap ? t("cap", { n: r.fan_cap }) : t("no_cap")])].join(" · ");
      card.appendChild(meta);
      const poor = (S.balance ?? 0) < r.entry_min;
      const b1 = btn(t("quick"), "", () => queue(r.id, "any"), "quick");
      const b2 = btn(t("vs_bot"), "go", () => queue(r.id, "bot"), "bot");
      b1.disabled = b2.disabled = poor || Boolean(S.queued);
      const bs = el("div", "row");
      bs.append(b1, b2);
      card.appendChild(bs);
      group.appendChild(card);
    }
    grid.appendChild(group);
  }

  const hist = el("div", "card history");
  hist.appendChild(el("h2", "", t("history")));
  if (!S.games.length) hist.appendChild(el("p", "muted", t("no_history")));
  for (const g of S.games.slice(0, 12)) {
    const line = el("div", "game");
    const sum = g.summary || {};
    const winner = (sum.players || [])[sum.winner];
    const whoWon = winner === S.account?.name ? t("you") : winner ? playerName(winner) : "?";
    const who = sum.winner === null || sum.winner === undefined ? t("draw_game") : `${whoWon} +${sum.points}`;
    const room = roomOf(sum.room);
    line.appendChild(el("span", "when", (g.created || "").replace("T", " ").slice(0, 16)));
    line.appendChild(el("span", "what", `${room ? pick(room) : t(`rules_${sum.rules}`)} · ${who}`));
    line.appendChild(btn(t("replay"), "ghost small", () => openReplay(g.id), "history-replay"));
    line.appendChild(btn(t("review"), "ghost small", () => openReview(g.id), "history-review"));
    hist.appendChild(line);
  }
  root.appendChild(rooms);
  const side = el("div", "side");
  side.append(acct, hist);
  root.appendChild(side);
  return root;
}

function queue(room, opponent) {
  unlock();
  const level = Number(localStorage.getItem("erma.botLevel") || 0);
  net.send({ type: "queue", room, opponent, ...(opponent === "bot" && level ? { level } : {}) });
}

// ------------------------------------------------------------------------------- the table

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

/** The remembered settings that answer for the player: auto-win, no calls (不吃碰). */
function autoMove() {
  const v = S.view;
  if (!v || answered(v) || !(v.legal || []).length || v.predicted) return;
  let a = null;
  if (settings.autowin && v.legal.includes("win")) a = "win";
  else if (settings.nocall && v.phase === "claim" && v.legal.includes("pass") && !v.legal.includes("win")) a = "pass";
  if (a) setTimeout(() => S.view === v && act(a), 0);
}

function renderTableScreen() {
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
  });
  S.prev = null; // animate a change once
  return root;
}

function frame() {
  if (S.countdown) tickCountdown();
  if (S.screen === "table" && S.deadline) {
    const secs = tickTimer(app, S.deadline, S.deadlineTotal);
    if (secs !== null && secs !== S.lastSecs) {
      if (secs <= 3 && secs > 0) play("tick");
      S.lastSecs = secs;
    }
  }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);

// ------------------------------------------------------------------------------ settlement

/** A hand as the result shows it; 温州's 财神 (`caishen`) glow. */
function handEl(text, caishen = null) {
  const h = parseHand(text);
  const box = el("div", "showhand");
  const img = (x) => tileImg(x, x === caishen ? "sm caishen" : "sm");
  for (const m of h.melds) {
    const g = el("span", "meld");
    m.tiles.forEach((x) => g.appendChild(img(x)));
    box.appendChild(g);
  }
  const row = el("span", "tilerow");
  sortTiles(h.concealed).forEach((x) => row.appendChild(img(x)));
  box.appendChild(row);
  if (h.win) {
    const w = el("span", "wintile");
    w.appendChild(tileImg(h.win, "sm glow"));
    box.appendChild(w);
  }
  return box;
}

function renderSettle() {
  const msg = S.end;
  const root = el("section", `settle${S.settleShown === msg ? "" : " enter"}`);
  S.settleShown = msg;
  root.dataset.testid = "settlement";
  if (S.match?.over) root.appendChild(matchOverEl());
  else root.appendChild(countdownEl());
  if (!msg) {
    root.appendChild(btn(t("back_lobby"), "go", () => {
      S.match = null;
      toLobby();
    }, "lobby"));
    return root;
  }
  const r = msg.result;
  const me = S.match?.seat ?? 0;
  let title;
  let cls;
  if (r.reason === "win") {
    title = r.winner === me ? t("you_win") : t("you_lose");
    cls = r.winner === me ? "won" : "lost";
  } else if (r.reason === "escape") {
    title = t("reason_escape", { who: nameOf(r.escaper ?? 0) });
    cls = "lost";
  } else {
    title = t("draw_game");
    cls = "drawn";
  }
  const head = el("div", `settle-head ${cls}`);
  head.appendChild(el("h2", "", title));
  const wenzhou = r.multiplier !== undefined;
  if (r.reason === "win") {
    const how = { self: t("by_self"), discard: t("by_discard"), rob: t("by_rob"), haidi: t("by_haidi") }[r.how] || r.how;
    head.appendChild(el("div", "how", `${nameOf(r.winner)} · ${how}`));
    if (wenzhou) {
      // 温州: the multiplier M (软 ×1, 硬 ×2, 双翻 ×4) is the headline of the win
      const mult = el("div", `multiplier grade-${r.grade}`);
      mult.dataset.testid = "multiplier";
      mult.appendChild(el("b", "", `×${r.multiplier}`));
      mult.appendChild(el("span", "", t(`grade_${r.grade}`)));
      head.appendChild(mult);
    }
  }
  root.appendChild(head);

  if (r.reason === "win") {
    root.appendChild(el("h3", "", t("win_hand")));
    root.appendChild(handEl(r.hand, S.view?.caishen));
    const table = el("table", "fans");
    table.dataset.testid = "fans";
    const thead = el("tr");
    thead.append(el("th", "", t(wenzhou ? "reason" : "fan")), el("th", "", ""), el("th", "num", t(wenzhou ? "mult" : "points")));
    table.appendChild(thead);
    for (const f of r.fans || []) {
      // 温州 lists every reason for the multiplier; the highest sets it (the lower ones are muted)
      const tr = el("tr", wenzhou && f.points < r.multiplier ? "minor" : "");
      tr.appendChild(el("td", "fan-name", pick(f)));
      const tiles = el("td", "fan-tiles");
      for (const group of (f.tiles || []).flatMap((x) => String(x).split(/\s+/)).filter(Boolean)) {
        const g = el("span", "group");
        parseTiles(group).forEach((x) => g.appendChild(tileImg(x, "xs")));
        tiles.appendChild(g);
      }
      tr.appendChild(tiles);
      const num = wenzhou ? `×${f.points}` : f.count > 1 ? `${f.points}×${f.count}` : String(f.points);
      tr.appendChild(el("td", "num", num));
      table.appendChild(tr);
    }
    const lines = [];
    if (wenzhou) {
      // P = B × M × (1 + m), then 财神钱 and kong money (RULES §3.7)
      let formula = `${t("base", { n: r.base })} × ${r.multiplier}`;
      if (r.maidi) formula += ` × ${1 + r.maidi} (${t("maidi")}/${t("dingdi")})`;
      lines.push(["", `${formula} = ${r.win_points}`]);
      if (r.caishen_money) lines.push(["", `${t("caishen_money")} ${r.caishen_money > 0 ? "+" : ""}${r.caishen_money}`]);
      const kong = r.kong_money?.[r.winner];
      if (kong) lines.push(["", `${t("kong_money")} ${kong > 0 ? "+" : ""}${kong}`]);
      lines.push(["total", t("total_wz", { n: r.deltas?.[r.winner] ?? r.points })]);
    } else {
      const cap = roomOf(msg.room || S.match?.room)?.fan_cap;
      let text = t("total", { n: r.fan_total });
      if (r.points < r.fan_total) text += ` → ${t("capped", { n: r.points })}`;
      else if (cap) text += ` (${t("cap", { n: cap })})`;
      lines.push(["total", text]);
    }
    for (const [cls, text] of lines) {
      const tr = el("tr", cls || "sum");
      const td = el("td", "", text);
      td.colSpan = 3;
      tr.appendChild(td);
      table.appendChild(tr);
    }
    root.appendChild(table);
  }

  const beans = el("div", "beanchange");
  beans.dataset.testid = "beans";
  beans.appendChild(el("h3", "", t("bean_change")));
  for (const i of [me, 1 - me]) {
    // the actual change (a payer never pays more than it staked); older servers: deltas × rate
    const d = msg.beans?.[i] ?? (r.deltas?.[i] ?? 0) * (msg.bean_rate ?? 1);
    const line = el("div", `beanline ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`);
    line.append(el("span", "who", nameOf(i)), el("span", "delta", `${d > 0 ? "+" : ""}${d}`), el("span", "bal", `${t("balance")} ${msg.balances?.[i] ?? "?"}`));
    beans.appendChild(line);
  }
  root.appendChild(beans);

  if (r.hands) {
    const hands = el("details", "hands");
    hands.addEventListener("toggle", () => tickCountdown()); // reviewing both hands pauses the countdown
    hands.appendChild(el("summary", "", t("hands")));
    r.hands.forEach((h, i) => {
      const line = el("div", "handline");
      line.appendChild(el("span", "who", nameOf(i)));
      line.appendChild(handEl(h, S.view?.caishen));
      hands.appendChild(line);
    });
    root.appendChild(hands);
  }
  root.appendChild(el("div", "seed muted", t("verify", { s: (msg.seed || "").slice(0, 16) + "…" })));

  const row = el("div", "row end-actions");
  if (!S.match?.over) row.appendChild(btn(t("next_hand"), "go", nextHand, "next-hand"));
  if (msg.record_id !== undefined && msg.record_id !== null) {
    row.appendChild(btn(t("replay"), "", () => openReplay(msg.record_id), "replay"));
    row.appendChild(btn(t("review"), "", () => openReview(msg.record_id), "review-open"));
  }
  row.appendChild(btn(t("back_lobby"), "ghost", () => {
    if (S.match && !S.match.over) net.send({ type: "leave", match: S.match.id });
    S.match = null;
    toLobby();
  }, "lobby"));
  root.appendChild(row);
  return root;
}

// ---------------------------------------------------------------------------------- replay

async function openReplay(id) {
  try {
    const data = await api.replay(id); // the hand re-played by the server's engine, one seat view per step
    S.replay = { data, step: 0, timer: null, speed: 1, back: S.screen, shown: null };
    S.screen = "replay";
    render();
  } catch (err) {
    toast(errorText(err.code, err.message));
  }
}

function closeReplay() {
  const back = S.replay?.back;
  S.replay = null;
  if (back === "settle" && S.end) {
    S.screen = "settle";
    render();
  } else toLobby();
}

function replayScreen() {
  const root = renderReplay(S.replay, {
    rerender: render,
    close: closeReplay,
    active: () => S.screen === "replay" && Boolean(S.replay),
  });
  if (S.replay.back === "settle" && S.end) root.prepend(countdownEl());
  return root;
}

// ---------------------------------------------------------------------------------- review (复盘)

async function openReview(id) {
  const back = S.screen;
  const mine = { loading: true, back };
  S.review = mine;
  S.screen = "review";
  render();
  try {
    const data = await loadReview(id);
    if (S.review !== mine) return; // closed meanwhile
    S.review = { ...data, back };
    render();
  } catch (err) {
    if (S.review !== mine) return;
    toast(errorText(err.code, err.message));
    closeReview();
  }
}

function closeReview() {
  const back = S.review?.back;
  S.review = null;
  if (back === "settle" && S.end) {
    S.screen = "settle";
    render();
  } else toLobby();
}

function reviewScreen() {
  const ui = { rerender: render, close: closeReview };
  const root = S.review.loading ? renderReviewLoading(ui) : renderReview(S.review, ui);
  if (S.review.back === "settle" && S.end) root.prepend(countdownEl());
  return root;
}

// ------------------------------------------------------------------------------- countdown

/** The settlement's countdown to the next hand: the server ends a match whose player does not confirm within
 * the rule set's `next_hand_timeout_s`; the client confirms for the player a few seconds before (unless the
 * hand ended in 托管). It pauses while the player watches a replay or reviews both hands. */
function startCountdown() {
  if (S.match?.over) return;
  const info = S.rulesInfo[S.view?.rules];
  const room = roomOf(S.end?.room || S.match?.room);
  const preset = info && info !== "loading" ? info.next_hand_timeout_s : 15;
  const limit = (room?.options?.next_hand_timeout_s ?? preset) * 1000; // the room's rule set decides
  const total = Math.max(3000, limit - 3000);
  S.countdown = { left: total, total, at: performance.now(), auto: !S.view?.autoplay };
}

function countdownPaused() {
  return S.screen === "replay" || S.screen === "review" || Boolean(document.querySelector("details.hands[open]"));
}

function tickCountdown() {
  const c = S.countdown;
  if (!c) return;
  const now = performance.now();
  const stopped = countdownPaused();
  if (!stopped) c.left -= now - c.at;
  c.at = now;
  if (stopped !== Boolean(c.reviewing) && S.match && !S.match.over) {
    c.reviewing = stopped; // the server's clock to the next hand stands still too (docs/protocol.md: review)
    net.send({ type: "review", match: S.match.id, on: stopped });
  }
  if (c.left <= 0) {
    S.countdown = null;
    if (c.auto && S.match && !S.match.over && S.screen === "settle") nextHand();
    return;
  }
  const box = document.querySelector("[data-testid=countdown]");
  if (box) paintCountdown(box, c);
}

/** Show the countdown's state in ``box`` (without advancing it). */
function paintCountdown(box, c) {
  const paused = countdownPaused();
  box.classList.toggle("paused", paused);
  box.dataset.left = String(Math.ceil(c.left / 1000));
  box.dataset.paused = paused ? "1" : "0";
  box.querySelector(".cd-text").textContent = paused ? t("next_paused") : t("next_in", { n: Math.ceil(c.left / 1000) });
  box.querySelector(".cd-bar").style.width = `${((c.left / c.total) * 100).toFixed(1)}%`;
}

function countdownEl() {
  const box = el("div", "countdown");
  box.dataset.testid = "countdown";
  box.setAttribute("role", "timer");
  const bar = el("div", "cd-track");
  bar.appendChild(el("div", "cd-bar"));
  box.append(el("span", "cd-text", ""), bar);
  box.hidden = !S.countdown;
  if (S.countdown) paintCountdown(box, S.countdown); // a re-rendered screen shows the count at once, not a frame later
  requestAnimationFrame(tickCountdown);
  return box;
}

/** 32 random bytes as 64 hex digits: this seat's share of the next hand's seed (docs/protocol.md). */
function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function nextHand() {
  net.send({ type: "next", match: S.match.id, entropy: entropy() });
  S.screen = "table";
  S.end = null;
  S.view = null;
  S.countdown = null;
  render();
}

/** The match is over: the final scores (match_end.scores, per seat) and the way back. */
function matchOverEl() {
  const box = el("div", "match-over");
  box.dataset.testid = "match-over";
  box.appendChild(el("h2", "", t("match_over_title")));
  const me = S.match?.seat ?? 0;
  if (S.scores) {
    box.appendChild(el("div", "muted", t("final_scores")));
    const row = el("div", "scores");
    for (const i of [me, 1 - me]) {
      const v = S.scores[i] ?? 0;
      const line = el("div", `scoreline ${v > 0 ? "plus" : v < 0 ? "minus" : ""}`);
      line.append(el("span", "who", nameOf(i)), el("b", "", `${v > 0 ? "+" : ""}${v}`));
      row.appendChild(line);
    }
    box.appendChild(row);
  }
  return box;
}

function nameOf(i) {
  const me = S.match?.seat ?? 0;
  const p = (S.view?.players || S.match?.players || [])[i];
  if (i === me) return p?.name ? p.name + t("seat_you") : t("you"); // (a record without names: "You", not "You (you)")
  return p?.name ? playerName(p.name, p.bot) : t("opponent");
}

// -------------------------------------------------------------------------- keyboard and help

const HELP_KEYS = ["key_arrows", "key_enter", "key_tsumogiri", "key_win", "key_pung", "key_chow", "key_kong", "key_riichi", "key_pass", "key_auto", "key_help"];

function helpEl() {
  const box = el("div", "help-overlay");
  box.dataset.testid = "help";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", t("help_title"));
  box.appendChild(el("h2", "", t("help_title")));
  const list = el("ul");
  for (const k of HELP_KEYS) list.appendChild(el("li", "", t(k)));
  box.appendChild(list);
  box.appendChild(btn(t("close"), "ghost", () => {
    S.help = false;
    render();
  }));
  return box;
}

function settingsEl() {
  const box = el("div", "settings-panel");
  box.dataset.testid = "settings";
  box.setAttribute("role", "dialog");
  box.appendChild(el("h2", "", t("settings")));
  for (const key of ["autowin", "nocall", "tsumogiri"]) {
    const label = el("label", "set-row");
    const input = el("input");
    input.type = "checkbox";
    input.checked = Boolean(settings[key]);
    input.dataset.setting = key;
    input.addEventListener("change", () => {
      settings[key] = input.checked;
      saveSettings();
      render();
    });
    label.append(input, el("span", "", t(`set_${key}`)));
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

/** The small buttons beside 托管: 记牌器, settings, keyboard help. */
function toolsEl() {
  const box = el("span", "tools");
  box.appendChild(btn(t("leave"), "ghost small leave", () => {
    if (S.view?.phase !== "end" && !confirm(t("leave_confirm"))) return;
    net.send({ type: "leave", match: S.match.id });
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

function focusHandTile(delta) {
  const tiles = [...document.querySelectorAll("[data-testid=my-hand] .tile[tabindex='0']")];
  if (!tiles.length) return;
  const i = tiles.indexOf(document.activeElement);
  const next = i < 0 ? (delta > 0 ? 0 : tiles.length - 1) : (i + delta + tiles.length) % tiles.length;
  tiles[next].focus();
}

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

// ---------------------------------------------------------------------------------- render

function render() {
  renderTop();
  let screen;
  if (S.screen === "table" && S.match) screen = renderTableScreen();
  else if (S.screen === "settle" && (S.end || S.match?.over)) screen = renderSettle();
  else if (S.screen === "replay" && S.replay) screen = replayScreen();
  else if (S.screen === "review" && S.review) screen = reviewScreen();
  else if (S.screen === "rules" && S.rulesPage) screen = renderRules(S.rulesPage, S.rulesInfo[S.rulesPage], { back: toLobby, rooms: S.rooms });
  else screen = renderLobby();
  document.body.dataset.screen = S.screen;
  const overlays = [];
  if (S.help && S.screen === "table") overlays.push(helpEl());
  if (S.settingsOpen && S.screen === "table") overlays.push(settingsEl());
  app.replaceChildren(screen, ...overlays);
}

async function openRules(name) {
  S.rulesPage = name;
  S.screen = "rules";
  render();
  await rulesInfo(name);
  render();
}

async function start() {
  try {
    S.rooms = (await api.rooms()).rooms;
  } catch {
    S.rooms = [];
  }
  if (token()) {
    await refreshMe();
    if (S.account) net.connect(token());
  }
  render();
}

window.erma = { state: S, render, act, myTiles, settings, i18nKeys, openRules, send: (m) => net.send(m) };
start();
