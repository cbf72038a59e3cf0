// The app: lobby, table, settlement and replay screens, wired to the REST API (api.js) and the socket (net.js).

import { api, setToken, token } from "./api.js";
import { getLang, pick, setLang, t, windName } from "./i18n.js";
import { Net } from "./net.js";
import { isMuted, play, setMuted, unlock } from "./sound.js";
import { hintsEl, myTiles, renderTable, tickTimer } from "./table.js";
import { parseHand, parseMelds, parseTiles, sortTiles, tileImg, tileRow } from "./tiles.js";

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
  pendingEnd: null,
  lastSecs: null,
  done: { digest: null, through: -1 }, // the decisions of this hand already acted on (view.decision)
};

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
  if (actions[0].split(" ")[0] === "discard") play("discard");
  for (const a of actions) net.act(S.match.id, a);
  // lock the buttons until the next decision's view arrives
  S.view = { ...S.view, legal: [] };
  render();
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
      render();
      break;
    case "hand_start":
      S.end = null;
      S.done = { digest: null, through: -1 };
      S.pendingEnd = null;
      S.prev = null;
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
      S.prev = msg.type === "snapshot" ? null : S.view;
      S.view = msg.view;
      if (answered(S.view)) S.view.legal = []; // already answered: wait for the next decision
      if (S.prev && S.prev.phase !== S.view.phase) S.selected = new Set();
      if ((S.view.legal || []).length === 0) S.riichi = false;
      if (msg.view.deadline_ms !== undefined && (msg.view.legal || []).length) {
        S.deadline = performance.now() + msg.view.deadline_ms;
        S.deadlineTotal = Math.max(msg.view.deadline_ms, S.deadlineTotal && S.prev?.legal?.length ? S.deadlineTotal : msg.view.deadline_ms);
      } else S.deadline = 0;
      if (S.screen !== "settle" && S.screen !== "replay") S.screen = "table";
      if (msg.view.phase === "end" && msg.type === "snapshot" && S.end) S.screen = "settle";
      render();
      break;
    case "hand_end":
      S.end = msg;
      S.balance = msg.balances?.[S.match?.seat ?? 0] ?? S.balance;
      showEnd(msg);
      break;
    case "match_end":
      if (S.match) S.match.over = true;
      if (S.screen === "settle") render();
      else if (S.screen === "table" && !S.end) toLobby();
      break;
    case "error":
      if (msg.code === "bad_token") {
        setToken("");
        net.close();
        S.account = null;
        toLobby();
      } else if (msg.code === "not_enough_beans") toast(t("not_enough"));
      else if (msg.code !== "no_such_match") toast(t("err", { m: msg.message || msg.code }));
      play("error");
      if (msg.code === "illegal_action") S.done = { digest: null, through: -1 }; // not applied: may act again
      if (msg.code === "illegal_action" && S.match) net.send({ type: "resync", match: S.match.id, version: net.lastVersion(S.match.id) });
      break;
    default:
      break;
  }
}

function onEvent(e) {
  const me = S.match?.seat ?? 0;
  const mine = e.seat === me;
  const word = (k) => t(k) + "!";
  switch (e.type) {
    case "draw":
      if (mine) play("draw");
      break;
    case "discard":
      if (!mine) play("discard");
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
  const hero = el("div", "hero");
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
        toast(err.code === "bad_login" ? t("bad_login") : t("err", { m: err.message }));
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
        toast(t("err", { m: err.message }));
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
  root.appendChild(acct);

  if (S.queued) {
    const q = el("div", "card queued");
    q.dataset.testid = "queued";
    q.appendChild(el("div", "spinner"));
    q.appendChild(el("span", "", t("queued", { n: S.queued.bot_after_s ?? "?" })));
    q.appendChild(btn(t("cancel"), "ghost", () => net.send({ type: "cancel" })));
    root.appendChild(q);
  }

  const rooms = el("div", "card rooms");
  rooms.appendChild(el("h2", "", t("rooms")));
  const byRules = {};
  for (const r of S.rooms) (byRules[r.rules] ||= []).push(r);
  for (const [rules, list] of Object.entries(byRules)) {
    const group = el("div", "rulegroup");
    const ruleName = t(`rules_${rules}`);
    group.appendChild(el("h3", "", ruleName === `rules_${rules}` ? rules : `${ruleName} · ${rules}`));
    for (const r of list) {
      const card = el("div", `room tier-${r.tier}`);
      card.dataset.room = r.id;
      card.appendChild(el("div", "room-name", pick(r)));
      const meta = el("div", "room-meta");
      const tier = t(`tier_${r.tier}`);
      meta.textContent = [tier.startsWith("tier_") ? r.tier : tier, t("entry", { n: r.entry_min }), ...(r.rules === "wenzhou2p" ? [t("rate_wz", { n: r.bean_rate })] : [t("rate", { n: r.bean_rate }), r.fan_cap ? t("cap", { n: r.fan_cap }) : t("no_cap")])].join(" · ");
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
    rooms.appendChild(group);
  }

  const hist = el("div", "card history");
  hist.appendChild(el("h2", "", t("history")));
  if (!S.games.length) hist.appendChild(el("p", "muted", t("no_history")));
  for (const g of S.games.slice(0, 12)) {
    const line = el("div", "game");
    const sum = g.summary || {};
    const who = sum.winner === null || sum.winner === undefined ? t("draw_game") : `${(sum.players || [])[sum.winner] || "?"} +${sum.points}`;
    line.appendChild(el("span", "when", (g.created || "").replace("T", " ").slice(0, 16)));
    line.appendChild(el("span", "what", `${sum.room || ""} · ${who}`));
    line.appendChild(btn(t("replay"), "ghost small", () => openReplay(g.id)));
    hist.appendChild(line);
  }
  root.appendChild(hist);
  root.appendChild(rooms);
  return root;
}

function queue(room, opponent) {
  unlock();
  net.send({ type: "queue", room, opponent });
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
  });
  const leave = btn(t("leave"), "ghost small leave", () => {
    if (S.view?.phase !== "end" && !confirm(t("leave_confirm"))) return;
    net.send({ type: "leave", match: S.match.id });
  });
  root.appendChild(leave);
  S.prev = null; // animate a change once
  return root;
}

function frame() {
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
  const r = msg.result;
  const me = S.match?.seat ?? 0;
  const players = S.view?.players || S.match?.players || [];
  const nameOf = (i) => (players[i]?.name || (i === me ? t("you") : t("opponent"))) + (i === me ? t("seat_you") : "");
  const root = el("section", "settle");
  root.dataset.testid = "settlement";
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
  if (!S.match?.over) {
    row.appendChild(btn(t("next_hand"), "go", () => {
      net.send({ type: "next", match: S.match.id });
      S.screen = "table";
      S.end = null;
      S.view = null;
      render();
    }, "next-hand"));
  } else {
    row.appendChild(el("span", "muted", t("match_over")));
  }
  if (msg.record_id !== undefined && msg.record_id !== null) row.appendChild(btn(t("replay"), "", () => openReplay(msg.record_id), "replay"));
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
    const record = await api.game(id); // the record itself (docs/records.md) with id and created
    S.replay = { record, step: 0, timer: null, back: S.screen };
    S.screen = "replay";
    render();
  } catch (err) {
    toast(t("err", { m: err.message }));
  }
}

/** Apply events 0..n-1 of an unredacted record to a plain table state (both hands open). */
export function replayState(events, n) {
  const st = { hands: [[], []], melds: [[], []], rivers: [[], []], wall: 0, revealed: [], last: null, dealer: 0, winds: [0, 1] };
  const take = (seat, tiles) => {
    for (const x of tiles) {
      const i = st.hands[seat].indexOf(x);
      if (i >= 0) st.hands[seat].splice(i, 1);
    }
  };
  for (const e of events.slice(0, n)) {
    const s = e.seat;
    switch (e.type) {
      case "deal":
        st.wall = e.wall;
        st.revealed = e.bonus_kinds || e.revealed || [];
        st.dealer = e.dealer;
        st.winds = e.seat_winds || st.winds;
        break;
      case "hand":
        st.hands[s] = parseTiles(e.tiles);
        break;
      case "exchange":
        take(s, parseTiles(e.gave));
        st.hands[s].push(...parseTiles(e.got));
        break;
      case "draw":
        if (e.tile) st.hands[s].push(e.tile);
        if (e.wall !== undefined) st.wall = e.wall;
        break;
      case "discard":
        take(s, [e.tile]);
        st.rivers[s].push(e.tile);
        break;
      case "chow":
      case "pung":
      case "kong": {
        const tiles = parseTiles(e.meld);
        const rest = [...tiles];
        rest.splice(rest.indexOf(e.tile), 1);
        take(s, rest);
        st.rivers[1 - s].pop();
        st.melds[s].push(e.meld);
        break;
      }
      case "ckong":
        take(s, parseTiles(e.meld));
        st.melds[s].push(e.meld);
        break;
      case "akong":
      case "xkong": {
        take(s, [e.tile]);
        const i = st.melds[s].findIndex((m) => parseTiles(m).includes(e.tile));
        if (i >= 0) st.melds[s][i] = `(${parseTiles(st.melds[s][i]).concat([e.tile]).join("")})`;
        break;
      }
      case "triplet_accept":
        take(s, parseTiles(e.gave));
        st.hands[s].push(e.kind, e.kind, e.kind);
        break;
      case "flower":
        take(s, [e.tile]);
        break;
      default:
        break;
    }
    st.last = e;
  }
  return st;
}

function describe(e, players) {
  if (!e) return "";
  const who = e.seat === undefined || e.seat === null ? "" : players[e.seat] || `#${e.seat}`;
  const bits = [who, e.type];
  for (const k of ["tile", "meld", "kind", "gave", "got", "action", "how"]) if (e[k]) bits.push(String(e[k]));
  if (e.type === "win") bits.push(`${e.points} ${t("points")}`);
  return bits.filter(Boolean).join(" · ");
}

function renderReplay() {
  const R = S.replay;
  const rec = R.record;
  const events = rec.events || [];
  const players = rec.players || ["0", "1"];
  const st = replayState(events, R.step);
  const root = el("section", "replay");
  root.dataset.testid = "replay";
  const head = el("div", "replay-head");
  head.appendChild(el("h2", "", `${t("replay")} · ${rec.room || rec.rules}`));
  head.appendChild(el("span", "muted", t("step", { n: R.step, m: events.length })));
  root.appendChild(head);
  for (const seat of [1, 0]) {
    const box = el("div", "replay-seat");
    const who = el("div", "who");
    who.appendChild(el("span", "wind", windName(st.winds[seat] ?? 0)));
    if (st.dealer === seat) who.appendChild(el("span", "badge dealer", t("dealer")));
    who.appendChild(el("span", "name", players[seat]));
    box.appendChild(who);
    const row = el("div", "handrow");
    for (const m of parseMelds(st.melds[seat])) {
      const g = el("span", "meld");
      m.tiles.forEach((x) => g.appendChild(tileImg(x, "xs")));
      row.appendChild(g);
    }
    row.appendChild(tileRow(sortTiles(st.hands[seat]), "sm"));
    box.appendChild(row);
    const river = el("div", "river");
    st.rivers[seat].forEach((x) => river.appendChild(tileImg(x, "xs")));
    box.appendChild(river);
    root.appendChild(box);
  }
  const info = el("div", "replay-info");
  info.appendChild(el("span", "", `${t("wall")} ${st.wall}`));
  if (st.revealed.length) info.appendChild(tileRow(st.revealed, "xs"));
  info.appendChild(el("span", "event", describe(st.last, players)));
  root.appendChild(info);
  const bar = el("div", "row replay-bar");
  const go = (n) => {
    R.step = Math.max(0, Math.min(events.length, n));
    render();
  };
  bar.appendChild(btn("⏮", "ghost", () => go(0)));
  bar.appendChild(btn(`◀ ${t("prev")}`, "", () => go(R.step - 1), "replay-prev"));
  bar.appendChild(
    btn(R.timer ? `⏸ ${t("pause")}` : `▶ ${t("play")}`, "go", () => {
      if (R.timer) {
        clearInterval(R.timer);
        R.timer = null;
      } else {
        R.timer = setInterval(() => {
          if (R.step >= events.length || S.screen !== "replay") {
            clearInterval(R.timer);
            R.timer = null;
          } else go(R.step + 1);
        }, 350);
      }
      render();
    }, "replay-play"),
  );
  bar.appendChild(btn(`${t("next")} ▶`, "", () => go(R.step + 1), "replay-next"));
  bar.appendChild(btn("⏭", "ghost", () => go(events.length)));
  const slider = el("input", "slider");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(events.length);
  slider.value = String(R.step);
  slider.addEventListener("input", () => go(Number(slider.value)));
  root.appendChild(slider);
  root.appendChild(bar);
  root.appendChild(btn(t("close"), "ghost", () => {
    clearInterval(R.timer);
    S.screen = R.back === "settle" && S.end ? "settle" : "lobby";
    S.replay = null;
    if (S.screen === "lobby") toLobby();
    else render();
  }, "replay-close"));
  return root;
}

// ---------------------------------------------------------------------------------- render

function render() {
  renderTop();
  let screen;
  if (S.screen === "table" && S.match) screen = renderTableScreen();
  else if (S.screen === "settle" && S.end) screen = renderSettle();
  else if (S.screen === "replay" && S.replay) screen = renderReplay();
  else screen = renderLobby();
  document.body.dataset.screen = S.screen;
  app.replaceChildren(screen);
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

window.erma = { state: S, render, act, replayState, myTiles };
start();
